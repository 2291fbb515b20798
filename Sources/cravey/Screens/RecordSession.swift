import CraveyLibrary
import CraveyMedia
import CraveyPlayer
import CraveyMessages
import CraveyRecorder
import CraveyTracker
import Dispatch
import Foundation
import TerminalKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One run of `cravey record`: capture with a live display, then review and save. Its mutable
/// state sits behind two mutexes, since the stop signals' handlers run on another queue.
final class RecordSession: Sendable {
    /// What was asked for, and whether there is a terminal to ask on.
    struct Plan {
        var devices: RecordingStart.Plan
        var mayAsk: Bool
    }

    let library: Library
    /// This run's configuration (the JPEG decoder, timings, a test's stop window).
    let configuration: Configuration
    let plan: Plan
    let maxSeconds: Double
    let speaker: String
    let draft: Library.Draft
    let interactive: Bool
    let json: Bool
    let display: Bool
    let trimSilence: Bool
    /// Whether a screen opened it (the recordings screen, home): at a terminal it waits for the
    /// person to start it, and the preview after loads paused.
    let fromScreen: Bool
    /// The take and what became of it; held while saving, so that it is saved exactly once.
    private struct State {
        var take: Take?
        var finished = false
        /// While the countdown runs, a stop signal cancels it (nothing is recorded).
        var counting = false, countdownCancelled = false
        /// The recording as saved, once it is.
        var saved: Recording?
        /// The sentence saying the sound the saved take lost (nil: none was lost).
        var soundLostWords: String?
        /// Whether a take was recorded and then discarded at the person's word.
        var discarded = false
        var previewFigures = "preview=off preview_shown=0"
    }
    private let state = Mutex(State())
    /// The recorder as the signal handlers see it: nil until `start` has opened the devices. A stop
    /// signal that comes before is kept here and honoured as soon as the recorder is published.
    private struct Published {
        var recorder: Recorder?
        var earlyStop: Int32?
        var signals: StopSignals?
    }
    private let published = Mutex(Published())
    /// The camera seen live while recording a video (`--preview`).
    let previewChoice: CameraPreview.Choice

    /// The recording as saved, once it is.
    var saved: Recording? { state.withLock { $0.saved } }
    /// Whether a take was recorded and then discarded at the person's word.
    var discarded: Bool { state.withLock { $0.discarded } }
    /// The sentence saying the sound the saved take lost (nil: none was lost).
    var soundLostWords: String? { state.withLock { $0.soundLostWords } }
    /// The recorder, once `start` has published it.
    private var recorder: Recorder? { published.withLock { $0.recorder } }

    /// A recording in `session`'s library, from its microphone (`plan` names the devices) and
    /// listened back on its speaker.
    init(
        _ session: Session, plan: Plan, maxSeconds: Double, draft: Library.Draft, interactive: Bool, json: Bool,
        trimSilence: Bool = false, preview: CameraPreview.Choice = .auto, fromScreen: Bool = false
    ) {
        self.trimSilence = trimSilence
        self.fromScreen = fromScreen
        self.previewChoice = preview
        self.library = session.library
        self.configuration = session.configuration
        self.plan = plan
        self.maxSeconds = maxSeconds
        self.speaker = session.speaker
        self.draft = draft
        self.interactive = interactive
        self.json = json
        self.display = Terminal.stderrIsTerminal
    }

