import CraveyTestSupport
import Foundation
import XCTest

import TerminalKit

/// Words on the screens that fit: a skipped tour's missing goal asked for once on a later day
/// (one key chooses, one puts the question away for good), no "cravings resisted" milestone
/// under harm reduction, and a calm ride's breathing said once a phase.
final class ScreensWordsTests: CommandTestCase {
    func start(_ arguments: String, now: String? = nil, environment: String = "") throws -> TmuxSession {
        try TmuxSession(
            "cd \(shellQuote(base)) && env NO_COLOR=1 TZ=Europe/Berlin CRAVEY_TRANSCRIBE=later \(environment) "
                + (now.map { "CRAVEY_NOW=\($0) " } ?? "")
                + "ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) CRAVEY_LIBRARY=\(shellQuote(root)) "
                + "\(shellQuote(cravey)) \(arguments); echo EXIT=$?; sleep 60", width: 100, height: 30)
    }

    @discardableResult
    func run(_ arguments: [String], now: String? = nil) throws -> String {
        var environment = ["NO_COLOR": "1", "CRAVEY_TRANSCRIBE": "later", "TZ": "Europe/Berlin"]
        environment["CRAVEY_NOW"] = now
        let result = try runProcess(cravey, arguments + ["--library", root], environment: environment)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        return result.stdout
    }

    /// Skip tour, then home: on that day no question; the next day it is asked once a visit, `g`
    /// chooses a goal; with another library `x` puts it away for good.
    func testASkippedTourIsAskedForAGoalOnceLater() throws {
        let first = try start("", now: "2026-03-02T10:00:00")
        try first.waitFor("Get started")
        try first.send("s", literal: true)
        var home = try first.waitFor("LOG CRAVING")
        XCTAssertFalse(home.contains("choose a goal"), "not on the day the tour was skipped")
        try first.send("q", literal: true)
        try first.waitFor("EXIT=0")
        first.close()

        let later = try start("home", now: "2026-03-03T09:00:00")
        home = try later.waitFor("LOG CRAVING")
        XCTAssertTrue(home.contains("Would you like to choose a goal?") && home.contains("x don't ask again"), home)
        try later.send("g", literal: true)
        try later.waitFor("What brings you here today?")
        try later.send("Down")
        try later.send("Enter")
        try later.waitFor("Goal: Cut down ✓")
        try later.send("q", literal: true)
        try later.waitFor("EXIT=0")
        later.close()
        XCTAssertTrue(try run(["settings"]).contains("goal  cut-down"))

        try run(["settings", "goal", "--clear"])
        let again = try start("home", now: "2026-03-04T09:00:00")
        try again.waitFor("Would you like to choose a goal?")
        try again.send("x", literal: true)
        try again.waitFor("I won't ask again")
        try again.send("q", literal: true)
        try again.waitFor("EXIT=0")
        again.close()
        let after = try start("home", now: "2026-03-05T09:00:00")
        defer { after.close() }
        home = try after.waitFor("LOG CRAVING")
        usleep(300_000)
        XCTAssertFalse(try after.screen().contains("choose a goal"), "put away for good")
    }

    /// A craving resisted reaches "1 craving resisted": status says it under quit, and under harm
    /// reduction says only the days.
    func testHarmReductionShowsNoResistedMilestone() throws {
        let now = "2026-03-02T15:00:00"
        try run(["craving", "5", "--at", "2026-03-02 11:00"], now: now)
        try run(["settings", "goal", "harm-reduction"])
        try run(["progress"], now: now)
        let harm = try run(["status"], now: now)
        XCTAssertFalse(harm.contains("craving resisted"), harm)
        XCTAssertTrue(harm.contains("🏅 1 day in progress"), harm)
        try run(["settings", "goal", "quit"])
        XCTAssertTrue(try run(["status"], now: now).contains("🏅 1 craving resisted"))
    }

    func testCalmBreathingSaysEachPhaseOnce() throws {
        XCTAssertEqual(Breathing.phase(at: 0), "Breathe in… (4 seconds)")
        XCTAssertEqual(Breathing.phase(at: 3.9), Breathing.phase(at: 0), "the same all through the phase")
        XCTAssertEqual(Breathing.phase(at: 4.1), "Breathe out… (6 seconds)")
        XCTAssertEqual(Breathing.phase(at: 9.9), Breathing.phase(at: 4.1))

        let tmux = try start("ride 5 --minutes 5", environment: "CRAVEY_REDUCED_MOTION=1")
        defer { tmux.close() }
        try tmux.waitFor("Riding it out")
        sleep(12)
        let screen = try tmux.screen()
        let said = screen.components(separatedBy: "Breathe ").count - 1
        XCTAssertLessThanOrEqual(said, 4, "each phase once in 12 s, not a line a second:\n\(screen)")
        XCTAssertTrue(screen.contains("q  end"), "the keys stay on screen:\n\(screen)")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=")
    }

    /// A failure's note on home says the human words first and wraps, the remedy kept whole.
    func testHomesNoteOfAFailureWrapsWithTheRemedy() throws {
        let first = try start("")
        try first.waitFor("Get started")
        try first.send("s", literal: true)
        try first.waitFor("LOG CRAVING")
        first.close()
        let tmux = try TmuxSession(
            "env NO_COLOR=1 CRAVEY_TRANSCRIBE=later CRAVEY_LIBRARY=\(shellQuote(root)) \(shellQuote(cravey)) home "
                + "--mic cravey_no_such_mic; sleep 60", width: 60, height: 12)
        defer { tmux.close() }
        try tmux.waitFor("LOG CRAVING")
        try tmux.send("r", literal: true)
        try tmux.waitFor("a audio")
        try tmux.send("a", literal: true)
        // The record screen waits for its key before it opens the microphone.
        try tmux.waitFor("RECORD")
        try tmux.send("r", literal: true)
        let screen = try tmux.waitFor("devices')")
        let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(lines.contains { $0.hasPrefix("Cannot record from 'cravey_no_such_mic'") }, screen)
        XCTAssertFalse(screen.contains("…") || screen.contains("cravey: "), screen)
        XCTAssertTrue(screen.contains("o  🌊 RIDE IT OUT") && screen.contains("q Quit"), screen)
    }
}
