import CraveyLibrary
import CraveyTestSupport
import Foundation
import XCTest

@testable import cravey

/// `cravey status` shows a milestone only on the day it is first reached, whether home or
/// progress has stored it yet or not; its --json tooltip and class and --format's {milestone}
/// say the same, home's note gives an earlier one once with its day, and progress lists it with
/// that day. Quitting: a use on Nov 7, one every evening Nov 15–18, a craving at 17:30 on Nov 19,
/// seen at 18:00 that day (UTC).
final class StatusMilestoneDayTests: CommandTestCase {
    /// The guides' `evenings` library, before its look at progress.
    let evenings = GuideQuotesTests.fixtures["evenings"]!
    /// The moment the fixture is seen at.
    let now = Date(timeIntervalSince1970: 1_795_111_200)

    @discardableResult
    func run(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try runProcess(cravey, arguments + ["--library", root], environment: evenings.environment)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        return result.stdout
    }

    func logEvenings() throws {
        XCTAssertEqual(evenings.commands.last, ["progress"])
        for arguments in evenings.commands.dropLast() { try run(arguments) }
    }

    /// Every surface of status, as one text.
    func statusSurfaces() throws -> [String] {
        let module = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(try run(["status", "--json"]).utf8)) as? [String: Any])
        return [
            try run(["status"]), try run(["status", "--format", "[{milestone}]"]),
            module["tooltip"] as? String ?? "", module["class"] as? String ?? "",
        ]
    }

    func testAMilestoneFirstReachedOnAnEarlierDayIsNotNew() throws {
        try logEvenings()
        let expected = [
            "🌱 Day 13 · 1 day since use · 1 craving today, still open\n", "[]\n",
            "Day 13 in progress\n1 day since your last use\n1 craving today, still open", "progress",
        ]
        // Before home or progress stored it, and after.
        XCTAssertEqual(try statusSurfaces(), expected)
        let progress = try run(["progress"])
        XCTAssertTrue(progress.contains("🌿 1 day since your last use  Nov 8"), progress)
        XCTAssertEqual(try statusSurfaces(), expected)
        // Home's note: the newest not shown yet, once, with the day it was reached.
        let lib = try Library(root: root)
        XCTAssertEqual(Home.newMilestone(lib, now: now), "🌿 7 days since your last use — reached Nov 14")
        XCTAssertEqual(try statusSurfaces(), expected)
    }

    /// With the use on Nov 7 left out, one day since the last use is first reached today: new.
    func testAMilestoneFirstReachedTodayIsNew() throws {
        try run(["settings", "goal", "quit"])
        for day in 15...18 { try run(["use", "joints", "1", "--at", "2026-11-\(day) 21:00"]) }
        XCTAssertEqual(try run(["status"]), "🌱 Day 5 · 1 day since use · 🏅 1 day since your last use\n")
    }

    /// The use on Nov 7 logged while another process held the library: status counts the logs
    /// kept meanwhile, so it still says no milestone.
    func testAUseKeptWhileTheLibraryWasHeldCounts() throws {
        try run(["settings", "goal", "quit"])
        for day in 15...18 { try run(["use", "joints", "1", "--at", "2026-11-\(day) 21:00"]) }
        let holder = try holdLibraryLock(root: root)
        defer {
            holder.terminate()
            holder.waitUntilExit()
        }
        try run(["use", "vape", "2", "--at", "2026-11-07 20:00"])
        XCTAssertGreaterThan(
            (try? FileManager.default.attributesOfItem(atPath: root + "/logs.waiting")[.size] as? Int) ?? 0, 0,
            "the use waits for the library")
        XCTAssertEqual(try run(["status"]), "🌱 Day 13 · 1 day since use\n")
    }
}
