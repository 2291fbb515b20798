import ArgumentParser
import CraveyDesktop
import CraveyLibrary
import CraveyMedia
import Foundation
import TerminalKit

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
            let units = ReminderUnits.ofThisUser()
            if off {
                let removed = try desktop { try units.remove() }
                print(removed ? "The daily reminder is off." : "There was no daily reminder.")
                return
            }
            let (hour, minute) = Self.parse(time!)!
            let root = library.root
            let absolute = root.hasPrefix("/") ? root : FileManager.default.currentDirectoryPath + "/" + root
            try desktop {
                try units.install(
                    hour: hour, minute: minute, executable: ReminderUnits.executablePath(), library: absolute)
            }
            let at = String(format: "%02d:%02d", hour, minute)
            switch units.activate() {
            case .started: print("Every day at \(at), a reminder — only when there is no check-in yet.")
            case let .noUserManager(why):
                print("Every day at \(at) from your next login (the timer is installed and enabled; \(why)).")
            }
        }

        /// What `body` returns; a unit that could not be written or removed is the command's one line.
        private func desktop<T>(_ body: () throws -> T) throws -> T {
            do { return try body() } catch let failure as ReminderUnits.Failure {
                throw CraveyFailure(message: failure.description)
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

extension ReminderUnits {
    /// The person's units, with `systemctl --user` run quietly as a program of their desktop
    /// (their environment, nothing of the library's).
    static func ofThisUser() -> ReminderUnits {
        let environment = LibraryOptions.configuration.environment
        return ReminderUnits(environment: environment) { arguments in
            DesktopProgram.run("/usr/bin/systemctl", ["--user", "--quiet"] + arguments, environment: environment) ?? -1
        }
    }
}
