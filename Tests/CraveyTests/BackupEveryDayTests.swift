import CraveyTestSupport
import Foundation
import XCTest

/// `cravey backup --every day DIR`: a backup at once, then a systemd user timer (its units checked
/// by `systemd-analyze verify`) whose service command, run here directly under the test's clock,
/// makes the next one the way `cravey backup DIR` does; a day the directory is not there it makes
/// nothing, not even the directory. `--every status` says how old the newest backup is, `--every
/// off` takes the units away, and bad input changes nothing.
final class BackupEveryDayTests: CommandTestCase {
    var units: String { (Sentinel.folder ?? "") + "/.config/systemd/user" }
    var stick: String { base + "/stick" }
    let day0 = "2026-11-20T12:00:00"

    override func setUpWithError() throws {
        try super.setUpWithError()
        try runClocked(["craving", "5", "--at", "2026-11-20 09:00"], now: day0)
    }

    func status(at now: String) throws -> [String: Any] {
        try jsonObject(try runClocked(["backup", "--every", "status", "--json"], now: now).stdout)
    }

    /// The service's command line as systemd would split it (the paths here hold no escapes),
    /// with the built program in the place of the one the unit names.
    func serviceCommand() throws -> [String] {
        let service = try String(contentsOfFile: units + "/cravey-backup.service", encoding: .utf8)
        let line = try XCTUnwrap(service.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let words = line.dropFirst("ExecStart=".count).matches(of: #/"([^"]*)"|(\S+)/#).map {
            String($0.1 ?? $0.2 ?? "")
        }
        return Array(words.dropFirst())
    }

    func testADailyBackupIsMadeAtOnceAndItsUnitsVerify() throws {
        let made = try runClocked(["backup", "--every", "day", stick], now: day0)
        XCTAssertTrue(made.stdout.contains("Backed up 0 recordings, 1 log and the database to \(stick)"), made.stdout)
        XCTAssertTrue(made.stdout.contains("a new backup there every day at 12:30"), made.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: stick + "/cravey-backup.json"))
        let timer = try String(contentsOfFile: units + "/cravey-backup.timer", encoding: .utf8)
        XCTAssertTrue(timer.contains("OnCalendar=*-*-* 12:30:00\nPersistent=true\n"), timer)
        XCTAssertEqual(
            try serviceCommand(), ["backup", "--scheduled", "--library", root, "--", stick],
            "the service runs the hidden backup on this library into the directory")
        XCTAssertEqual(
            try FileManager.default.destinationOfSymbolicLink(
                atPath: units + "/timers.target.wants/cravey-backup.timer"),
            "../cravey-backup.timer")
        let verify = try runProcess(
            "/usr/bin/systemd-analyze", ["verify", units + "/cravey-backup.timer", units + "/cravey-backup.service"])
        XCTAssertEqual(verify.status, 0, verify.stderr)

        let on = try status(at: "2026-11-21T08:00:00")
        XCTAssertEqual(on["on"] as? Bool, true)
        XCTAssertEqual(on["directory"] as? String, stick)
        XCTAssertEqual(on["library"] as? String, root)
        XCTAssertEqual(on["time"] as? String, "12:30")
        XCTAssertEqual((on["newest"] as? [String: Any])?["days"] as? Int, 0)
        XCTAssertEqual(on["old"] as? Bool, false)

        let off = try runClocked(["backup", "--every", "off"], now: day0)
        XCTAssertEqual(off.stdout, "The daily backup is off. The backups made stay where they are.\n")
        XCTAssertEqual(Sentinel.contents().filter { !$0.hasSuffix("/") }, [], "no unit of cravey's is left")
        XCTAssertEqual(try status(at: day0)["on"] as? Bool, false)
        XCTAssertEqual(
            try runClocked(["backup", "--every", "off"], now: day0).stdout, "There was no daily backup.\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: stick + "/cravey-backup.json"), "the backup stays")
        Sentinel.allow([".config/systemd/user/timers.target.wants"])
    }

    /// What the timer runs, run here at three later days: a backup each day the directory is
    /// there; none, and no directory made, the day it is not (a disk not plugged in).
    func testTheTimersCommandBacksUpUnderTheTestClockAndNeverMakesAMissingDirectory() throws {
        try runClocked(["backup", "--every", "day", stick], now: day0)
        let command = try serviceCommand()
        try runClocked(["craving", "4", "--at", "2026-11-22 09:00"], now: "2026-11-22T09:00:00")

        // A nudge shown at 12:15 waits for the person's answer: the timer's backup is none.
        let nudged = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-11-23T12:15:00Z"))
        try Data("\(nudged.timeIntervalSince1970)\n".utf8).write(to: URL(fileURLWithPath: root + "/nudge.pending"))

        let ran = try runProcess(cravey, command, environment: clocked("2026-11-23T12:30:00"))
        XCTAssertEqual(ran.status, 0, ran.stderr)
        XCTAssertTrue(ran.stdout.contains("Backed up 0 recordings, 2 logs and the database to \(stick)"), ran.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/nudge.pending"), "the nudge is not answered")
        let after = try status(at: "2026-11-23T13:00:00")
        XCTAssertEqual((after["newest"] as? [String: Any])?["at"] as? String, "2026-11-23T12:30:00.000Z")
        XCTAssertEqual(try runClocked(["backup", "--verify", stick], now: "2026-11-23T13:00:00").status, 0)

        try FileManager.default.moveItem(atPath: stick, toPath: base + "/unplugged")
        let missing = try runProcess(cravey, command, environment: clocked("2026-11-24T12:30:00"))
        XCTAssertEqual(missing.status, 1, missing.stdout)
        XCTAssertEqual(missing.stdout, "")
        XCTAssertTrue(
            missing.stderr.contains("is not there (a disk not plugged in?), so no backup was made today"),
            missing.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stick), "no directory is made in its place")
        XCTAssertEqual(
            (try status(at: "2026-11-24T13:00:00")["newest"] as? [String: Any])?["at"] as? String,
            "2026-11-23T12:30:00.000Z", "the newest backup is still the last one made")

        // A library that is not there (yet) has nothing to back up, and nothing is made.
        var elsewhere = command
        elsewhere[3] = base + "/no-library"
        try FileManager.default.moveItem(atPath: base + "/unplugged", toPath: stick)
        let none = try runProcess(cravey, elsewhere, environment: clocked("2026-11-25T12:30:00"))
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertTrue(none.stdout.hasPrefix("There is no library at \(base)/no-library yet"), none.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: base + "/no-library"))
        Sentinel.allow(
            [
                ".config/systemd/user/cravey-backup.timer", ".config/systemd/user/cravey-backup.service",
                ".config/systemd/user/timers.target.wants/cravey-backup.timer",
            ])
    }

