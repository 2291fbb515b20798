import CraveyTestSupport
import Foundation
import XCTest

/// What outside probes found in days that are known and the withdrawal check, on a clock started
/// at Nov 20, 2026, 12:00 (UTC): `check` names an answer that still stands on a day of use (and
/// withdraws it as the use does) and answers or checks dated before tracking began (kept); a use
/// on a day not remembered says the mark is withdrawn; "don't remember" has no memory note; a
/// day far back is said with its year; `--library ~/…` is under `$HOME`.
final class DayFindingsTests: FindingsTestCase {
    func testCheckWithdrawsAnAnswerThatStillStandsOnADayOfUse() throws {
        try run(["craving", "4", "--at", "2026-11-10 09:00"])
        try run(["today", "--none", "--date", "2026-11-18"])
        let used = try run(["use", "vape", "2", "--at", "2026-11-18 20:00", "--json"])
        let use = try XCTUnwrap(try jsonObject(used.stdout)["id"] as? String)
        XCTAssertEqual(try sql("SELECT withdrawnBy FROM dayMark"), use, "the use withdrew it")
        // Written back from outside: the answer stands again on a day with a use.
        try sql("UPDATE dayMark SET withdrawnBy = NULL")

        let checked = try run(["check"], status: 1)
        XCTAssertTrue(
            checked.stdout.contains(
                "a day's answer still stands on a day with a use logged (run 'cravey check --repair'): the answer 'no use' for 2026-11-18, a day with a use logged"
            ), checked.stdout)
        let repaired = try run(["check", "--repair"])
        XCTAssertTrue(
            repaired.stdout.contains(
                "withdrew a day's answer, as the use logged on that day does: the answer 'no use' for 2026-11-18"),
            repaired.stdout)
        XCTAssertEqual(try sql("SELECT withdrawnBy FROM dayMark"), use, "withdrawn by that use, as logging it does")
        XCTAssertTrue(try run(["check"]).stdout.contains("Library OK"))
        let report = try jsonObject(try run(["report", "--json", "--from", "2026-11-18"]).stdout)
        let days = try XCTUnwrap(report["days"] as? [[String: Any]])
        XCTAssertEqual(days.first?["kind"] as? String, "used", "the day is a day of use")
    }

    func testCheckNamesAnswersAndChecksDatedBeforeTrackingBeganAndKeepsThem() throws {
        try run(["settings", "goal", "quit"])
        try run(["use", "vape", "2", "--at", "2026-11-16 20:00"])
        try run(["withdrawal", "3,5,2,0,4,6"])
        // Written from outside: an answer and a check for days before anything was tracked.
        try sql(
            "INSERT INTO dayMark (day, answer, markedAt) VALUES ('2026-11-01', 'none', '2026-11-20T10:00:00.000Z'), ('2026-11-03', 'unknown', '2026-11-20T10:00:00.000Z')"
        )
        try sql(
            "INSERT INTO withdrawalCheck (day, sleep, irritability, anxiety, appetite, dreams, craving, checkedAt) VALUES ('2026-11-02', 1, 2, 3, 4, 5, 6, '2026-11-20T10:00:00.000Z')"
        )
        let checked = try run(["check"])
        for line in [
            "kept, though dated before tracking began: the answer 'no use' for 2026-11-01; tracking began 2026-11-16",
            "kept, though dated before tracking began: the answer 'don't remember' for 2026-11-03; tracking began 2026-11-16",
            "kept, though dated before tracking began: the withdrawal check of 2026-11-02; tracking began 2026-11-16",
        ] {
            XCTAssertTrue(checked.stdout.contains(line), "'\(line)' not in\n\(checked.stdout)")
        }
        XCTAssertTrue(checked.stdout.contains("Library OK"), "a note, not a problem: \(checked.stdout)")
        XCTAssertFalse(checked.stdout.contains("2026-11-20;"), "today's check is after: \(checked.stdout)")
        try run(["check", "--repair"])
        XCTAssertEqual(try sql("SELECT count(*) FROM dayMark"), "2", "kept")
        XCTAssertEqual(try sql("SELECT count(*) FROM withdrawalCheck"), "2", "kept")
    }

    func testAUseOnADayNotRememberedSaysTheMarkIsWithdrawn() throws {
        try run(["craving", "4", "--at", "2026-11-10 09:00"])
        try run(["today", "--dont-remember", "--date", "2026-11-15"])
        let used = try run(["use", "vape", "2", "--at", "2026-11-15 20:00"])
        XCTAssertEqual(
            used.stderr,
            "Nov 15 was marked as not remembered; that mark is withdrawn now that a use is logged on it.\n")
        try run(["today", "--dont-remember"])
        XCTAssertEqual(
            try run(["use", "vape", "1", "--at", "11:00"]).stderr,
            "Today was marked as not remembered; that mark is withdrawn now that a use is logged on it.\n")
    }

    func testDontRememberHasNoMemoryNote() throws {
        try run(["craving", "4", "--at", "2026-11-01 09:00"])
        let forgotten = try run(["today", "--dont-remember", "--date", "2026-11-05"])
        XCTAssertTrue(forgotten.stdout.hasPrefix("Nov 5: not remembered ✓"), forgotten.stdout)
        XCTAssertEqual(forgotten.stderr, "", "no note that memory fades for 'I don't remember'")
        let confirmed = try run(["today", "--none", "--date", "2026-11-06"])
        XCTAssertEqual(confirmed.stderr, "Memory may be less reliable for events more than 7 days ago\n")
    }

    func testADayFarBackIsSaidWithItsYear() throws {
        try run(["settings", "goal", "quit"])
        try run(["use", "vape", "2", "--at", "2025-08-09 20:00"])
        let shown = try run(["withdrawal"]).stdout
        XCTAssertTrue(
            shown.hasPrefix(
                "Your last logged use was 468 days ago (Aug 9, 2025); the check is for days 1–14 after it."),
            shown)
        let refused = try run(["withdrawal", "3,5,2,0,4,6"], status: 1)
        XCTAssertTrue(refused.stderr.contains("468 days ago (Aug 9, 2025)"), refused.stderr)
        try run(["use", "vape", "2", "--at", "2026-01-24 20:00"])
        XCTAssertTrue(
            try run(["withdrawal"]).stdout.hasPrefix("Your last logged use was 300 days ago (Jan 24);"),
            "300 days: without its year")
    }

    func testALibraryUnderTildeIsUnderHOME() throws {
        let home = base + "/home"
        XCTAssertEqual(mkdir(home, 0o700), 0)
        let name = "cravey-tilde-\(UUID().uuidString.prefix(8))"
        // Were `~` read from the password database, the library would be made in root's home.
        let account = NSHomeDirectoryForUser("root").map { $0 + "/" + name }
        defer { if let account { try? FileManager.default.removeItem(atPath: account) } }
        let result = try runProcess(
            cravey, ["craving", "4", "--library", "~/" + name], environment: env(["HOME": home]))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/" + name + "/library.sqlite"), "under $HOME")
        if let account, account != home + "/" + name {
            XCTAssertFalse(FileManager.default.fileExists(atPath: account), "not under the account's home")
        }
    }
}
