import CraveyTestSupport
import Foundation
import XCTest

/// Help one key away, and keys that mean one thing, in a real terminal (tmux): `o` rides a craving
/// out and `1`–`3` play a message on every screen but the forms and the ride (goals are chosen
/// with ↑/↓ and Enter, progress's ranges with ←/→, Quick Play's order with `a`); the offer after
/// a craving of now is made with or without messages, only its keys act, and it is not made for a
/// craving of days ago; a form opened from home starts on a clear screen.
final class KeysThatMeanOneThingTests: CommandTestCase {
    /// `cravey` with `arguments` in tmux, the library `root`, NO_COLOR.
    func start(_ arguments: String = "", width: Int = 100, height: Int = 32) throws -> TmuxSession {
        try TmuxSession(
            "cd \(shellQuote(base)) && env NO_COLOR=1 TZ=Europe/Berlin CRAVEY_TRANSCRIBE=later "
                + "ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) CRAVEY_LIBRARY=\(shellQuote(root)) "
                + "\(shellQuote(cravey)) \(arguments); echo EXIT=$?; sleep 60", width: width, height: height)
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let result = try runProcess(
            cravey, arguments + ["--library", root], environment: ["NO_COLOR": "1", "CRAVEY_TRANSCRIBE": "later"])
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        return result.stdout
    }

    func logs() throws -> [[String: Any]] { try json(try run(["log", "--json"])) as? [[String: Any]] ?? [] }

    /// A library past its first run, with one message to play when `message`.
    func welcomed(message: Bool) throws {
        if message {
            try makeToneWAV(base + "/tone.wav", seconds: 1)
            try run(["import", base + "/tone.wav", "--title", "Remember why"])
        }
        let tmux = try start()
        try tmux.waitFor("Get started")
        try tmux.send("s", literal: true)
        try tmux.waitFor("LOG CRAVING")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
    }

    /// Home, then `c` and Enter: a craving of 5 logged now, at its offer.
    func cravingFromHome() throws -> TmuxSession {
        let tmux = try start("home")
        try tmux.waitFor("LOG CRAVING")
        try tmux.send("c", literal: true)
        try tmux.waitFor("Log Craving")
        try tmux.send("Enter")
        return tmux
    }

    /// The goal screen: a digit plays a message (here: says how to record one) and never chooses
    /// a goal; ↑/↓ and Enter choose. The goal and name screens say how to ride a craving out; the
    /// welcome's `o` asks how strong it is.
    func testGoalsAreChosenWithArrowsAndADigitPlaysAMessage() throws {
        let tmux = try start()
        var screen = try tmux.waitFor("Get started")
        XCTAssertTrue(screen.contains("o Ride it out"), screen)
        try tmux.send("o", literal: true)
        try tmux.waitFor("How strong is it? 1–10")
        try tmux.send("Escape")
        screen = try tmux.waitFor("Nothing was logged.")
        XCTAssertTrue(screen.contains("Get started"), "back on the welcome: \(screen)")
        try tmux.send("Enter")
        for _ in 0..<4 { try tmux.send("Enter") }
        screen = try tmux.waitFor("What brings you here today?")
        XCTAssertTrue(screen.contains("In a craving now?") && screen.contains("o Ride it out"), screen)
        XCTAssertFalse(screen.contains("1–5"), "digits are not the goals' keys: \(screen)")
        try tmux.send("1", literal: true)
        screen = try tmux.waitFor("No messages yet")
        XCTAssertTrue(screen.contains("What brings you here today?"), "still choosing a goal: \(screen)")
        try tmux.send("Down")
        try tmux.send("Enter")
        screen = try tmux.waitFor("What should we call you?")
        XCTAssertTrue(screen.contains("In a craving now?  Tab Ride it out"), screen)
        try tmux.send("Tab")
        try tmux.waitFor("How strong is it? 1–10")
        try tmux.send("Escape")
        screen = try tmux.waitFor("Nothing was logged.")
        XCTAssertTrue(screen.contains("What should we call you?"), "back on the name: \(screen)")
        try tmux.send("Olivia", literal: true)  // o is the name's here
        try tmux.send("Enter")
        try tmux.waitFor("Hi Olivia")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        let settings = try run(["settings"])
        XCTAssertTrue(settings.contains("goal  cut-down"), settings)
        XCTAssertTrue(try logs().isEmpty, "nothing logged on the way")
    }

