import CraveyPlayer
import CraveyTestSupport
import Foundation
import XCTest

@testable import cravey
import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

/// The toolkit in the built program: the player's keys are terminal keys, raw mode is given back
/// after a signal, and a question takes one key.
final class TerminalScreenTests: XCTestCase {
    /// Calm screens are on for a dumb terminal or when reduced motion is asked for.
    func testCalmIsChosenByTheEnvironment() {
        XCTAssertTrue(Calm.isOn(["TERM": "dumb"]))
        XCTAssertTrue(Calm.isOn(["TERM": "xterm", "CRAVEY_REDUCED_MOTION": "1"]))
        XCTAssertFalse(Calm.isOn(["TERM": "xterm", "CRAVEY_REDUCED_MOTION": "0"]))
        XCTAssertFalse(Calm.isOn(["TERM": "xterm-256color"]))
    }

    func testThePlayerKeysAreTerminalKeys() {
        XCTAssertEqual(
            Key.keys(in: Array(" \u{1B}[C\u{1B}[Dqxyz".utf8)).compactMap(PlayerKey.init),
            [.pauseResume, .forward, .back, .stop])
        XCTAssertEqual(PlayerKey(Key.escape), .stop, "Esc alone stops")
    }

    /// A screen in raw mode (the check-in's greeting) stopped by SIGTERM: the shell after it finds
    /// the terminal as it was (canonical input, echo on).
    func testRawModeIsRestoredAfterASignal() throws {
        let base = FileManager.default.temporaryDirectory.path + "/cravey-toolkit-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let before = base + "/before", after = base + "/after", pid = base + "/pid"
        let command =
            "echo $$ > \(pid); exec \(shellQuote(craveyUnderTest)) checkin --library \(shellQuote(base + "/lib"))"
        let tmux = try TmuxSession(
            "stty -a > \(before); sh -c \(shellQuote(command)); stty -a > \(after); echo DONE; sleep 30")
        defer { tmux.close() }
        _ = try tmux.waitFor("Take a moment for yourself")
        let raw = try runProcess("/bin/sh", ["-c", "stty -a < /proc/$(cat \(pid))/fd/0"]).stdout
        XCTAssertTrue(raw.contains("-icanon") && raw.contains("-echo "), "raw while the screen is up: \(raw)")
        _ = try runProcess("/bin/sh", ["-c", "kill -TERM $(cat \(pid))"])
        _ = try tmux.waitFor("DONE")
        let settings = try String(contentsOfFile: after, encoding: .utf8)
        XCTAssertFalse(settings.contains("-icanon"), settings)
        XCTAssertFalse(settings.contains("-echo "), settings)
        XCTAssertEqual(
            settings, try String(contentsOfFile: before, encoding: .utf8), "the terminal's settings as before")
    }

    /// The window closed under a screen (the terminal hangs up and answers every write with EIO):
    /// home, the check-in's greeting and the log form each end without a crash (a crash is a
    /// status above 128, 128 plus the signal's number, its report lost with the window) and keep
    /// what was saved.
    func testAWindowClosedUnderAScreenEndsItWithoutACrash() throws {
        let base = FileManager.default.temporaryDirectory.path + "/cravey-hangup-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let library = base + "/lib"
        let logged = try runProcess(craveyUnderTest, ["craving", "4", "--library", library])
        XCTAssertEqual(logged.status, 0, logged.stderr)
        for (index, (arguments, shown)) in [
            ("home", "LOG CRAVING"), ("checkin", "Take a moment for yourself"), ("craving", "Log Craving"),
        ].enumerated() {
            let status = base + "/status\(index)"
            // The shell waiting for cravey outlives the window; cravey itself hears the hang-up as
            // any program in a closed window does.
            let command =
                "trap '' HUP; env --default-signal=HUP NO_COLOR=1 CRAVEY_TRANSCRIBE=later \(shellQuote(craveyUnderTest)) "
                + "\(arguments) --library \(shellQuote(library)); echo $? > \(shellQuote(status))"
            let tmux = try TmuxSession("sh -c \(shellQuote(command))")
            _ = try tmux.waitUntil(shown) { $0.contains(shown) || $0.contains("Get started") }
            tmux.close()
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: status) && Date() < deadline { usleep(50_000) }
            usleep(100_000)
            let code = try String(contentsOfFile: status, encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines)
            XCTAssertLessThan(Int(code) ?? 255, 128, "cravey \(arguments) with its window closed: status \(code)")
        }
        let left = try runProcess(craveyUnderTest, ["log", "list", "--json", "--library", library])
        XCTAssertEqual(
            (try JSONSerialization.jsonObject(with: Data(left.stdout.utf8)) as? [Any])?.count, 1, "the craving kept")
    }

    /// A question on a terminal: one key answers it (no Enter), and Ctrl-C ends it with nothing
    /// changed and the terminal as it was.
    func testAQuestionTakesOneKeyAndCtrlCGivesTheTerminalBack() throws {
        let base = FileManager.default.temporaryDirectory.path + "/cravey-prompt-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let cravey = craveyUnderTest, library = base + "/lib"
        func craving() throws -> String {
            let logged = try runProcess(cravey, ["craving", "4", "--json", "--library", library])
            XCTAssertEqual(logged.status, 0, logged.stderr)
            return try XCTUnwrap(
                (try JSONSerialization.jsonObject(with: Data(logged.stdout.utf8)) as? [String: Any])?["id"] as? String)
        }
        func delete(_ id: String) throws -> TmuxSession {
            try TmuxSession(
                "env NO_COLOR=1 \(shellQuote(cravey)) log delete \(id) --library \(shellQuote(library)); echo EXIT=$?; "
                    + "stty -a | grep -o -- '-\\?icanon' | sed 's/^/MODE=/'; sleep 30")
        }
        let first = try craving(), second = try craving()
        var tmux = try delete(first)
        try tmux.waitFor("[y/N]")
        try tmux.send("y", literal: true)
        XCTAssertTrue(try tmux.waitFor("EXIT=").contains("EXIT=0"))
        tmux.close()
        tmux = try delete(second)
        try tmux.waitFor("[y/N]")
        try tmux.send("C-c")
        let screen = try tmux.waitFor("MODE=")
        XCTAssertTrue(screen.contains("Nothing deleted."), screen)
        XCTAssertTrue(screen.contains("MODE=icanon"), screen)
        tmux.close()
        let left = try runProcess(cravey, ["log", "list", "--json", "--library", library])
        XCTAssertEqual(
            (try JSONSerialization.jsonObject(with: Data(left.stdout.utf8)) as? [Any])?.count, 1,
            "only the first was deleted")
    }
}
