import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `cravey nudge`: the systemd user units (checked by systemd-analyze verify; no user manager runs
/// here), the timer's run under the test clock over a known history (the hour, one a day, the rest
/// after two unused, nothing after a use or a ride), and the notification on a private session bus
/// answered by a small notification server, whose "Ride it out" opens the ride through the
/// xdg-terminal-exec stand-in with the server's activation token.
final class NudgeTests: BackgroundTestCase {
    func env(_ now: String, _ extra: [String: String] = [:]) -> [String: String] {
        ["CRAVEY_LIBRARY": root, "CRAVEY_NOW": now, "CRAVEY_TRANSCRIBE": "later", "CRAVEY_LOCK_WAIT": "3"].merging(
            extra
        ) { $1 }
    }

    /// cravey with `arguments` at the test clock's `now`.
    func at(_ now: String, _ arguments: [String], _ extra: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try runProcess(cravey, arguments, environment: env(now, extra))
    }

    /// Twelve cravings logged before 2026-11-20: six between 9 and 10 PM, three at 3 PM, three at 8 AM.
    func logHistory() throws {
        let evening = [5, 8, 11, 14, 17, 19].map { "2026-11-\(String(format: "%02d", $0)) 21:\(10 + $0)" }
        let afternoon = [6, 9, 12].map { "2026-11-\(String(format: "%02d", $0)) 15:30" }
        let morning = [7, 10, 13].map { "2026-11-\(String(format: "%02d", $0)) 08:05" }
        for time in evening + afternoon + morning {
            let logged = try at("2026-11-20T12:00:00", ["craving", "6", "--at", time])
            XCTAssertEqual(logged.status, 0, logged.stderr)
        }
    }

    var units: String { (Sentinel.folder ?? "") + "/.config/systemd/user" }

    func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    func testTheUnitsVerifyStatusSaysWhyAndOffLeavesNothing() throws {
        // No library yet: on all the same, looking every day at noon; nothing is made in the library.
        var out = try at("2026-11-20T12:00:00", ["nudge", "on"])
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertTrue(out.stdout.hasPrefix("The nudge is on"), out.stdout)
        XCTAssertTrue(
            out.stdout.contains(
                "no hour stands out yet (0 cravings in the last 28 days, and it takes 10); it looks again every day at 12:00."
            ), out.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "no library is made")
        XCTAssertEqual(
            Sentinel.contents(),
            [
                ".config/", ".config/systemd/", ".config/systemd/user/", ".config/systemd/user/cravey-nudge.service",
                ".config/systemd/user/cravey-nudge.timer", ".config/systemd/user/timers.target.wants/",
                ".config/systemd/user/timers.target.wants/cravey-nudge.timer",
            ])
        XCTAssertTrue(
            try String(contentsOfFile: units + "/cravey-nudge.timer", encoding: .utf8).contains(
                "OnCalendar=*-*-* 12:00:00"))

        try logHistory()
        out = try at("2026-11-20T12:00:00", ["nudge", "on", "--discreet"])
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertTrue(
            out.stdout.contains("around 9 PM is often hard for you, so a nudge comes at 20:45, once a day at most."),
            out.stdout)
        let written = try ["timer", "service"].map {
            try String(contentsOfFile: units + "/cravey-nudge." + $0, encoding: .utf8)
        }
        XCTAssertTrue(written[0].contains("OnCalendar=*-*-* 20:45:00\nUnit=cravey-nudge.service\n"), written[0])
        XCTAssertTrue(written[1].contains(" nudge run --library \"\(root)\" --discreet\n"), written[1])
        let link = units + "/timers.target.wants/cravey-nudge.timer"
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "../cravey-nudge.timer")
        let verified = try runProcess(
            "/usr/bin/systemd-analyze",
            ["verify"]
                + ["timer", "service"].map {
                    units + "/cravey-nudge." + $0
                })
        XCTAssertEqual(verified.status, 0, verified.stderr)

        out = try at("2026-11-20T12:00:00", ["nudge", "status"])
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(
            out.stdout,
            """
            The nudge is on, in words that name nothing.
            Around 9 PM is often hard: 6 of the 12 cravings of the last 28 days began between 9 and 10 PM.
            The next comes today at 20:45.

            """)
        let json = try jsonObject(try at("2026-11-20T12:00:00", ["nudge", "status", "--json"]).stdout)
        XCTAssertEqual(json["on"] as? Bool, true)
        XCTAssertEqual(json["discreet"] as? Bool, true)
        XCTAssertEqual(json["hour"] as? Int, 21)
        XCTAssertEqual(json["cravingsInHour"] as? Int, 6)
        XCTAssertEqual(json["cravings"] as? Int, 12)
        XCTAssertEqual(json["timer"] as? String, "20:45")
        XCTAssertEqual(json["next"] as? String, "2026-11-20 20:45")

        // A library path with a line break: one line, and nothing is written.
        let before = try String(contentsOfFile: units + "/cravey-nudge.service", encoding: .utf8)
        let hostile = try at(
            "2026-11-20T12:00:00", ["nudge", "on", "--library", base + "/lib\nExecStartPre=/bin/true"])
        XCTAssertEqual(hostile.status, 1, hostile.stdout)
        XCTAssertEqual(hostile.stderr.split(separator: "\n").count, 1, hostile.stderr)
        XCTAssertTrue(hostile.stderr.contains("cannot install the nudge: the library's path holds a line break"))
        XCTAssertEqual(try String(contentsOfFile: units + "/cravey-nudge.service", encoding: .utf8), before)
        // A subcommand it does not know: refused.
        XCTAssertNotEqual(try at("2026-11-20T12:00:00", ["nudge", "sometimes"]).status, 0)

        // Off: the units and the nudge's files in the library are gone.
        // Without a session bus: one line. With one, shown: the nudge's files are in the library.
        let noBus = try at("2026-11-20T20:45:00", ["nudge", "run"])
        XCTAssertEqual(noBus.status, 1)
        XCTAssertEqual(noBus.stderr.split(separator: "\n").count, 1, noBus.stderr)
        XCTAssertTrue(noBus.stderr.contains("no session bus"), noBus.stderr)
        let address = try startSessionBus()
        _ = try startNotificationServer(at: address)
        let shown = try at("2026-11-20T20:45:00", ["nudge", "run"], ["DBUS_SESSION_BUS_ADDRESS": address])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasPrefix("nudge") }.sorted(),
            ["nudge.pending", "nudge.state"])
        out = try at("2026-11-20T21:00:00", ["nudge", "off"])
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stdout, "The nudge is off; its timer and files are gone.\n")
        XCTAssertEqual(Sentinel.contents().filter { !$0.hasSuffix("/") }, [], "no file of cravey's is left")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasPrefix("nudge") }, [])
        out = try at("2026-11-20T21:00:00", ["nudge", "status"])
        XCTAssertTrue(out.stdout.hasPrefix("The nudge is off; 'cravey nudge on' starts it"), out.stdout)
        XCTAssertEqual(try at("2026-11-20T21:00:00", ["nudge", "off"]).stdout, "The nudge was not on.\n")
        Sentinel.allow([".config/systemd/user/timers.target.wants"])
    }

    /// The timer's run, day by day under the test clock, with a notification server that has no
    /// buttons (so the body says the commands, and nothing waits).
    func testTheRunKeepsItsRules() throws {
        // On before any craving: the timer looks at noon. The first run finds 9 PM and moves it to 20:45.
        XCTAssertEqual(try at("2026-11-01T09:00:00", ["nudge", "on"]).status, 0)
        try logHistory()
        let timer = units + "/cravey-nudge.timer"
        XCTAssertTrue(try String(contentsOfFile: timer, encoding: .utf8).contains("OnCalendar=*-*-* 12:00:00"))
        let before = try at("2026-11-20T10:00:00", ["nudge", "status"]).stdout
        XCTAssertTrue(before.hasSuffix("The next comes today at 20:45.\n"), before)
        let address = try startSessionBus()
        let served = try startNotificationServer(at: address)
        let bus = ["DBUS_SESSION_BUS_ADDRESS": address]
        func run(_ now: String) throws -> String {
            let out = try at(now, ["nudge", "run"], bus)
            XCTAssertEqual(out.status, 0, out.stderr)
            return out.stdout
        }
        func shown() -> Int {
            ((try? String(contentsOfFile: served, encoding: .utf8)) ?? "").components(separatedBy: "NOTIFY").count - 1
        }
        let mark = root + "/nudge.pending"

        XCTAssertEqual(
            try run("2026-11-20T10:00:00"),
            "No nudge: not the time; around 9 PM is often hard, and the nudge comes at 20:45.\n")
        XCTAssertTrue(try String(contentsOfFile: timer, encoding: .utf8).contains("OnCalendar=*-*-* 20:45:00"))
        XCTAssertEqual(try run("2026-11-20T20:45:00"), "Nudge shown: around 9 PM is often hard.\n")
        let said = waitForFile(served, containing: "NOTIFY")
        XCTAssertTrue(
            said.contains(
                "NOTIFY cravey | Around 9 PM is often hard | Your messages are one key away.\n\nRide it out: cravey launch ride\nPlay my message: cravey launch play | [] |"
            ), said)
        XCTAssertEqual(mode(root + "/nudge.state"), 0o600)
        XCTAssertEqual(mode(mark), 0o600)
        XCTAssertEqual(try run("2026-11-20T20:50:00"), "No nudge: today's came already (one a day at most).\n")
        // Neither status answers the nudge, nor changes a file.
        let state = try Data(contentsOf: URL(fileURLWithPath: root + "/nudge.state"))
        XCTAssertEqual(try at("2026-11-20T21:00:00", ["nudge", "status"]).status, 0)
        XCTAssertEqual(try at("2026-11-20T21:00:00", ["status"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: mark), "still waiting for its answer")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: root + "/nudge.state")), state)

        // No command followed it: unused once, shown again; unused twice: resting for 7 days.
        XCTAssertEqual(try run("2026-11-21T20:45:00"), "Nudge shown: around 9 PM is often hard.\n")
        XCTAssertEqual(
            try run("2026-11-22T20:45:00"),
            "No nudge: resting after two nudges in a row went by unused; it tries again on 2026-11-29.\n")
        XCTAssertTrue(try run("2026-11-28T20:45:00").contains("resting"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: mark), "found unused: the mark is taken away")
        let resting = try at("2026-11-25T12:00:00", ["nudge", "status"]).stdout
        XCTAssertTrue(
            resting.contains(
                "It is resting after two nudges in a row went by unused; the next comes on Sunday, Nov 29 at 20:45."),
            resting)
        XCTAssertEqual(try run("2026-11-29T20:45:00"), "Nudge shown: around 9 PM is often hard.\n")
        XCTAssertEqual(shown(), 3)

        // A command within the hour answers it; one later does not.
        XCTAssertEqual(try at("2026-11-29T21:10:00", ["log"]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: mark), "answered")
        XCTAssertEqual(try run("2026-11-30T20:45:00"), "Nudge shown: around 9 PM is often hard.\n")
        XCTAssertEqual(try at("2026-11-30T22:00:00", ["log"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: mark), "too late to answer it")

        // A use in the last hour, then a ride: no nudge.
        XCTAssertEqual(try at("2026-12-01T20:10:00", ["use", "bowls", "1"]).status, 0)
        XCTAssertEqual(try run("2026-12-01T20:45:00"), "No nudge: a use was logged in the last hour.\n")
        let ride = try at("2026-12-02T20:20:00", ["ride", "7", "--ratings", "5,3"])
        XCTAssertEqual(ride.status, 0, ride.stderr)
        XCTAssertEqual(try run("2026-12-02T20:45:00"), "No nudge: a ride was on in the last hour.\n")
        XCTAssertEqual(shown(), 4)
        let json = try jsonObject(try at("2026-12-02T21:00:00", ["nudge", "status", "--json"]).stdout)
        XCTAssertEqual(json["unusedInARow"] as? Int, 1, "the 30th's went by unused")
        XCTAssertEqual(json["lastShown"] as? String, "2026-11-30 20:45")

        // The nudge's files are the library's own: `check` holds them private as it holds the others.
        XCTAssertEqual(try at("2026-12-02T21:00:00", ["check"]).status, 0)
        chmod(root + "/nudge.state", 0o644)
        let loose = try at("2026-12-02T21:00:00", ["check"])
        XCTAssertNotEqual(loose.status, 0)
        XCTAssertTrue(loose.stdout.contains("be read by other accounts"), loose.stdout)
        XCTAssertTrue(loose.stdout.contains("nudge.state"), loose.stdout)

        // Fewer than 10 cravings in the 28 days: none, and the run says why.
        XCTAssertEqual(
            try run("2026-12-10T20:45:00"),
            "No nudge: 5 cravings in the last 28 days, and it takes 10 to find an hour that is often hard.\n")
        XCTAssertTrue(
            try String(contentsOfFile: timer, encoding: .utf8).contains("OnCalendar=*-*-* 20:45:00"),
            "no hour: the timer stays where it was")
        XCTAssertEqual(try at("2026-12-10T21:00:00", ["nudge", "off"]).status, 0)
        Sentinel.allow([".config/systemd/user/timers.target.wants"])
    }

    func testRideItOutOpensTheRideWithTheServersToken() throws {
        try logHistory()
        let address = try startSessionBus()
        let served = try startNotificationServer(
            at: address, capabilities: ["actions", "body", "body-markup"], answer: "ride")
        let desktop = [
            "DBUS_SESSION_BUS_ADDRESS": address, "DISPLAY": ":0", "WAYLAND_DISPLAY": "", "TERMINAL": "",
            "PATH": try standInTerminalExec() + ":/usr/bin:/bin",
        ]
        let began = Date()
        let out = try at("2026-11-20T20:45:00", ["nudge", "run"], desktop)
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(began), 30, "the answer ended the wait")
        let said = waitForFile(served, containing: "NOTIFY")
        XCTAssertTrue(
            said.contains(
                "NOTIFY cravey | Around 9 PM is often hard | Your messages are one key away. | ['default', 'Ride it out', 'ride', 'Ride it out', 'play', 'Play my message'] |"
            ), said)
        let args = waitForFile(base + "/terminal.args", containing: root)
        XCTAssertEqual(
            args,
            ["--app-id=cravey", "--title=cravey", productPath("cravey"), "ride", "--library", root, ""].joined(
                separator: "\n"))
        let given = waitForFile(base + "/terminal.env", containing: "PATH")
        XCTAssertTrue(given.contains("XDG_ACTIVATION_TOKEN=token-from-the-server\n"), given)
        XCTAssertFalse(given.contains("CRAVEY_NOW"), "nothing of the test's clock")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/nudge.pending"), "answered")

        // Not answered, and the run asked to stop: it ends, and withdraws the nudge.
        for process in processes where process.executableURL?.path == "/usr/bin/python3" {
            process.terminate(); process.waitUntilExit()
        }
        let unanswered = try startNotificationServer(at: address, capabilities: ["actions", "body"])
        let waiting = try start(
            cravey, ["nudge", "run"], environment: env("2026-11-21T20:45:00", desktop), output: base + "/waiting.out")
        assertAStopWithdrawsTheOffer(waiting, server: unanswered)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: root + "/nudge.pending"), "withdrawn early: not counted unused")
    }

    /// "Play my message" plays the top message with no window, as `cravey launch play` does: its
    /// sound reaches the speaker (ALSA's default device made a file, for the process the nudge
    /// starts, which is given nothing of the tests' own variables).
    func testPlayMyMessagePlaysTheTopMessage() throws {
        try logHistory()
        let made = try at(
            "2026-11-20T12:00:00",
            ["record", "audio", "--mic", "cravey_file", "--max-seconds", "2", "--title", "Call Sam"],
            ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": phraseFixture])
        XCTAssertEqual(made.status, 0, made.stderr)
        let speaker = base + "/speaker.raw"
        let configuration = base + "/speaker.conf"
        try """
        <confdir:alsa.conf>
        pcm.!default {
            type plug
            slave {
                pcm { type file slave.pcm "null" file "\(speaker)" format "raw" }
                format S16_LE
                rate 48000
                channels 1
            }
        }

        """.write(toFile: configuration, atomically: true, encoding: .utf8)
        let address = try startSessionBus()
        let served = try startNotificationServer(at: address, capabilities: ["actions", "body"], answer: "play")
        let out = try at(
            "2026-11-20T20:45:00", ["nudge", "run"],
            [
                "DBUS_SESSION_BUS_ADDRESS": address, "ALSA_CONFIG_PATH": configuration, "DISPLAY": "",
                "WAYLAND_DISPLAY": "",
            ])
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertTrue(waitForFile(served, containing: "NOTIFY").contains("'play', 'Play my message'"))
        let deadline = Date() + 20
        while ((try? readS16(speaker))?.count ?? 0) < 48_000 && Date() < deadline { usleep(100_000) }
        let played = (try? readS16(speaker)) ?? []
        XCTAssertGreaterThan(played.count, 48_000, "the message's samples reached the speaker")
        XCTAssertGreaterThan(rmsDecibels(played.dropFirst(48_000 * 120 / 1000)), -40, "its sound, not silence")
    }

    /// Discreet words name nothing: not cravey, not cannabis, not a craving, not a use.
    func testDiscreetWordsNameNothing() throws {
        try logHistory()
        let address = try startSessionBus()
        let buttons = try startNotificationServer(at: address, capabilities: ["actions", "body"], answer: "closed")
        let bus = ["DBUS_SESSION_BUS_ADDRESS": address]
        XCTAssertEqual(try at("2026-11-20T20:45:00", ["nudge", "run", "--discreet"], bus).status, 0)
        let withButtons = waitForFile(buttons, containing: "NOTIFY")
        XCTAssertTrue(
            withButtons.contains(
                "NOTIFY Reminder | A moment for yourself | Around 9 PM can be a lot. Something kind is one click away. | ['default', 'Take a breath', 'ride', 'Take a breath', 'play', 'Listen'] |"
            ), withButtons)
        for process in processes where process.executableURL?.path == "/usr/bin/python3" {
            process.terminate(); process.waitUntilExit()
        }
        let plain = try startNotificationServer(at: address)
        XCTAssertEqual(try at("2026-11-21T20:45:00", ["nudge", "run", "--discreet"], bus).status, 0)
        let withoutButtons = waitForFile(plain, containing: "NOTIFY")
        XCTAssertTrue(
            withoutButtons.contains(
                "NOTIFY Reminder | A moment for yourself | Around 9 PM can be a lot. Take a moment for yourself. | [] |"
            ),
            withoutButtons)
        for line in (withButtons + withoutButtons).lowercased().split(separator: "\n") where line.hasPrefix("notify") {
            for word in ["cravey", "cannabis", "crav", "use", "weed", "ride"] {
                XCTAssertFalse(
                    line.replacingOccurrences(of: "'ride'", with: "").contains(word), "\(word) in \(line)")
            }
        }
    }
}
