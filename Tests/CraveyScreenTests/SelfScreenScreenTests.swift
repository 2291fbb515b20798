import CraveyTestSupport
import Foundation
import XCTest

/// The private self-screen in a real terminal (tmux) on a clock started at Nov 20, 2026, 12:00
/// (UTC): `cravey screen` at 60x12 and 80x24 — one key an answer, `b` back, the score and its
/// trend, the meaning only after `w` — settings' `s`, and home's quiet reminder 4 weeks after the
/// last screen, put away with `x`.
final class SelfScreenScreenTests: CommandTestCase {
    let now = "2026-11-20T12:00:00"

    /// `cravey` with `arguments` in tmux at a size, the library `root`, NO_COLOR, in UTC.
    func start(_ arguments: String, width: Int, height: Int) throws -> TmuxSession {
        try TmuxSession(
            "cd \(shellQuote(base)) && env NO_COLOR=1 TZ=UTC CRAVEY_NOW=\(now) CRAVEY_TRANSCRIBE=later "
                + "ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) CRAVEY_LIBRARY=\(shellQuote(root)) "
                + "\(shellQuote(cravey)) \(arguments); echo EXIT=$?; sleep 60", width: width, height: height)
    }

    @discardableResult
    func run(_ arguments: [String], now: String? = nil) throws -> String {
        let result = try runProcess(
            cravey, arguments + ["--library", root],
            environment: ["NO_COLOR": "1", "TZ": "UTC", "CRAVEY_TRANSCRIBE": "later", "CRAVEY_NOW": now ?? self.now])
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        return result.stdout
    }

    func scores() throws -> [Int] {
        let list = try jsonObject(try run(["screen", "list", "--json"]))
        return (list["screens"] as? [[String: Any]] ?? []).compactMap { $0["score"] as? Int }
    }

    /// The library past its first run (as Skip tour leaves it), with no log: no milestone's note
    /// comes first.
    func welcomed() throws {
        let set = try runProcess(
            "/usr/bin/sqlite3",
            [
                root + "/library.sqlite",
                "INSERT INTO setting (key, value) VALUES ('welcomed', '2026-11-18T08:00:00.000Z')",
            ])
        XCTAssertEqual(set.status, 0, set.stderr)
    }

    func testTheScreenFitsAsksOneKeyAnAnswerAndSaysTheMeaningOnlyWhenAsked() throws {
        for (width, height) in [(60, 12), (80, 24)] {
            let tmux = try start("screen", width: width, height: height)
            defer { tmux.close() }
            var screen = try tmux.waitFor("question 1 of 8")
            for part in [
                "Self-screen", "How often do you use cannabis?", "1  Never", "5  4 or more times a week", "q Leave",
            ] {
                XCTAssertTrue(screen.contains(part), "\(width)x\(height): '\(part)' not in\n\(screen)")
            }
            // 0,1,2,0,0,1,0,2 — with a step back on the way: b undoes question 3's answer.
            for (index, key) in ["1", "2", "5"].enumerated() {
                try tmux.send(key, literal: true)
                try tmux.waitFor("question \(index + 2) of 8")
            }
            try tmux.send("b", literal: true)
            screen = try tmux.waitFor("question 3 of 8")
            XCTAssertTrue(screen.contains("not able to stop"), screen)
            for (index, key) in ["3", "1", "1", "2", "1"].enumerated() {
                try tmux.send(key, literal: true)
                try tmux.waitFor("question \(index + 4) of 8")
            }
            screen = try tmux.waitFor("question 8 of 8")
            XCTAssertTrue(screen.contains("3  Yes, during the past 6 months"), "\(width)x\(height):\n\(screen)")
            XCTAssertTrue(screen.contains("1–3 Answer"), screen)
            try tmux.send("2", literal: true)
            screen = try tmux.waitFor("Your score: 6 of 32.")
            XCTAssertTrue(screen.contains("w What does the number mean?"), "\(width)x\(height):\n\(screen)")
            XCTAssertFalse(screen.contains("hazardous"), "the bands only when asked:\n\(screen)")
            try tmux.send("w", literal: true)
            screen = try tmux.waitFor("not a diagnosis")
            XCTAssertTrue(screen.contains("Your 6 is below 8."), "\(width)x\(height):\n\(screen)")
            XCTAssertTrue(screen.contains("q Done"), screen)
            try tmux.send("q", literal: true)
            let left = try tmux.waitFor("EXIT=0")
            XCTAssertTrue(left.contains("Self-screen kept ✓ Your score: 6 of 32."), left)
        }
        XCTAssertEqual(try scores(), [6, 6])
    }

