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
            abstract: "Show a desktop notification when today has no check-in yet (what the reminder runs).",
            discussion: """
                Where the notification server shows buttons, it offers "Check in" (a click on the \
                notification opens the check-in in a terminal window) and "Not today" (no reminder again \
                today, as Later in the check-in), and waits 10 minutes at most for the answer; unanswered, \
                the notification is withdrawn. Elsewhere it says the command, and nothing waits.
                """)

        @OptionGroup var library: LibraryOptions
        @OptionGroup var wait: AnswerWait
        var answerSeconds: Double { wait.answerSeconds }

        func run() throws {
            let day = CheckIn.day(of: LocalClock.now())
            // Where there is no library yet there is no check-in either: nothing is made. The
            // library is not kept open while the answer is waited for.
            let state = try library.existing()?.checkInDay(day)
            if state?.entry != nil {
                print("Today has its check-in; no reminder.")
                return
            }
            if state?.postponed == true {
                print("Today's check-in was put off for later; no reminder.")
                return
            }
            let outcome: ReminderFlow.Outcome
            do {
                outcome = try ReminderFlow.remind(
                    day: day, root: library.root, environment: LibraryOptions.configuration.environment,
                    seconds: answerSeconds, library: library.existing)
            } catch let failure as DesktopNotification.Failure {
                throw CraveyFailure(message: failure.description)
            }
            switch outcome {
            case .shown: print("Reminder shown.")
            case let .opened(terminal): print("Check in: opened the check-in in \(Cravey.Launch.named(terminal)).")
            case .notToday(noted: true): print("Not today, then: no reminder again today.")
            case .notToday(noted: false): print("Not today, then (there is no library yet to note it in).")
            case .closed: print("The reminder was closed; nothing changed.")
            case .withdrawn(stopped: true): print("Stopped: the reminder was withdrawn.")
            case .withdrawn(stopped: false):
                print("No answer within \(Self.duration(answerSeconds)): the reminder was withdrawn.")
            case .busGone: print("The session bus went away before an answer came.")
            }
        }

        /// `seconds` in words: whole minutes as minutes.
        static func duration(_ seconds: Double) -> String {
            let whole = Int(seconds.rounded())
            if whole % 60 == 0 { return whole == 60 ? "a minute" : "\(whole / 60) minutes" }
            return whole == 1 ? "a second" : "\(whole) seconds"
        }
    }
}

/// `--answer-seconds` (hidden): how long a notification's answer is waited for, a test's
/// shorter wait; never more than a timer's service allows.
struct AnswerWait: ParsableArguments {
    @Option(help: .hidden)
    var answerSeconds: Double = LaunchFlow.offerSeconds

    func validate() throws {
        guard answerSeconds >= 1, answerSeconds <= LaunchFlow.offerSeconds else {
            throw ValidationError("--answer-seconds is a number of seconds from 1 to 600")
        }
    }
}

extension ReminderUnits {
    /// The person's units, with `systemctl --user` run as every timer's is.
    static func ofThisUser() -> ReminderUnits {
        let environment = LibraryOptions.configuration.environment
        return ReminderUnits(environment: environment, systemctl: UserTimer.systemctlOfThisUser(environment))
    }
}

extension UserTimer {
    /// `systemctl --user --quiet ARGS`, run as a program of the person's desktop (their
    /// environment `environment`, nothing of the library's): how every timer tells their systemd.
    static func systemctlOfThisUser(_ environment: [String: String]) -> ([String]) -> Int32 {
        { arguments in
            DesktopProgram.run("/usr/bin/systemctl", ["--user", "--quiet"] + arguments, environment: environment) ?? -1
        }
    }
}
