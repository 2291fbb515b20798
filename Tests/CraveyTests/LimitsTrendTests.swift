import CraveyTestSupport
import Foundation
import XCTest

/// The limits' two review findings, through the binary: the trend judges a week only from the
/// week the target was set, and a week with nothing logged is said as such, not as within; the
/// planned hours across midnight run by the clock to their end.
final class LimitsTrendTests: CommandTestCase {
    @discardableResult
    func run(_ arguments: [String], at now: String = "2026-11-25T12:00:00") throws -> String {
        try runClocked(arguments, now: now).stdout
    }

    func limits(_ arguments: [String] = []) throws -> [String: Any] {
        try XCTUnwrap(try jsonObject(try run(["progress", "--json"] + arguments))["limits"] as? [String: Any])
    }

    /// Cut-down, at most 2 days of use a week, set on Tue Nov 10; today Wed Nov 25. Three days of
    /// use (Nov 2–4) came before the target; Nov 9–15 has nothing logged; Nov 16–22 a craving and
    /// no use: one judged week, within (13%), one said as having nothing logged.
    func testAWeekBeforeTheTargetIsNotJudgedAndAnEmptyWeekIsNotWithin() throws {
        try run(["settings", "goal", "cut-down"])
        for day in ["02", "03", "04"] { try run(["use", "vape", "2", "--at", "2026-11-\(day) 20:00"]) }
        try run(["craving", "6", "--at", "2026-11-17 20:00"])
        try run(["limit", "week", "2"], at: "2026-11-10T12:00:00")
        let limits = try limits()
        let weeks = try XCTUnwrap(limits["weeks"] as? [[String: Any]])
        XCTAssertEqual(weeks.map { $0["start"] as? String }, ["2026-11-09", "2026-11-16"])
        XCTAssertEqual(weeks.map { $0["logged"] as? Bool }, [false, true])
        XCTAssertEqual(weeks.map { $0["within"] is NSNull }, [true, false])
        XCTAssertEqual(limits["strengthPercent"] as? Int, 13)
        let progress = try run(["progress"])
        XCTAssertTrue(
            progress.contains("Within target: 13% (smoothed) · 1 of the last 2 weeks · 1 with nothing logged"), progress
        )
        XCTAssertTrue(progress.contains("This week so far: nothing logged yet"), progress)
    }

    /// Harm reduction, bowls up to 1 a day, 20:00–02:00: 23:00 fits, and 01:00 that night is the
    /// evening's second, over the amount (not a new day's first): 1 of 2 uses as planned.
    func testPlannedHoursAcrossMidnightRunToTheirEnd() throws {
        try run(["settings", "goal", "harm-reduction"])
        try run(["limit", "plan", "--methods", "bowls", "--per-day", "1", "--hours", "20-2"])
        for at in ["2026-11-23 23:00", "2026-11-24 01:00"] {
            try run(["use", "bowls", "1", "--at", at])
        }
        let planned = try XCTUnwrap(try limits()["asPlanned"] as? [String: Any])
        XCTAssertEqual(planned["asPlanned"] as? Int, 1)
        XCTAssertEqual(planned["uses"] as? Int, 2)
        XCTAssertTrue(try run(["progress"]).contains("1 of 2 uses as planned"))
    }
}
