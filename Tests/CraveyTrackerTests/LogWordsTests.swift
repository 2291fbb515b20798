@testable import CraveyTracker
import Foundation
import XCTest

/// The one line a save says, the singular for one, and the likely time offered for a clock that
/// has not come yet today.
final class LogWordsTests: XCTestCase {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func date(_ text: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = berlin
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.date(from: text)!
    }

    func time(_ text: String) -> LogTime { LogTime(date(text + ":00"), in: berlin) }

    func testTheSavedLineNamesWhatWasKept() {
        let now = date("2026-11-23 22:00:00")
        let craving = Craving(
            id: UUID(), time: time("2026-11-23 21:52"), intensity: 8, triggers: [], location: nil, notes: nil,
            recordingId: nil, createdAt: now, modifiedAt: now)
        XCTAssertEqual(
            LogWords.saved(.craving(craving), now: now, timeZone: berlin), "Craving logged ✓ — 8 (strong), 21:52")
        func use(_ method: CraveyTracker.Method, _ amount: Double, _ at: String) -> String {
            LogWords.saved(
                .use(
                    Usage(
                        id: UUID(), time: time(at), method: method, amount: amount, triggers: [], location: nil,
                        notes: nil,
                        moodAfter: nil, cravingId: nil, createdAt: now, modifiedAt: now)), now: now, timeZone: berlin)
        }
        XCTAssertEqual(use(.vape, 3, "2026-11-22 21:30"), "Usage logged ✓ — vape, 3 pulls, yesterday 21:30")
        XCTAssertEqual(use(.edible, 100, "2026-11-23 08:00"), "Usage logged ✓ — edible, 100 mg THC, 08:00")
        XCTAssertEqual(use(.bowls, 1, "2026-11-01 20:15"), "Usage logged ✓ — 1 bowl/joint, 2026-11-01 20:15")
        XCTAssertEqual(use(.dab, 1, "2026-11-23 21:00"), "Usage logged ✓ — 1 dab, 21:00")
        XCTAssertEqual(LogWords.note(time("2026-11-10 10:00"), now: now), LogTime.oldWarning)
        XCTAssertNil(LogWords.note(time("2026-11-20 10:00"), now: now))
    }

    func testOneIsSingular() {
        XCTAssertEqual(CraveyTracker.Method.vape.amountText(1), "1 pull")
        XCTAssertEqual(CraveyTracker.Method.dab.amountText(1), "1 dab")
        XCTAssertEqual(CraveyTracker.Method.bowls.amountText(1), "1 bowl/joint")
        XCTAssertEqual(CraveyTracker.Method.bowls.amountText(0.5), "0.5 bowls/joints")
        XCTAssertEqual(CraveyTracker.Method.vape.amountText(2), "2 pulls")
        XCTAssertEqual(CraveyTracker.Method.edible.amountText(5), "5 mg THC")
        XCTAssertEqual(CraveyTracker.Method.vape.unit, "pulls", "the form's label and the export's unit stay plural")
    }

    func testALaterClockSuggestsYesterdays() {
        for typed in ["23:30", "today 23:30"] {
            XCTAssertThrowsError(try LogTime.parse(typed, now: date("2026-11-23 20:30:00"), timeZone: berlin)) {
                error in
                XCTAssertTrue("\(error)".hasSuffix("is later than now; did you mean yesterday 23:30?"), "\(error)")
            }
        }
        XCTAssertThrowsError(try LogTime.parse("2026-11-24 08:00", now: date("2026-11-23 20:30:00"), timeZone: berlin))
        { error in
            XCTAssertFalse("\(error)".contains("did you mean"), "a date typed is meant: \(error)")
        }
    }
}
