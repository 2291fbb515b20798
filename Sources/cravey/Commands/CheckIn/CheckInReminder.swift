import ArgumentParser
import CraveyDesktop
import CraveyLibrary
import CraveyMedia
import Foundation
import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

extension Cravey.CheckInCommand {
    /// `cravey checkin remind HH:MM | --off`: a systemd user timer that runs `checkin notify`.
    struct Remind: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remind",
            abstract: "Remind me every day at a time (a systemd user timer); --off removes it.",
            discussion: """
                Writes cravey-checkin.timer and cravey-checkin.service to ${XDG_CONFIG_HOME:-~/.config}/systemd/user \
                and enables the timer. At that time 'cravey checkin notify' shows a desktop notification, \
                only when the day has no check-in yet and was not put off with Later.
                """)

        @OptionGroup var library: LibraryOptions

        @Argument(help: ArgumentHelp("The time of day, 24-hour (e.g. 21:00).", valueName: "HH:MM"))
        var time: String?

        @Flag(help: "Remove the reminder.")
        var off = false

        func validate() throws {
            if off == (time != nil) { throw ValidationError("give a time (HH:MM), or --off") }
            if let time, Self.parse(time) == nil {
                throw ValidationError("'\(time.prefix(20))' is not a time of day written as HH:MM")
            }
        }

        static func parse(_ text: String) -> (hour: Int, minute: Int)? {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) }),
                let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
            else { return nil }
            return (hour, minute)
        }

        func run() throws {
            let units = ReminderUnits()
            if off {
                let removed = try units.remove()
                print(removed ? "The daily reminder is off." : "There was no daily reminder.")
                return
            }
            let (hour, minute) = Self.parse(time!)!
            let root = library.root
            let absolute = root.hasPrefix("/") ? root : FileManager.default.currentDirectoryPath + "/" + root
            try units.install(hour: hour, minute: minute, executable: ReminderUnits.executablePath(), library: absolute)
            let at = String(format: "%02d:%02d", hour, minute)
            switch units.activate() {
            case .started: print("Every day at \(at), a reminder — only when there is no check-in yet.")
            case let .noUserManager(why):
                print("Every day at \(at) from your next login (the timer is installed and enabled; \(why)).")
            }
        }
    }

    /// `cravey checkin notify`: what the reminder runs.
    struct Notify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "notify",
            abstract: "Show a desktop notification when today has no check-in yet (what the reminder runs).")

        @OptionGroup var library: LibraryOptions

        func run() throws {
            let day = CheckIn.day(of: LocalClock.now())
            // Where there is no library yet there is no check-in either: nothing is made.
            let state = try library.existing()?.checkInDay(day)
            if state?.entry != nil {
                print("Today has its check-in; no reminder.")
                return
            }
            if state?.postponed == true {
                print("Today's check-in was put off for later; no reminder.")
                return
            }
            do {
                try DesktopNotification.show(
                    app: "cravey", summary: "A moment for yourself",
                    body: "How does today feel? Your check-in takes less than a minute: cravey checkin")
                print("Reminder shown.")
            } catch let failure as DesktopNotification.Failure {
                throw CraveyFailure(message: failure.description)
            }
        }
    }
}

/// The reminder's systemd user units, in `${XDG_CONFIG_HOME:-~/.config}/systemd/user`.
struct ReminderUnits {
    let directory: String

    static let timerName = "cravey-checkin.timer"
    static let serviceName = "cravey-checkin.service"

    init(environment env: [String: String] = Configuration.current.environment) {
        let config =
            env["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.config")
        directory = config + "/systemd/user"
    }

    /// This executable's absolute path (what the service runs).
    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    static func service(executable: String, library: String) -> String {
        """
        [Unit]
        Description=cravey: a gentle reminder of the daily check-in

        [Service]
        Type=oneshot
        ExecStart=\(quoted(executable)) checkin notify --library \(quoted(library))

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
    func install(hour: Int, minute: Int, executable: String, library: String) throws {
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
            throw CraveyFailure(message: "cannot install the reminder in \(directory): \(error.localizedDescription)")
        }
    }

    /// Removes both units and the link; false when there was nothing to remove.
    func remove() throws -> Bool {
        _ = systemctl(["disable", "--now", Self.timerName])
        var removed = false
        for path in [
            directory + "/timers.target.wants/" + Self.timerName, directory + "/" + Self.timerName,
            directory + "/" + Self.serviceName,
        ] {
            if unlink(path) == 0 {
                removed = true
            } else if errno != ENOENT {
                throw CraveyFailure(message: "cannot remove \(path): \(String(cString: strerror(errno)))")
            }
        }
        _ = systemctl(["daemon-reload"])
        return removed
    }

    enum Activation { case started, noUserManager(String) }

    /// Tells the user's systemd about the units and starts the timer, when it is running.
    func activate() -> Activation {
        guard systemctl(["daemon-reload"]) == 0, systemctl(["start", Self.timerName]) == 0 else {
            return .noUserManager("no systemd user session is running here")
        }
        return .started
    }

    /// Runs `systemctl --user ARGS` quietly, as a program of the person's desktop (their
    /// environment, nothing of the library's); its exit status, or -1 when it cannot run or hangs.
    private func systemctl(_ arguments: [String]) -> Int32 {
        DesktopProgram.run(
            "/usr/bin/systemctl", ["--user", "--quiet"] + arguments, environment: Configuration.current.environment)
            ?? -1
    }
}
