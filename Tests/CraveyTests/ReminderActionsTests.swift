import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The check-in reminder as an offer, on a private session bus with a notification server that
/// shows buttons (`actions`): "Check in" (the default action, a click on the notification) opens
/// the check-in in a real xterm under Xvfb with the token the server sent, "Not today" puts the
/// day off, and the process waiting for the answer is gone at its deadline or at once on a stop
/// signal, the notification withdrawn. A server without buttons gets the command in the body.
final class ReminderActionsTests: BackgroundTestCase {
    /// The terminals the tests opened, by their own log file.
    var logs: [String] = []

    override func tearDownWithError() throws {
        for log in logs { for pid in LaunchTests.processes(mentioning: log) { kill(pid, SIGKILL) } }
        try super.tearDownWithError()
    }

    /// The reminder's run on the bus at `address`, on a day at 21:00, with `extra`.
    func env(_ address: String, _ extra: [String: String] = [:]) -> [String: String] {
        [
            "DBUS_SESSION_BUS_ADDRESS": address, "CRAVEY_NOW": "2026-11-21T21:00:00", "CRAVEY_LIBRARY": root,
            "DISPLAY": ":0", "WAYLAND_DISPLAY": "", "PATH": "/usr/bin:/bin", "TERMINAL": base + "/no-terminal",
            "XDG_ACTIVATION_TOKEN": "",
        ].merging(extra) { $1 }
    }

    /// A library that exists (a craving logged), with no check-in yet.
    func makeLibrary() throws {
        let made = try runProcess(cravey, ["craving", "4", "--library", root])
        XCTAssertEqual(made.status, 0, made.stderr)
    }

