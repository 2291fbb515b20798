import CraveyTestSupport
import Foundation
import XCTest

/// The plan screen in a real terminal (tmux), from home (`i`) and settings (`i`): its title, the
/// step in focus and its keys in view at 60x12 and 80x24, a plan made in a few keys; and home's
/// note of where a plan would help, on one day a week at most (under `CRAVEY_NOW`), put away with
/// one key or answered with a plan for that trigger and hour.
final class PlanScreenTests: CommandTestCase {
    func start(_ arguments: String = "home", now: String? = nil, width: Int = 80, height: Int = 24) throws
        -> TmuxSession
    {
        try TmuxSession(
            "cd \(shellQuote(base)) && env NO_COLOR=1 TZ=Europe/Berlin CRAVEY_TRANSCRIBE=later "
                + (now.map { "CRAVEY_NOW=\($0) " } ?? "")
                + "ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) CRAVEY_LIBRARY=\(shellQuote(root)) "
                + "\(shellQuote(cravey)) \(arguments); echo EXIT=$?; sleep 60", width: width, height: height)
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let result = try runProcess(
            cravey, arguments + ["--library", root], environment: ["NO_COLOR": "1", "TZ": "Europe/Berlin"])
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        return result.stdout
    }

    /// A library past its first run, with a goal chosen (home asks for nothing else).
    func welcomed() throws {
        try run(["settings", "goal", "quit"])
        let set = try runProcess(
            "/usr/bin/sqlite3",
            [
                root + "/library.sqlite",
                "INSERT INTO setting (key, value) VALUES ('welcomed', '2026-01-01T00:00:00.000Z')",
            ])
        XCTAssertEqual(set.status, 0, set.stderr)
    }

    /// Waits until every one of `parts` is on screen at once (or fails, showing the screen).
    @discardableResult
    func waitForAll(_ tmux: TmuxSession, _ parts: [String], _ what: String) throws -> String {
        let deadline = Date().addingTimeInterval(10)
        var text = try tmux.screen()
        while !parts.allSatisfy(text.contains), Date() < deadline {
            usleep(100_000)
            text = try tmux.screen()
        }
        for part in parts { XCTAssertTrue(text.contains(part), "\(what): '\(part)' not in\n\(text)") }
        XCTAssertFalse(text.contains("Make the window at least"), what)
        return text
    }

    func testAPlanIsMadeInAFewKeysFromHomeAndFitsAt60x12And80x24() throws {
        try welcomed()
        for (index, (width, height)) in [(60, 12), (80, 24)].enumerated() {
            let size = "\(width)x\(height)"
            let tmux = try start(width: width, height: height)
            defer { tmux.close() }
            try tmux.waitFor("LOG CRAVING")
            try tmux.send("i", literal: true)
            try waitForAll(tmux, ["📝 Plans", "a add", "Esc back"], "the plans at \(size)")
            try tmux.send("a", literal: true)
            try waitForAll(tmux, ["📝 New plan", "If this comes", "7 Bored", "1–9, 0 trigger"], "triggers at \(size)")
            try tmux.send("7", literal: true)
            try waitForAll(tmux, ["Only at one place?", "1 Home", "Enter anywhere"], "places at \(size)")
            try tmux.send("1", literal: true)
            try waitForAll(tmux, ["Only at one hour", "›", "Enter next"], "the hour at \(size)")
            try tmux.send("2", literal: true)
            try tmux.send("5", literal: true)
            try tmux.send("Enter")
            try waitForAll(tmux, ["'25' is not a whole number from 0 to 23", "›"], "a bad hour at \(size)")
            try tmux.send("BSpace")
            try tmux.send("1", literal: true)
            try tmux.send("Enter")
            try waitForAll(tmux, ["Then I will…", "at most 200 characters", "Enter next"], "instead at \(size)")
            try tmux.send("walk \(index)", literal: true)
            try tmux.send("Enter")
            try waitForAll(
                tmux, ["📝 Plans", "bored · at home · 21:00–22:00 → walk \(index)", "Esc back"],
                "the plan made at \(size)")
            try tmux.send("Escape")
            try waitForAll(tmux, ["LOG CRAVING", "i 📝 Plans"], "home again at \(size)")
            try tmux.send("q", literal: true)
            try tmux.waitFor("EXIT=0")
        }
        let plans = try json(try run(["plan", "list", "--json"])) as! [[String: Any]]
        XCTAssertEqual(plans.map { $0["instead"] as? String }, ["walk 0", "walk 1"])

        // From settings, and one removed: d then its number.
        let tmux = try start(width: 60, height: 12)
        defer { tmux.close() }
        try tmux.waitFor("LOG CRAVING")
        try tmux.send("s", literal: true)
        try tmux.waitFor("Settings")
        try tmux.send("i", literal: true)
        try waitForAll(tmux, ["📝 Plans", "d remove one"], "the plans from settings")
        try tmux.send("d", literal: true)
        try waitForAll(tmux, ["📝 Remove a plan", "1–2 remove it"], "remove")
        try tmux.send("1", literal: true)
        try waitForAll(tmux, ["Removed the plan for bored · at home · 21:00–22:00."], "removed")
        try tmux.send("Escape")
        try tmux.waitFor("Settings")
        try tmux.send("Escape")
        try tmux.waitFor("LOG CRAVING")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        let left = try json(try run(["plan", "list", "--json"])) as! [[String: Any]]
        XCTAssertEqual(left.map { $0["instead"] as? String }, ["walk 1"])
    }

