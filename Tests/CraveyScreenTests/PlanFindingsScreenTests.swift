import CraveyTestSupport
import Foundation
import XCTest

/// What outside probes found on the plan screens, in a real terminal (tmux) at 60x12: the list
/// to remove a plan from scrolls to every plan, a ride keeps its plan's sentence in view with its
/// title and keys, and the plan form speaks in its own words, not a command's flags.
extension PlanScreenTests {
    /// Home at 60x12, its plans opened (`i`), then `key` pressed.
    func plansAt60x12(then key: String) throws -> TmuxSession {
        let tmux = try start(width: 60, height: 12)
        try tmux.waitFor("LOG CRAVING")
        try tmux.send("i", literal: true)
        try waitForAll(tmux, ["📝 Plans", "\(key) "], "the plans")
        try tmux.send(key, literal: true)
        return tmux
    }

    /// Esc `escapes` times, back to home, and home left with q.
    func leave(_ tmux: TmuxSession, escapes: Int) throws {
        for _ in 0..<escapes {
            try tmux.send("Escape")
            usleep(200_000)
        }
        try tmux.waitFor("LOG CRAVING")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
    }

    func testEveryPlanCanBeReachedAndRemovedAt60x12() throws {
        try welcomed()
        for hour in 0..<10 {
            try run([
                "plan", "add", "--trigger", "bored", "--hour", String(hour), "--instead", "plan number \(hour + 1)",
            ])
        }
        let tmux = try plansAt60x12(then: "d")
        defer { tmux.close() }
        let first = try waitForAll(tmux, ["📝 Remove a plan", "1–9, 0 remove it", "Esc keep"], "remove")
        XCTAssertFalse(first.contains("plan number 10"), "the tenth is past the screen at first:\n\(first)")
        for _ in 0..<9 { try tmux.send("Down") }
        let last = try waitForAll(tmux, ["▸10", "plan number 10", "Esc keep"], "scrolled to the tenth")
        XCTAssertTrue(last.contains("📝 Remove a plan"), "the title stays:\n\(last)")
        try tmux.send("Up")
        try waitForAll(tmux, ["▸ 9", "plan number 9"], "back up one")
        try tmux.send("Enter")
        try waitForAll(tmux, ["Removed the plan for bored · 08:00–09:00."], "the one marked is removed")
        try leave(tmux, escapes: 1)
        let left = try XCTUnwrap(json(try run(["plan", "list", "--json"])) as? [[String: Any]])
        XCTAssertEqual(left.count, 9)
        XCTAssertFalse(left.contains { $0["instead"] as? String == "plan number 9" })
    }

    func testARideKeepsItsPlansSentenceInViewAt60x12() throws {
        let sentence =
            "walk round the block twice, call Sam on the way back, drink a big glass of water, "
            + "then sit on the step and breathe out slowly until the wave has gone by LASTWORDS"
        try run(["plan", "add", "--trigger", "bored", "--instead", sentence])
        let tmux = try start("ride 8 --trigger bored", width: 60, height: 12)
        defer { tmux.close() }
        let screen = try waitForAll(
            tmux, ["Riding it out", "📝 Your plan for bored:", "LASTWORDS", "how strong", "q  end"], "the ride")
        XCTAssertFalse(screen.contains("Make the window at least"), screen)
        try tmux.send("q", literal: true)
    }

    func testThePlanFormSpeaksInItsOwnWords() throws {
        try welcomed()
        let tmux = try plansAt60x12(then: "a")
        defer { tmux.close() }
        for (key, next) in [("7", "Only at one place?"), ("Enter", "Only at one hour")] {
            try tmux.send(key, literal: key.count == 1)
            try waitForAll(tmux, [next], next)
        }
        for key in ["2", "5"] { try tmux.send(key, literal: true) }
        try tmux.send("Enter")
        let hour = try waitForAll(tmux, ["The hour: '25' is not a whole number from 0 to 23"], "a bad hour")
        XCTAssertFalse(hour.contains("--hour"), hour)
        try tmux.send("BSpace")
        try tmux.send("BSpace")
        try tmux.send("Enter")
        try waitForAll(tmux, ["Then I will…"], "instead")
        try tmux.send("Enter")
        let empty = try waitForAll(
            tmux, ["What you'll do instead: say in a few words"], "an empty sentence")
        XCTAssertFalse(empty.contains("--instead"), empty)
        try leave(tmux, escapes: 2)
    }
}
