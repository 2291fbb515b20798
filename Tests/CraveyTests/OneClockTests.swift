import CraveyTestSupport
import Foundation
import XCTest

/// One clock: with the test clock set (a Tuesday morning in March, Berlin), a use logged "now",
/// a craving, an imported message, and home's own forms all happen at that moment, and status,
/// the listings and home count them as today's. Before, the logs went by the real clock while
/// home and status went by the test clock, so they never met.
final class OneClockTests: CommandTestCase {
    let clock = ["CRAVEY_NOW": "2026-03-10T09:41:00", "TZ": "Europe/Berlin", "NO_COLOR": "1"]

    @discardableResult
    func run(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try runProcess(cravey, arguments + ["--library", root], environment: clock)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        return result.stdout
    }

    func testALogsNowAndTodayAreTheSameDay() throws {
        XCTAssertTrue(try run(["use", "joints", "1", "--at", "now"]).hasPrefix("Usage logged ✓ — 1 joint, 09:41\n"))
        XCTAssertTrue(try run(["craving", "6"]).hasPrefix("Craving logged ✓ — 6 (moderate), 09:41\n"))
        let tone = base + "/tone.wav"
        try makeToneWAV(tone, seconds: 2)
        let imported = try jsonObject(try run(["import", tone, "--json"]))
        XCTAssertEqual((imported["createdAt"] as? String)?.prefix(16), "2026-03-10T08:41", "09:41 in Berlin, in UTC")

        let logs = try XCTUnwrap(try json(try run(["log", "--json"])) as? [[String: Any]])
        XCTAssertEqual(logs.map { $0["localTime"] as? String }, ["2026-03-10 09:41", "2026-03-10 09:41"])
        let listed = try XCTUnwrap(try json(try run(["list", "--json"])) as? [[String: Any]])
        XCTAssertEqual(listed.map { ($0["createdAt"] as? String)?.prefix(16) }, ["2026-03-10T08:41"])
        // Both were logged at 09:41 by a clock that runs on from there: the craving is still open
        // when it came after the use (by the milliseconds each command took to start), and was
        // followed by the use otherwise. Held to the moments kept.
        let kept = try runProcess(
            "/usr/bin/sqlite3",
            [root + "/library.sqlite", "SELECT (SELECT at FROM craving) > (SELECT at FROM usage)"])
        let today = kept.stdout.hasPrefix("1") ? "1 craving today, still open" : "1 craving today"
        let status = try jsonObject(try run(["status", "--json"]))
        XCTAssertEqual(status["tooltip"] as? String, "Day 1 in progress\n\(today)\n🌱 1 day in progress")

        // Home: its day counts the logs above, and a use logged from its own form is at 09:41.
        let environment = (clock.merging(["CRAVEY_LIBRARY": root]) { $1 }).map { "\($0.key)=\(shellQuote($0.value))" }
        let home = try TmuxSession(
            "env \(environment.sorted().joined(separator: " ")) \(shellQuote(cravey)); echo EXIT=$?; sleep 30",
            width: 100, height: 32)
        defer { home.close() }
        try home.waitFor("Skip tour")
        try home.send("s", literal: true)
        try home.waitFor("cravey   Day 1")
        try home.send("u", literal: true)
        try home.waitFor("Enter: save")
        try home.send("Enter")
        try home.waitFor("Did this follow your craving at 09:41 (intensity 6)?")
        try home.send("Enter")
        try home.waitFor("Usage logged ✓ — 0.5 bowls/joints, 09:4")
        try home.send("q", literal: true)
        try home.waitFor("EXIT=0")
        let all = try XCTUnwrap(try json(try run(["log", "--json"])) as? [[String: Any]])
        XCTAssertEqual(all.compactMap { ($0["localTime"] as? String)?.prefix(15) }.count, 3)
        XCTAssertTrue(all.allSatisfy { ($0["localTime"] as? String)?.hasPrefix("2026-03-10 09:4") == true }, "\(all)")
    }

    /// A clock set after the real one: a log of "now" is kept (the rule that a log is of
    /// something that has happened goes by the same clock), and one later than it is refused.
    func testAClockAheadOfTheRealOneLogsNow() throws {
        let ahead = ["CRAVEY_NOW": "2030-01-15T10:00:00", "TZ": "Europe/Berlin", "NO_COLOR": "1"]
        let logged = try runProcess(cravey, ["craving", "5", "--library", root], environment: ahead)
        XCTAssertEqual(logged.status, 0, logged.stderr)
        XCTAssertTrue(logged.stdout.hasPrefix("Craving logged ✓ — 5 (moderate), 10:00\n"), logged.stdout)
        let later = try runProcess(
            cravey, ["use", "vape", "2", "--at", "2030-01-15 11:00", "--library", root], environment: ahead)
        XCTAssertEqual(later.status, 1)
        XCTAssertTrue(later.stderr.contains("later than now"), later.stderr)
        XCTAssertEqual(later.stderr.split(separator: "\n").count, 1, later.stderr)
        let logs = try XCTUnwrap(
            try json(try runProcess(cravey, ["log", "--json", "--library", root], environment: ahead).stdout)
                as? [[String: Any]])
        XCTAssertEqual(logs.map { $0["localTime"] as? String }, ["2030-01-15 10:00"])
    }

    /// A milestone reached by the clock set after the real one is true for `check`: it is not
    /// taken for "a day that has not come yet" and `check --repair` keeps it.
    func testCheckHoldsMilestonesToTheSameClock() throws {
        let ahead = ["CRAVEY_NOW": "2030-01-15T10:00:00", "TZ": "Europe/Berlin", "NO_COLOR": "1"]
        func cravey(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            let result = try runProcess(self.cravey, arguments + ["--library", root], environment: ahead)
            return (result.status, result.stdout, result.stderr)
        }
        XCTAssertEqual(try cravey(["craving", "5", "--at", "2030-01-15 09:00"]).status, 0)
        let milestones = try XCTUnwrap(try jsonObject(try cravey(["progress", "--json"]).stdout)["milestones"])
        XCTAssertTrue("\(milestones)".contains("2030-01-15"), "a milestone reached today: \(milestones)")
        let checked = try cravey(["check"])
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
        XCTAssertFalse((checked.stdout + checked.stderr).contains("milestone"), checked.stdout)
        XCTAssertEqual(try cravey(["check", "--repair"]).status, 0)
        let after = try XCTUnwrap(try jsonObject(try cravey(["progress", "--json"]).stdout)["milestones"])
        XCTAssertEqual(after as? NSArray, milestones as? NSArray, "check --repair keeps it")
    }
}
