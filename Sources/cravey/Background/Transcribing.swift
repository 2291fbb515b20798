import CraveyLibrary
import CraveyMedia
import CraveyMessages
import Foundation
import Synchronization
import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

/// Making transcripts from the command line: after a save, an import or a recovery (unless
/// `CRAVEY_TRANSCRIBE=later`), and by `cravey transcribe`. On a terminal a progress line shows
/// how far it is, and q (or Esc) skips: the transcript is then made later. A failure is one
/// note; it never changes the outcome of the save before it.
struct Transcribing {
    let library: Library
    private let transcriber: Transcriber
    /// Progress line on stderr (a terminal), and q read from stdin (a terminal).
    private let showsProgress: Bool
    private let skippable: Bool
    /// One-line notes about what happened (not with --json, where stdout is the answer).
    private let quiet: Bool

    init(library: Library, quiet: Bool = false, engine: Transcriber.Engine? = nil, whisper: WhisperRecognizer? = nil) {
        self.library = library
        transcriber = Transcriber(
            library: library, engine: engine, engines: Transcribing.configuration.engines(), started: whisper)
        showsProgress = Terminal.stderrIsTerminal
        skippable = Terminal.stdinIsTerminal && Terminal.stderrIsTerminal
        self.quiet = quiet
    }

    /// After a save: the saved recording's transcript is queued, with any the library is still
    /// waiting for (skipped, failed, or recovered ones), and made the way `CRAVEY_TRANSCRIBE`
    /// says — by the background worker (the command returns at once), now in the foreground
    /// (saved one first; stops at the first skip), or later.
    /// `redo`: the saved recording's transcript is made again even if it has one (a trim).
    static func afterSave(_ library: Library, saved: Recording?, quiet: Bool = false, redo: Bool = false) {
        let queue = TranscriptQueue.queue(after: saved, redo: redo, in: library)
        guard !queue.isEmpty else { return }
        switch Self.configuration.transcribe {
        case .background: TranscriptWorker.start(for: library)
        case .now: _ = Transcribing(library: library, quiet: quiet).run(queue)
        case .later: break
        }
    }

    /// Whether the recording's transcript is on its way (`TranscriptQueue.onItsWay`).
    static func onItsWay(_ id: UUID, in library: Library) -> Bool {
        TranscriptQueue.onItsWay(id, in: library, timing: Self.configuration.transcribe)
    }

    /// The recordings whose transcripts are on their way.
    static func onItsWay(in library: Library) -> Set<UUID> {
        TranscriptQueue.onItsWay(in: library, timing: Self.configuration.transcribe)
    }

    /// The libraries this command opened, and those whose opening recovered recordings.
    private static let libraries = Mutex<(opened: [Library], recovered: [Library])>(([], []))

    /// This run's configuration, handed over once when cravey starts (`configure`).
    private static let configured = Mutex<Configuration?>(nil)

    /// Hands over this run's configuration: which engines, and when transcripts are made.
    static func configure(_ configuration: Configuration) { configured.withLock { $0 = configuration } }

    /// The run's configuration (an empty environment's until it is handed over).
    static var configuration: Configuration {
        configured.withLock { $0 } ?? Configuration(environment: [:])
    }

    /// Libraries this command opened whose opening recovered recordings (a crash's takes, or
    /// recordings listed again): their transcripts are made when the command is done, never
    /// before it (a play in a hard moment does not wait for them).
    static var recovered: [Library] { libraries.withLock { $0.recovered } }

    /// Libraries this command opened: a worker is started for any whose queue waits (one that
    /// was killed, or a machine that powered off, left it so).
    static var opened: [Library] { libraries.withLock { $0.opened } }

    /// Notes a library this command opened (and whether its opening recovered recordings), in one
    /// step.
    static func noteOpened(_ library: Library, recovered: Bool) {
        libraries.withLock { libraries in
            libraries.opened.append(library)
            if recovered { libraries.recovered.append(library) }
        }
    }

    /// Forgets the libraries opened so far: the worker itself starts no other worker when done.
    static func forgetOpened() { libraries.withLock { $0.opened = [] } }

    /// Called once the command has done its work: the recovered recordings' transcripts, and a
    /// worker for a queue left waiting.
    static func afterCommand() {
        let (opened, recovered) = libraries.withLock { libraries in
            defer { libraries = ([], []) }
            return (libraries.opened, libraries.recovered)
        }
        for library in recovered { afterSave(library, saved: nil) }
        if Self.configuration.transcribe == .background {
            for library in opened {
                _ = try? library.queueUntranscribed()
                TranscriptWorker.start(for: library)
            }
        }
    }

    /// Transcribes `recordings` in order; stops at the first skip. Returns each outcome.
    @discardableResult
    func run(_ recordings: [Recording]) -> [(Recording, Transcriber.Outcome)] {
        // The terminal stays raw (keys read one by one) until this returns.
        let raw = skippable ? RawMode() : nil
        defer { raw?.release() }
        // Ctrl-C, SIGTERM and SIGHUP skip too (what is saved stays saved).
        let signals = StopSignals()
        defer { signals.cancel() }
        var outcomes: [(Recording, Transcriber.Outcome)] = []
        // The engine's helper ends with the run (it is started once for all of them).
        defer { transcriber.finish() }
        var toldFallback = false
        for (index, recording) in recordings.enumerated() {
            let label = recordings.count > 1 ? " (\(index + 1) of \(recordings.count))" : ""
            let outcome = transcriber.transcribe(recording) { fraction in
                if showsProgress { drawProgress(recording, fraction, label) }
                return !signals.stopRequested && !(skippable && skipPressed())
            }
            if showsProgress { Drawing.clearLine() }
            if let fallback = transcriber.fallback, !toldFallback {
                // Said once, even with --json (stderr): the transcripts are PocketSphinx's drafts.
                toldFallback = true
                Terminal.printNote("\(fallback); transcripts are made with PocketSphinx instead ('cravey doctor')")
            }
            outcomes.append((recording, outcome))
            report(recording, outcome)
            if outcome == .stopped { break }
        }
        return outcomes
    }

    private func report(_ recording: Recording, _ outcome: Transcriber.Outcome) {
        guard !quiet else { return }
        let title = Terminal.safe(recording.shownTitle)
        switch outcome {
        case let .made(words) where showsProgress:
            Terminal.printNote(
                "transcribed '\(title)' (\(words) word\(words == 1 ? "" : "s"); see 'cravey show \(recording.id.uuidString.prefix(8))')"
            )
        case .made, .gone:
            break
        case let .unavailable(problem):
            Terminal.printNote(
                "transcript of '\(title)' unavailable: \(problem); it will be tried again ('cravey transcribe --all')")
        case .stopped:
            Terminal.printNote(
                "transcript skipped; it is made after the next save, or now with 'cravey transcribe --all'")
        }
    }

    private func drawProgress(_ recording: Recording, _ fraction: Double, _ label: String) {
        let width = 20
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let hint = skippable ? "   " + Terminal.dim("q skip") : ""
        let line =
            "Transcribing '\(Terminal.safe(recording.shownTitle))'\(label)  \(bar) \(Int(fraction * 100)) %" + hint
        Drawing.progressLine(line)
    }

    /// Whether q, Q or Esc is waiting in the terminal's input (other keys are dropped).
    private func skipPressed() -> Bool {
        KeyReader.shared.pending().contains { $0.isQuit }
    }
}