    func run(countdown: Int) throws {
        installSignalHandlers()
        if fromScreen, display, Terminal.stdinIsTerminal, !waitForStart() {
            // Nothing was opened or written yet: the devices are opened by `start`.
            FileHandle.standardError.show(Data("Back to the library; nothing was recorded.\n".utf8))
            return
        }
        if countdown > 0, !runCountdown(countdown) {
            // Nothing was opened or written yet: the devices are opened by `start`.
            FileHandle.standardError.show(Data("Cancelled; nothing was recorded.\n".utf8))
            return
        }
        // The preview's window opens before the recording starts, so opening it costs no frames.
        var camera =
            plan.devices.kind == .video
            ? CameraPreview(choice: previewChoice, calm: Calm.isOn, expected: plan.devices.largest) : nil
        camera?.waitForWindow()
        let recorder: Recorder
        do {
            recorder = try start()
        } catch {
            camera?.close()
            throw error
        }
        if recorder.camera == nil {
            camera?.close()  // sound only after all
            camera = nil
        }
        camera?.attach(recorder.preview)
        let raw = Terminal.stdinIsTerminal ? RawMode() : nil
        startKeyReader(recorder, camera: camera)
        if display {
            let meter = LiveMeter(maxSeconds: recorder.maxSeconds, device: recorder.deviceDescription)
            while recorder.isRunning {
                act(on: camera?.update(), recorder)
                meter.render(recorder.status, preview: camera)
                usleep(40_000)  // 25 refreshes a second
            }
            meter.render(recorder.status, preview: camera)
        } else {
            Terminal.printNote(
                "recording \(recorder.kind.rawValue) from \(recorder.deviceDescription) (stop with Enter, Ctrl-C or SIGTERM)"
            )
            // A preview window's keys still act without a terminal.
            while let camera, recorder.isRunning {
                act(on: camera.update(), recorder)
                usleep(40_000)
            }
            recorder.waitUntilStopped()
        }
        raw?.release()
        camera?.close()
        if let figures = camera?.figures { state.withLock { $0.previewFigures = figures } }
        let status = recorder.status
        if case let .deviceGone(message)? = status.stopReason {
            Terminal.printNote("\(message); keeping what was recorded")
        }
        let take: Take
        do {
            take = try Take.finish(recorder)
        } catch let error as RecorderError {
            throw CraveyFailure(message: "\(error)")
        } catch {
            throw failure(error, "\(error)")
        }
        if take.kind == .video {
            var note = "recorded \(take.frames) frames at \(take.info.width ?? 0)x\(take.info.height ?? 0)"
            if let mode = status.cameraMode { note += " from \(mode)" }
            note += take.droppedFrames > 0 ? " (\(take.droppedFrames) dropped by the camera)" : ""
            if let offset = take.avOffset {
                note += String(format: ", sound and picture within %.0f ms", offset * 1000)
            }
            if take.thumbnail == nil { note += "; no thumbnail could be made" }
            Terminal.printNote(note)
        }
        state.withLock { $0.take = take }
        if trimSilence { trimmingSilence(of: take) }
        if interactive {
            try review(state.withLock { $0.take } ?? take)
        } else {
            try saveOnce(draft)
        }
    }

    /// What a key in the preview window asked for.
    private func act(on request: CameraPreview.Request?, _ recorder: Recorder) {
        switch request {
        case .stop?: recorder.requestStop(.user)
        case .pause?: recorder.togglePause()
        case nil: break
        }
    }

    /// Opens the devices and starts recording (`RecordingStart`); when the camera or the microphone
    /// cannot be used, says why and offers what can still be recorded. Then publishes the recorder
    /// to the signal handlers, and stops it at once if a stop signal came meanwhile.
    private func start() throws -> Recorder {
        let recorder: Recorder
        do {
            var devices = plan.devices
            devices.jpeg = configuration.jpeg
            recorder = try RecordingStart.start(library: library, plan: devices, maxSeconds: maxSeconds) {
                trouble, fallback, accepted in
                offer(DeviceProblem.line(trouble), fallback.question, accepted: accepted)
            }
        } catch let refusal as RecordingStart.Refusal {
            throw CraveyFailure(
                message: DeviceProblem.line(refusal.trouble)
                    + (refusal.declined.map { Self.hint(plan, $0.option) } ?? ""))
        } catch let error as RecorderError {
            throw CraveyFailure(message: "\(error)")
        } catch  where Self.diskIsFull(error) {
            throw failure(error, "\(error)")
        }
        if let milliseconds = configuration.stopWindowMilliseconds {
            FileHandle.standardError.show(Data("stop window open\n".utf8))
            usleep(milliseconds * 1000)
        }
        let earlyStop = published.withLock { published in
            published.recorder = recorder
            return published.earlyStop
        }
        if let earlyStop { recorder.requestStop(.signal(earlyStop)) }
        if recorder.camera != nil && recorder.microphone == nil {
            Terminal.printNote("recording a silent video (no microphone)")
        }
        return recorder
    }

    /// Says what went wrong; accepts when the flag says so, asks at a terminal, refuses otherwise
    /// (the caller then fails with `why` and the hint).
    private func offer(_ why: String, _ question: String, accepted: Bool) -> Bool {
        if accepted {
            Terminal.printNote("\(why) — recording sound only")
            return true
        }
        guard plan.mayAsk else { return false }
        FileHandle.standardError.show(Data("\(why)\n".utf8))
        return Terminal.confirm(question)
    }

    /// The way out, for a refusal without a terminal to ask on.
    static func hint(_ plan: Plan, _ text: String) -> String { plan.mayAsk ? "" : " (\(text))" }

