import CraveyTestSupport
import Foundation
import XCTest

/// Screens that fit, in a real terminal (tmux): each screen's title, the field or row in focus and
/// its keys are on screen at 60x12, 80x14 and 80x24, and a window below 60x12 shows one line that
/// asks for a bigger one, where `q` still leaves.
final class ScreensFitTests: CommandTestCase {
    static let sizes = [(60, 12), (80, 14), (80, 24)]
    static let tooSmall = "Make the window at least 60x12, please · q leaves"

    /// `cravey` with `arguments` in tmux at a size, the library `root`, NO_COLOR.
    func start(_ arguments: String, width: Int, height: Int) throws -> TmuxSession {
        try TmuxSession(
            "cd \(shellQuote(base)) && env NO_COLOR=1 TZ=Europe/Berlin CRAVEY_TRANSCRIBE=later "
                + "ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) CRAVEY_LIBRARY=\(shellQuote(root)) "
                + "\(shellQuote(cravey)) \(arguments); echo EXIT=$?; sleep 60", width: width, height: height)
    }

    /// A library past its first run (Skip tour).
    func welcomed() throws {
        let tmux = try start("", width: 100, height: 32)
        defer { tmux.close() }
        try tmux.waitFor("Get started")
        try tmux.send("s", literal: true)
        try tmux.waitFor("LOG CRAVING")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
    }

    /// A screen reached by `keys` (each waited for by the text after it): `shown` all on screen at once.
    struct Screen {
        var name: String
        var arguments = ""
        var steps: [(key: String, then: String)] = []
        var shown: [String]
    }

    func check(_ screen: Screen, width: Int, height: Int) throws {
        let tmux = try start(screen.arguments, width: width, height: height)
        defer { tmux.close() }
        for step in screen.steps {
            try tmux.send(step.key, literal: step.key.count == 1)
            try tmux.waitFor(step.then)
        }
        let deadline = Date().addingTimeInterval(10)
        var text = try tmux.screen()
        while !screen.shown.allSatisfy(text.contains), Date() < deadline {
            usleep(100_000)
            text = try tmux.screen()
        }
        for part in screen.shown {
            XCTAssertTrue(text.contains(part), "\(screen.name) at \(width)x\(height): '\(part)' not in\n\(text)")
        }
        XCTAssertFalse(text.contains(Self.tooSmall), "\(screen.name) at \(width)x\(height)")
    }

