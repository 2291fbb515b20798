import CraveyTestSupport
import Foundation
import XCTest

/// A craving counts as resisted only once its 2 hours have passed with no use; until then it is
/// open, counted as neither, and the words say so. The clock is at 2026-10-12 12:00 in Berlin.
final class ResistedOnceItPassedTests: CommandTestCase {
    func run(_ arguments: [String], now: String = "2026-10-12T12:00:00") throws -> String {
        let environment = ["NO_COLOR": "1", "TZ": "Europe/Berlin", "CRAVEY_TRANSCRIBE": "later", "CRAVEY_NOW": now]
        let result = try runProcess(cravey, arguments + ["--library", root], environment: environment)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        return result.stdout
    }

    func tooltip(now: String = "2026-10-12T12:00:00") throws -> String {
        let object = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(try run(["status", "--json"], now: now).utf8))
                as? [String: Any])
        return try XCTUnwrap(object["tooltip"] as? String)
    }

    func testACravingAMinuteOldIsOpenNotResisted() throws {
        try run(["craving", "9", "--at", "2026-10-12 11:59"])
        XCTAssertEqual(try run(["status"]), "🌱 Day 1 · 1 craving today, still open · 🏅 1 day in progress\n")
        XCTAssertEqual(try run(["status", "--format", "{resisted}/{cravings}"]), "0/1\n")
        XCTAssertEqual(try tooltip(), "Day 1 in progress\n1 craving today, still open\n🌱 1 day in progress")
        let progress = try jsonObject(try run(["progress", "--json"]))
        let resisted = try XCTUnwrap(progress["resisted"] as? [String: Any])
        XCTAssertEqual(resisted["count"] as? Int, 0)
        XCTAssertEqual(resisted["open"] as? Int, 1)
        XCTAssertTrue(resisted["percent"] is NSNull, "no percent of cravings not yet passed")
        XCTAssertTrue(
            try run(["progress"]).contains(
                "1 craving still open — it counts as resisted once 2 hours pass without a use"))
        let milestones = try XCTUnwrap(progress["milestones"] as? [[String: Any]])
        XCTAssertFalse(milestones.contains { $0["kind"] as? String == "cravingsResisted" }, "\(milestones)")

        // Two hours later, with no use: resisted, everywhere.
        XCTAssertEqual(
            try run(["status"], now: "2026-10-12T14:00:00"), "🌱 Day 1 · 1 resisted today · 🏅 1 day in progress\n")
        XCTAssertEqual(
            try tooltip(now: "2026-10-12T14:00:00"),
            "Day 1 in progress\n1 of 1 craving resisted today\n🌱 1 day in progress")
        let later = try jsonObject(try run(["progress", "--json"], now: "2026-10-12T14:00:00"))
        XCTAssertEqual((later["resisted"] as? [String: Any])?["percent"] as? Int, 100)
    }

    func testAUseAfterItAndNoCravingNeverSayZeroOfZero() throws {
        try run(["craving", "9", "--at", "2026-10-12 11:00"])
        try run(["use", "vape", "3", "--at", "2026-10-12 11:30"])
        XCTAssertEqual(try tooltip(), "Day 1 in progress\n1 craving today\n🌱 1 day in progress")
        XCTAssertEqual(try run(["status"]), "🌱 Day 1 · 🏅 1 day in progress\n")
        // The next day: no craving today.
        let tooltip = try tooltip(now: "2026-10-13T12:00:00")
        XCTAssertEqual(
            tooltip,
            "Day 2 in progress\n1 day since your last use\nNo cravings logged today\n🌿 1 day since your last use")
        XCTAssertFalse(tooltip.contains("0 of"))
    }
}
