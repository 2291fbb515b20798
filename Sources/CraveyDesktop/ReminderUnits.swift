import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The daily reminder's systemd user units (a `UserTimer`): a timer that runs a oneshot service
/// at a time of day, `checkin notify`.
public struct ReminderUnits {
    let units: UserTimer
    public var directory: String { units.directory }

    public static let timerName = "cravey-checkin.timer"
    public static let serviceName = "cravey-checkin.service"

    /// Why the units could not be written or removed, said in one line.
    public typealias Failure = UserTimer.Failure

    /// The units of the person whose environment is `env`; `systemctl` runs the user manager's
    /// command with the arguments it is given after `--user --quiet`.
    public init(environment env: [String: String], systemctl: @escaping ([String]) -> Int32) {
        units = UserTimer(name: "cravey-checkin", environment: env, systemctl: systemctl)
    }

    /// This executable's absolute path (what the service runs).
    public static func executablePath() -> String { UserTimer.executablePath() }

    static func service(executable: String, library: String) -> String {
        """
        [Unit]
        Description=cravey: a gentle reminder of the daily check-in

        [Service]
        Type=oneshot
        ExecStart=\(quoted(executable)) checkin notify --library \(quoted(library))
        # The notification's answer is waited for 10 minutes at most; then it is withdrawn.
        TimeoutStartSec=11min
        # The check-in window its "Check in" opens stays open when the reminder ends.
        KillMode=process

        """
    }

    static func timer(hour: Int, minute: Int) -> String {
        UserTimer.timer(
            description: "cravey: the daily check-in reminder at \(UserTimer.clock(hour, minute))", hour: hour,
            minute: minute, service: serviceName)
    }

    /// A path as one word of a systemd command line.
    static func quoted(_ path: String) -> String { UserTimer.quoted(path) }

    /// Writes both units and enables the timer (the link `systemctl --user enable` would make).
    /// A path with a line break or another control character is refused before anything is
    /// written: in a unit it would end the line and begin directives of its own.
    public func install(hour: Int, minute: Int, executable: String, library: String) throws {
        try UserTimer.refuseControlCharacters(executable: executable, library: library, installing: "the reminder")
        try units.install(
            service: Self.service(executable: executable, library: library),
            timer: Self.timer(hour: hour, minute: minute),
            installing: "the reminder")
    }

    /// Removes both units and the link; false when there was nothing to remove.
    public func remove() throws -> Bool { try units.remove() }

    public typealias Activation = UserTimer.Activation

    /// Tells the user's systemd about the units and starts the timer, when it is running.
    public func activate() -> Activation { units.activate() }
}
