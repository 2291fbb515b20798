import ArgumentParser
import CraveyLibrary
import CraveyMedia
import CraveyPlayer
import CraveyRecorder
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension Cravey {
    /// `cravey record audio`: record a message from the microphone into the library.
    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record a message to your future self (at most 120 seconds).",
            discussion: """
                Stop with Enter, q, Ctrl-C, SIGTERM or SIGHUP: every one of them keeps the recording. \
                Then listen back, give it a title, notes and a purpose, and save or discard it. With \
                --title/--notes/--purpose/--yes, or without a terminal, it is saved without asking and \
                its id is printed (--json prints the whole row).
                """)

        @OptionGroup var library: LibraryOptions

        @Argument(help: "What to record: audio.")
        var kind: Recording.Kind

        @Option(help: ArgumentHelp("ALSA capture device (see 'cravey devices').", valueName: "name"))
        var mic: String = "default"

        @Option(help: ArgumentHelp("ALSA playback device for listening back before saving.", valueName: "name"))
        var speaker: String = "default"

        @Option(help: ArgumentHelp("Stop after this many seconds (more than 0, at most 120).", valueName: "seconds"))
        var maxSeconds: Double = 120

        @Option(help: ArgumentHelp("Count down this many seconds before recording.", valueName: "n"))
        var countdown: Int = 0

        @OptionGroup var details: DetailOptions

        @Flag(name: [.short, .long], help: "Save without asking.")
        var yes = false

        @Flag(help: "Print the saved recording as JSON.")
        var json = false

        func validate() throws {
            guard maxSeconds.isFinite, maxSeconds > 0, maxSeconds <= Validation.maxDuration else {
                throw ValidationError("--max-seconds must be more than 0 and at most 120 (got \(maxSeconds))")
            }
            guard (0...60).contains(countdown) else { throw ValidationError("--countdown must be 0 to 60 seconds") }
            if kind == .video {
                throw ValidationError("video recording is not available in this version of cravey; record audio with 'cravey record audio'")
            }
        }

        func run() throws {
            // Bad details are refused before anything is recorded.
            let draft = Library.Draft(
                title: try details.title.map { try Validation.title($0, createdAt: Date()) },
                notes: try Validation.notes(details.notes), purpose: try Validation.purpose(details.purpose))
            let lib = try library.open()
            let interactive = Terminal.stdinIsTerminal && Terminal.stderrIsTerminal && !yes && details.isEmpty
            let session = RecordSession(library: lib, mic: mic, speaker: speaker, maxSeconds: maxSeconds, draft: draft,
                                        interactive: interactive, json: json)
            try session.run(countdown: countdown)
        }
    }
}

/// One run of `cravey record`: capture with a live display, then review and save.
final class RecordSession: @unchecked Sendable {
    let library: Library
    let recorder: AudioRecorder
    let speaker: String
    let draft: Library.Draft
    let interactive: Bool
    let json: Bool
    let display: Bool
    private let saveLock = NSLock()
    private var take: AudioRecorder.Take?
    private var finished = false
    private var signalSources: [DispatchSourceSignal] = []
    private var rawMode: Terminal.RawMode?

    init(library: Library, mic: String, speaker: String, maxSeconds: Double, draft: Library.Draft, interactive: Bool, json: Bool) {
        self.library = library
        self.speaker = speaker
        self.recorder = AudioRecorder(library: library, device: mic, maxSeconds: maxSeconds)
        self.draft = draft
        self.interactive = interactive
        self.json = json
        self.display = Terminal.stderrIsTerminal
    }

