import CraveyTestSupport
import Foundation
import XCTest

/// Limits in a real terminal (tmux) on a clock started at Wed Nov 25, 2026, 21:30 (UTC), a break
/// window 21:00–23:00: home's `l` only for cutting down and harm reduction (or when asked), the
/// limits screen at 60x12 and 80x24 (a window added and removed, a target set), and home's `u` in
/// the window — the question asked once, `o` going to the ride, Enter going on to the form and
/// logging the use: never refused. `cravey use` on a terminal asks the same.
final class LimitScreenTests: CommandTestCase {
    static let now = "2026-11-25T21:30:00"

    func start(_ arguments: String, width: Int, height: Int, now: String = LimitScreenTests.now) throws
        -> TmuxSession
    {
        try tmuxClocked(arguments, now: now, width: width, height: height)
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> String { try runClocked(arguments, now: Self.now).stdout }

    func uses() throws -> String {
        try runProcess("/usr/bin/sqlite3", [root + "/library.sqlite", "SELECT count(*) FROM usage"]).stdout
    }

    /// Goal chosen, past the first run, a break window 21:00–23:00 when limits fit the goal.
    func tracked(goal: String = "cut-down") throws {
        try run(["settings", "goal", goal])
        try pastFirstRun()
        if goal == "cut-down" || goal == "harm-reduction" { try run(["limit", "break", "add", "21:00-23:00"]) }
    }

    func testTheLimitsScreenFitsFromHome() throws {
        try tracked()
        for (width, height) in [(60, 12), (80, 24)] {
            let tmux = try start("home", width: width, height: height)
            defer { tmux.close() }
            let home = try tmux.waitFor("LOG CRAVING")
            XCTAssertTrue(home.contains("l 🧭 Limits"), "\(width)x\(height): home's key\n\(home)")
            try tmux.send("l", literal: true)
            let screen = try tmux.waitFor("they ask, never block")
            for part in ["🧭 Limits", "1  21:00–23:00", "b add a break window", "Esc back"] {
                XCTAssertTrue(screen.contains(part), "\(width)x\(height): '\(part)' not in\n\(screen)")
            }
            try tmux.send("b", literal: true)
            try tmux.waitFor("for example 21:00-23:00")
            try tmux.send("07:00-09:00", literal: true)
            try tmux.send("Enter")
            let added = try tmux.waitFor("Break window 07:00–09:00 ✓")
            XCTAssertTrue(added.contains("🧭 Limits"), "the title stays in view:\n\(added)")
            try tmux.send("b", literal: true)
            try tmux.waitFor("for example 21:00-23:00")
            try tmux.send("25:00", literal: true)
            try tmux.send("Enter")
            try tmux.waitFor("give the window as")
            try tmux.send("w", literal: true)
            try tmux.waitFor("Days of use a week")
            try tmux.send("3", literal: true)
            try tmux.send("Enter")
            try tmux.waitFor("at most 3 days of use a week ✓")
            try tmux.send("d", literal: true)
            try tmux.waitFor("Remove a break window")
            try tmux.send("1", literal: true)
            try tmux.waitFor("Removed the break window 07:00–09:00.")
            try tmux.send("Escape")
            try tmux.waitFor("LOG CRAVING")
            try tmux.send("q", literal: true)
            try tmux.waitFor("EXIT=0")
        }
        let shown = try jsonObject(try run(["limit", "--json"]))
        XCTAssertEqual(shown["breaks"] as? [String], ["21:00-23:00"])
    }

    func testAUseInABreakWindowAsksOnceAndIsNeverRefused() throws {
        try tracked()
        for (width, height) in [(60, 12), (80, 24)] {
            let tmux = try start("home", width: width, height: height)
            defer { tmux.close() }
            try tmux.waitFor("LOG CRAVING")
            // o: the ride, one key away; leaving at its question logs nothing.
            try tmux.send("u", literal: true)
            let asked = try tmux.waitFor("This is one of your break hours")
            for part in ["A break hour", "21:00–23:00", "o ride it out", "p play a message", "Enter log the use"] {
                XCTAssertTrue(asked.contains(part), "\(width)x\(height): '\(part)' not in\n\(asked)")
            }
            try tmux.send("o", literal: true)
            try tmux.waitFor("How strong is it?")
            try tmux.send("Escape")
            try tmux.waitFor("Nothing was logged.")
            // Going on: the form, then the use logged — the question is not asked again.
            try tmux.send("u", literal: true)
            try tmux.waitFor("This is one of your break hours")
            try tmux.send("Enter")
            try tmux.waitFor("Log Usage")
            let form = try tmux.screen()
            XCTAssertFalse(form.contains("This is one of your break hours"), "asked once:\n\(form)")
            try tmux.send("Enter")
            let deadline = Date() + 20
            var after = try tmux.screen()
            while !after.contains("link them") && !after.contains("Usage logged ✓") && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.2)
                after = try tmux.screen()
            }
            if after.contains("link them") { try tmux.send("Enter") }
            let logged = try tmux.waitFor("Usage logged ✓")
            XCTAssertTrue(logged.contains("LOG CRAVING"), "\(width)x\(height): home again\n\(logged)")
            try tmux.send("q", literal: true)
            try tmux.waitFor("EXIT=0")
        }
        XCTAssertEqual(try uses(), "2\n", "a use a size, never refused")

        // `cravey use` on a terminal asks the same; Esc logs nothing, Enter goes on to the form.
        let command = try start("use", width: 80, height: 24)
        defer { command.close() }
        try command.waitFor("Ride it out first?")
        try command.send("Escape")
        try command.waitFor("Nothing was logged.")
        try command.waitFor("EXIT=0")
        XCTAssertEqual(try uses(), "2\n")
    }

    /// Absent for the goal to quit, until asked; outside a window `u` goes straight to the form.
    func testNoKeyAndNoQuestionForOtherGoals() throws {
        try tracked(goal: "quit")
        let quit = try start("home", width: 80, height: 24)
        defer { quit.close() }
        XCTAssertFalse(try quit.waitFor("LOG CRAVING").contains("Limits"))
        try quit.send("l", literal: true)
        try quit.waitFor("Limits are for cutting down and harm reduction")
        try quit.send("q", literal: true)
        try quit.waitFor("EXIT=0")

        try run(["limit", "--offer", "any-goal"])
        try run(["limit", "break", "add", "21:00-23:00"])
        let asked = try start("home", width: 60, height: 12, now: "2026-11-25T20:00:00")
        defer { asked.close() }
        XCTAssertTrue(try asked.waitFor("LOG CRAVING").contains("l 🧭 Limits"), "offered when asked")
        try asked.send("u", literal: true)
        let form = try asked.waitFor("Log Usage")
        XCTAssertFalse(form.contains("break hours"), "20:00 is outside the window")
        try asked.send("Escape")
        try asked.waitFor("LOG CRAVING")
        try asked.send("q", literal: true)
        try asked.waitFor("EXIT=0")
    }
}
