import Foundation

/// The daily backup's systemd user units (a `UserTimer`): a timer that runs `backup --scheduled`
/// every day at 12:30, and at the next start for a day the machine was off or asleep then
/// (`Persistent=true`), so a backup stays current without anyone remembering it.
public struct BackupUnits {
    let units: UserTimer
    public var directory: String { units.directory }

    public static let timerName = "cravey-backup.timer"
    public static let serviceName = "cravey-backup.service"
    /// When the backup runs: midday, when a computer is most often on.
    public static let time = (hour: 12, minute: 30)

    /// The units of the person whose environment is `env`; `systemctl` runs the user manager's
    /// command with the arguments it is given after `--user --quiet`.
    public init(environment env: [String: String], systemctl: @escaping ([String]) -> Int32) {
        units = UserTimer(name: "cravey-backup", environment: env, systemctl: systemctl)
    }

    static func service(executable: String, library: String, to folder: String) -> String {
        """
        [Unit]
        Description=cravey: a backup of the library, every day

        [Service]
        Type=oneshot
        ExecStart=\(UserTimer.quoted(executable)) backup --scheduled --library \(UserTimer.quoted(library)) -- \(UserTimer.quoted(folder))
        # A backup gives way to whatever the person is doing.
        Nice=10
        IOSchedulingClass=idle

        """
    }

    static func timer() -> String {
        UserTimer.catchingUp(
            UserTimer.timer(
                description: "cravey: the daily backup, at \(UserTimer.clock(time.hour, time.minute))",
                hour: time.hour, minute: time.minute, service: serviceName))
    }

    /// Writes both units and enables the timer. A path with a line break or another control
    /// character is refused before anything is written: in a unit it would end the line and
    /// begin directives of its own.
    public func install(executable: String, library: String, to folder: String) throws {
        try Self.refuseWhatAUnitCannotHold(executable: executable, library: library, folder: folder)
        try units.install(
            service: Self.service(executable: executable, library: library, to: folder), timer: Self.timer(),
            installing: "the daily backup")
    }

    /// Refuses a path with a line break or another control character, before anything is
    /// written or backed up.
    public static func refuseWhatAUnitCannotHold(executable: String, library: String, folder: String) throws {
        try UserTimer.refuseControlCharacters(executable: executable, library: library, installing: "the daily backup")
        if folder.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw UserTimer.Failure(
                description:
                    "cannot install the daily backup: the backup directory's path holds a line break or another control character, which a systemd unit cannot hold; give a directory without one"
            )
        }
    }

    /// Whether the daily backup is on: its timer is written.
    public var isOn: Bool { units.text(of: Self.timerName) != nil }

    /// The directory the service backs up to, as its command line names it; nil without one.
    public var folder: String? { units.quotedWord(after: " -- ") }

    /// The library the service backs up, as its command line names it; nil without one.
    public var library: String? { units.quotedWord(after: " --library ") }

    /// Removes both units and the link; false when there was nothing to remove.
    public func remove() throws -> Bool { try units.remove() }

    /// Tells the user's systemd about the units and starts the timer, when it is running.
    public func activate() -> UserTimer.Activation { units.activate() }
}