    func run(countdown: Int) throws {
        installSignalHandlers()
        if countdown > 0 { try runCountdown(countdown) }
        do {
            try recorder.start()
        } catch let error as MediaError {
            throw CraveyFailure(message: "cannot record from '\(recorder.device)': \(error.message)"
                + (error.isBusy ? " — another program holds it; see 'cravey devices' and udev-notes.md" : ""))
        }
        if Terminal.stdinIsTerminal { rawMode = Terminal.RawMode() }
        startKeyReader()
        if display {
            let meter = LiveMeter(maxSeconds: recorder.maxSeconds, device: recorder.device)
            while recorder.isRunning {
                meter.render(recorder.status)
                usleep(40_000)  // 25 refreshes a second
            }
            meter.render(recorder.status)
        } else {
            Terminal.printNote("recording from '\(recorder.device)' (stop with Enter, Ctrl-C or SIGTERM)")
            recorder.waitUntilStopped()
        }
        rawMode = nil
        let status = recorder.status
        if case let .deviceGone(message)? = status.stopReason {
            Terminal.printNote("the microphone went away (\(message)); keeping what was recorded")
        }
        let take: AudioRecorder.Take
        do {
            take = try recorder.finish()
        } catch {
            throw CraveyFailure(message: "\(error)")
        }
        saveLock.withLock { self.take = take }
        if interactive {
            try review(take)
        } else {
            try saveOnce(draft)
        }
    }

    /// Saves the take exactly once, whoever asks first (the user, or a signal during the prompts).
    private func saveOnce(_ draft: Library.Draft) throws {
        try saveLock.withLock {
            guard !finished, let take else { return }
            finished = true
            let saved = try recorder.save(take, draft: draft)
            if ProcessInfo.processInfo.environment["CRAVEY_TIMINGS"] == "1" {
                // For Tests/bench/record.sh: CLOCK_MONOTONIC stamps of the recording's milestones.
                let status = recorder.status
                Terminal.printNote("timings first_block_ns=\(status.firstBlockAt ?? 0) stopped_ns=\(status.stoppedAt ?? 0) saved_ns=\(monotonicNanoseconds())")
            }
            if json {
                print(RecordingExport.jsonObject(saved, includeWaveform: false))
            } else if interactive {
                print("Saved '\(saved.title)' (\(Format.duration(saved.duration))) as \(saved.id.uuidString).")
            } else {
                print(saved.id.uuidString)
            }
        }
    }

    private func discardOnce() {
        saveLock.withLock {
            guard !finished, let take else { return }
            finished = true
            recorder.discard(take)
        }
    }

    /// Preview, details, then Save or Discard.
    private func review(_ take: AudioRecorder.Take) throws {
        let err = FileHandle.standardError
        err.write(Data("\n\(Terminal.bold("Recorded \(Format.duration(take.duration))")) — listening back (q skips)\n".utf8))
        preview(take)
        var details = draft
        details.title = ask("Title (Enter for '\(Validation.automaticTitle(for: take.startedAt))'): ") {
            $0.isEmpty ? nil : try Validation.title($0, createdAt: take.startedAt)
        } ?? nil
        details.notes = ask("Notes (optional, up to 200 characters): ") { try Validation.notes($0) } ?? nil
        details.purpose = ask("Purpose (motivational, milestone, reflection, craving; Enter for none): ") {
            try Validation.purpose($0.trimmingCharacters(in: .whitespaces))
        } ?? nil
        while true {
            err.write(Data("Save or discard? [S/d] ".utf8))
            let answer = (readLine() ?? "s").trimmingCharacters(in: .whitespaces).lowercased()
            if answer.isEmpty || answer == "s" || answer == "save" { break }
            if answer == "d" || answer == "discard" {
                if Terminal.confirm("Discard recording? This cannot be undone.") {
                    discardOnce()
                    err.write(Data("Discarded.\n".utf8))
                    return
                }
            }
        }
        try saveOnce(details)
    }

    /// Plays the take back (a preview: it never counts as a play). Without a usable speaker, shows
    /// the waveform and says why.
    private func preview(_ take: AudioRecorder.Take) {
        do {
            let player = try AudioPlayer(path: take.finalFile.path, duration: take.duration, speaker: speaker)
            rawMode = Terminal.RawMode()
            _ = PlaySession(title: "Preview", kind: .audio, duration: take.duration, waveform: take.waveform, player: player)
                .run(handlingSignals: false)
            rawMode = nil
        } catch {
            let summary = Format.sparkline(take.waveform, columns: 50)
            FileHandle.standardError.write(Data("\(summary)\n(cannot play it back: \(error))\n".utf8))
        }
    }

