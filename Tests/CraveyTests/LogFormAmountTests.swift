import CraveyTracker
import TerminalKit
import XCTest

@testable import cravey

/// The use form's Amount, key by key: the number typed is the amount meant, not a step.
final class LogFormAmountTests: XCTestCase {
    /// The amount saved after choosing `method` and typing `keys` in Amount (nil: refused).
    func typed(_ keys: String, _ method: CraveyTracker.Method) -> Double? {
        var state = LogFormState(kind: .use)
        state.method = method
        state.focus = state.fields.firstIndex(of: .amount)!
        for c in keys { _ = state.apply(.character(c)) }
        return try? state.typedAmount()
    }

    func testTheNumberTypedIsTheAmount() {
        XCTAssertEqual(typed("2", .bowls), 2)
        XCTAssertEqual(typed("3", .bowls), 3)
        XCTAssertEqual(typed("2.5", .bowls), 2.5)
        XCTAssertEqual(typed("10", .edible), 10)
        XCTAssertEqual(typed("50", .edible), 50)
        XCTAssertEqual(typed("100", .edible), 100)
        XCTAssertEqual(typed("10", .vape), 10)
        XCTAssertNil(typed("0", .vape), "0 is not 10")
        XCTAssertNil(typed("9", .dab), "a dab of 9 is refused")
        XCTAssertNil(typed("7", .edible), "edibles go in fives")
    }

    func testArrowsAndLeavingTheFieldKeepWhatWasTyped() {
        var state = LogFormState(kind: .use)
        state.method = .edible
        state.focus = state.fields.firstIndex(of: .amount)!
        for c in "20" { _ = state.apply(.character(c)) }
        _ = state.apply(.right)
        XCTAssertEqual(try state.typedAmount(), 25, "the arrows step on from the number typed")
        for c in "15" { _ = state.apply(.character(c)) }
        _ = state.apply(.down)
        XCTAssertEqual(state.amountText, "", "a number the method offers becomes the chosen one")
        XCTAssertEqual(try state.typedAmount(), 15)
        _ = state.apply(.up)
        for c in "12" { _ = state.apply(.character(c)) }
        _ = state.apply(.down)
        XCTAssertThrowsError(try state.typedAmount(), "12 mg stays refused")
        XCTAssertTrue(
            state.lines(width: 100).contains {
                $0.contains("◀ 12 ▶  (mg THC)   not an amount of edible: 5–100 in fives")
            })
    }
}