    /// With no messages the offer is still made (the ride needs none): a key that is not one of
    /// its keys is ignored and its keys shown again; its `o` rides the craving just logged — one
    /// craving, not two.
    func testTheOfferRidesTheSameCravingEvenWithNoMessage() throws {
        try welcomed(message: false)
        let tmux = try cravingFromHome()
        var screen = try tmux.waitFor("Ride it out now?")
        XCTAssertTrue(screen.contains("  o  🌊 Ride it out\n  Enter  not now"), screen)
        try tmux.send("x", literal: true)
        screen = try tmux.waitFor("o ride it out · Enter not now")
        XCTAssertFalse(screen.contains("LOG CRAVING"), "x did not leave the offer: \(screen)")
        try tmux.send("o", literal: true)
        try tmux.waitFor("Riding it out")
        try tmux.send("3", literal: true)
        try tmux.waitFor("How strong: 5 → 3")
        try tmux.send("q", literal: true)
        try tmux.waitFor("LOG CRAVING")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        let all = try logs()
        XCTAssertEqual(all.count, 1, "one craving, ridden: \(all)")
    }

    /// Only the offer's keys act: `r` then `a` at the offer start no recording, and the offer
    /// stays until Enter.
    func testOtherKeysAtTheOfferDoNothing() throws {
        try welcomed(message: true)
        let tmux = try cravingFromHome()
        try tmux.waitFor("Play one of your messages?")
        try tmux.send("r", literal: true)
        try tmux.send("a", literal: true)
        var screen = try tmux.waitFor("1 play · o ride it out · Enter not now")
        Thread.sleep(forTimeInterval: 0.5)
        screen = try tmux.screen()
        XCTAssertFalse(screen.contains("Record:") || screen.contains("Recording"), "no recording: \(screen)")
        XCTAssertTrue(screen.contains("Play one of your messages?"), screen)
        try tmux.send("Enter")
        try tmux.waitFor("Craving logged ✓")
        // A form opened from home starts on a clear screen: the offer is not above it.
        try tmux.send("u", literal: true)
        screen = try tmux.waitFor("Log Usage")
        XCTAssertFalse(screen.contains("Play one of your messages?"), "the old question is gone: \(screen)")
        try tmux.send("Escape")
        try tmux.waitFor("Nothing was logged.")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        XCTAssertEqual(try logs().count, 1)
        XCTAssertEqual((try json(try run(["list", "--json"])) as? [Any])?.count, 1, "no recording was made")
    }

    /// A craving logged for 8 days ago is not happening now: no offer to play or ride.
    func testACravingOfDaysAgoHasNoOffer() throws {
        try welcomed(message: true)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Europe/Berlin")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let eightDaysAgo = formatter.string(from: Date().addingTimeInterval(-8 * 86_400))
        let tmux = try start("craving 6 --at '\(eightDaysAgo)'")
        let screen = try tmux.waitFor("EXIT=0")
        XCTAssertTrue(screen.contains("Craving logged ✓"), screen)
        XCTAssertFalse(screen.contains("Play one of your messages?"), screen)
    }

