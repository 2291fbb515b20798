import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The daily reminder's systemd user units, in `${XDG_CONFIG_HOME:-~/.config}/systemd/user`: a
/// timer that runs a oneshot service at a time of day. The units are written and removed here;
/// `systemctl --user` is run by whoever made this value (it is a program of the person's desktop,
/// started the one way cravey starts a program), so this floor starts nothing itself.
public struct ReminderUnits {
    public let directory: String
    /// Runs `systemctl --user --quiet ARGS`; its exit status, or -1 when it cannot run or hangs.
    let systemctl: ([String]) -> Int32

    public static let timerName = "cravey-checkin.timer"
    public static let serviceName = "cravey-checkin.service"

    /// Why the units could not be written or removed, said in one line.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The units of the person whose environment is `env`; `systemctl` runs the user manager's
    /// command with the arguments it is given after `--user --quiet`.
    public init(environment env: [String: String], systemctl: @escaping ([String]) -> Int32) {
        let config =
            env["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.config")
        directory = config + "/systemd/user"
        self.systemctl = systemctl
    }

    /// This executable's absolute path (what the service runs).
    public static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

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
        """
        [Unit]
        Description=cravey: the daily check-in reminder at \(String(format: "%02d:%02d", hour, minute))

        [Timer]
        OnCalendar=*-*-* \(String(format: "%02d:%02d", hour, minute)):00
        Unit=\(serviceName)

        [Install]
        WantedBy=timers.target

        """
    }

    /// A path as one word of a systemd command line (quoted, with `\`, `"`, `%` and `$` escaped).
    static func quoted(_ path: String) -> String {
        let escaped = path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "%", with: "%%").replacingOccurrences(of: "$", with: "$$")
        return "\"" + escaped + "\""
    }

    /// Writes both units and enables the timer (the link `systemctl --user enable` would make).
    /// A path with a line break or another control character is refused before anything is
    /// written: in a unit it would end the line and begin directives of its own.
    public func install(hour: Int, minute: Int, executable: String, library: String) throws {
        for (path, what) in [(library, "the library's path"), (executable, "cravey's own path")]
        where path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw Failure(
                description:
                    "cannot install the reminder: \(what) holds a line break or another control character, which a systemd unit cannot hold; give a library path without one"
            )
        }
        let wants = directory + "/timers.target.wants"
        do {
            try FileManager.default.createDirectory(atPath: wants, withIntermediateDirectories: true)
            try Data(Self.service(executable: executable, library: library).utf8)
                .write(to: URL(fileURLWithPath: directory + "/" + Self.serviceName), options: .atomic)
            try Data(Self.timer(hour: hour, minute: minute).utf8)
                .write(to: URL(fileURLWithPath: directory + "/" + Self.timerName), options: .atomic)
            let link = wants + "/" + Self.timerName
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil {
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../" + Self.timerName)
            }
        } catch {
            throw Failure(description: "cannot install the reminder in \(directory): \(error.localizedDescription)")
        }
    }

    /// Removes both units and the link; false when there was nothing to remove.
    public func remove() throws -> Bool {
        _ = systemctl(["disable", "--now", Self.timerName])
        var removed = false
        for path in [
            directory + "/timers.target.wants/" + Self.timerName, directory + "/" + Self.timerName,
            directory + "/" + Self.serviceName,
        ] {
            if unlink(path) == 0 {
                removed = true
            } else if errno != ENOENT {
                throw Failure(description: "cannot remove \(path): \(String(cString: strerror(errno)))")
            }
        }
        _ = systemctl(["daemon-reload"])
        return removed
    }

    public enum Activation { case started, noUserManager(String) }

    /// Tells the user's systemd about the units and starts the timer, when it is running.
    public func activate() -> Activation {
        guard systemctl(["daemon-reload"]) == 0, systemctl(["start", Self.timerName]) == 0 else {
            return .noUserManager("no systemd user session is running here")
        }
        return .started
    }
}
