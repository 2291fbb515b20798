import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The desktop's notifications shown by a notification server people use, dunst (1.9, Debian 12's),
/// on a private session bus under Xvfb: what it shows is read from its own `-print` log, and
/// `dunstctl` answers as a person does — `dunstctl action 0` is a click on the notification (its
/// default action), `dunstctl close` dismisses it.
final class DunstTests: BackgroundTestCase {
    /// dunst's own log of every notification it shows.
    var shown: String { base + "/dunst.out" }
    var desktop: [String: String] = [:]

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dunst") else {
            XCTFail("dunst is not installed: bash Tests/install-deps.sh installs it")
            return
        }
        let display = try startXvfb()
        processes.append(display.process)
        let address = try startSessionBus()
        desktop = ["DBUS_SESSION_BUS_ADDRESS": address, "DISPLAY": display.display, "WAYLAND_DISPLAY": ""]
        // Its defaults (no configuration of the person's), a home of the test's own.
        try start(
            "/usr/bin/dunst", ["-print", "-config", base + "/no-dunstrc"],
            environment: desktop.merging(["HOME": base, "XDG_CONFIG_HOME": base + "/config"]) { $1 }, output: shown)
        let deadline = Date() + 10
        while dunstctl(["count", "displayed"]).status != 0 && Date() < deadline { usleep(100_000) }
        XCTAssertEqual(dunstctl(["count", "displayed"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines), "0")
    }

    @discardableResult
    func dunstctl(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        (try? runProcess("/usr/bin/dunstctl", arguments, environment: desktop)) ?? (-1, "", "")
    }

    /// A stand-in terminal that writes its arguments to `terminal.args`.
    func standInTerminal() throws -> String {
        let terminal = base + "/terminal"
        try """
        #!/bin/sh
        printf '%s\\n' "$@" > \(shellQuote(base + "/terminal.args"))

        """.write(toFile: terminal, atomically: true, encoding: .utf8)
        chmod(terminal, 0o755)
        return terminal
    }

    /// `arguments` run in the background with `environment` over the desktop's, its output kept.
    func background(_ arguments: [String], _ environment: [String: String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cravey)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(desktop) { $1 }.merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        processes.append(process)
        return (process, out)
    }

    /// Waits until dunst shows a notification (it is displayed and in its log).
    func waitUntilShown(containing text: String) -> String {
        let deadline = Date() + 20
        while dunstctl(["count", "displayed"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0"
            && Date() < deadline
        {
            usleep(100_000)
        }
        return waitForFile(shown, containing: text)
    }

    /// Once dunst shows a notification with each of `lines`, clicks on it: `process` ends with
    /// `status`, and the terminal was opened on `screen`.
    func click(
        _ process: Process, showing lines: [String], ends status: Int32, opening screen: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let log = waitUntilShown(containing: "actions:")
        for text in lines { XCTAssertTrue(log.contains(text), "\(text) in \(log)", file: file, line: line) }
        XCTAssertEqual(dunstctl(["action", "0"]).status, 0, file: file, line: line)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, status, file: file, line: line)
        let args = waitForFile(base + "/terminal.args", containing: screen)
        XCTAssertTrue(args.hasSuffix("\n\(screen)\n--library\n\(root)\n"), args, file: file, line: line)
    }

    func testAClickOnTheReminderOpensTheCheckIn() throws {
        XCTAssertEqual(try runProcess(cravey, ["craving", "4", "--library", root]).status, 0)
        let (reminder, out) = try background(
            ["checkin", "notify", "--answer-seconds", "60"],
            ["CRAVEY_LIBRARY": root, "CRAVEY_NOW": "2026-11-21T21:00:00", "TERMINAL": try standInTerminal()])
        click(
            reminder,
            showing: ["summary: 'A moment for yourself'", "\"default\": \"Check in\"", "\"not-today\": \"Not today\""],
            ends: 0, opening: "checkin")
        XCTAssertEqual(
            String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            "Check in: opened the check-in in terminal ($TERMINAL).\n")
    }

    func testADismissedReminderChangesNothing() throws {
        XCTAssertEqual(try runProcess(cravey, ["craving", "4", "--library", root]).status, 0)
        let (reminder, out) = try background(
            ["checkin", "notify", "--answer-seconds", "60"],
            ["CRAVEY_LIBRARY": root, "CRAVEY_NOW": "2026-11-21T21:00:00", "TERMINAL": try standInTerminal()])
        _ = waitUntilShown(containing: "actions:")
        XCTAssertEqual(dunstctl(["close"]).status, 0)
        reminder.waitUntilExit()
        XCTAssertEqual(
            String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            "The reminder was closed; nothing changed.\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: base + "/terminal.args"), "nothing was opened")
    }

    func testWithNoSpeakerTheWordsComeAndAClickRidesItOut() throws {
        let alsa = ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_TRANSCRIBE": "later", "CRAVEY_LIBRARY": root]
        let made = try runProcess(
            cravey, ["record", "audio", "--mic", "cravey_file", "--max-seconds", "2", "--title", "Call Sam"],
            environment: alsa.merging(["CRAVEY_ALSA_INFILE": phraseFixture]) { $1 })
        XCTAssertEqual(made.status, 0, made.stderr)
        let id = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let sql = try runProcess(
            "/usr/bin/sqlite3",
            [
                root + "/library.sqlite",
                "INSERT INTO transcript (recordingId, state, text, words, engine, model, madeAt) VALUES ('\(id)', 'done', 'You got this. Call Sam now.', '[]', 'faster-whisper', 'test', '2026-11-20T10:00:00.000Z')",
            ])
        XCTAssertEqual(sql.status, 0, sql.stderr)
        // As a desktop key starts it: no terminal, descriptors 0–2 closed.
        let line = [cravey, "play", "--top", "--speaker", "cravey_no_such_speaker"].map(shellQuote).joined(
            separator: " ")
        let play = Process()
        play.executableURL = URL(fileURLWithPath: "/bin/sh")
        play.arguments = ["-c", "exec \(line) 0<&- 1>&- 2>&-"]
        play.environment = ProcessInfo.processInfo.environment.merging(desktop) { $1 }.merging(alsa) { $1 }
            .merging(["TERMINAL": try standInTerminal(), "PATH": "/usr/bin:/bin"]) { $1 }
        try play.run()
        processes.append(play)
        // The sound did not play (1); the words came, and a click opened the ride.
        click(
            play, showing: ["summary: ''Call Sam''", "You got this. Call Sam now.", "\"default\": \"Ride it out\""],
            ends: 1, opening: "ride")
    }
}