    /// Home at `now`: whether the suggestion is its note (keys other than its own are pressed
    /// until the milestones shown first have been shown); `then` answers it on the screen.
    func suggestion(at now: String, then: ((TmuxSession) throws -> Void)? = nil) throws -> Bool {
        let tmux = try start(now: now)
        defer { tmux.close() }
        var screen = try tmux.waitFor("LOG CRAVING")
        for _ in 0..<6 where !screen.contains("A plan could help") {
            try tmux.send("z", literal: true)
            usleep(300_000)
            screen = try tmux.screen()
        }
        let shown = screen.contains("A plan could help: bored came up 3 times around 21:00 in the last 4 weeks")
        if shown { XCTAssertTrue(screen.contains("i make a plan") && screen.contains("x not now"), screen) }
        if let then { try then(tmux) }
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        return shown
    }

    func testTheSuggestionShowsOnOneDayAWeekAtMost() throws {
        for day in ["01", "02", "04"] {
            try run(["craving", "6", "--trigger", "bored", "--at", "2026-03-\(day) 21:15"])
        }
        try run(["craving", "4", "--trigger", "sad", "--at", "2026-03-03 09:00"])
        try welcomed()
        XCTAssertTrue(
            try suggestion(at: "2026-03-05T12:00:00") { tmux in
                try tmux.send("x", literal: true)
                try tmux.waitFor("I won't suggest it again this week.")
            })
        XCTAssertFalse(try suggestion(at: "2026-03-05T18:00:00"), "put away: not again that day")
        XCTAssertFalse(try suggestion(at: "2026-03-09T12:00:00"), "nor later that week")
        XCTAssertTrue(
            try suggestion(at: "2026-03-12T12:00:00") { tmux in
                // i: a plan for that trigger and hour, the trigger chosen and the hour typed.
                try tmux.send("i", literal: true)
                try tmux.waitFor("Only at one place?")
                try tmux.send("Enter")
                try self.waitForAll(tmux, ["Only at one hour", "› 21"], "the hour typed")
                try tmux.send("Enter")
                try tmux.waitFor("Then I will…")
                try tmux.send("make tea", literal: true)
                try tmux.send("Enter")
                try self.waitForAll(tmux, ["Plan 1 kept ✓", "bored · 21:00–22:00 → make tea"], "the plan made")
                try tmux.send("Escape")
                try tmux.waitFor("LOG CRAVING")
            }, "a week on: shown again")
        XCTAssertFalse(try suggestion(at: "2026-03-20T12:00:00"), "bored at 21:00 has a plan now")
    }
}
