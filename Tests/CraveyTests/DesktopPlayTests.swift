import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `cravey play --top` as a desktop key runs it: no terminal, standard input, output and error
/// closed. The sound reaches ALSA's file plugin and no file cravey opens takes their numbers; with
/// no speaker the words come in a notification (a notification server on a private session bus
/// reads it), whose "Ride it out" opens the ride in a terminal with the token the server sent.
final class DesktopPlayTests: BackgroundTestCase {
    func env(_ extra: [String: String] = [:]) -> [String: String] {
        ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_TRANSCRIBE": "later", "CRAVEY_LIBRARY": root].merging(extra) {
            $1
        }
    }

    func record() throws -> String {
        let made = try runProcess(
            cravey, ["record", "audio", "--mic", "cravey_file", "--max-seconds", "2", "--title", "Call Sam"],
            environment: env(["CRAVEY_ALSA_INFILE": phraseFixture]))
        XCTAssertEqual(made.status, 0, made.stderr)
        return made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `arguments` run by cravey with descriptors 0, 1 and 2 closed, as a desktop key may start it.
    func closed(_ arguments: [String], _ environment: [String: String], trace: String? = nil) throws -> Int32 {
        let strace = trace.map { ["/usr/bin/strace", "-f", "-qq", "-e", "trace=openat", "-o", $0] } ?? []
        let line = (strace + [cravey] + arguments).map(shellQuote).joined(separator: " ")
        return try runProcess("/bin/sh", ["-c", "exec \(line) 0<&- 1>&- 2>&-"], environment: environment).status
    }

    /// The environment of a desktop session on the bus at `address` whose terminal is a stand-in
    /// that writes what it was given (its arguments to `terminal.args`, its environment to
    /// `terminal.env`), with `extra`.
    func desktopWithStandInTerminal(_ address: String, _ extra: [String: String] = [:]) throws -> [String: String] {
        let terminal = base + "/terminal"
        try """
        #!/bin/sh
        printf '%s\\n' "$@" > \(shellQuote(base + "/terminal.args"))
        env > \(shellQuote(base + "/terminal.env"))

        """.write(toFile: terminal, atomically: true, encoding: .utf8)
        chmod(terminal, 0o755)
        return env([
            "DBUS_SESSION_BUS_ADDRESS": address, "DISPLAY": ":0", "TERMINAL": terminal, "PATH": "/usr/bin:/bin",
        ]).merging(extra) { $1 }
    }

    func testPlayTopWithStandardDescriptorsClosedReachesTheSpeaker() throws {
        _ = try record()
        let speaker = base + "/speaker.raw"
        let trace = base + "/opens"
        let status = try closed(
            ["play", "--top", "--speaker", "cravey_capture"], env(["CRAVEY_ALSA_OUTFILE": speaker]), trace: trace)
        XCTAssertEqual(status, 0)
        let written = try readS16(speaker)
        XCTAssertGreaterThan(written.count, 48_000, "the message's samples reached the speaker")
        XCTAssertGreaterThan(rmsDecibels(written.dropFirst(48_000 * 120 / 1000)), -40, "its sound, not silence")
        // Every file cravey opened got a number above 2 but /dev/null, opened in their place.
        let opens = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("openat(") && !$0.contains("/dev/null") && !$0.contains("execve") }
        let low = opens.filter { line in [" = 0", " = 1", " = 2"].contains { line.hasSuffix($0) } }
            .filter { $0.contains(base) }
        XCTAssertEqual(low, [], "no file of the library took descriptor 0, 1 or 2")
        let check = try runProcess(cravey, ["check"], environment: env())
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertTrue(
            try runProcess(cravey, ["show", "--json", "Call"], environment: env()).stdout.contains("\"playCount\":1"))
    }

    /// A video from a key with no display: its sound plays, and nothing waits for a window.
    func testAVideosSoundPlaysWithoutADisplay() throws {
        let clip = base + "/clip.mp4"
        let made = try runProcess(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=2", "-f", "lavfi", "-i",
                "sine=d=2", "-c:v", "libx264", "-c:a", "aac", clip,
            ])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(try runProcess(cravey, ["import", clip, "--title", "clip"], environment: env()).status, 0)
        let speaker = base + "/speaker.raw"
        let status = try closed(
            ["play", "--top", "--speaker", "cravey_capture"],
            env(["CRAVEY_ALSA_OUTFILE": speaker, "DISPLAY": "", "WAYLAND_DISPLAY": ""]))
        XCTAssertEqual(status, 0)
        XCTAssertGreaterThan(try readS16(speaker).count, 48_000 * 3 / 2, "its sound reached the speaker")
    }

    func testNoSpeakerFromTheDesktopShowsTheWordsWithRideItOut() throws {
        let id = try record()
        // A Whisper draft: the words a notification may show.
        let sql = try runProcess(
            "/usr/bin/sqlite3",
            [
                root + "/library.sqlite",
                "INSERT INTO transcript (recordingId, state, text, words, engine, model, madeAt) VALUES ('\(id)', 'done', 'You got this. Call Sam <now> & breathe.', '[]', 'faster-whisper', 'test', '2026-11-20T10:00:00.000Z')",
            ])
        XCTAssertEqual(sql.status, 0, sql.stderr)
        let address = try startSessionBus()
        let served = try startNotificationServer(
            at: address, capabilities: ["actions", "body", "body-markup"], answer: "ride")
        let desktop = try desktopWithStandInTerminal(address)
        let began = Date()
        let status = try closed(["play", "--top", "--speaker", "cravey_no_such_speaker"], desktop)
        XCTAssertEqual(status, 1, "a script still hears the sound did not play")
        XCTAssertLessThan(Date().timeIntervalSince(began), 30, "the answer ended the wait")
        let shown = waitForFile(served, containing: "NOTIFY")
        XCTAssertTrue(shown.contains("NOTIFY cravey | 'Call Sam' | The sound can't play right now"), shown)
        XCTAssertTrue(shown.contains("here are the words of 'Call Sam' (an automatic draft):"), shown)
        XCTAssertTrue(shown.contains("You got this. Call Sam &lt;now&gt; &amp; breathe."), "escaped markup: \(shown)")
        XCTAssertTrue(
            shown.contains("| ['default', 'Ride it out', 'ride', 'Ride it out'] | {'desktop-entry': 'cravey'}"), shown)
        XCTAssertFalse(shown.contains("CLOSE"), "answered: not withdrawn")
        let args = (try? String(contentsOfFile: base + "/terminal.args", encoding: .utf8)) ?? ""
        XCTAssertTrue(args.hasSuffix("\nride\n--library\n\(root)\n"), "Ride it out opened the ride: \(args)")
        let given = (try? String(contentsOfFile: base + "/terminal.env", encoding: .utf8)) ?? ""
        XCTAssertTrue(given.contains("XDG_ACTIVATION_TOKEN=token-from-the-server\n"), given)
        XCTAssertTrue(given.contains("CRAVEY_LIBRARY=\(root)\n"), "the person's library setting reaches the terminal")
        XCTAssertTrue(
            try runProcess(cravey, ["show", "--json", id], environment: env()).stdout.contains("\"playCount\":1"),
            "read: counted as played")

        // Dismissed: the wait ends at once, and no window opens.
        try FileManager.default.removeItem(atPath: base + "/terminal.args")
        for process in processes where process.executableURL?.path == "/usr/bin/python3" {
            process.terminate(); process.waitUntilExit()
        }
        let dismissed = try startNotificationServer(at: address, capabilities: ["actions", "body"], answer: "closed")
        let closing = Date()
        XCTAssertEqual(try closed(["play", "--top", "--speaker", "cravey_no_such_speaker"], desktop), 1)
        XCTAssertLessThan(Date().timeIntervalSince(closing), 15, "closed: nothing left waiting")
        XCTAssertTrue(waitForFile(dismissed, containing: "NOTIFY").contains("| ['default', 'Ride it out'"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: base + "/terminal.args"), "no window opened")

        // Not answered, and the process asked to stop (SIGTERM): it ends, and withdraws the offer.
        for process in processes where process.executableURL?.path == "/usr/bin/python3" {
            process.terminate(); process.waitUntilExit()
        }
        let unanswered = try startNotificationServer(at: address, capabilities: ["actions", "body"])
        let line = ([cravey, "play", "--top", "--speaker", "cravey_no_such_speaker"]).map(shellQuote)
            .joined(separator: " ")
        let waiting = try start(
            "/bin/sh", ["-c", "exec \(line) 0<&- 1>&- 2>&-"], environment: desktop, output: base + "/waiting.out")
        assertAStopWithdrawsTheOffer(waiting, server: unanswered)
        XCTAssertFalse(FileManager.default.fileExists(atPath: base + "/terminal.args"), "no window opened")

        // A server without actions: the body says the command, and nothing waits.
        for process in processes where process.executableURL?.path == "/usr/bin/python3" {
            process.terminate(); process.waitUntilExit()
        }
        let plain = try startNotificationServer(at: address)
        let quick = Date()
        XCTAssertEqual(try closed(["play", "--top", "--speaker", "cravey_no_such_speaker"], desktop), 1)
        XCTAssertLessThan(Date().timeIntervalSince(quick), 15, "nothing to wait for")
        let said = waitForFile(plain, containing: "NOTIFY")
        XCTAssertTrue(said.contains("Ride it out: cravey launch ride"), said)
        XCTAssertTrue(said.contains("Call Sam <now> & breathe."), "no markup to escape: \(said)")
        XCTAssertTrue(said.contains("| [] |"), "no actions offered: \(said)")
        XCTAssertFalse(said.contains("CLOSE"), "left on the screen for the person to read")
    }

    /// A craving logged from a key with a message to play and no speaker: the craving is logged
    /// once, and no notification offers a ride (which would log a second craving).
    func testACravingsPlayOffersNoRide() throws {
        _ = try record()
        let address = try startSessionBus()
        let served = try startNotificationServer(at: address, capabilities: ["actions", "body"], answer: "ride")
        let desktop = try desktopWithStandInTerminal(address)
        XCTAssertEqual(
            try closed(["craving", "7", "--play", "1", "--speaker", "cravey_no_such_speaker"], desktop), 1,
            "a script hears the sound did not play")
        usleep(1_500_000)
        XCTAssertFalse(waitForFile(served, containing: "NOTIFY", timeout: 1).contains("NOTIFY"), "no offer")
        XCTAssertFalse(FileManager.default.fileExists(atPath: base + "/terminal.args"), "no ride opened")
        let cravings = try runProcess(cravey, ["log", "--json"], environment: env())
        XCTAssertEqual(cravings.stdout.components(separatedBy: "\"intensity\":7").count - 1, 1, cravings.stdout)
    }

    /// The offer never expires by itself (expire_timeout 0, read with dbus-monitor): cravey
    /// withdraws it. Only the notification server answers it: an ActionInvoked another program
    /// sends on the session bus is not taken for the person's choice.
    func testTheOfferIsTheServersAloneAndDoesNotExpire() throws {
        _ = try record()
        let address = try startSessionBus()
        let monitored = base + "/monitor.out"
        try start(
            "/usr/bin/dbus-monitor",
            ["--address", address, "type='method_call',interface='org.freedesktop.Notifications',member='Notify'"],
            output: monitored)
        let served = try startNotificationServer(at: address, capabilities: ["actions", "body"])
        let desktop = try desktopWithStandInTerminal(address)
        let line = ([cravey, "play", "--top", "--speaker", "cravey_no_such_speaker"]).map(shellQuote)
            .joined(separator: " ")
        let waiting = try start(
            "/bin/sh", ["-c", "exec \(line) 0<&- 1>&- 2>&-"], environment: desktop, output: base + "/waiting.out")
        XCTAssertTrue(waitForFile(served, containing: "NOTIFY").contains("NOTIFY"))
        let call = waitForFile(monitored, containing: "desktop-entry")
        let afterHints = call.components(separatedBy: "desktop-entry").last ?? ""
        XCTAssertTrue(afterHints.contains("int32 0"), "never expires: \(call)")
        XCTAssertFalse(afterHints.contains("int32 -1"), call)
        // Another client fakes the answer: ignored.
        let fake = try runProcess(
            "/usr/bin/gdbus",
            [
                "emit", "--session", "--object-path", "/org/freedesktop/Notifications", "--signal",
                "org.freedesktop.Notifications.ActionInvoked", "uint32 7", "'ride'",
            ], environment: ["DBUS_SESSION_BUS_ADDRESS": address])
        XCTAssertEqual(fake.status, 0, fake.stderr)
        usleep(1_500_000)
        XCTAssertTrue(waiting.isRunning, "still waiting for the server's answer")
        XCTAssertFalse(FileManager.default.fileExists(atPath: base + "/terminal.args"), "no window opened")
        waiting.terminate()
        waiting.waitUntilExit()
        XCTAssertTrue(waitForFile(served, containing: "CLOSE 7").contains("CLOSE 7"), "withdrawn by cravey")
    }

    /// A server that sends no activation token: the ride's window gets none, not the one that
    /// started `play` (used already).
    func testNoTokenFromTheServerPassesNoStaleOne() throws {
        _ = try record()
        let address = try startSessionBus()
        _ = try startNotificationServer(at: address, capabilities: ["actions", "body"], answer: "ride", token: nil)
        let desktop = try desktopWithStandInTerminal(
            address, ["XDG_ACTIVATION_TOKEN": "used-by-the-key", "DESKTOP_STARTUP_ID": "used-by-the-key"])
        XCTAssertEqual(try closed(["play", "--top", "--speaker", "cravey_no_such_speaker"], desktop), 1)
        let given = waitForFile(base + "/terminal.env", containing: "PATH=")
        XCTAssertTrue(given.contains("PATH="), "the ride was opened")
        XCTAssertFalse(given.contains("used-by-the-key"), given)
        XCTAssertFalse(given.contains("XDG_ACTIVATION_TOKEN="), given)
        XCTAssertFalse(given.contains("DESKTOP_STARTUP_ID="), given)
    }

    /// A session bus that has stopped answering (its daemon stopped): every call of the offer's
    /// connection is given up on within seconds, not sd-bus's default of 25 each, and the play ends.
    func testAWedgedSessionBusIsGivenUpOnInSeconds() throws {
        _ = try record()
        let address = try startSessionBus()
        _ = try startNotificationServer(at: address, capabilities: ["actions", "body"])
        let daemon = try XCTUnwrap(processes.first { $0.executableURL?.path == "/usr/bin/dbus-daemon" })
        kill(daemon.processIdentifier, SIGSTOP)
        defer { kill(daemon.processIdentifier, SIGCONT) }
        let began = Date()
        XCTAssertEqual(
            try closed(
                ["play", "--top", "--speaker", "cravey_no_such_speaker"], try desktopWithStandInTerminal(address)),
            1)
        XCTAssertLessThan(Date().timeIntervalSince(began), 15, "no call waited 25 seconds")
    }
}
