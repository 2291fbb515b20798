import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A daily systemd user timer and the oneshot service it runs, in
/// `${XDG_CONFIG_HOME:-~/.config}/systemd/user`: written, enabled (the link `systemctl --user
/// enable` makes), moved to another time, and removed here. `systemctl --user` is run by whoever
/// made this value (a program of the person's desktop, started the one way cravey starts a
/// program), so this floor starts nothing itself. The check-in reminder, the nudge and the
/// evening question are each one.
public struct UserTimer {
    public let directory: String
    /// Runs `systemctl --user --quiet ARGS`; its exit status, or -1 when it cannot run or hangs.
    let systemctl: ([String]) -> Int32
    /// `cravey-checkin.timer`, `cravey-nudge.timer`.
    public let timerName: String
    public let serviceName: String

    /// Why the units could not be written or removed, said in one line.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The units named `name` (`cravey-checkin`) of the person whose environment is `env`.
    public init(name: String, environment env: [String: String], systemctl: @escaping ([String]) -> Int32) {
        let config =
            env["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.config")
        directory = config + "/systemd/user"
        self.systemctl = systemctl
        (timerName, serviceName) = (name + ".timer", name + ".service")
    }

    /// This executable's absolute path (what a service runs).
    public static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// `HH:MM`, 24-hour.
    public static func clock(_ hour: Int, _ minute: Int) -> String { String(format: "%02d:%02d", hour, minute) }

    /// A timer that starts `service` every day at `hour`:`minute`, described as `description`.
    static func timer(description: String, hour: Int, minute: Int, service: String) -> String {
        """
        [Unit]
        Description=\(description)

        [Timer]
        OnCalendar=*-*-* \(clock(hour, minute)):00
        Unit=\(service)

        [Install]
        WantedBy=timers.target

        """
    }

    /// A oneshot service that runs cravey's `run` (`nudge run`) on the library at `library`,
    /// with `--discreet` when asked, described as `description`. `answer` names what the run
    /// waits for (10 minutes at most, then withdrawn); `goesOn` says what it opens that stays
    /// when the run ends (so only the run's own process is stopped).
    static func service(
        description: String, run: String, executable: String, library: String, discreet: Bool, answer: String,
        goesOn: String
    ) -> String {
        """
        [Unit]
        Description=\(description)

        [Service]
        Type=oneshot
        ExecStart=\(quoted(executable)) \(run) --library \(quoted(library))\(discreet ? " --discreet" : "")
        # \(answer) is waited for 10 minutes at most; then it is withdrawn.
        TimeoutStartSec=11min
        # \(goesOn)
        KillMode=process

        """
    }

    /// `timer` (one `UserTimer.timer` wrote) made to catch up: a run the machine was off or asleep
    /// for is made at its next start (`Persistent=true`).
    static func catchingUp(_ timer: String) -> String {
        timer.replacingOccurrences(of: "\nUnit=", with: "\nPersistent=true\nUnit=")
    }

    /// The path the service's command line gives after `marker` (` --library `), as one quoted
    /// word (see `quoted`) read back; nil without a service, or where it gives none.
    func quotedWord(after marker: String) -> String? {
        guard
            let line = text(of: serviceName)?.split(separator: "\n").first(where: { $0.hasPrefix("ExecStart=") }),
            let start = line.range(of: marker + "\"")
        else { return nil }
        var path = ""
        var escaped = false
        for character in line[start.upperBound...] {
            if escaped {
                (path, escaped) = (path + String(character), false)
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return path.replacingOccurrences(of: "%%", with: "%").replacingOccurrences(of: "$$", with: "$")
            } else {
                path.append(character)
            }
        }
        return nil
    }

    /// A path as one word of a systemd command line (quoted, with `\`, `"`, `%` and `$` escaped).
    static func quoted(_ path: String) -> String {
        let escaped = path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "%", with: "%%").replacingOccurrences(of: "$", with: "$$")
        return "\"" + escaped + "\""
    }

    /// Refuses, before anything is written, a path with a line break or another control character:
    /// in a unit it would end the line and begin directives of its own. `what` is what is being
    /// installed ("the reminder").
    static func refuseControlCharacters(executable: String, library: String, installing what: String) throws {
        for (path, whose) in [(library, "the library's path"), (executable, "cravey's own path")]
        where path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw Failure(
                description:
                    "cannot install \(what): \(whose) holds a line break or another control character, which a systemd unit cannot hold; give a library path without one"
            )
        }
    }

    /// Writes both units and enables the timer; `what` names them in a failure's line.
    func install(service: String, timer: String, installing what: String) throws {
        let wants = directory + "/timers.target.wants"
        do {
            try FileManager.default.createDirectory(atPath: wants, withIntermediateDirectories: true)
            try Data(service.utf8).write(to: URL(fileURLWithPath: directory + "/" + serviceName), options: .atomic)
            try Data(timer.utf8).write(to: URL(fileURLWithPath: directory + "/" + timerName), options: .atomic)
            let link = wants + "/" + timerName
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil {
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../" + timerName)
            }
        } catch {
            throw Failure(description: "cannot install \(what) in \(directory): \(error.localizedDescription)")
        }
    }

    /// Writes the timer again (a new time) and tells the user's systemd, when it is running.
    func rewrite(timer: String) throws {
        do {
            try Data(timer.utf8).write(to: URL(fileURLWithPath: directory + "/" + timerName), options: .atomic)
        } catch {
            throw Failure(description: "cannot move the timer in \(directory): \(error.localizedDescription)")
        }
        _ = systemctl(["daemon-reload"])
    }

    /// The text of the unit named `name`, nil when it is not there.
    func text(of name: String) -> String? {
        try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)
    }

    /// Whether the timer is written (it is on).
    public var isOn: Bool { text(of: timerName) != nil }

    /// Whether the service runs with words that name nothing.
    public var isDiscreet: Bool { text(of: serviceName)?.contains(" --discreet\n") ?? false }

    /// The library the service runs on, as its command line names it; nil without one.
    public var library: String? { quotedWord(after: " --library ") }

    /// The time of day the timer is written for (its `OnCalendar=*-*-* HH:MM:00`); nil when there
    /// is no timer, or one not written so.
    public var scheduled: (hour: Int, minute: Int)? {
        guard let line = text(of: timerName)?.split(separator: "\n").first(where: { $0.hasPrefix("OnCalendar=") })
        else { return nil }
        let clock = line.split(separator: " ").last?.split(separator: ":").compactMap { Int($0) } ?? []
        guard clock.count == 3, (0..<24).contains(clock[0]), (0..<60).contains(clock[1]) else { return nil }
        return (clock[0], clock[1])
    }

    /// Removes both units and the link; false when there was nothing to remove.
    public func remove() throws -> Bool {
        _ = systemctl(["disable", "--now", timerName])
        var removed = false
        for path in [
            directory + "/timers.target.wants/" + timerName, directory + "/" + timerName, directory + "/" + serviceName,
        ] {
            // Not there is nothing to remove, also where the folder cannot be written.
            var info = stat()
            if lstat(path, &info) != 0 && errno == ENOENT { continue }
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
        guard systemctl(["daemon-reload"]) == 0, systemctl(["start", timerName]) == 0 else {
            return .noUserManager("no systemd user session is running here")
        }
        return .started
    }
}
