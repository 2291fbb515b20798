import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The nudge as an outsider finds it: a torn or hand-made `nudge.state`, a clock that went back,
/// the hour at midnight, a second library, the journal's line under `--discreet`, a read-only
/// config folder, and the service a real user manager would run (checked by systemd-analyze
/// verify; no user manager runs here).
final class DesktopProbeTests: BackgroundTestCase {
    /// cravey with `arguments` at the test clock's `now`.
    func at(_ now: String, _ arguments: [String], _ extra: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let environment = ["CRAVEY_LIBRARY": root, "CRAVEY_NOW": now, "CRAVEY_TRANSCRIBE": "later"]
        return try runProcess(cravey, arguments, environment: environment.merging(extra) { $1 })
    }

    /// Ten cravings, each at ten past midnight, on the 10th to the 19th of November 2026.
    func logMidnights() throws {
        for day in 10...19 {
            let logged = try at("2026-11-20T12:00:00", ["craving", "5", "--at", "2026-11-\(day) 00:10"])
            XCTAssertEqual(logged.status, 0, logged.stderr)
        }
    }

    var units: String { (Sentinel.folder ?? "") + "/.config/systemd/user" }

    /// Turns the nudge off; the folder the units were in may stay.
    func turnOff() throws {
        XCTAssertEqual(try at("2026-11-20T12:00:00", ["nudge", "off"]).status, 0)
        Sentinel.allow([".config/systemd/user/timers.target.wants"])
    }

    func testTheServiceLetsWhatTheNudgeOpenedGoOnAndMidnightIsSaidSo() throws {
        try logMidnights()
        let on = try at("2026-11-20T12:00:00", ["nudge", "on", "--library", base + "/my lib 'q\" %n $HOME \\x"])
        XCTAssertEqual(on.status, 0, on.stderr)
        let service = try String(contentsOfFile: units + "/cravey-nudge.service", encoding: .utf8)
        // A oneshot's leftover processes are stopped with it: the ride window "Ride it out" opened,
        // and the message "Play my message" plays, must outlive the run that started them.
        XCTAssertTrue(service.contains("\nKillMode=process\n"), service)
        XCTAssertTrue(service.contains("\nTimeoutStartSec=11min\n"), service)
        let verified = try runProcess(
            "/usr/bin/systemd-analyze", ["verify", units + "/cravey-nudge.service", units + "/cravey-nudge.timer"])
        XCTAssertEqual(verified.status, 0, verified.stderr)
        let status = try at(
            "2026-11-20T12:00:00", ["nudge", "status", "--library", base + "/my lib 'q\" %n $HOME \\x"])
        XCTAssertTrue(status.stdout.hasPrefix("The nudge is on.\n"), "read back as this library's: \(status.stdout)")

        let here = try at("2026-11-20T12:00:00", ["nudge", "on"])
        XCTAssertTrue(
            here.stdout.hasSuffix(
                ": around midnight is often hard for you, so a nudge comes at 23:45, once a day at most.\n"),
            here.stdout)
        XCTAssertTrue(
            try at("2026-11-20T12:00:00", ["nudge", "status"]).stdout.contains(
                "Around midnight is often hard: 10 of the 10 cravings of the last 28 days began between midnight and 1 AM."
            ))
        try turnOff()
    }

    func testATornOrHandMadeStateNeitherStopsNorSilencesTheNudge() throws {
        try logMidnights()
        XCTAssertEqual(try at("2026-11-20T12:00:00", ["nudge", "on"]).status, 0)
        let address = try startSessionBus()
        let served = try startNotificationServer(at: address)
        let bus = ["DBUS_SESSION_BUS_ADDRESS": address]
        let state = root + "/nudge.state"
        let days = [
            ("{\"lastShown\":9e300,\"awaiting\":true,\"unused\":0}", "21"),
            ("{\"lastShown\":-1e300,\"unused\":-5}", "22"),
            // A rest no run could have begun: a hand-made day, or a clock that went back.
            ("{\"restingUntil\":\"9999-12-31\",\"unused\":0}", "23"),
        ]
        for (kept, day) in days {
            try kept.write(toFile: state, atomically: true, encoding: .utf8)
            chmod(state, 0o600)
            let status = try at("2026-11-\(day)T12:00:00", ["nudge", "status"])
            XCTAssertEqual(status.status, 0, status.stderr)
            XCTAssertTrue(status.stdout.hasSuffix("The next comes today at 23:45.\n"), kept + ": " + status.stdout)
            let run = try at("2026-11-\(day)T23:45:00", ["nudge", "run"], bus)
            XCTAssertEqual(run.status, 0, kept + ": " + run.stderr)
            XCTAssertEqual(run.stdout, "Nudge shown: around midnight is often hard.\n", kept)
            XCTAssertFalse(try String(contentsOfFile: state, encoding: .utf8).contains("e+300"), "mended")
        }
        XCTAssertEqual(
            ((try? String(contentsOfFile: served, encoding: .utf8)) ?? "").components(separatedBy: "NOTIFY").count - 1,
            3)
        try turnOff()
    }