    /// Saves the take exactly once, whoever asks first (the user, or a signal during the prompts).
    private func saveOnce(_ draft: Library.Draft) throws {
        let recorder = self.recorder
        try state.withLock { state throws in
            guard !state.finished, let take = state.take else { return }
            state.finished = true
            let saved: Recording
            do {
                saved = try take.save(draft: draft)
            } catch {
                throw failure(error, "could not save the recording: \(error)")
            }
            state.saved = saved
            if configuration.timings, let status = recorder?.status {
                // For Tests/bench: CLOCK_MONOTONIC stamps of the recording's milestones.
                Terminal.printNote(
                    "timings first_block_ns=\(status.firstBlockAt ?? 0) first_frame_ns=\(status.firstFrameAt ?? 0) stopped_ns=\(status.stoppedAt ?? 0) saved_ns=\(monotonicNanoseconds()) \(state.previewFigures)"
                )
            }
            let lost = Self.soundLost(recorder?.status.soundLostSeconds ?? 0)
            state.soundLostWords = lost.words
            if json {
                try JSONOutput.print(SavedRecording(recording: saved, soundLostSeconds: lost.seconds))
            } else if interactive {
                print("Saved '\(saved.shownTitle)' (\(Format.duration(saved.duration))) as \(saved.id.uuidString).")
                if let words = lost.words { print(words) }
            } else {
                print(saved.id.uuidString)
                if let words = lost.words { Terminal.printNote(words) }
            }
        }
    }

    /// The sound a take lost while the computer was too busy to read the microphone (an overrun),
    /// to a tenth of a second, and the sentence that says so (nil when nothing was lost).
    static func soundLost(_ seconds: Double) -> (seconds: Double, words: String?) {
        let tenths = (seconds * 10).rounded() / 10
        guard tenths > 0 else { return (0, nil) }
        return (tenths, String(format: "%.1f s of sound was lost while the computer was busy.", tenths))
    }

    /// A saved recording as `--json` prints it: its row, and the sound it lost (seconds; 0 for none).
    struct SavedRecording: Encodable {
        let recording: Recording
        let soundLostSeconds: Double

        func encode(to encoder: Encoder) throws {
            try recording.encode(to: encoder)
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(soundLostSeconds, forKey: JSONKey("soundLostSeconds"))
        }
    }

    /// Where a take that could not be finished or saved is kept, for the error line.
    private var keptNote: String {
        guard let path = recorder?.temporaryFile, access(path, F_OK) == 0 else { return "" }
        return "; the recording is kept in \(path) and the next cravey command will recover it"
    }

    /// The line for a take that could not be started, finished or saved (`line` says what failed):
    /// a full disk first and plainly, with no temporary path; anything else as it is, with where
    /// the take is kept.
    private func failure(_ error: any Error, _ line: String) -> CraveyFailure {
        guard Self.diskIsFull(error) else { return CraveyFailure(message: line + keptNote) }
        let kept = recorder?.temporaryFile.map { access($0, F_OK) == 0 } ?? false
        return CraveyFailure(
            message: "Not recorded: the disk is full; free some space and record again"
                + (kept ? " (what was recorded is kept, and the next cravey command recovers it)" : ""))
    }

    /// Whether writing failed because the disk is full (the media writer's or the library's).
    static func diskIsFull(_ error: any Error) -> Bool {
        (error as? MediaError)?.errno == ENOSPC || Library.isDiskFull(error)
    }

    private func discardOnce() {
        state.withLock { state in
            guard !state.finished, let take = state.take else { return }
            state.finished = true
            take.discard()
        }
    }

    /// Trims the silence at the take's ends (when there is any worth trimming: 0.1 s or more);
    /// says how much. The take stays as it was if trimming fails.
    @discardableResult
    private func trimmingSilence(of take: Take) -> Take {
        guard let speech = take.speech, let ends = take.trimmableSilence else { return take }
        do {
            let trimmed = try take.trimmed(to: speech)
            let replaced = state.withLock { state -> Bool in
                guard !state.finished else { return false }
                state.take = trimmed
                return true
            }
            guard replaced else { return take }
            Terminal.printNote(
                String(format: "trimmed %.1f s of silence at the start and %.1f s at the end", ends.start, ends.end)
                    + ": now \(Format.duration(trimmed.duration))")
            return trimmed
        } catch {
            Terminal.printNote("could not trim the silence (\(error)); keeping the whole take")
            return take
        }
    }

