import CraveyLibrary
import CraveyMessages
import Dispatch
import Foundation

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

    init(library: Library, quiet: Bool = false) {
        self.library = library
        transcriber = Transcriber(library: library)
        showsProgress = Terminal.stderrIsTerminal
        skippable = Terminal.stdinIsTerminal && Terminal.stderrIsTerminal
        self.quiet = quiet
    }

    /// After a save: the saved recording's transcript, then any the library is still waiting for
    /// (skipped, failed, or recovered ones). Stops at the first skip. Does nothing when
    /// transcripts are made only by `cravey transcribe`.
    static func afterSave(_ library: Library, saved: Recording?, quiet: Bool = false) {
        guard Transcriber.automatic() else { return }
        let waiting = (try? library.recordingsNeedingTranscripts()) ?? []
        let queue = waiting.filter { $0.id == saved?.id } + waiting.filter { $0.id != saved?.id }
        guard !queue.isEmpty else { return }
        _ = Transcribing(library: library, quiet: quiet).run(queue)
    }

    /// Libraries this command opened whose opening recovered recordings (a crash's takes, or
    /// recordings listed again): their transcripts are made when the command is done, never
    /// before it (a play in a hard moment does not wait for them).
    nonisolated(unsafe) static var recovered: [Library] = []

    /// Called once the command has done its work: the recovered recordings' transcripts.
    static func afterCommand() {
        for library in recovered { afterSave(library, saved: nil) }
        recovered = []
    }

    /// Transcribes `recordings` in order; stops at the first skip. Returns each outcome.
    @discardableResult
    func run(_ recordings: [Recording]) -> [(Recording, Transcriber.Outcome)] {
        // The terminal stays raw (keys read one by one) until this returns.
        let raw = skippable ? Terminal.RawMode() : nil
        defer { withExtendedLifetime(raw) {} }
        // Ctrl-C, SIGTERM and SIGHUP skip too (what is saved stays saved).
        let stop = StopFlag()
        let sources = [SIGINT, SIGTERM, SIGHUP].map { signo -> DispatchSourceSignal in
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler { stop.set() }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }
        var outcomes: [(Recording, Transcriber.Outcome)] = []
        for (index, recording) in recordings.enumerated() {
            let label = recordings.count > 1 ? " (\(index + 1) of \(recordings.count))" : ""
            let outcome = transcriber.transcribe(recording) { fraction in
                if showsProgress { drawProgress(recording, fraction, label) }
                return !stop.isSet && !(skippable && skipPressed())
            }
            if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
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
            Terminal.printNote("transcribed '\(title)' (\(words) word\(words == 1 ? "" : "s"); see 'cravey show \(recording.id.uuidString.prefix(8))')")
        case .made, .gone:
            break
        case let .unavailable(problem):
            Terminal.printNote("transcript of '\(title)' unavailable: \(problem); it will be tried again ('cravey transcribe --all')")
        case .stopped:
            Terminal.printNote("transcript skipped; it is made after the next save, or now with 'cravey transcribe --all'")
        }
    }

    private func drawProgress(_ recording: Recording, _ fraction: Double, _ label: String) {
        let width = 20
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let hint = skippable ? "   " + Terminal.dim("q skip") : ""
        let line = "Transcribing '\(Terminal.safe(recording.shownTitle))'\(label)  \(bar) \(Int(fraction * 100)) %" + hint
        FileHandle.standardError.write(Data(("\r" + Terminal.fit(line, max(20, Terminal.columns - 1)) + "\u{1B}[K").utf8))
    }

    private final class StopFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        func set() { lock.withLock { stopped = true } }
        var isSet: Bool { lock.withLock { stopped } }
    }

    /// Whether q, Q or Esc is waiting in the terminal's input (other keys are dropped).
    private func skipPressed() -> Bool {
        var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, 0) > 0 {
            var byte: UInt8 = 0
            guard read(STDIN_FILENO, &byte, 1) == 1 else { return false }
            if byte == UInt8(ascii: "q") || byte == UInt8(ascii: "Q") || byte == 27 { return true }
        }
        return false
    }
}