    func testAnotherLibrarysNudgeIsSaidSoAndOffTakesItsFiles() throws {
        try logMidnights()
        XCTAssertEqual(try at("2026-11-20T12:00:00", ["nudge", "on"]).status, 0)
        let address = try startSessionBus()
        _ = try startNotificationServer(at: address)
        let shown = try at("2026-11-20T23:45:00", ["nudge", "run"], ["DBUS_SESSION_BUS_ADDRESS": address])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let other = base + "/second"
        XCTAssertEqual(try at("2026-11-20T12:00:00", ["log", "--library", other]).status, 0)

        let status = try at("2026-11-21T12:00:00", ["nudge", "status", "--library", other])
        XCTAssertTrue(
            status.stdout.hasPrefix(
                "The nudge is on for another library (\(root)), not this one; 'cravey nudge on' here moves it to this one.\n"
            ), status.stdout)
        let json = try jsonObject(
            try at("2026-11-21T12:00:00", ["nudge", "status", "--library", other, "--json"]).stdout)
        XCTAssertEqual(json["on"] as? Bool, false)
        XCTAssertEqual(json["onForLibrary"] as? String, root)

        let off = try at("2026-11-21T12:00:00", ["nudge", "off", "--library", other])
        XCTAssertEqual(off.stdout, "The nudge is off; its timer and files are gone.\n")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasPrefix("nudge") }, [],
            "the files of the library it was on for are gone too")

        // On here, then on there: it moves, and says so, leaving no file of its own behind.
        XCTAssertEqual(try at("2026-11-21T12:00:00", ["nudge", "on"]).status, 0)
        XCTAssertEqual(
            try at("2026-11-21T23:45:00", ["nudge", "run"], ["DBUS_SESSION_BUS_ADDRESS": address]).status, 0)
        let moved = try at("2026-11-22T12:00:00", ["nudge", "on", "--library", other])
        XCTAssertTrue(
            moved.stdout.hasPrefix("The nudge moves here from the other library it was on for (\(root)).\n"),
            moved.stdout)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasPrefix("nudge") }, [])
        XCTAssertTrue(
            try at("2026-11-22T12:00:00", ["nudge", "status", "--library", other]).stdout.hasPrefix(
                "The nudge is on.\n"))
        try turnOff()
    }

    /// The timer's run prints one line the journal keeps: with --discreet it names nothing either.
    func testTheDiscreetRunsLinesNameNothing() throws {
        try logMidnights()
        let address = try startSessionBus()
        _ = try startNotificationServer(at: address)
        let bus = ["DBUS_SESSION_BUS_ADDRESS": address]
        var lines: [String] = []
        for now in ["2026-11-20T12:00:00", "2026-11-20T23:45:00", "2026-11-20T23:50:00"] {
            let run = try at(now, ["nudge", "run", "--discreet"], bus)
            XCTAssertEqual(run.status, 0, run.stderr)
            lines.append(run.stdout)
        }
        XCTAssertEqual(
            lines,
            [
                "Nothing shown: not the time; it comes at 23:45.\n", "Shown, for around midnight.\n",
                "Nothing shown: one came today already.\n",
            ])
        XCTAssertEqual(try at("2026-11-21T23:10:00", ["use", "bowls", "1"]).status, 0)
        lines.append(try at("2026-11-21T23:45:00", ["nudge", "run", "--discreet"], bus).stdout)
        XCTAssertEqual(lines.last, "Nothing shown: not now.\n")
        let few = base + "/few"
        XCTAssertEqual(try at("2026-11-20T12:00:00", ["log", "--library", few]).status, 0)
        lines.append(try at("2026-11-21T23:45:00", ["nudge", "run", "--discreet", "--library", few], bus).stdout)
        XCTAssertEqual(lines.last, "Nothing shown: no hour stands out yet.\n")
        for line in lines.map({ $0.lowercased() }) {
            for word in ["cravey", "cannabis", "crav", "use", "ride", "hard", "nudge"] {
                XCTAssertFalse(line.contains(word), "\(word) in \(line)")
            }
        }
    }

    /// A stop signal while the nudge waits (a logout) withdraws it and ends the run; a nudge
    /// withdrawn before it had its time is not counted unused, so two logouts in a row do not
    /// send it to rest.
    func testAStopWithdrawsTheNudgeAndItIsNotCountedUnused() throws {
        try logMidnights()
        let address = try startSessionBus()
        for (day, signal) in [("20", SIGTERM), ("21", SIGHUP), ("22", SIGINT)] {
            let server = try startNotificationServer(at: address, capabilities: ["actions", "body"])
            let output = base + "/run-\(day).out"
            let waiting = try start(
                cravey, ["nudge", "run"],
                environment: [
                    "CRAVEY_LIBRARY": root, "CRAVEY_NOW": "2026-11-\(day)T23:45:00", "CRAVEY_TRANSCRIBE": "later",
                    "DBUS_SESSION_BUS_ADDRESS": address,
                ], output: output)
            XCTAssertTrue(waitForFile(server, containing: "NOTIFY").contains("NOTIFY"))
            usleep(300_000)
            kill(waiting.processIdentifier, signal)
            waiting.waitUntilExit()
            XCTAssertTrue(waitForFile(server, containing: "CLOSE 7").contains("CLOSE 7"), "withdrawn")
            XCTAssertEqual(waiting.terminationStatus, 0)
            XCTAssertEqual(
                try String(contentsOfFile: output, encoding: .utf8),
                "Nudge shown, then withdrawn: asked to stop before an answer came.\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/nudge.pending"))
            for process in processes where process.executableURL?.path == "/usr/bin/python3" {
                process.terminate(); process.waitUntilExit()
            }
        }
        let json = try jsonObject(try at("2026-11-23T12:00:00", ["nudge", "status", "--json"]).stdout)
        XCTAssertEqual(json["unusedInARow"] as? Int, 0)
        XCTAssertNil(json["restingUntil"], "no rest after three stops")
        XCTAssertEqual(json["lastShown"] as? String, "2026-11-22 23:45", "one a day still holds")
    }

    /// Ten cravings, each in an hour of its own: no hour is said to be "often" hard for one craving.
    func testOneCravingInAnHourIsNotOften() throws {
        for day in 10...19 {
            let logged = try at("2026-11-20T12:00:00", ["craving", "5", "--at", "2026-11-\(day) \(day - 4):15"])
            XCTAssertEqual(logged.status, 0, logged.stderr)
        }
        let on = try at("2026-11-20T12:00:00", ["nudge", "on"])
        XCTAssertTrue(
            on.stdout.hasSuffix(
                ": no hour stands out yet (10 cravings in the last 28 days, and no hour holds 3 of them); it looks again every day at 12:00.\n"
            ), on.stdout)
        XCTAssertEqual(
            try at("2026-11-20T12:00:00", ["nudge", "status"]).stdout,
            """
            The nudge is on.
            No hour stands out yet: 10 cravings in the last 28 days, and no hour holds 3 of them.
            No nudge until one does; it looks again every day at 12:00.

            """)
        XCTAssertEqual(
            try at("2026-11-20T14:45:00", ["nudge", "run"]).stdout,
            "No nudge: 10 cravings in the last 28 days, and no hour holds 3 of them.\n")
        try turnOff()
    }

    /// Where the server shows no buttons the words say the commands: for a library that is not
    /// the default one, commands that reach it.
    func testTheCommandsSaidReachTheLibrary() throws {
        try logMidnights()
        let other = base + "/it's mine"
        try FileManager.default.moveItem(atPath: root, toPath: other)
        let address = try startSessionBus()
        let served = try startNotificationServer(at: address)
        let bus = ["DBUS_SESSION_BUS_ADDRESS": address]
        XCTAssertEqual(try at("2026-11-20T23:45:00", ["nudge", "run", "--library", other], bus).status, 0)
        let reminded = try at("2026-11-20T21:00:00", ["checkin", "notify", "--library", other], bus)
        XCTAssertEqual(reminded.status, 0, reminded.stderr)
        let said = waitForFile(served, containing: "cravey checkin")
        let quoted = "'\(base)/it'\\''s mine'"
        XCTAssertTrue(
            said.contains(
                "Ride it out: cravey launch ride --library \(quoted)\nPlay my message: cravey launch play --library \(quoted) |"
            ), said)
        XCTAssertTrue(
            said.contains("Your check-in takes less than a minute: cravey checkin --library \(quoted) |"), said)
    }

    /// With nothing on, a config folder that cannot be written is no reason to fail: there was
    /// nothing to remove.
    func testOffWithAReadOnlyConfigFolderAndNothingOn() throws {
        guard getuid() == 0 else { throw XCTSkip("mounting a read-only tmpfs needs root") }
        let folder = base + "/config"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let mounted = try runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder])
        XCTAssertEqual(mounted.status, 0, mounted.stderr)
        defer { _ = try? runProcess("/bin/umount", [folder]) }
        // The folders are there (a failed install, or units removed by hand), and cannot be written.
        try FileManager.default.createDirectory(
            atPath: folder + "/systemd/user/timers.target.wants", withIntermediateDirectories: true)
        XCTAssertEqual(try runProcess("/bin/mount", ["-o", "remount,ro", folder]).status, 0)
        let off = try at("2026-11-20T12:00:00", ["nudge", "off"], ["XDG_CONFIG_HOME": folder])
        XCTAssertEqual(off.status, 0, off.stderr)
        XCTAssertEqual(off.stdout, "The nudge was not on.\n")
        let reminder = try at("2026-11-20T12:00:00", ["checkin", "remind", "--off"], ["XDG_CONFIG_HOME": folder])
        XCTAssertEqual(reminder.stdout, "There was no daily reminder.\n", reminder.stderr)
    }
}
