import Foundation

/// The nudge's systemd user units (a `UserTimer`): a timer that runs `nudge run` once a day, 15
/// minutes before the hour that is often hard. Each run moves the timer to the hour it finds, by
/// writing the timer's own `OnCalendar` again: the file is the schedule, read by the user's
/// systemd now (a daemon-reload) or at the next login where none runs yet (a transient timer
/// would need a running user manager, and would be gone at the next login).
public struct NudgeUnits {
    let units: UserTimer
    public var directory: String { units.directory }

    public static let timerName = "cravey-nudge.timer"
    public static let serviceName = "cravey-nudge.service"

    public init(environment env: [String: String], systemctl: @escaping ([String]) -> Int32) {
        units = UserTimer(name: "cravey-nudge", environment: env, systemctl: systemctl)
    }

    static func service(executable: String, library: String, discreet: Bool) -> String {
        """
        [Unit]
        Description=cravey: a nudge before the hour that is often hard

        [Service]
        Type=oneshot
        ExecStart=\(UserTimer.quoted(executable)) nudge run --library \(UserTimer.quoted(library))\(discreet ? " --discreet" : "")
        # The nudge's answer is waited for 10 minutes at most; then it is withdrawn.
        TimeoutStartSec=11min
        # The ride its "Ride it out" opens, and the message "Play my message" plays, go on when the run ends.
        KillMode=process

        """
    }

    static func timer(hour: Int, minute: Int) -> String {
        UserTimer.timer(
            description: "cravey: the daily nudge, at \(UserTimer.clock(hour, minute))", hour: hour, minute: minute,
            service: serviceName)
    }

    /// Writes both units for the time `hour`:`minute` and enables the timer; a path with a line
    /// break or another control character is refused before anything is written.
    public func install(hour: Int, minute: Int, executable: String, library: String, discreet: Bool) throws {
        try UserTimer.refuseControlCharacters(executable: executable, library: library, installing: "the nudge")
        try units.install(
            service: Self.service(executable: executable, library: library, discreet: discreet),
            timer: Self.timer(hour: hour, minute: minute), installing: "the nudge")
    }

    /// Whether the nudge is on: its timer is written.
    public var isOn: Bool { units.text(of: Self.timerName) != nil }

    /// Whether the service runs the nudge with words that name nothing.
    public var isDiscreet: Bool { units.text(of: Self.serviceName)?.contains(" --discreet\n") ?? false }

    /// The library the service runs the nudge on, as its command line names it; nil without one.
    public var library: String? { units.quotedWord(after: " --library ") }

    /// The time of day the timer runs.
    public var scheduled: (hour: Int, minute: Int)? { units.scheduled }

    /// Moves the timer to `hour`:`minute` when it is on and written for another time; true when
    /// it was moved.
    public func move(hour: Int, minute: Int) throws -> Bool {
        guard isOn, let now = scheduled, now.hour != hour || now.minute != minute else { return false }
        try units.rewrite(timer: Self.timer(hour: hour, minute: minute))
        return true
    }

    /// Removes both units and the link; false when there was nothing to remove.
    public func remove() throws -> Bool { try units.remove() }

    /// Tells the user's systemd about the units and starts the timer, when it is running.
    public func activate() -> UserTimer.Activation { units.activate() }
}