    func testStatusSaysWhenTheNewestBackupIsMoreThanAWeekOld() throws {
        let never = try runClocked(["backup", "--every", "status"], now: day0)
        XCTAssertEqual(
            never.stdout,
            "Daily backup: off. Turn it on with: cravey backup --every day DIR\nNewest backup: none yet.\n")
        try runClocked(["backup", stick], now: day0)
        let old = try runClocked(["backup", "--every", "status"], now: "2026-11-28T13:00:00")
        XCTAssertTrue(old.stdout.contains("Newest backup: 2026-11-20 12:00 (8 days ago) to \(stick)."), old.stdout)
        XCTAssertTrue(
            old.stdout.contains("That is more than 7 days old; 'cravey backup \(stick)' makes one now."), old.stdout)
        XCTAssertEqual(try status(at: "2026-11-27T11:00:00")["old"] as? Bool, false, "6 days old is not old")
        XCTAssertEqual(try status(at: "2026-11-28T13:00:00")["old"] as? Bool, true)
    }

    /// The first backup is made before the timer is written: where it is refused (the directory
    /// holds another library's backup), no timer is; `--replace` replaces that backup knowingly.
    func testNoTimerIsWrittenWhereTheFirstBackupIsRefused() throws {
        let other = base + "/other"
        XCTAssertEqual(
            try runProcess(cravey, ["craving", "3", "--library", other], environment: clocked(day0)).status, 0)
        XCTAssertEqual(
            try runProcess(cravey, ["backup", stick, "--library", other], environment: clocked(day0)).status, 0)
        let refused = try runClocked(["backup", "--every", "day", stick], now: day0, status: nil)
        XCTAssertNotEqual(refused.status, 0, refused.stdout)
        XCTAssertEqual(refused.stdout, "")
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertEqual(Sentinel.contents(), [], "no timer is written")
        let replaced = try runClocked(["backup", "--every", "day", stick, "--replace"], now: day0)
        XCTAssertTrue(replaced.stdout.contains("a new backup there every day at 12:30"), replaced.stdout)
        XCTAssertEqual(try serviceCommand(), ["backup", "--scheduled", "--library", root, "--", stick])
        Sentinel.allow(
            [
                ".config/systemd/user/cravey-backup.timer", ".config/systemd/user/cravey-backup.service",
                ".config/systemd/user/timers.target.wants/cravey-backup.timer",
            ])
    }

    /// Each is refused in one line before anything is backed up or written.
    func testBadInputChangesNothing() throws {
        for (arguments, words) in [
            (["backup", "--every", "week", stick], "is not how often"),
            (["backup", "--every", "day"], "give the directory to back up to"),
            (["backup", "--every", "off", stick], "takes no directory"),
            (["backup", "--every", "status", "--verify"], "takes no directory"),
            (["backup", "--every", "day", stick, "--json"], "--json goes with --every status"),
            (["backup", "--scheduled", "--every", "day", stick], "with a directory alone"),
            (["backup"], "give the directory to back up to"),
        ] {
            let refused = try runClocked(arguments, now: day0, status: nil)
            XCTAssertEqual(refused.status, 64, "\(arguments): \(refused.stdout)")
            XCTAssertTrue(refused.stderr.contains(words), "\(arguments): \(refused.stderr)")
            XCTAssertEqual(refused.stdout, "", "\(arguments)")
        }
        let hostile = base + "/stick\nExecStartPre=/bin/touch " + base + "/owned"
        let refused = try runClocked(["backup", "--every", "day", hostile], now: day0, status: nil)
        XCTAssertEqual(refused.status, 1, refused.stdout)
        XCTAssertTrue(refused.stderr.contains("holds a line break or another control character"), refused.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: base).sorted(), ["lib"])
        XCTAssertEqual(Sentinel.contents(), [], "no unit is written")
    }
}
