import CraveyTestSupport
import Foundation
import XCTest

/// The check-in reminder: the systemd user units (checked by systemd-analyze verify) and the
/// notification call on a private session bus (dbus-daemon --session), watched by dbus-monitor and
/// answered by a small notification server.
final class CheckInReminderTests: BackgroundTestCase {
    /// The units land in the (sentinel) home's config folder, and nothing else does.
    func testTheTimerUnitsVerifyAndGoAwayWithOff() throws {
        let env = ["CRAVEY_LIBRARY": base + "/lib"]
        let installed = try runProcess(cravey, ["checkin", "remind", "21:30"], environment: env)
        XCTAssertEqual(installed.status, 0, installed.stderr)
        XCTAssertTrue(installed.stdout.contains("Every day at 21:30"), installed.stdout)
        let home = try XCTUnwrap(Sentinel.folder, "the test runs with a sentinel home")
        let units = home + "/.config/systemd/user"
        XCTAssertEqual(
            Sentinel.contents(),
            [
                ".config/", ".config/systemd/", ".config/systemd/user/", ".config/systemd/user/cravey-checkin.service",
                ".config/systemd/user/cravey-checkin.timer", ".config/systemd/user/timers.target.wants/",
                ".config/systemd/user/timers.target.wants/cravey-checkin.timer",
            ])
        let timer = try String(contentsOfFile: units + "/cravey-checkin.timer", encoding: .utf8)
        let service = try String(contentsOfFile: units + "/cravey-checkin.service", encoding: .utf8)
        XCTAssertTrue(timer.contains("OnCalendar=*-*-* 21:30:00"), timer)
        XCTAssertTrue(service.contains("checkin notify --library \"\(base)/lib\""), service)
        XCTAssertEqual(
            try FileManager.default.destinationOfSymbolicLink(
                atPath: units + "/timers.target.wants/cravey-checkin.timer"),
            "../cravey-checkin.timer", "enabled")
        let verify = try runProcess(
            "/usr/bin/systemd-analyze", ["verify", units + "/cravey-checkin.timer", units + "/cravey-checkin.service"])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        // The check can fail: a broken copy is refused.
        try timer.replacingOccurrences(of: "21:30:00", with: "half past nine").write(
            toFile: base + "/broken.timer", atomically: true, encoding: .utf8)
        try service.write(toFile: base + "/broken.service", atomically: true, encoding: .utf8)
        XCTAssertNotEqual(try runProcess("/usr/bin/systemd-analyze", ["verify", base + "/broken.timer"]).status, 0)
        for bad in ["25:00", "9", "21:60", "ab:cd"] {
            let refused = try runProcess(cravey, ["checkin", "remind", bad], environment: env)
            XCTAssertNotEqual(refused.status, 0, bad)
        }
        let off = try runProcess(cravey, ["checkin", "remind", "--off"], environment: env)
        XCTAssertEqual(off.status, 0, off.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: units).filter { $0.hasPrefix("cravey") }, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: units + "/timers.target.wants/cravey-checkin.timer"))
        // Folders may stay (systemd's own, perhaps holding other units); no file of cravey's does.
        XCTAssertEqual(Sentinel.contents().filter { !$0.hasSuffix("/") }, [])
        Sentinel.allow([".config/systemd/user/timers.target.wants"])
    }

    /// A library path with a line break (or another control character) would write directives of
    /// its own into the service: refused in one line, and nothing is written.
    func testALibraryPathWithALineBreakIsRefusedBeforeAnythingIsWritten() throws {
        let hostile = base + "/lib\nExecStartPre=/bin/touch " + base + "/owned"
        for (arguments, env) in [
            (["checkin", "remind", "21:30", "--library", hostile], [String: String]()),
            (["checkin", "remind", "21:30"], ["CRAVEY_LIBRARY": hostile]),
            (["checkin", "remind", "21:30", "--library", base + "/lib\u{1b}[2J"], [:]),
        ] {
            let refused = try runProcess(cravey, arguments, environment: env)
            XCTAssertEqual(refused.status, 1, refused.stdout)
            XCTAssertEqual(refused.stdout, "")
            XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
            XCTAssertTrue(
                refused.stderr.contains("the library's path holds a line break or another control character"),
                refused.stderr)
            XCTAssertFalse(refused.stderr.contains("\u{1b}"), "no escape reaches the terminal")
            XCTAssertEqual(Sentinel.contents(), [], "nothing was written")
        }
    }

    /// systemctl is a program of the person's desktop: it gets their environment but nothing of
    /// the library's (no CRAVEY_ variable), is started by cravey's one spawn helper (no Foundation
    /// Process, whose run loop opens a socket pair in cravey's own process), and has no file of
    /// cravey's open.
    func testSystemctlGetsNothingOfTheLibrarys() throws {
        let log = base + "/execve.log"
        let run = try runProcess(
            "/usr/bin/strace",
            [
                "-f", "-qq", "-v", "-s", "4096", "-e", "trace=execve,socket", "-o", log, cravey, "checkin", "remind",
                "--off",
            ],
            environment: ["CRAVEY_LIBRARY": base + "/lib", "CRAVEY_LOCK_WAIT": "3", "PERSON_SETTING": "kept"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let systemctl = lines.filter { $0.contains("execve(\"/usr/bin/systemctl\"") && !$0.contains("= -1 ") }
        XCTAssertEqual(systemctl.count, 2, "disable, then daemon-reload: \(lines.joined(separator: "\n"))")
        for call in systemctl {
            XCTAssertFalse(call.contains("CRAVEY_"), String(call))
            XCTAssertTrue(call.contains("\"PERSON_SETTING=kept\""), String(call))
            XCTAssertTrue(call.contains("\"HOME=\(Sentinel.folder ?? "")\""), String(call))
        }
        let cravey = lines.filter { $0.contains("execve(") && $0.contains("/cravey\", [\"") }
        XCTAssertTrue(cravey.contains { $0.contains("CRAVEY_LIBRARY=") }, "cravey itself had the library's variables")
        let desktop = Set(systemctl.map { $0.prefix { $0.isNumber } })
        let ownSockets = lines.filter {
            !desktop.contains($0.prefix { $0.isNumber }) && $0.contains("socket(AF_INET")
        }
        XCTAssertEqual(ownSockets, [], "cravey's own process opened no socket to start systemctl")
    }

    func testTheNotificationOnAPrivateSessionBus() throws {
        let address = try startSessionBus()
        let busEnv = ["DBUS_SESSION_BUS_ADDRESS": address]
        let monitor = base + "/monitor.out"
        _ = try start(
            "/usr/bin/dbus-monitor", ["--address", address, "interface='org.freedesktop.Notifications'"],
            output: monitor)
        let served = try startNotificationServer(at: address)

        let library = base + "/lib"
        let env = busEnv.merging(["CRAVEY_NOW": "2026-11-21T21:00:00"]) { $1 }
        let shown = try runProcess(cravey, ["checkin", "notify", "--library", library], environment: env)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("Reminder shown"), shown.stdout)
        XCTAssertTrue(
            waitForFile(served, containing: "NOTIFY").contains(
                "NOTIFY cravey | A moment for yourself | How does today feel?"))
        let watched = waitForFile(monitor, containing: "member=Notify")
        XCTAssertTrue(watched.contains("member=Notify"), watched)
        XCTAssertTrue(watched.contains("string \"A moment for yourself\""), watched)

        // With today's entry saved, the reminder stays quiet: nothing more on the bus.
        let record = try runProcess(
            cravey, ["checkin", "--mood", "okay", "--mic", "cravey_file", "--max-seconds", "1", "--library", library],
            environment: env.merging(["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": "/dev/zero"]) { $1 })
        XCTAssertEqual(record.status, 0, record.stderr)
        let quiet = try runProcess(cravey, ["checkin", "notify", "--library", library], environment: env)
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertTrue(quiet.stdout.contains("has its check-in"), quiet.stdout)
        usleep(300_000)
        let calls =
            (try String(contentsOfFile: monitor, encoding: .utf8)).components(separatedBy: "member=Notify").count - 1
        XCTAssertEqual(calls, 1, "one notification in all")
        // The next day, no notification server: one line saying so.
        for process in processes where process.executableURL?.path == "/usr/bin/python3" {
            process.terminate(); process.waitUntilExit()
        }
        let noServer = try runProcess(
            cravey, ["checkin", "notify", "--library", library],
            environment: busEnv.merging(["CRAVEY_NOW": "2026-11-22T21:00:00"]) { $1 })
        XCTAssertNotEqual(noServer.status, 0)
        XCTAssertTrue(noServer.stderr.contains("no notification service on the session bus"), noServer.stderr)
        XCTAssertEqual(noServer.stderr.split(separator: "\n").count, 1, noServer.stderr)
    }

    func testNoSessionBusSaysSoInOneLine() throws {
        let out = try runProcess(
            cravey, ["checkin", "notify", "--library", base + "/lib"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": base + "/no-runtime"])
        XCTAssertNotEqual(out.status, 0)
        XCTAssertTrue(out.stderr.contains("no session bus"), out.stderr)
        XCTAssertEqual(out.stderr.split(separator: "\n").count, 1, out.stderr)
    }
}
