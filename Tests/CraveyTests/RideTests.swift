import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `cravey ride` end to end: the scripted form's ratings, bad input as one line that changes
/// nothing, and the ride in a real terminal (tmux) with its sound through ALSA's file plugin —
/// ratings kept at once whatever ends it (q, SIGHUP, kill -9, the time running out), messages in
/// the order made for the craving's trigger first, the words instead of a missing speaker, and
/// the ride from the craving's offer and from home.
final class RideTests: LogTestCase {
    /// Each craving's intensity, ratings (as stored) and messages played, oldest first.
    func cravings() throws -> [(intensity: Int, ratings: [[Int]], played: [String])] {
        let out = try runProcess(
            "/usr/bin/sqlite3",
            ["-json", root + "/library.sqlite", "SELECT intensity, ratings, played FROM craving ORDER BY at"]
        ).stdout
        guard !out.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return [] }
        return try (json(out) as! [[String: Any]]).map { row in
            let ratings = (row["ratings"] as? String).flatMap { try? json($0) as? [[Int]] } ?? []
            let played = ((row["played"] as? String) ?? "").split(separator: ",").map(String.init)
            return (row["intensity"] as! Int, ratings, played)
        }
    }

    /// Imports a tone of `seconds` as a message; returns its id.
    func message(_ title: String, seconds: Int, for triggers: String = "") throws -> String {
        let wav = base + "/\(UUID().uuidString.prefix(6)).wav"
        try makeToneWAV(wav, seconds: seconds)
        let out = try run(["import", wav, "--title", title]).stdout
        let id = try XCTUnwrap(out.split(separator: " ").last?.dropLast(2)).description
        if !triggers.isEmpty {
            let set = try runProcess(
                "/usr/bin/sqlite3",
                [root + "/library.sqlite", "UPDATE recording SET forTriggers = '\(triggers)' WHERE id = '\(id)'"])
            XCTAssertEqual(set.status, 0, set.stderr)
        }
        return id
    }

    func playCount(_ id: String) throws -> Int? {
        try jsonObject(try run(["show", id, "--json"]).stdout)["playCount"] as? Int
    }

    /// A speaker paced like a real one, opened again for every message: the `file` plugin writes
    /// into a FIFO that pv drains at 96000 B/s, appending what it drained to `heard` (what reached
    /// the speaker). `stop` ends it.
    final class Speaker {
        let fifo: String
        let heard: String
        private let loop = Process()

        init(in base: String) throws {
            fifo = base + "/speaker.fifo"
            heard = base + "/heard.raw"
            guard mkfifo(fifo, 0o600) == 0 else { throw NSError(domain: "mkfifo", code: Int(errno)) }
            loop.executableURL = URL(fileURLWithPath: "/bin/sh")
            loop.arguments = [
                "-c",
                "while [ -p \(shellQuote(fifo)) ]; do pv -q -B 4096 -L 96000 \(shellQuote(fifo)) >> \(shellQuote(heard)); done",
            ]
            try loop.run()
        }

        var bytesHeard: Int { (try? FileManager.default.attributesOfItem(atPath: heard)[.size] as? Int) ?? 0 }

        /// Ends the loop without waiting on it for ever: a pv waiting for the next writer is let go
        /// (a writer opens and closes), the FIFO is taken away so the loop ends, and a shell that is
        /// still there after 5 s is killed.
        func stop() {
            let fd = open(fifo, O_RDWR | O_NONBLOCK)
            unlink(fifo)
            if fd >= 0 { close(fd) }
            loop.terminate()
            let deadline = Date() + 5
            while loop.isRunning && Date() < deadline { usleep(20_000) }
            if loop.isRunning { kill(loop.processIdentifier, SIGKILL) }
            loop.waitUntilExit()
        }
    }

    /// `cravey` with `arguments` in tmux, its process id written to `pid`; after it, its exit
    /// status and whether the terminal is back in canonical mode.
    func terminal(_ arguments: String, environment: [String: String] = [:], height: Int = 40) throws -> TmuxSession {
        let variables = env(environment).map { "\($0.key)=\(shellQuote($0.value))" }.sorted().joined(separator: " ")
        let inner =
            "echo $$ > \(shellQuote(base + "/pid")); exec env \(variables) \(shellQuote(cravey)) \(arguments) --library \(shellQuote(root))"
        return try TmuxSession(
            "sh -c \(shellQuote(inner)); echo EXIT=$?; stty -a | grep -o -- '-\\?icanon' | sed 's/^/MODE=/'; sleep 60",
            width: 100, height: height)
    }

    func pid() throws -> pid_t {
        try XCTUnwrap(
            pid_t(
                try String(contentsOfFile: base + "/pid", encoding: .utf8).trimmingCharacters(
                    in: .whitespacesAndNewlines)))
    }

    // MARK: - Scripted

    /// `ride 8 --ratings 6,4,2 --minutes-apart 5` stores what a ride rated at minutes 5, 10 and 15
    /// stores: [[0,8],[300,6],[600,4],[900,2]]; without a terminal or ratings, the intensity alone
    /// and one line on how to ride it out.
    func testTheScriptedFormStoresTheRatingsAtTheirMinutes() throws {
        let json = try jsonObject(
            try run(["ride", "8", "--ratings", "6,4,2", "--minutes-apart", "5", "--trigger", "bored", "--json"]).stdout)
        XCTAssertEqual(json["ratings"] as? [[Int]], [[0, 8], [300, 6], [600, 4], [900, 2]])
        XCTAssertEqual((json["craving"] as? [String: Any])?["intensity"] as? Int, 8)
        XCTAssertEqual((json["craving"] as? [String: Any])?["triggers"] as? [String], ["bored"])
        let plain = try run(["ride", "7", "--ratings", "5,3"]).stdout
        XCTAssertTrue(plain.hasPrefix("Craving logged ✓ — 7 (strong), "), plain)
        XCTAssertTrue(plain.hasSuffix("It passed: you rode it out. 💪\nFrom 7 to 3 in 6 minutes: 7 → 5 → 3.\n"), plain)
        let alone = try run(["ride", "6"]).stdout.split(separator: "\n")
        XCTAssertEqual(alone.count, 2, "\(alone)")
        XCTAssertTrue(alone[1].contains("'cravey ride' on a terminal"), "\(alone)")
        let stored = try cravings()
        XCTAssertEqual(
            stored.map(\.ratings),
            [[[0, 8], [300, 6], [600, 4], [900, 2]], [[0, 7], [180, 5], [360, 3]], [[0, 6]]])
        XCTAssertEqual(try logs().count, 3, "each is a craving, as 'cravey craving' logs it")
    }

    func testBadInputIsOneLineAndChangesNothing() throws {
        for arguments in [
            ["ride", "8", "--ratings", "11"], ["ride", "--minutes", "0"], ["ride", "8", "--ratings", "6,,2"],
            ["ride", "8", "--minutes-apart", "5"], ["ride", "8", "--ratings", "4", "--minutes-apart", "0"],
            ["ride", "11"], ["ride", "8", "--trigger", "sleepy"],
        ] {
            let result = try run(arguments, status: nil)
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("cravey: invalid "), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: root), "\(arguments): no library made")
        }
        try run(["ride", "5", "--ratings", "4"])
        _ = try run(["ride", "8", "--ratings", "11"], status: 1)
        XCTAssertEqual(try cravings().count, 1, "nothing logged by the refusal")
    }

    // MARK: - On a terminal

    /// The ride: the message made for the trigger plays first and reaches the speaker, a rating
    /// is kept, n plays the next one, the question comes and Enter keeps the last, q ends it with
    /// the kind words, and the terminal is given back.
    func testARideInATerminalPlaysRatesAndQuitKeepsTheRatings() throws {
        let phrase = try message("Remember why", seconds: 4)
        let tone = try message("Long tone", seconds: 20, for: "bored")
        for _ in 0..<2 { try run(["play", phrase, "--speaker", "cravey_capture"]) }  // the most played
        let speaker = try Speaker(in: base)
        defer { speaker.stop() }
        let tmux = try terminal(
            "ride 8 --trigger bored --speaker cravey_capture",
            environment: ["CRAVEY_ALSA_OUTFILE": speaker.fifo, "CRAVEY_RIDE_ASK_SECONDS": "4"])
        var screen = try tmux.waitFor("▶ 🎙️ Long tone")
        XCTAssertTrue(screen.contains("Riding it out   minute 1 of 15"), screen)
        XCTAssertTrue(screen.contains("How strong: 8"), screen)
        try tmux.send("6", literal: true)
        try tmux.waitFor("How strong: 8 → 6")
        XCTAssertGreaterThan(speaker.bytesHeard, 0, "the message's sound reached the speaker")
        try tmux.send("n", literal: true)
        try tmux.waitFor("▶ 🎙️ Remember why")
        screen = try tmux.waitFor("How strong is it now? 1–10", timeout: 10)
        XCTAssertTrue(screen.contains("Enter keeps 6"), screen)
        try tmux.send("Enter")
        try tmux.waitFor("How strong: 8 → 6 → 6")
        try tmux.send("q", literal: true)
        screen = try tmux.waitFor("MODE=")
        XCTAssertTrue(screen.contains("It's coming down: from 8 to 6 in under a minute: 8 → 6 → 6."), screen)
        XCTAssertTrue(screen.contains("EXIT=0") && screen.contains("MODE=icanon"), screen)
        let ride = try XCTUnwrap(try cravings().first)
        XCTAssertEqual(ride.intensity, 8)
        XCTAssertEqual(ride.ratings.map { $0[1] }, [8, 6, 6])
        XCTAssertEqual(ride.ratings[0][0], 0)
        XCTAssertLessThanOrEqual(ride.ratings[1][0], ride.ratings[2][0])
        XCTAssertEqual(ride.played, [tone, phrase], "the one made for the trigger first")
        XCTAssertEqual(try playCount(tone), 1)
        XCTAssertEqual(try playCount(phrase), 3)
        let heard = try readS16(speaker.heard)
        XCTAssertGreaterThan(heard.count, 48_000, "over a second of sound was heard")
        XCTAssertGreaterThan(rmsDecibels(heard), -40, "and it is the tone, not silence")
    }

    /// A hang-up (the terminal closed) ends the ride and keeps its ratings; so does Ctrl-C's SIGINT.
    /// A ride on the screen keeps company now: a craving from over 30 minutes ago is refused in
    /// one line, and nothing is logged.
    func testARideOnTheScreenIsForACravingOfTheLastHalfHour() throws {
        let screen = try terminal("ride 8 --at -2h").waitFor("MODE=")
        XCTAssertTrue(screen.contains("the last 30 minutes") && !screen.contains("EXIT=0"), screen)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "no library made")
    }

    func testSIGHUPKeepsTheRatings() throws {
        let tmux = try terminal("ride 9 --speaker cravey_capture", environment: ["CRAVEY_ALSA_OUTFILE": "/dev/null"])
        let screen = try tmux.waitFor("How strong: 9")
        XCTAssertTrue(screen.contains("No messages yet"), screen)
        try tmux.send("7", literal: true)
        try tmux.waitFor("How strong: 9 → 7")
        kill(try pid(), SIGHUP)
        XCTAssertTrue(try tmux.waitFor("MODE=").contains("EXIT=0"))
        XCTAssertEqual(try cravings().first?.ratings.map { $0[1] }, [9, 7])
    }

    /// kill -9 mid-ride: the craving is logged with the ratings given, and the library checks clean.
    func testAKillMidRideKeepsTheCravingWithItsRatings() throws {
        _ = try message("Long tone", seconds: 20)
        let speaker = try Speaker(in: base)
        defer { speaker.stop() }
        let tmux = try terminal(
            "ride 6 --speaker cravey_capture", environment: ["CRAVEY_ALSA_OUTFILE": speaker.fifo])
        try tmux.waitFor("▶ 🎙️ Long tone")
        for (key, trail) in [("4", "6 → 4"), ("3", "6 → 4 → 3")] {
            try tmux.send(key, literal: true)
            try tmux.waitFor("How strong: " + trail)
        }
        kill(try pid(), SIGKILL)
        XCTAssertTrue(try tmux.waitFor("EXIT=").contains("EXIT=137"))
        XCTAssertEqual(try cravings().map(\.ratings).first?.map { $0[1] }, [6, 4, 3])
        XCTAssertEqual(try logs().count, 1)
        XCTAssertEqual(try run(["check"], status: nil).status, 0)
    }

    /// Without a speaker the message's words are shown, the breathing guide is a countdown
    /// without colour, and when the minutes are up the ride ends by itself.
    func testTimeUpEndsItAndAMissingSpeakerShowsTheWords() throws {
        let id = try message("Walk", seconds: 2)
        let tmux = try terminal(
            "ride 5 --minutes 4 --speaker cravey_nothing_here",
            environment: ["CRAVEY_RIDE_MINUTE_SECONDS": "2"])
        let screen = try tmux.waitFor("The sound can't play right now")
        XCTAssertTrue(
            screen.contains("'Walk'") && screen.contains("cravey doctor --speaker cravey_nothing_here"), screen)
        XCTAssertNotNil(screen.range(of: #"Breathe (in|out)… \d"#, options: .regularExpression), screen)
        let end = try tmux.waitFor("MODE=", timeout: 20)
        XCTAssertTrue(end.contains("You stayed with it — still at 5.") && end.contains("EXIT=0"), end)
        let ride = try XCTUnwrap(try cravings().first)
        XCTAssertEqual(ride.ratings, [[0, 5]])
        XCTAssertEqual(ride.played, [], "no words to show and nothing heard: not played \(id)")
    }

    // MARK: - The offer and home

    /// The offer after a craving lists the message made for its trigger first (and --play picks
    /// from the same order); o rides out the craving just logged, not a second one.
    func testTheOfferPutsTheTriggersMessageFirstAndRidesTheSameCraving() throws {
        let most = try message("Most played", seconds: 1)
        let bored = try message("For boredom", seconds: 1, for: "bored")
        for _ in 0..<3 { try run(["play", most, "--speaker", "cravey_capture"]) }
        try run(["craving", "7", "--trigger", "bored", "--play", "1", "--speaker", "cravey_capture"])
        XCTAssertEqual(try logs().first?["recordingId"] as? String, bored, "--play 1 is the trigger's message")
        try run(["craving", "7", "--trigger", "anxious", "--play", "1", "--speaker", "cravey_capture"])
        XCTAssertEqual(try logs().first?["recordingId"] as? String, most, "no message for it: the most played")
        let tmux = try terminal("craving 8 --trigger bored --speaker cravey_capture")
        let offer = try tmux.waitFor("Enter  not now")
        XCTAssertTrue(
            offer.contains(
                "Play one of your messages?\n  1  🎙️ For boredom\n  2  🎙️ Most played\n  o  🌊 Ride it out\n  Enter  not now"
            ),
            offer)
        try tmux.send("o", literal: true)
        try tmux.waitFor("Riding it out")
        try tmux.send("3", literal: true)
        try tmux.waitFor("How strong: 8 → 3")
        try tmux.send("p", literal: true)
        XCTAssertTrue(
            try tmux.waitFor("MODE=").contains("It passed: you rode it out. 💪\nFrom 8 to 3 in under a minute"))
        let all = try cravings()
        XCTAssertEqual(all.count, 3, "the ride is on the craving just logged")
        XCTAssertEqual(all.last?.ratings.map { $0[1] }, [8, 3])
    }

    /// Home's o: how strong it is (one key), the ride on home's own screen, then home with the
    /// ride's kind words.
    func testHomesKeyRidesItOut() throws {
        try run(["ride", "4", "--ratings", "2"])  // the library, with one ride in it
        let welcomed = try runProcess(
            "/usr/bin/sqlite3",
            [
                root + "/library.sqlite",
                "INSERT INTO setting (key, value) VALUES ('welcomed', '2026-01-01T00:00:00.000Z')",
            ])
        XCTAssertEqual(welcomed.status, 0, welcomed.stderr)
        let tmux = try terminal("home --speaker cravey_capture")
        XCTAssertTrue(try tmux.waitFor("LOG CRAVING").contains("  o  🌊 RIDE IT OUT"))
        try tmux.send("o", literal: true)
        try tmux.waitFor("How strong is it? 1–10")
        try tmux.send("0", literal: true)
        try tmux.waitFor("How strong: 10")
        try tmux.send("6", literal: true)
        try tmux.waitFor("How strong: 10 → 6")
        try tmux.send("q", literal: true)
        XCTAssertTrue(try tmux.waitFor("LOG CRAVING").contains("It's coming down: from 10 to 6"))
        try tmux.send("q", literal: true)
        XCTAssertTrue(try tmux.waitFor("MODE=").contains("EXIT=0"))
        XCTAssertEqual(try cravings().last?.ratings.map { $0[1] }, [10, 6])
    }
}