    /// Stops the notification server started last (for the next one to take its name).
    func stopServer() {
        for process in processes where process.executableURL?.path == "/usr/bin/python3" && process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// How many times `text` is in the file at `path`, once it is there `count` times (or after 10 seconds).
    func calls(of text: String, in path: String, reaching count: Int) -> Int {
        let deadline = Date() + 10
        var found = 0
        repeat {
            found = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").components(separatedBy: text).count - 1
            if found >= count { break }
            usleep(50_000)
        } while Date() < deadline
        return found
    }

    static let offered =
        "NOTIFY cravey | A moment for yourself | How does today feel? Your check-in takes less than a minute. | ['default', 'Check in', 'checkin', 'Check in', 'not-today', 'Not today'] |"

    func testCheckInOpensTheCheckInInXtermWithTheServersToken() throws {
        let display = try startXvfb()
        processes.append(display.process)
        let address = try startSessionBus()
        let served = try startNotificationServer(at: address, capabilities: ["actions", "body"], answer: "default")
        let log = base + "/xterm.log"
        logs.append(log)
        let began = Date()
        let out = try runProcess(
            cravey, ["checkin", "notify"],
            environment: env(
                address,
                [
                    "DISPLAY": display.display, "TERMINAL": "/usr/bin/xterm -l -lf \(log)",
                    "XDG_ACTIVATION_TOKEN": "used-by-the-timer",
                ]))
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stdout, "Check in: opened the check-in in xterm ($TERMINAL).\n")
        XCTAssertLessThan(Date().timeIntervalSince(began), 30, "the answer ended the wait")
        let shown = waitForFile(served, containing: "NOTIFY")
        XCTAssertTrue(shown.contains(Self.offered), shown)
        XCTAssertFalse(shown.contains("cravey checkin"), "the button, not the command: \(shown)")
        XCTAssertFalse(shown.contains("CLOSE"), "answered: not withdrawn")
        // The check-in's greeting is drawn in the window.
        XCTAssertTrue(
            waitForFile(log, containing: "Take a moment for yourself", timeout: 20).contains(
                "Take a moment for yourself"), "the check-in is drawn")
        let terminals = LaunchTests.processes(mentioning: log)
        XCTAssertFalse(terminals.isEmpty, "the window is open")
        for pid in terminals {
            let given = String(
                decoding: (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))) ?? Data(),
                as: UTF8.self
            ).split(separator: "\0")
            XCTAssertTrue(given.contains("XDG_ACTIVATION_TOKEN=token-from-the-server"), "the server's token")
            XCTAssertTrue(given.contains("DESKTOP_STARTUP_ID=token-from-the-server"), "the server's token")
            XCTAssertFalse(given.contains { $0.contains("used-by-the-timer") }, "not the one used already")
        }
    }

    func testNotTodayPutsTheDayOffAndNoReminderComesAgain() throws {
        try makeLibrary()
        let address = try startSessionBus()
        let served = try startNotificationServer(at: address, capabilities: ["actions", "body"], answer: "not-today")
        let out = try runProcess(cravey, ["checkin", "notify"], environment: env(address))
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stdout, "Not today, then: no reminder again today.\n")
        XCTAssertTrue(waitForFile(served, containing: "NOTIFY").contains(Self.offered))
        // The same day: nothing is shown.
        let again = try runProcess(cravey, ["checkin", "notify"], environment: env(address))
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "Today's check-in was put off for later; no reminder.\n")
        usleep(300_000)
        XCTAssertEqual(calls(of: "NOTIFY", in: served, reaching: 1), 1, "one reminder that day")
        // The next day, the reminder comes again.
        stopServer()
        let next = try startNotificationServer(at: address, capabilities: ["actions", "body"], answer: "closed")
        let tomorrow = try runProcess(
            cravey, ["checkin", "notify"], environment: env(address, ["CRAVEY_NOW": "2026-11-22T21:00:00"]))
        XCTAssertEqual(tomorrow.stdout, "The reminder was closed; nothing changed.\n", tomorrow.stderr)
        XCTAssertTrue(waitForFile(next, containing: "NOTIFY").contains(Self.offered))
    }

    /// Unanswered, the wait ends at its deadline (a test's short one) and the notification is
    /// withdrawn; the waiting process opened no network socket (the bus is a local socket).
    func testNoAnswerIsWithdrawnAtTheDeadline() throws {
        let address = try startSessionBus()
        let served = try startNotificationServer(at: address, capabilities: ["actions", "body"])
        let trace = base + "/sockets"
        let began = Date()
        let out = try runProcess(
            "/usr/bin/strace",
            ["-f", "-qq", "-e", "trace=socket", "-o", trace, cravey, "checkin", "notify", "--answer-seconds", "2"],
            environment: env(address))
        let took = Date().timeIntervalSince(began)
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stdout, "No answer within 2 seconds: the reminder was withdrawn.\n")
        XCTAssertGreaterThanOrEqual(took, 2, "waited for the answer")
        XCTAssertLessThan(took, 12, "gone by the deadline")
        let shown = waitForFile(served, containing: "CLOSE 7")
        XCTAssertTrue(shown.contains(Self.offered), shown)
        XCTAssertTrue(shown.contains("CLOSE 7"), "withdrawn: \(shown)")
        let sockets = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("socket(") }
        XCTAssertTrue(sockets.contains { $0.contains("AF_UNIX") }, "the bus: \(sockets)")
        XCTAssertEqual(sockets.filter { $0.contains("AF_INET") }, [], "no network socket")

        // A wait longer than the service allows, or none, is refused in one line.
        for bad in ["0", "601", "soon"] {
            let refused = try runProcess(
                cravey, ["checkin", "notify", "--answer-seconds", bad], environment: env(address))
            XCTAssertEqual(refused.status, 64, bad)
            XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "no reminder makes a library")
    }

    /// SIGTERM (systemd stopping the service), SIGHUP and SIGINT mid-wait: gone at once, each
    /// notification withdrawn.
    func testAStopSignalWithdrawsTheReminderAtOnce() throws {
        let address = try startSessionBus()
        let served = try startNotificationServer(at: address, capabilities: ["actions", "body"])
        for (count, signal) in [SIGTERM, SIGHUP, SIGINT].enumerated() {
            let output = base + "/waiting-\(count).out"
            let waiting = try start(cravey, ["checkin", "notify"], environment: env(address), output: output)
            XCTAssertEqual(calls(of: "NOTIFY", in: served, reaching: count + 1), count + 1, "shown")
            usleep(300_000)
            XCTAssertTrue(waiting.isRunning, "waiting for the answer")
            let stopped = Date()
            kill(waiting.processIdentifier, signal)
            waiting.waitUntilExit()
            XCTAssertLessThan(Date().timeIntervalSince(stopped), 3, "signal \(signal) ends the wait")
            XCTAssertEqual(waiting.terminationReason, .exit, "ended by itself, after withdrawing")
            XCTAssertEqual(
                try String(contentsOfFile: output, encoding: .utf8), "Stopped: the reminder was withdrawn.\n")
            XCTAssertEqual(calls(of: "CLOSE 7", in: served, reaching: count + 1), count + 1, "withdrawn")
        }
    }

    /// A server without buttons: the body says the command, and nothing waits.
    func testWithoutActionsTheBodySaysTheCommand() throws {
        let address = try startSessionBus()
        let served = try startNotificationServer(at: address)
        let began = Date()
        let out = try runProcess(cravey, ["checkin", "notify"], environment: env(address))
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stdout, "Reminder shown.\n")
        XCTAssertLessThan(Date().timeIntervalSince(began), 8, "nothing to wait for")
        let shown = waitForFile(served, containing: "NOTIFY")
        XCTAssertTrue(
            shown.contains(
                "NOTIFY cravey | A moment for yourself | How does today feel? Your check-in takes less than a minute: cravey checkin | [] |"
            ), shown)
        XCTAssertFalse(shown.contains("CLOSE"), "left on the screen for the person to read")
    }

    /// The service allows the wait (a bound a little over it) and leaves the window it opened
    /// open; `systemd-analyze verify` passes it.
    func testTheServiceAllowsTheWait() throws {
        let installed = try runProcess(cravey, ["checkin", "remind", "21:30"], environment: ["CRAVEY_LIBRARY": root])
        XCTAssertEqual(installed.status, 0, installed.stderr)
        let units = try XCTUnwrap(Sentinel.folder) + "/.config/systemd/user"
        let service = try String(contentsOfFile: units + "/cravey-checkin.service", encoding: .utf8)
        XCTAssertTrue(service.contains("\nType=oneshot\n"), service)
        XCTAssertTrue(service.contains("\nTimeoutStartSec=11min\n"), service)
        XCTAssertTrue(service.contains("\nKillMode=process\n"), service)
        let verify = try runProcess(
            "/usr/bin/systemd-analyze", ["verify", units + "/cravey-checkin.timer", units + "/cravey-checkin.service"])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertEqual(verify.stderr, "", "no warning")
        XCTAssertEqual(try runProcess(cravey, ["checkin", "remind", "--off"]).status, 0)
        Sentinel.allow([".config/systemd/user/timers.target.wants"])
    }
}
