import CraveyDesktop
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

/// The evening question, on a day neither marked nor a day of use yet: a notification "Mark
/// today?" that offers "No use today" (also a click on it) and "I used", and waits for the answer
/// a while at most. "No use today" marks the day as `cravey today --none` does (the day-mark
/// flow), and where no terminal reads what was kept, says it in a notification; "I used" opens
/// the use form in a terminal window of its own (the launch flow), brought to the front with the
/// token the notification server sent. Where the server shows no buttons, the notification says
/// the commands instead and nothing waits. What `cravey today remind run` runs.
enum DayReminderFlow {
    /// What came of an evening.
    enum Outcome {
        /// Nothing shown: the day is known already (`kind`), or there is no library (nil).
        case quiet(DayKind?)
        /// Shown by a server without buttons: its words say the commands, and nothing waits.
        case shown
        /// "No use today": the day is marked.
        case marked(DayMarked)
        /// "I used": the use form opened in this terminal.
        case useForm(TerminalChoice)
        /// The person closed the notification without choosing.
        case closed
        /// No answer in time, or a stop signal (`stopped`): the notification was withdrawn.
        case withdrawn(stopped: Bool)
        /// The session bus went away while the answer was waited for.
        case busGone
    }

    /// The default time of the question.
    static let defaultTime = (hour: 21, minute: 0)

    /// The earliest time it can be set for: it asks about a day once most of it has gone.
    static let earliestHour = 12

    /// The notification's words: discreet ones name nothing (not cravey, not cannabis, not a
    /// use); without buttons the plain ones say the commands.
    struct Words {
        let app: String
        let summary: String
        let body: String
        let actions: [(key: String, label: String)]

        /// `library`: what the commands said end with (` --library PATH`, or "").
        init(discreet: Bool, actions: Bool, library: String = "") {
            let (none, used): (String, String)
            if discreet {
                (app, summary, none, used) = ("Reminder", "How was today?", "A clear day", "Not a clear day")
                body = actions ? "One click notes it." : "Take a moment to note it."
            } else {
                (app, summary, none, used) = ("cravey", "Mark today?", "No use today", "I used")
                body =
                    actions
                    ? "One click, and today is known: your calendar stays true."
                    : "Today is not marked yet.\n\n\(none): cravey today --none\(library)\n\(used): cravey use\(library)"
            }
            self.actions = [("default", none), ("no-use", none), ("used", used)]
        }

        /// What is said once the day is marked: the line `cravey today --none` prints (discreet:
        /// "Noted ✓").
        static func marked(_ marked: DayMarked, discreet: Bool, now: Date) -> (summary: String, body: String) {
            discreet ? ("Noted ✓", "") : (DayMarkFlow.said(marked, now: now), "A day known, not assumed.")
        }
    }

    /// Asks about `day` for the library at `root` and waits at most `seconds` for the answer.
    /// `kind` reads what is known of the day (nil: there is no library, and none is made); it is
    /// asked only when the day is not reported yet. `mark` keeps "no use" for the day. The
    /// library is not kept open while the answer is waited for. A stop signal (SIGTERM, SIGINT,
    /// SIGHUP) ends the wait and withdraws the notification.
    static func ask(
        _ day: LocalDay, root: String, discreet: Bool, environment: [String: String],
        seconds: Double = LaunchFlow.offerSeconds,
        kind: () throws -> DayKind?, mark: () throws -> DayMarked
    ) throws -> Outcome {
        let known = try kind()
        guard known == .notReported else { return .quiet(known) }
        // From before the notification is shown, a stop signal withdraws it and ends the run.
        let stop = StopSignals()
        defer { stop.cancel() }
        let offer = try DesktopOffer()
        defer { offer.close() }
        let words = Words(
            discreet: discreet, actions: offer.hasActions, library: ReminderFlow.libraryArgument(root))
        try offer.show(app: words.app, summary: words.summary, body: offer.body(words.body), actions: words.actions)
        guard offer.hasActions else { return .shown }
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        switch offer.wait(seconds: seconds, stopRequested: { stop.stopRequested }) {
        case .chosen(action: "default", _), .chosen(action: "no-use", _):
            let marked: DayMarked
            do { marked = try mark() } catch {
                say(
                    discreet ? "Not noted" : "Today could not be marked",
                    discreet ? "" : Problem.of(error)?.message ?? "\(error)", app: words.app)
                throw error
            }
            let said = Words.marked(marked, discreet: discreet, now: LocalClock.now())
            say(said.summary, said.body, app: words.app)
            return .marked(marked)
        case let .chosen(action: "used", token):
            let opened = try LaunchFlow.open(
                .use, root: root, environment: environment, activationToken: token, inheritingToken: false)
            switch opened {
            case let .success(terminal): return .useForm(terminal)
            case let .failure(refusal):
                throw CraveyFailure(message: LaunchFlow.notOpened(.use, refusal, environment: environment))
            }
        case .chosen, .closed: return .closed
        case .noAnswer:
            let stopped = stop.stopRequested
            return stopped || ContinuousClock.now >= deadline ? .withdrawn(stopped: stopped) : .busGone
        }
    }

    /// What came of the answer, said in a notification where no terminal reads this run's lines
    /// (the timer's run); a notification that cannot be shown leaves the line it printed.
    private static func say(_ summary: String, _ body: String, app: String) {
        guard !Terminal.stdoutIsTerminal else { return }
        _ = try? DesktopNotification.show(app: app, summary: summary, body: body)
    }
}