    /// Preview, the offer to trim silence, details, then Save or Discard: each question through
    /// the toolkit's prompts (a key answers at once, a line is typed in place; lines read from
    /// standard input without a terminal).
    private func review(_ first: Take) throws {
        var take = first
        let err = FileHandle.standardError
        let listening = fromScreen ? "space plays it back, q goes on" : "listening back (q skips)"
        err.show(Data("\n\(Terminal.bold("Recorded \(Format.duration(take.duration))")) — \(listening)\n".utf8))
        preview(take)
        // Raw mode between the questions too, so nothing typed ahead is echoed out of place.
        let raw = RawMode()
        defer { raw?.release() }
        if !trimSilence, let ends = take.silenceToOffer,
            Terminal.confirm(
                String(format: "Trim the silence: %.1f s at the start and %.1f s at the end?", ends.start, ends.end))
        {
            take = trimmingSilence(of: take)
        }
        var details = draft
        details.title =
            Prompt.ask(
                "Title (Enter for '\(Validation.automaticTitle(for: take.startedAt))'): ",
                limit: Validation.maxTitleScalars, shown: Terminal.safe
            ) {
                $0.isEmpty ? nil : try Validation.title($0, createdAt: take.startedAt)
            } ?? nil
        details.notes =
            Prompt.ask(
                "Notes (optional): ", plain: "Notes (optional): (up to \(Validation.maxNotesLength) characters) ",
                limit: Validation.maxNotesLength, counterFrom: 150, shown: Terminal.safe
            ) {
                try Validation.notes($0)
            } ?? nil
        err.show(Data("Purpose:\n".utf8))
        for (n, purpose) in Recording.Purpose.allCases.enumerated() {
            err.show(
                Data(
                    "  \(n + 1)  \(purpose.name.padding(toLength: 15, withPad: " ", startingAt: 0)) \(Terminal.dim(purpose.line))\n"
                        .utf8))
        }
        let numbers = (1...Recording.Purpose.allCases.count).map { Character(String($0)) }
        details.purpose =
            Prompt.ask(
                "Purpose (1–4 or its name; Enter for none): ", limit: 40, shown: Terminal.safe,
                answersAtOnce: numbers.contains
            ) {
                try Validation.purpose($0.trimmingCharacters(in: .whitespaces))
            } ?? nil
        if details.purpose == .craving {
            // A message for craving moments can name the triggers it is for: a craving with one
            // of them plays it first.
            details.forTriggers =
                Prompt.ask(
                    "Made for which triggers? (e.g. anxious,bored; Enter for any): ", limit: 120,
                    shown: Terminal.safe
                ) { text in
                    let chosen = try LogInput.triggers([text])
                    return Trigger.allCases.filter(chosen.contains).map(\.rawValue)
                } ?? details.forTriggers
        }
        enum Choice { case save, discard }
        while true {
            let choice = Prompt.choice(
                "Save or discard? [S/d] ",
                key: { key -> Choice? in
                    key == .enter || key.letter == "s" ? .save : key.letter == "d" ? .discard : nil
                },
                line: { line -> Choice? in
                    switch line.trimmingCharacters(in: .whitespaces).lowercased() {
                    case "", "s", "save": .save
                    case "d", "discard": .discard
                    default: nil
                    }
                }, ended: .save)
            if choice == .save { break }
            if Terminal.confirm("Discard recording? This cannot be undone.") {
                discardOnce()
                state.withLock { $0.discarded = true }
                err.show(Data("Discarded.\n".utf8))
                return
            }
        }
        try saveOnce(details)
    }

    /// Plays the take back (a preview: it never counts as a play). Without a usable speaker, shows
    /// the waveform and says why.
    private func preview(_ take: Take) {
        do {
            // A silent video previews on its own clock; a video shows its pictures as `play` does.
            let player = try Player.open(
                path: take.finalFile.path, duration: take.duration, hasSound: take.info.audioCodec != nil,
                speaker: speaker)
            let (video, window) =
                take.kind == .video ? PlaySession.pictures(of: take.finalFile.path, title: "Preview") : (nil, nil)
            let raw = RawMode()
            defer { raw?.release() }
            _ = PlaySession(
                title: "Preview", kind: take.kind, duration: take.duration, waveform: take.waveform, player: player,
                video: video, window: window
            )
            .run(handlingSignals: false, paused: fromScreen)
        } catch {
            let summary = Format.sparkline(take.waveform, columns: 50)
            FileHandle.standardError.show(Data("\(summary)\n(cannot play it back: \(error))\n".utf8))
        }
    }

