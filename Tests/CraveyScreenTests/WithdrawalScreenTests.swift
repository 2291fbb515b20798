import CraveyTestSupport
import Foundation
import XCTest

/// The withdrawal check in a real terminal (tmux) on a clock started at Nov 20, 2026, 12:00
/// (UTC), the last use Nov 17 (today is day 3): home's `w` shown only in days 1–14 for the goal
/// to quit, the check's screen at 60x12 and 80x24 (one key a symptom, `t` for 10, Backspace a
/// step back, `q` leaving with nothing kept), and the check kept from home.
final class WithdrawalScreenTests: CommandTestCase {
    static let now = "2026-11-20T12:00:00"

    func start(_ arguments: String, width: Int, height: Int, now: String = WithdrawalScreenTests.now) throws
        -> TmuxSession
    {
        try tmuxClocked(arguments, now: now, width: width, height: height)
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> String { try runClocked(arguments, now: Self.now).stdout }

    /// The last use Nov 17, the goal chosen, past its first run.
    func tracked(goal: String = "quit") throws {
        try run(["use", "vape", "2", "--at", "2026-11-17 21:00"])
        try run(["settings", "goal", goal])
        try pastFirstRun()
    }

    func checks() throws -> [[String: Any]] {
        try jsonObject(try run(["withdrawal", "--json"]))["checks"] as? [[String: Any]] ?? []
    }

    func testTheChecksScreenFitsAndLeavesWithQ() throws {
        try tracked()
        for (width, height) in [(60, 12), (80, 24)] {
            let tmux = try start("withdrawal --ask", width: width, height: height)
            defer { tmux.close() }
            let screen = try tmux.waitFor("Withdrawal check")
            for part in ["day 3", "1 of 6", "Sleep trouble today, from 0 (none) to 10 (the most)?", "t 10", "q leave"] {
                XCTAssertTrue(screen.contains(part), "\(width)x\(height): '\(part)' not in\n\(screen)")
            }
            try tmux.send("4", literal: true)
            var next = try tmux.waitFor("Irritability, anger today")
            XCTAssertTrue(next.contains("Sleep trouble 4"), next)
            try tmux.send("BSpace")
            next = try tmux.waitFor("1 of 6")
            XCTAssertTrue(next.contains("Sleep trouble today"), "a step back:\n\(next)")
            try tmux.send("q", literal: true)
            let left = try tmux.waitFor("EXIT=0")
            XCTAssertTrue(left.contains("Withdrawal check: nothing was kept."), left)
        }
        XCTAssertEqual(try checks().count, 0)
    }

    func testHomesKeyKeepsTheCheck() throws {
        try tracked()
        let small = try start("home", width: 60, height: 12)
        defer { small.close() }
        let fits = try small.waitFor("LOG CRAVING")
        for part in ["w 🌙 Withdrawal check (day 3 · not yet today)", "n No use today", "q Quit"] {
            XCTAssertTrue(fits.contains(part), "60x12: '\(part)' not in\n\(fits)")
        }
        // A check kept, and a second replacing it: the note leaves c, u and o in view.
        for _ in 0..<2 {
            try small.send("w", literal: true)
            try small.waitFor("1 of 6")
            for key in ["3", "5", "2", "0", "4", "6"] { try small.send(key, literal: true) }
            let noted = try small.waitFor("Withdrawal check kept for day 3 ✓")
            for part in ["LOG CRAVING", "LOG USAGE", "RIDE IT OUT"] {
                XCTAssertTrue(noted.contains(part), "60x12 with the note: '\(part)' not in\n\(noted)")
            }
        }
        try small.send("q", literal: true)
        try small.waitFor("EXIT=0")

        let tmux = try start("home", width: 80, height: 24)
        defer { tmux.close() }
        let home = try tmux.waitFor("LOG CRAVING")
        XCTAssertTrue(home.contains("(day 3 · ✓ done today)"), "kept at 60x12: \(home)")
        try tmux.send("w", literal: true)
        try tmux.waitFor("1 of 6")
        for key in ["3", "5", "2", "0", "4", "t"] { try tmux.send(key, literal: true) }
        let kept = try tmux.waitFor("Withdrawal check kept for day 3 ✓")
        XCTAssertTrue(kept.contains("(day 3 · ✓ done today)"), kept)
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        let scores = try XCTUnwrap(try checks().first?["scores"] as? [String: Int])
        XCTAssertEqual(
            scores, ["sleep": 3, "irritability": 5, "anxiety": 2, "appetite": 0, "dreams": 4, "craving": 10])
    }

    /// Absent for another goal, and outside days 1–14.
    func testHomeHasNoKeyOutsideTheWindow() throws {
        try tracked(goal: "cut-down")
        let other = try start("home", width: 80, height: 24)
        defer { other.close() }
        XCTAssertFalse(try other.waitFor("LOG CRAVING").contains("Withdrawal check"))
        try other.send("q", literal: true)
        try other.waitFor("EXIT=0")
        try run(["withdrawal", "--offer", "any-goal"])
        let asked = try start("home", width: 60, height: 12)
        defer { asked.close() }
        XCTAssertTrue(try asked.waitFor("LOG CRAVING").contains("w 🌙 Withdrawal check"), "offered when asked")
        try asked.send("q", literal: true)
        try asked.waitFor("EXIT=0")
        try run(["withdrawal", "--offer", "quit"])
        try run(["settings", "goal", "quit"])
        let later = try start("home", width: 80, height: 24, now: "2026-12-02T12:00:00")
        defer { later.close() }
        XCTAssertFalse(try later.waitFor("LOG CRAVING").contains("Withdrawal check"), "day 15")
        try later.send("w", literal: true)
        let note = try later.waitFor("days 1–14 after your last use")
        XCTAssertTrue(note.contains("LOG CRAVING"), note)
        try later.send("q", literal: true)
        try later.waitFor("EXIT=0")
    }
}