    /// Progress's ranges move with ←/→; a digit does not change the range, and `o` rides a craving
    /// out there too. Settings' Quick Play order is `a`; its `o` rides a craving out; its `m` sets a
    /// price.
    func testProgressRangesAreArrowsAndSettingsOIsTheRide() throws {
        try welcomed(message: false)
        var tmux = try start("progress")
        try tmux.waitFor("[7D]")
        try tmux.send("3", literal: true)
        try tmux.send("Right")
        var screen = try tmux.waitFor("[30D]")
        XCTAssertFalse(screen.contains("[90D]"), screen)
        try tmux.send("o", literal: true)
        try tmux.waitFor("How strong is it? 1–10")
        try tmux.send("Escape")
        screen = try tmux.waitFor("Nothing was logged.")
        XCTAssertTrue(screen.contains("📊 Progress"), "back on progress: \(screen)")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        tmux = try start("settings")
        screen = try tmux.waitFor("QUICK PLAY ORDER")
        XCTAssertTrue(screen.contains("  a  Most played first"), screen)
        try tmux.send("o", literal: true)
        try tmux.waitFor("How strong is it? 1–10")
        try tmux.send("Escape")
        screen = try tmux.waitFor("Nothing was logged.")
        XCTAssertTrue(screen.contains("QUICK PLAY ORDER") && screen.contains("Most played first"), screen)
        // MONEY KEPT is set on the screen: m, the method's letter, the price (a bad one refused in words).
        XCTAssertTrue(screen.contains("MONEY KEPT  m  not set"), screen)
        try tmux.send("m", literal: true)
        try tmux.waitFor("The price of one unit of which method?")
        try tmux.send("v", literal: true)
        try tmux.waitFor("Price per pull (vape):")
        try tmux.send("lots", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("Enter save · Esc back")
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertTrue(try tmux.screen().contains("Price per pull"), "refused, still asking")
        for _ in 0..<4 { try tmux.send("BSpace") }
        try tmux.send("0.50", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("Price: vape")
        try tmux.send("Escape")
        try tmux.waitFor("EXIT=0")
        let prices = try jsonObject(try run(["settings", "price", "--json"]))["prices"] as? [String: Any]
        XCTAssertEqual(prices?["vape"] as? Double, 0.5)
    }

    /// Discarding a take from the recordings screen says that it was discarded, not that nothing
    /// was recorded.
    func testADiscardedTakeSaysItWasDiscarded() throws {
        let tone = base + "/mic.raw", fifo = base + "/mic.fifo"
        try makeTone(tone, seconds: 30)
        let feeder = try pacedFIFO(fifo, feeding: tone)
        defer { feeder.terminate() }
        let tmux = try TmuxSession(
            "cd \(shellQuote(base)) && env CRAVEY_ALSA_INFILE=\(shellQuote(fifo)) NO_COLOR=1 TZ=Europe/Berlin "
                + "CRAVEY_TRANSCRIBE=later ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) "
                + "CRAVEY_ALSA_OUTFILE=\(shellQuote(base + "/speaker.raw")) CRAVEY_LIBRARY=\(shellQuote(root)) "
                + "\(shellQuote(cravey)) recordings --speaker cravey_capture --mic cravey_file; echo EXIT=$?; sleep 60")
        try tmux.waitFor("No recordings yet")
        try tmux.send("Enter")
        try tmux.waitFor("Choose Recording Type")
        try tmux.send("a", literal: true)
        try tmux.waitFor("RECORD")
        try tmux.send("Enter")
        try tmux.waitFor("0:01 / 2:00", timeout: 20)
        try tmux.send("Enter")
        try tmux.waitFor("space plays it back", timeout: 20)
        try tmux.send("q", literal: true)
        for prompt in ["Title (Enter for", "Notes", "Purpose"] {
            try tmux.waitFor(prompt, timeout: 20)
            try tmux.send("Enter")
        }
        try tmux.waitFor("Save or discard?")
        try tmux.send("d", literal: true)
        try tmux.waitFor("Discard recording? This cannot be undone.")
        try tmux.send("y", literal: true)
        let page = try tmux.waitFor("Recording discarded", timeout: 20)
        XCTAssertFalse(page.contains("Nothing was recorded."), page)
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        XCTAssertEqual((try json(try run(["list", "--json"])) as? [Any])?.count, 0)
    }
}