    /// Before recording: 00:00 and RECORD until Space, Enter or r starts it; Esc or q asks
    /// "Discard and return to library?" (false when that is answered yes, or a stop signal or the
    /// end of input came).
    private func waitForStart() -> Bool {
        state.withLock { $0.counting = true }
        let raw = RawMode()
        defer {
            state.withLock { $0.counting = false }
            raw?.release()
        }
        let err = FileHandle.standardError
        let what = plan.devices.kind == .video ? Format.icon(.video) + " Video" : Format.icon(.audio) + " Audio"
        var asking = false
        while true {
            let lines =
                asking
                ? [
                    Terminal.bold("Discard and return to library?"),
                    Terminal.bold("y") + "  Discard     " + Terminal.bold("n") + "  Stay",
                ]
                : [
                    what + "   " + Terminal.bold("00:00") + "   " + Terminal.style("●", "31") + " "
                        + Terminal.bold("RECORD") + Terminal.dim("   up to " + Format.clock(maxSeconds)),
                    Terminal.dim("Space, Enter or r: record · Esc or q: back to the library"),
                ]
            err.show(Data(("\n" + lines.joined(separator: "\n") + "\n").utf8))
            while true {
                if state.withLock({ $0.countdownCancelled || $0.finished }) { return false }
                guard let key = KeyReader.shared.next(waiting: 50) else { continue }
                if key == .inputEnded { return false }
                if asking {
                    if key.letter == "y" { return false }
                    if key.letter == "n" || key == .escape || key == .enter {
                        asking = false
                        break
                    }
                } else if key == .enter || key.letter == "r" || key == .character(" ") {
                    return true
                } else if key.isQuit {
                    asking = true
                    break
                }
            }
        }
    }

    /// "Recording in 3…": false when q, Esc, Ctrl-C or a stop signal cancelled it.
    private func runCountdown(_ seconds: Int) -> Bool {
        state.withLock { $0.counting = true }
        let raw = Terminal.stdinIsTerminal ? RawMode() : nil
        defer {
            state.withLock { $0.counting = false }
            raw?.release()
            if display && !Calm.isOn { FileHandle.standardError.show(Data("\r\u{1B}[2K".utf8)) }
        }
        for n in stride(from: seconds, to: 0, by: -1) {
            if display && Calm.isOn {
                FileHandle.standardError.show(Data("Recording in \(n)… (q cancels)\n".utf8))
            } else if display {
                FileHandle.standardError.show(Data(("\rRecording in \(n)… " + Terminal.dim("(q cancels)") + " ").utf8))
            }
            let tick = Date().addingTimeInterval(1)
            while Date() < tick {
                if state.withLock({ $0.countdownCancelled || $0.finished }) { return false }
                guard raw != nil else { usleep(50_000); continue }
                switch KeyReader.shared.next(waiting: 50) {
                case .character("q")?, .character("Q")?, .escape?, .character("\u{03}")?: return false
                default: continue
                }
            }
        }
        return true
    }

    /// Enter or q stops the recording, p or space pauses and resumes it, v hides and shows the
    /// camera (the terminal is in raw mode while recording).
    private func startKeyReader(_ recorder: Recorder, camera: CameraPreview?) {
        guard Terminal.stdinIsTerminal else { return }
        let thread = Thread {
            while recorder.isRunning {
                switch KeyReader.shared.next(waiting: 100) {
                case .enter?, .character("q")?, .character("Q")?:
                    recorder.requestStop(.user)
                    return
                case .character("p")?, .character("P")?, .character(" ")?:
                    recorder.togglePause()
                case .character("v")?, .character("V")?:
                    camera?.toggle()
                case .inputEnded?:
                    return
                default:
                    continue
                }
            }
        }
        thread.start()
    }

    /// Ctrl-C, SIGTERM and SIGHUP stop the recording and keep it; during the prompts they save it
    /// with the details given so far. SIGUSR1 pauses and resumes, like p at the keyboard (for
    /// scripts and other programs).
    private func installSignalHandlers() {
        let signals = StopSignals(
            onStop: { [self] signo in
                let cancelled = state.withLock { state in
                    if state.counting { state.countdownCancelled = true }
                    return state.counting
                }
                if cancelled { return }
                // Before the recorder is published, the stop is kept for `start` to honour.
                let recorder = published.withLock { published in
                    if published.recorder == nil { published.earlyStop = published.earlyStop ?? signo }
                    return published.recorder
                }
                guard let recorder else { return }
                if recorder.isRunning {
                    recorder.requestStop(.signal(signo))
                    return
                }
                RawMode.restore()
                guard state.withLock({ $0.take != nil && !$0.finished }) else { return }
                do {
                    try saveOnce(draft)
                    Terminal.failUnlessOutputWritten()
                    exit(0)
                } catch {
                    Terminal.fail("\(error)")
                }
            },
            onPause: { [self] in
                if let recorder, recorder.isRunning { recorder.togglePause() }
            })
        published.withLock { $0.signals = signals }
    }
}
