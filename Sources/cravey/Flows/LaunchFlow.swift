import CraveyDesktop
import CraveyLibrary
import CraveyMedia
import CraveyMessages
import Foundation
import Synchronization
import TerminalKit

/// Reaching cravey from the desktop, where there is no terminal: a screen opened in a terminal
/// window of its own, and — when a message's sound cannot play — its words in a notification
/// whose "Ride it out" opens the ride. What `cravey launch` and a play without a terminal run.
enum LaunchFlow {
    /// The screens a desktop opens.
    enum Screen: String, CaseIterable, Sendable {
        case home, ride, craving, checkin, use

        /// How the opened screen is named in the line that says so.
        var words: String {
            switch self {
            case .home: "the home screen"
            case .ride: "the ride"
            case .craving: "a craving's log"
            case .checkin: "the check-in"
            case .use: "the use form"
            }
        }
    }

    /// The longest a notification's offer is waited for.
    static let offerSeconds = 600.0

    /// How long a terminal is watched once started: one that refuses its command line (an
    /// unknown option, no `-e`) ends within it, and the next terminal is tried.
    static let watchSeconds = 0.5

    /// Opens `screen` on the library at `root` in a terminal window (started in its own session,
    /// with the person's environment and nothing of cravey's); the terminal that opened it. With
    /// `inheritingToken` false, only `activationToken` is passed on (the one in `environment` was
    /// used already, by what started this run).
    static func open(
        _ screen: Screen, root: String, environment: [String: String], activationToken: String? = nil,
        inheritingToken: Bool = true
    ) throws -> Result<TerminalChoice, TerminalChoice.Refusal> {
        let absolute = root.hasPrefix("/") ? root : FileManager.default.currentDirectoryPath + "/" + root
        let command = [ReminderUnits.executablePath(), screen.rawValue, "--library", absolute]
        let own = TerminalChoice.environment(
            environment, activationToken: activationToken, inheritingToken: inheritingToken)
        var refusal = TerminalChoice.Refusal.noTerminal
        switch TerminalChoice.candidates(for: command, environment: environment) {
        case let .failure(why): return .failure(why)
        case let .success(terminals):
            for terminal in terminals {
                // Ended at once with an error: it did not take its command line; the next is tried.
                guard
                    let status = try BackgroundProcess.start(
                        terminal.executable, terminal.arguments, environment: own, watching: watchSeconds),
                    status != 0
                else { return .success(terminal) }
                refusal = .endedAtOnce(name: terminal.name, status: status)
            }
        }
        return .failure(refusal)
    }

    /// Why `screen` could not be opened, in one line; from a launcher or a key, where nobody reads
    /// an error, it is also shown as a notification.
    static func notOpened(_ screen: Screen, _ refusal: TerminalChoice.Refusal, environment: [String: String])
        -> String
    {
        let why: String
        switch refusal {
        case .noDisplay:
            return
                "there is no desktop to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set); in a terminal, 'cravey \(screen.rawValue)' opens it right there"
        case .noTerminal:
            why =
                "no terminal program was found to open \(screen.words) in (none of xdg-terminal-exec, $TERMINAL, x-terminal-emulator, \(TerminalChoice.known.joined(separator: ", "))); name yours in TERMINAL, e.g. TERMINAL=kitty in ~/.profile"
        case let .endedAtOnce(name, status):
            why =
                "no terminal could open \(screen.words): \(Terminal.safe(name)) stopped at once (exit status \(status)), as did any other found; name a terminal that works in TERMINAL (in ~/.profile)"
        }
        if fromTheDesktop(environment) {
            _ = try? DesktopNotification.show(app: "cravey", summary: "cravey could not open a window", body: why)
        }
        return why
    }

    /// The longest a window `cravey launch` opened waits for its key before it closes.
    static let holdMilliseconds: Int32 = 600_000

    /// In a window `cravey launch` opened, which closes when this run ends: at the exit, what was
    /// left on the terminal (a screen's closing words, a saved line, an error) stays until a key,
    /// 10 minutes at most. Called once as the run starts; the mark is not passed on.
    static func holdWindowAtExit() {
        guard let mark = getenv(TerminalChoice.launchedVariable), String(cString: mark) == "1" else { return }
        unsetenv(TerminalChoice.launchedVariable)
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return }
        atexit { LaunchFlow.holdIfSomethingWasSaid() }
    }

    /// Waits for a key when anything was written to the terminal's screen: the cursor is no longer
    /// at the top left corner of the fresh window (a screen left with nothing said after it, such
    /// as home closed with q, closes at once).
    static func holdIfSomethingWasSaid() {
        fflush(nil)
        guard !closesAtOnce.load(ordering: .relaxed) else { return }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        guard cursorMoved() else { return }
        let prompt = "\n" + Terminal.dim("Press any key to close this window.")
        _ = prompt.utf8CString.withUnsafeBufferPointer { write(STDOUT_FILENO, $0.baseAddress, $0.count - 1) }
        // Keys typed before the words were there do not close it.
        tcflush(STDIN_FILENO, TCIFLUSH)
        var key = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        // A key, the window closed (a hang-up) or a signal (SIGTERM, SIGHUP) ends the wait.
        _ = poll(&key, 1, holdMilliseconds)
        _ = write(STDOUT_FILENO, "\n", 1)
    }

    /// Set when the run was the home screen, left as it is left (with q): its window closes at once,
    /// even where a calm screen (reduced motion) was drawn in the terminal's own lines.
    static let closesAtOnce = Atomic(false)

    /// Asks the terminal where its cursor is (a cursor position report); true unless it answers
    /// row 1, column 1 within two seconds (a busy terminal answers late).
    static func cursorMoved() -> Bool {
        _ = write(STDOUT_FILENO, "\u{1b}[6n", 4)
        var answer: [UInt8] = []
        var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        let deadline = ContinuousClock.now + .seconds(2)
        while answer.last != UInt8(ascii: "R"), answer.count < 32, ContinuousClock.now < deadline {
            guard poll(&input, 1, 50) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(STDIN_FILENO, &byte, 1) == 1 else { break }
            answer.append(byte)
        }
        return !String(decoding: answer, as: UTF8.self).hasSuffix("\u{1b}[1;1R")
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
            let opened = try? open(
                .ride, root: session.root, environment: environment, activationToken: token, inheritingToken: false)
            if case let .failure(refusal)? = opened { _ = notOpened(.ride, refusal, environment: environment) }
        }
    }
}
