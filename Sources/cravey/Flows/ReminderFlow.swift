import CraveyDesktop
import CraveyLibrary
import Foundation
import TerminalKit

/// The daily check-in reminder, on a day with no check-in yet that was not put off: a notification
/// that offers "Check in" (a click on it) and "Not today", and waits for the answer a while at
/// most. "Check in" opens the check-in in a terminal window of its own (the launch flow), brought
/// to the front with the token the notification server sent; "Not today" puts the day off as the
/// check-in's own "Later" does, so no reminder comes again that day. Where the server shows no
/// buttons, the notification says the command instead and nothing waits. What `cravey checkin
/// notify` runs.
enum ReminderFlow {
    /// What came of a reminder.
    enum Outcome {
        /// Shown by a server without buttons: its words say the command, and nothing waits.
        case shown
        /// "Check in": the check-in opened in this terminal.
        case opened(TerminalChoice)
        /// "Not today": the day is put off (`noted` false: there is no library to note it in yet).
        case notToday(noted: Bool)
        /// The person closed the notification without choosing.
        case closed
        /// No answer in time, or a stop signal (`stopped`): the notification was withdrawn.
        case withdrawn(stopped: Bool)
        /// The session bus went away while the answer was waited for.
        case busGone
    }

    /// The longest the answer is waited for: the reminder's service allows a little more.
    static let answerSeconds = 600.0

    static let summary = "A moment for yourself"
    static let words = "How does today feel? Your check-in takes less than a minute"

    /// The actions offered: "Check in" is the default (a click on the notification) and a button
    /// where the server shows the default as none.
    static let actions: [(key: String, label: String)] = [
        ("default", "Check in"), ("checkin", "Check in"), ("not-today", "Not today"),
    ]

    /// ` --library PATH` where `root` is not the default library, so that a command the words say
    /// reaches this one; "" where it is.
    static func libraryArgument(_ root: String) -> String {
        let absolute = NudgeFlow.absolute(root)
        return absolute == NudgeFlow.absolute(LibraryOptions.configuration.defaultLibrary)
            ? "" : " --library " + ShellWord.quoted(absolute)
    }

    /// Shows the reminder of `day` for the library at `root` and waits at most `seconds` for the
    /// answer; `library` opens the library there is (nil: none yet, and none is made) when the
    /// answer is to note something in it. A stop signal (SIGTERM, SIGINT, SIGHUP) ends the wait.
    static func remind(
        day: String, root: String, environment: [String: String], seconds: Double = answerSeconds,
        library: () throws -> Library?
    ) throws -> Outcome {
        let offer = try DesktopOffer()
        defer { offer.close() }
        guard offer.hasActions else {
            offer.close()
            try DesktopNotification.show(
                app: "cravey", summary: summary, body: words + ": cravey checkin" + libraryArgument(root))
            return .shown
        }
        // From before the notification is shown, a stop signal withdraws it and ends the run.
        let stop = StopSignals()
        defer { stop.cancel() }
        try offer.show(app: "cravey", summary: summary, body: offer.body(words + "."), actions: actions)
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        switch offer.wait(seconds: seconds, stopRequested: { stop.stopRequested }) {
        case .chosen(action: "not-today", _):
            guard let library = try library() else { return .notToday(noted: false) }
            try library.noteGreeted(day, postponed: true, at: LocalClock.now())
            return .notToday(noted: true)
        case let .chosen(action, token) where action == "default" || action == "checkin":
            let opened = try LaunchFlow.open(
                .checkin, root: root, environment: environment, activationToken: token, inheritingToken: false)
            switch opened {
            case let .success(terminal): return .opened(terminal)
            case let .failure(refusal):
                throw CraveyFailure(message: LaunchFlow.notOpened(.checkin, refusal, environment: environment))
            }
        case .chosen, .closed: return .closed
        case .noAnswer:
            let stopped = stop.stopRequested
            return stopped || ContinuousClock.now >= deadline ? .withdrawn(stopped: stopped) : .busGone
        }
    }
}
