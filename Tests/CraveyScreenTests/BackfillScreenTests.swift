import CraveyTestSupport
import Foundation
import XCTest

/// Days that are known, in a real terminal (tmux) on a clock started at Nov 20, 2026, 12:00
/// (UTC): home's `n` (no use today) and `b` (the back-fill) at 60x12 and 80x24, and the back-fill
/// screen of `cravey today --backfill` at both sizes — one key a day, newest first, the use form
/// for a day of use, `q` leaving at any time with every answer kept.
final class BackfillScreenTests: CommandTestCase {
    let clock = "CRAVEY_NOW=2026-11-20T12:00:00"

    /// `cravey` with `arguments` in tmux at a size, the library `root`, NO_COLOR, in UTC.
    func start(_ arguments: String, width: Int, height: Int) throws -> TmuxSession {
        try TmuxSession(
            "cd \(shellQuote(base)) && env NO_COLOR=1 TZ=UTC \(clock) CRAVEY_TRANSCRIBE=later "
                + "ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) CRAVEY_LIBRARY=\(shellQuote(root)) "
                + "\(shellQuote(cravey)) \(arguments); echo EXIT=$?; sleep 60", width: width, height: height)
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let result = try runProcess(
            cravey, arguments + ["--library", root],
            environment: [
                "NO_COLOR": "1", "TZ": "UTC", "CRAVEY_TRANSCRIBE": "later", "CRAVEY_NOW": "2026-11-20T12:00:00",
            ])
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        return result.stdout
    }

    /// A library tracking since a craving on Nov 18, past its first run (as Skip tour leaves it).
    func tracked() throws {
        try run(["craving", "4", "--at", "2026-11-18 09:00"])
        let welcomed = try runProcess(
            "/usr/bin/sqlite3",
            [
                root + "/library.sqlite",
                "INSERT INTO setting (key, value) VALUES ('welcomed', '2026-11-20T08:00:00.000Z')",
            ])
        XCTAssertEqual(welcomed.status, 0, welcomed.stderr)
    }

    func unreported() throws -> [String] {
        try jsonObject(try run(["today", "--backfill", "--json"]))["notReported"] as? [String] ?? []
    }

    func testTheBackfillScreenFitsAndLeavesWithQ() throws {
        try tracked()
        for (width, height) in [(60, 12), (80, 24)] {
            let tmux = try start("today --backfill", width: width, height: height)
            defer { tmux.close() }
            let screen = try tmux.waitFor("Back-fill days")
            for part in ["day 1 of 3, newest first", "Friday, Nov 20, 2026", "n No use", "u I used", "q Leave"] {
                XCTAssertTrue(screen.contains(part), "\(width)x\(height): '\(part)' not in\n\(screen)")
            }
            try tmux.send("s", literal: true)
            try tmux.waitFor("Thursday, Nov 19, 2026")
            try tmux.send("q", literal: true)
            let left = try tmux.waitFor("EXIT=0")
            XCTAssertTrue(left.contains("Back-fill: nothing changed."), left)
        }
        XCTAssertEqual(try unreported(), ["2026-11-20", "2026-11-19", "2026-11-18"], "a skip answers nothing")
    }

    func testHomesKeysAnswerTodayAndBackfillTheRest() throws {
        try tracked()
        let small = try start("home", width: 60, height: 12)
        defer { small.close() }
        let fits = try small.waitFor("LOG CRAVING")
        for part in ["n No use today", "b Back-fill", "s ⚙️ Settings", "q Quit"] {
            XCTAssertTrue(fits.contains(part), "60x12: '\(part)' not in\n\(fits)")
        }
        try small.send("q", literal: true)
        try small.waitFor("EXIT=0")

        let tmux = try start("home", width: 80, height: 24)
        defer { tmux.close() }
        try tmux.waitFor("LOG CRAVING")
        try tmux.send("n", literal: true)
        let marked = try tmux.waitFor("No use today ✓")
        XCTAssertTrue(marked.contains("n ✓ No use today"), marked)
        try tmux.send("b", literal: true)
        var screen = try tmux.waitFor("Back-fill days")
        XCTAssertTrue(screen.contains("Thursday, Nov 19, 2026"), "newest first, today answered:\n\(screen)")
        try tmux.send("d", literal: true)
        screen = try tmux.waitFor("Wednesday, Nov 18, 2026")
        XCTAssertTrue(screen.contains("Yesterday: not remembered ✓"), screen)
        try tmux.send("u", literal: true)
        screen = try tmux.waitFor("Log Usage")
        XCTAssertTrue(screen.contains("2026-11-18 12:00"), "the form is for that day:\n\(screen)")
        try tmux.send("Enter")
        screen = try tmux.waitFor("Back-fill: 1 day answered, 1 use logged ✓")
        XCTAssertTrue(screen.contains("LOG CRAVING"), "back home:\n\(screen)")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")

        XCTAssertEqual(try unreported(), [])
        let uses = try json(try run(["log", "--use", "--json"])) as? [[String: Any]] ?? []
        XCTAssertEqual(uses.count, 1)
        XCTAssertEqual(
            try jsonObject(try run(["today", "--date", "2026-11-19", "--json"]))["kind"] as? String, "dontRemember")
        XCTAssertEqual(try jsonObject(try run(["today", "--date", "2026-11-18", "--json"]))["kind"] as? String, "used")
    }

    /// A use logged from home's form on a day answered "no use" withdraws the answer, said in
    /// home's note after what was logged.
    func testAUseFromHomeWithdrawsTodaysAnswer() throws {
        try tracked()
        try run(["today", "--none"])
        let tmux = try start("home", width: 80, height: 24)
        defer { tmux.close() }
        try tmux.waitFor("n ✓ No use today")
        try tmux.send("u", literal: true)
        try tmux.waitFor("Log Usage")
        try tmux.send("Enter")
        let note = try tmux.waitFor("that mark is withdrawn")
        XCTAssertTrue(note.contains("Usage logged ✓"), note)
        XCTAssertTrue(note.contains("Today was marked as a day without"), note)
        XCTAssertTrue(note.contains("n No use today"), "no longer answered:\n\(note)")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        XCTAssertEqual(try jsonObject(try run(["today", "--json"]))["kind"] as? String, "used")
    }
}