    func testLeavingHalfWayKeepsNothing() throws {
        let tmux = try start("screen", width: 80, height: 24)
        defer { tmux.close() }
        try tmux.waitFor("question 1 of 8")
        try tmux.send("3", literal: true)
        try tmux.waitFor("question 2 of 8")
        try tmux.send("q", literal: true)
        let left = try tmux.waitFor("EXIT=0")
        XCTAssertTrue(left.contains("Self-screen: nothing was kept."), left)
        XCTAssertEqual(try scores(), [])
    }

    func testSettingsOpensItAndHomeRemindsQuietlyAfterFourWeeks() throws {
        try run(["screen", "--answers", "1,1,1,1,1,1,1,2"], now: "2026-10-20T12:00:00")
        try run(["screen", "--remind", "on"], now: "2026-10-20T12:00:00")
        try welcomed()
        for (width, height) in [(60, 12), (80, 24)] {
            let tmux = try start("home", width: width, height: height)
            defer { tmux.close() }
            let home = try tmux.waitFor("LOG CRAVING")
            XCTAssertTrue(home.contains("4 weeks since your last self-screen"), "\(width)x\(height):\n\(home)")
            XCTAssertTrue(home.contains("x not now"), "\(width)x\(height):\n\(home)")
            // The keys it names are the ones that take it: s (settings), then s.
            XCTAssertTrue(
                home.replacingOccurrences(of: "\n", with: " ").contains("s then s takes it"),
                "\(width)x\(height):\n\(home)")
            if width == 60 {
                try tmux.send("q", literal: true)
                try tmux.waitFor("EXIT=0")
                continue
            }
            try tmux.send("x", literal: true)
            let put = try tmux.waitFor("Not now, then.")
            XCTAssertTrue(put.contains("LOG CRAVING"), put)
            try tmux.send("s", literal: true)
            let settings = try tmux.waitFor("Self-screen: 8 questions")
            XCTAssertTrue(settings.contains("s  Self-screen: 8 questions, about 2 minutes, only for you"), settings)
            XCTAssertTrue(settings.contains("Version"), "settings still fits at 80x24:\n\(settings)")
            try tmux.send("s", literal: true)
            try tmux.waitFor("question 1 of 8")
            try tmux.send("q", literal: true)
            try tmux.waitFor("Self-screen: nothing was kept.")
            try tmux.send("Escape")
            try tmux.waitFor("LOG CRAVING")
            try tmux.send("q", literal: true)
            try tmux.waitFor("EXIT=0")
        }
        let list = try jsonObject(try run(["screen", "list", "--json"]))
        XCTAssertEqual((list["reminder"] as? [String: Any])?["due"] as? Bool, false, "put away for 4 weeks")
        XCTAssertEqual((list["reminder"] as? [String: Any])?["on"] as? Bool, true)
    }

    /// Offered once at the start: after a first run through the tour, home's first note says the
    /// screen is there; the next key takes the note away and it does not come again.
    func testOfferedOnceAfterTheFirstRunNeverForced() throws {
        for (width, height) in [(60, 12), (80, 24)] {
            try? FileManager.default.removeItem(atPath: root)
            let tmux = try start("home", width: width, height: height)
            defer { tmux.close() }
            try tmux.waitFor("Get started")
            try tmux.send("Enter")
            try tmux.waitFor("Track Cravings")
            try tmux.send("Escape")
            try tmux.waitFor("What brings you here today?")
            try tmux.send("Enter")
            try tmux.waitFor("What should we call you?")
            try tmux.send("Enter")
            let home = try tmux.waitFor("private self-screen is here")
            XCTAssertTrue(home.contains("LOG CRAVING"), "\(width)x\(height):\n\(home)")
            try tmux.send("x", literal: true)
            // Once: the key takes the note away (home is drawn again without it).
            try tmux.waitUntil("home without the note") { $0.contains("LOG CRAVING") && !$0.contains("self-screen") }
            try tmux.send("q", literal: true)
            try tmux.waitFor("EXIT=0")
            let again = try start("home", width: width, height: height)
            defer { again.close() }
            try again.waitFor("LOG CRAVING")
            XCTAssertFalse(try again.screen().contains("self-screen"), "not on the next visit")
            try again.send("q", literal: true)
            try again.waitFor("EXIT=0")
        }
        XCTAssertEqual(try scores(), [], "offered, never taken for the person")
    }
}