    /// Asks until the answer passes `check`; end of input takes the default (nil).
    private func ask<T>(_ prompt: String, _ check: (String) throws -> T) -> T? {
        while true {
            FileHandle.standardError.write(Data(prompt.utf8))
            guard let line = readLine() else { return nil }
            do {
                return try check(line)
            } catch {
                FileHandle.standardError.write(Data("  \(error)\n".utf8))
            }
        }
    }

    private func runCountdown(_ seconds: Int) throws {
        for n in stride(from: seconds, to: 0, by: -1) {
            if display { FileHandle.standardError.write(Data("\rRecording in \(n)… ".utf8)) }
            sleep(1)
            if recorder.status.stopReason != nil || saveLock.withLock({ finished }) { break }
        }
        if display { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }

    /// Enter or q stops the recording (the terminal is in raw mode while recording).
    private func startKeyReader() {
        guard Terminal.stdinIsTerminal else { return }
        let thread = Thread { [self] in
            var byte: UInt8 = 0
            while recorder.isRunning {
                var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) > 0 else { continue }
                guard read(STDIN_FILENO, &byte, 1) == 1 else { return }
                if byte == 10 || byte == 13 || byte == UInt8(ascii: "q") || byte == UInt8(ascii: "Q") {
                    recorder.requestStop(.user)
                    return
                }
            }
        }
        thread.start()
    }

    /// Ctrl-C, SIGTERM and SIGHUP stop the recording and keep it; during the prompts they save it
    /// with the details given so far.
    private func installSignalHandlers() {
        for signo in [SIGINT, SIGTERM, SIGHUP] {
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler { [self] in
                if recorder.isRunning {
                    recorder.requestStop(.signal(signo))
                    return
                }
                rawMode = nil
                guard saveLock.withLock({ take != nil && !finished }) else { return }
                do {
                    try saveOnce(draft)
                    exit(0)
                } catch {
                    Terminal.fail("\(error)")
                }
            }
            source.resume()
            signalSources.append(source)
        }
    }
}

/// The live recording display: level meter in dBFS with clip marker, scrolling waveform,
/// elapsed and remaining time, and warnings, redrawn in place on stderr.
final class LiveMeter {
    let maxSeconds: Double
    let device: String
    private var drawnLines = 0

    init(maxSeconds: Double, device: String) {
        self.maxSeconds = maxSeconds
        self.device = device
    }

    func render(_ status: AudioRecorder.Status) {
        var lines: [String] = []
        let width = 40
        let rms = status.level.rms
        // The bar spans -60…0 dBFS.
        let filled = max(0, min(width, Int(((rms + 60) / 60) * Double(width))))
        let peakColumn = max(0, min(width - 1, Int(((status.level.peak + 60) / 60) * Double(width))))
        var bar = ""
        for column in 0..<width {
            if column == peakColumn && status.level.peak > -60 { bar += "|" } else { bar += column < filled ? "█" : "░" }
        }
        let clip = status.level.clipped ? Terminal.style(" CLIP", "1;31") : (status.clipped ? Terminal.dim(" clipped") : "")
        lines.append("\(Terminal.style("●", "31")) REC  \(Format.clock(status.elapsed)) / \(Format.clock(maxSeconds))   "
                     + "\(Format.clock(max(0, status.remaining))) left   \(Terminal.dim(device))")
        lines.append("Level [\(Terminal.style(bar, filled > width * 9 / 10 ? "31" : "32"))] "
                     + String(format: "%6.1f dBFS  peak %6.1f", max(rms, -99), max(status.level.peak, -99)) + clip)
        lines.append("      " + Format.sparkline(Array(status.waveform.suffix(width + 12)), columns: width + 12))
        var note = "Enter or q to stop · Ctrl-C also stops and keeps it"
        if status.remaining <= 10 && status.remaining > 0 {
            note = Terminal.style("\(Int(status.remaining.rounded(.up))) seconds left", "1;33")
        } else if status.silentSeconds >= 3 {
            note = Terminal.style("No sound for \(Int(status.silentSeconds)) s — is the microphone muted?", "1;33")
        }
        lines.append(note)
        var out = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
        for line in lines { out += "\r\u{1B}[2K" + line + "\n" }
        drawnLines = lines.count
        FileHandle.standardError.write(Data(out.utf8))
    }

}