    /// Reaches `screen` at 50x10: one line, no more, and `q` leaves it.
    func checkTooSmall(_ screen: Screen) throws {
        let tmux = try start(screen.arguments, width: 50, height: 10)
        defer { tmux.close() }
        let text = try tmux.waitFor(Self.tooSmall)
        XCTAssertEqual(
            text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty },
            [Substring(Self.tooSmall)], "\(screen.name): one line")
        try tmux.send("x", literal: true)
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=")
    }

    func testTheFirstRunFits() throws {
        let screens = [
            Screen(name: "welcome", shown: ["cravey", "Get started", "Skip tour", "q Quit", "o Ride it out"]),
            Screen(
                name: "tour", steps: [("Enter", "Track Cravings")],
                shown: ["Track Cravings", "Log intensity", "Enter Next", "Esc skip"]),
            Screen(
                name: "goal", steps: [("Enter", "Track Cravings"), ("Escape", "What brings you")],
                shown: ["What brings you here today?", "▸ 🎯 Quit completely", "Enter choose"]),
            Screen(
                name: "goal, the last one chosen",
                steps: [("Enter", "Track Cravings"), ("Escape", "What brings you"), ("Up", "▸")],
                shown: ["What brings you here today?", "▸", "Just exploring", "Enter choose"]),
            Screen(
                name: "name",
                steps: [("Enter", "Track Cravings"), ("Escape", "What brings you"), ("s", "What should we call you?")],
                shown: ["What should we call you?", "›", "Enter save", "Tab Ride it out"]),
        ]
        for (width, height) in Self.sizes {
            for screen in screens { try check(screen, width: width, height: height) }
        }
        try checkTooSmall(screens[0])
    }

    func testHomeAndSettingsFit() throws {
        try welcomed()
        let screens = [
            Screen(name: "home", arguments: "home", shown: ["cravey", "LOG CRAVING", "s ⚙️ Settings", "q Quit"]),
            Screen(
                name: "settings", arguments: "home", steps: [("s", "Settings")],
                shown: ["⚙️ Settings", "Your data is private and local-only.", "GOAL", "Esc back"]),
            Screen(
                name: "settings scrolled", arguments: "home", steps: [("s", "Settings"), ("End", "ABOUT")],
                shown: ["⚙️ Settings", "Version", "Esc back"]),
            Screen(
                name: "privacy", arguments: "home", steps: [("s", "Settings"), ("p", "Privacy")],
                shown: ["Privacy", "Your data is private and local-only.", "any other key: back"]),
            Screen(
                name: "money kept", arguments: "home", steps: [("s", "Settings"), ("m", "Money kept")],
                shown: ["Money kept", "which method", "Esc back"]),
        ]
        for (width, height) in Self.sizes {
            for screen in screens { try check(screen, width: width, height: height) }
        }
        try checkTooSmall(screens[0])
    }

    func testTheLogFormsFit() throws {
        let screens = [
            Screen(name: "craving", arguments: "craving", shown: ["Log Craving", "▸ Intensity", "Esc: close"]),
            Screen(
                name: "craving, notes", arguments: "craving",
                steps: [("Down", "▸ Time"), ("Down", "▸ Trigger"), ("Down", "▸ Location"), ("Down", "▸ Notes")],
                shown: ["Log Craving", "▸ Notes", "Esc: close"]),
            Screen(name: "use", arguments: "use", shown: ["Log Usage", "▸ Method", "Amount", "Esc: close"]),
            Screen(
                name: "use, amount", arguments: "use", steps: [("Down", "▸ Amount")],
                shown: ["Log Usage", "Method", "▸ Amount", "Esc: close"]),
            Screen(
                name: "use, triggers", arguments: "use",
                steps: [("Down", "▸ Amount"), ("Down", "▸ Time"), ("Down", "▸ Trigger")],
                shown: ["Log Usage", "▸ Trigger", "Paraphernalia", "Esc: close"]),
        ]
        for (width, height) in Self.sizes {
            for screen in screens { try check(screen, width: width, height: height) }
        }
        try checkTooSmall(screens[0])
        XCTAssertEqual(
            try runProcess(cravey, ["log", "--json", "--library", root]).stdout.trimmingCharacters(
                in: .whitespacesAndNewlines),
            "[]", "nothing was logged")
    }

    /// Words are never broken inside: the chips at 60 columns.
    func testAFormWrapsAtWords() throws {
        let tmux = try start("use", width: 60, height: 24)
        defer { tmux.close() }
        let text = try tmux.waitFor("Paraphernalia")
        for word in ["Tired", "Paraphernalia", "Bowls / Joints / Blunts", "Edible"] {
            XCTAssertTrue(text.contains(word), "'\(word)' whole in\n\(text)")
        }
    }

    func testProgressAndTheRideFit() throws {
        // Progress opens its screen on a library (with none, it says so and makes none).
        try welcomed()
        let screens = [
            Screen(name: "progress", arguments: "progress", shown: ["📊 Progress", "q leave"]),
            Screen(
                name: "progress, a note", arguments: "progress", steps: [("1", "No messages yet")],
                shown: ["📊 Progress", "No messages yet", "audio"]),
            Screen(
                name: "ride", arguments: "ride 5 --minutes 5",
                shown: ["Riding it out", "How strong: 5", "q  end", "n  next message"]),
        ]
        for (width, height) in Self.sizes {
            for screen in screens { try check(screen, width: width, height: height) }
        }
        try checkTooSmall(screens[0])
        try checkTooSmall(screens[2])
    }

    func resize(_ tmux: TmuxSession, _ width: Int, _ height: Int) throws {
        _ = try runProcess("/usr/bin/tmux", ["-L", tmux.socket, "resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    /// A window made smaller on a screen where text is typed, or on a form: `q` leaves (it is not
    /// typed unseen), one screen at a time, and nothing is saved.
    func testAWindowMadeSmallerStillLeavesWithQ() throws {
        try welcomed()
        let tmux = try start("home", width: 80, height: 24)
        defer { tmux.close() }
        try tmux.waitFor("LOG CRAVING")
        try tmux.send("s", literal: true)
        try tmux.waitFor("⚙️ Settings")
        try tmux.send("n", literal: true)
        try tmux.waitFor("What should we call you?")
        try tmux.send("ab", literal: true)
        try resize(tmux, 50, 10)
        try tmux.waitFor(Self.tooSmall)
        for _ in 0..<3 { try tmux.send("q", literal: true) }
        try tmux.waitFor("EXIT=0")
        XCTAssertTrue(try runProcess(cravey, ["settings", "--library", root]).stdout.contains("name  (not set)"))

        let form = try start("craving", width: 80, height: 24)
        defer { form.close() }
        try form.waitFor("▸ Intensity")
        for _ in 0..<4 { try form.send("Down") }
        try form.waitFor("▸ Notes")
        try resize(form, 50, 10)
        try form.waitFor(Self.tooSmall)
        try form.send("q", literal: true)
        try form.waitFor("EXIT=")
        XCTAssertEqual(
            try runProcess(cravey, ["log", "--json", "--library", root]).stdout.trimmingCharacters(
                in: .whitespacesAndNewlines), "[]", "nothing was logged")
    }
}
