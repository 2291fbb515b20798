import CraveyTracker
import Foundation
import XCTest

/// Log values as typed: each read into its type, or refused naming the log's field and quoting
/// what was typed.
final class LogInputTests: XCTestCase {
    func refusal(_ body: () throws -> Any?) -> (field: String, reason: String)? {
        do {
            _ = try body()
        } catch let TrackerError.invalid(field, reason) {
            return (field, reason)
        } catch {
            XCTFail("not a refusal: \(error)")
        }
        return nil
    }

    func testNumbersMethodsAndAmounts() throws {
        XCTAssertEqual(try LogInput.intensity(" 7 "), 7)
        XCTAssertEqual(refusal { try LogInput.intensity("11") }?.field, "intensity")
        XCTAssertEqual(refusal { try LogInput.intensity("11") }?.reason, "'11' is not a whole number from 1 to 10")
        XCTAssertEqual(try LogInput.moodAfter("10"), 10)
        XCTAssertEqual(refusal { try LogInput.moodAfter("0") }?.field, "mood after")
        XCTAssertNil(try LogInput.clearing("None", LogInput.moodAfter), "'none' clears")
        XCTAssertEqual(try LogInput.clearing("3", LogInput.moodAfter), 3)
        XCTAssertEqual(
            refusal { try LogInput.wholeNumber("4", field: "--play", in: 1...3) }?.field, "--play",
            "a caller's own field")
        XCTAssertEqual(try LogInput.method("Joints"), .bowls)
        XCTAssertEqual(
            refusal { try LogInput.method("pipe") }?.reason,
            "'pipe' is not one of bowls (joints, blunts), vape, dab, edible")
        XCTAssertEqual(try LogInput.amount("1.5", of: .bowls), 1.5)
        XCTAssertEqual(
            refusal { try LogInput.amount("7", of: .edible) }?.reason,
            "'7' is not an amount of edible (5–100 mg THC in steps of 5)")
        XCTAssertEqual(refusal { try LogInput.amount("nan", of: .vape) }?.field, "amount")
    }

    func testTriggersPlacesAndTimes() throws {
        XCTAssertEqual(try LogInput.triggers(["Bored, anxious", "tired"]), [.bored, .anxious, .tired])
        XCTAssertEqual(try LogInput.triggers(["none"]), [])
        XCTAssertEqual(refusal { try LogInput.triggers(["bored,hangry"]) }?.field, "trigger")
        XCTAssertEqual(try LogInput.location("Home"), .home)
        XCTAssertNil(try LogInput.location("none"))
        XCTAssertNil(try LogInput.location(nil))
        XCTAssertEqual(
            refusal { try LogInput.location("moon") }?.reason, "'moon' is not one of home, work, social, outside, car")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        XCTAssertEqual(try LogInput.time(nil, now: now).instant, now, "now when none is given")
        XCTAssertEqual(try LogInput.time("-2h", now: now).instant, now.addingTimeInterval(-7_200))
        XCTAssertEqual(try LogInput.since("7d", now: now), now.addingTimeInterval(-7 * 86_400))
        XCTAssertEqual(refusal { try LogInput.since("soon", now: now) }?.field, "since")
    }

    /// A new method starts at its first amount; the same method keeps its amount.
    func testANewMethodStartsAtItsFirstAmount() {
        XCTAssertEqual(CraveyTracker.Method.edible.amount(switchingFrom: .bowls, amount: 2), 5)
        XCTAssertEqual(CraveyTracker.Method.vape.amount(switchingFrom: .edible, amount: 50), 1)
        XCTAssertEqual(CraveyTracker.Method.dab.amount(switchingFrom: .dab, amount: 3), 3)
    }
}
