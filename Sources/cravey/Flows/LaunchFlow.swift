import CraveyDesktop
import CraveyLibrary
import CraveyMedia
import CraveyMessages
import Foundation
import TerminalKit

/// Reaching cravey from the desktop, where there is no terminal: a screen opened in a terminal
/// window of its own, and — when a message's sound cannot play — its words in a notification
/// whose "Ride it out" opens the ride. What `cravey launch` and a play without a terminal run.
enum LaunchFlow {
    /// The screens a desktop opens.
    enum Screen: String, CaseIterable, Sendable {
        case home, ride, craving, checkin

        /// How the opened screen is named in the line that says so.
        var words: String {
            switch self {
            case .home: "the home screen"
            case .ride: "the ride"
            case .craving: "a craving's log"
            case .checkin: "the check-in"
            }
        }
    }

    /// The longest a notification's offer is waited for.
    static let offerSeconds = 600.0

    /// Opens `screen` on the library at `root` in a terminal window (started in its own session,
    /// with the person's environment and nothing of cravey's); the terminal chosen.
    static func open(
        _ screen: Screen, root: String, environment: [String: String], activationToken: String? = nil
    ) throws -> Result<TerminalChoice, TerminalChoice.Refusal> {
        let absolute = root.hasPrefix("/") ? root : FileManager.default.currentDirectoryPath + "/" + root
        let command = [ReminderUnits.executablePath(), screen.rawValue, "--library", absolute]
        let chosen = TerminalChoice.choose(for: command, environment: environment)
        if case let .success(terminal) = chosen {
            let own = TerminalChoice.environment(environment, activationToken: activationToken)
            _ = try BackgroundProcess.start(terminal.executable, terminal.arguments, environment: own)
        }
        return chosen
    }

    /// Whether this run has no terminal at all but a desktop: a key or a launcher started it.
    static func fromTheDesktop(_ environment: [String: String]) -> Bool {
        !Terminal.stdinIsTerminal && !Terminal.stdoutIsTerminal && isatty(2) == 0
            && !((environment["DISPLAY"] ?? "") + (environment["WAYLAND_DISPLAY"] ?? "")).isEmpty
    }

    /// Started from the desktop, a message whose sound cannot play is shown in a notification
    /// (its words under the same rules as on a terminal), with "Ride it out"; choosing it opens the
    /// ride. Waits for the answer at most `offerSeconds`; without a session bus or a notification
    /// server nothing more is said than what was printed.
    static func offerRide(instead recording: Recording, _ error: MediaError, in session: Session) {
        let environment = session.configuration.environment
        guard fromTheDesktop(environment), let offer = try? DesktopOffer() else { return }
        defer { offer.close() }
        let words = MessagePlay.words(of: recording, in: session.library)
        var lines = UnheardWords.lines(
            recording, words: words, speaker: session.speaker,
            problem: DeviceProblem.speaker(session.speaker, error))
        if !offer.hasActions { lines += ["", "Ride it out: cravey launch ride"] }
        let body = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
        let ride = "Ride it out"
        guard
            (try? offer.show(
                app: "cravey", summary: "'\(Terminal.safe(recording.shownTitle))'", body: offer.body(body),
                actions: [("default", ride), ("ride", ride)])) != nil, offer.hasActions
        else { return }
        // SIGTERM, SIGINT or SIGHUP end the wait (and withdraw the offer), as they end a play.
        let stop = StopSignals()
        defer { stop.cancel() }
        let answer = offer.wait(seconds: offerSeconds) { stop.stopRequested }
        if case let .chosen(action, token) = answer, ["default", "ride"].contains(action) {
            _ = try? open(.ride, root: session.root, environment: environment, activationToken: token)
        }
    }
}
