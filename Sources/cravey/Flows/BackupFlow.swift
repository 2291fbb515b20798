import CraveyDesktop
import CraveyLibrary
import CraveyMedia
import CraveyTracker
import Foundation
import TerminalKit

/// The backup kept current without remembering: the daily timer's units of this person, what
/// `backup --every status` reads, and home's note while the newest backup is more than 7 days old.
enum BackupFlow {
    /// How old the newest backup may be before home says so.
    static let oldAfterDays = 7

    /// The units of the person whose environment is `environment`, with `systemctl --user` run
    /// quietly as a program of their desktop (nothing of the library's).
    static func units(_ environment: [String: String]) -> BackupUnits {
        BackupUnits(environment: environment) {
            DesktopProgram.run("/usr/bin/systemctl", ["--user", "--quiet"] + $0, environment: environment) ?? -1
        }
    }

    /// What `backup --every status` says, read without changing anything.
    struct Status: Encodable {
        /// Whether the daily timer is written; where it backs up to, and which library.
        var on: Bool
        var directory: String?
        var library: String?
        /// Whether the timer is for another library than this one.
        var forAnotherLibrary: Bool
        var time: String?
        var newest: Newest?
        /// Whether the newest backup is more than 7 days old (or there is none).
        var old: Bool

        struct Newest: Encodable {
            var directory: String
            var at: String
            var days: Int
        }
    }

    static func status(_ lib: Library?, root: String, units: BackupUnits, now: Date) -> Status {
        let newest = lib?.lastBackup().map {
            Status.Newest(directory: $0.directory, at: StoredDate.text($0.at), days: days(since: $0.at, now: now))
        }
        let library = units.isOn ? units.library : nil
        return Status(
            on: units.isOn, directory: units.isOn ? units.folder : nil, library: library,
            forAnotherLibrary: library.map { $0 != NudgeFlow.absolute(root) } ?? false,
            time: units.isOn ? UserTimer.clock(BackupUnits.time.hour, BackupUnits.time.minute) : nil, newest: newest,
            old: (newest?.days ?? Int.max) > oldAfterDays)
    }

    /// Whole days from `date` to `now` (0 for a date ahead of the clock), counted in whole
    /// milliseconds as times are stored (so 15 days to the millisecond is never 14.99999).
    static func days(since date: Date, now: Date) -> Int {
        func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        return max(0, Int((milliseconds(now) - milliseconds(date)) / 86_400_000))
    }

    /// Home's note while the newest backup (made by any path) is more than 7 days old, shown on
    /// one visit a week (the day is kept), never within an hour of a craving (a hard moment is no
    /// time for chores). Nil when none is due, or the day cannot be kept (then it would show on
    /// every visit). A library never backed up has no newest backup to grow old: `doctor` and
    /// the guide speak of the first one.
    static func homeNote(_ lib: Library, now: Date, environment: [String: String]) -> String? {
        let today = LocalDay(now, in: .current)
        guard let newest = lib.lastBackup(), days(since: newest.at, now: now) > oldAfterDays else { return nil }
        if let noted = (try? lib.setting(.backupNoted)).flatMap(LocalDay.init(parsing:)), noted <= today,
            today - noted < 7
        {
            return nil
        }
        let recent = (try? Tracker(library: lib).entries(uses: false, since: now.addingTimeInterval(-3600))) ?? []
        guard recent.isEmpty, (try? lib.setSetting(.backupNoted, to: today.text)) != nil else { return nil }
        return note(newest: newest, now: now, daily: units(environment))
    }

    /// The note's words: how old the newest backup is, and the one command that helps.
    static func note(newest: (directory: String, at: Date), now: Date, daily: BackupUnits) -> String {
        let age = "Your newest backup is \(days(since: newest.at, now: now)) days old"
        if daily.isOn, let folder = daily.folder {
            return age
                + ": the daily backup to \(Terminal.safe(folder)) could not make one (is that disk plugged in?). cravey backup \(Terminal.safe(folder)) makes one now."
        }
        return age
            + ". To keep one current without remembering: cravey backup --every day \(Terminal.safe(newest.directory))"
    }
}
