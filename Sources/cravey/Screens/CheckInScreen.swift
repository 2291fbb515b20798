import CraveyLibrary
import CraveyMedia
import CraveyMessages
import CraveyRecorder
import Dispatch
import Foundation
import TerminalKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The check-in at a terminal: five screens, no branching — greeting, mood, the day's question,
/// the recording, the close. Each screen is drawn whole on stderr; keys are read raw. On every
/// screen but the recording, `o` rides a craving out (and `1`–`3` play a message where a digit
/// is not the mood), then the check-in goes on where it was. The mood chosen is kept for the day
/// until the entry is saved or discarded.
final class CheckInScreen: Sendable {
    let library: Library
    /// The session it runs in (the ride and messages from its screens, the transcript's engines).
    let session: Session
    /// The day asked for with --date; nil for today.
    let fixedDay: String?
    let mic: String
    let speaker: String
    let maxSeconds: Double
    /// The check-in's recorder while it records, for the stop signals' handler on another queue.
    private let recorder = Mutex<Recorder?>(nil)
    /// Raw mode, released on leaving (by the flow or by a stop signal's handler).
    private let rawMode = Mutex<RawMode?>(nil)
    /// Set by a stop signal or the end of input outside a recording: every screen then reads Esc
    /// and the flow returns.
    private let leaving = Mutex(false)
    /// What a ride or a message played from a check-in screen did, shown on the next screen drawn.
    private let note = Mutex<String?>(nil)

    init(_ session: Session, fixedDay: String?, maxSeconds: Double) {
        self.session = session
        self.library = session.library
        self.fixedDay = fixedDay
        self.mic = session.mic
        self.speaker = session.speaker
        self.maxSeconds = maxSeconds
    }

    /// Runs the five screens; returns what became of the day's check-in.
    func run() throws -> CheckInOutcome {
        rawMode.withLock { $0 = RawMode() }
        Drawing.cursor(visible: false)
        defer { leave() }
        // Ctrl-C, SIGTERM, SIGHUP: while recording they stop and keep it; elsewhere they leave the
        // flow (nothing is changed by leaving before a recording), back to whoever opened it.
        let signals = StopSignals(onStop: { [self] signo in
            if let recorder = self.recorder.withLock({ $0 }), recorder.isRunning {
                recorder.requestStop(.signal(signo))
            } else {
                leaving.withLock { $0 = true }
            }
        })
        defer { signals.cancel() }

        var day = fixedDay ?? CheckIn.day(of: session.now())
        if let entry = try library.checkIn(on: day, ownOnly: true) { return try close(entry, already: true) }
        if fixedDay == nil, try !library.checkInDay(day).greeted {
            switch greeting(day) {
            case .start: try library.noteGreeted(day, postponed: false, at: session.now())
            case .later:
                try library.noteGreeted(day, postponed: true, at: session.now())
                screen(["", "  Later, then. No reminder today.", ""])
                return .postponed
            case .leave: return .notSaved
            }
        }
        var mood: CheckIn.Mood? = (try? library.keptMood(for: day)) ?? nil  // from a try the microphone stopped
        var choosing = true
        while true {
            if choosing {
                guard let chosen = chooseMood(mood) else { return .notSaved }
                mood = chosen
                // Kept until the entry is saved or discarded; a library that cannot keep it now
                // only means the mood is asked again next time.
                try? library.keepMood(chosen, for: day)
                choosing = false
            }
            guard let chosen = mood else { return .notSaved }
            let prompt = try library.prompt(for: day)
            switch ready(prompt) {
            case .back:
                choosing = true
                continue
            case .leave: return .notSaved
            case .ready: break
            }
            // The day is the one at the moment recording starts.
            if fixedDay == nil { day = CheckIn.day(of: session.now()) }
            if let entry = try library.checkIn(on: day, ownOnly: true) { return try close(entry, already: true) }
            if let saved = try record(day: day, mood: chosen, prompt: prompt) {
                return try close(saved, already: false)
            }
            // Discarded: the day may be recorded again, starting from the question.
        }
    }

    private func leave() {
        Drawing.cursor(visible: true)
        rawMode.withLock { $0 }?.release()
    }

    // MARK: - Screens

    private enum GreetingAnswer { case start, later, leave }

    private func greeting(_ day: String) -> GreetingAnswer {
        let name = (try? library.setting(.name)).flatMap { $0 }.map(Terminal.safe)
        let hello = LocalClock.greeting(at: session.now()) + (name.map { ", \($0)." } ?? ".")
        while true {
            screen(
                [
                    "", "  " + Terminal.dim(CheckIn.displayDay(day)), "",
                    "  " + Terminal.bold(hello), "  Take a moment for yourself", "",
                    "  " + keyHint("Enter", "Start") + "     " + keyHint("l", "Later"), "", helpLine(digits: true),
                ], keys: 3)
            switch readKey() {
            case .enter: return .start
            case .character("l"), .character("L"): return .later
            case .character("q"), .escape: return .leave
            case let key?: _ = helpNow(key, digits: true)
            case nil: continue
            }
        }
    }

    private func chooseMood(_ initial: CheckIn.Mood?) -> CheckIn.Mood? {
        var selected = initial
        let moods = CheckIn.Mood.allCases
        while true {
            let row = moods.map { mood -> String in
                mood == selected ? Terminal.style("[ \(mood.label) ]", "1;36") : "  \(mood.label)  "
            }.joined(separator: " ")
            screen(
                [
                    "", "  " + Terminal.bold("How does today feel, overall?"), "",
                    "  " + row, "",
                    "  " + Terminal.dim("←/→ or 1–5 to choose · Enter to confirm"), "", helpLine(digits: false),
                ], keys: 3, focus: 1..<2)
            switch readKey() {
            case .left:
                selected = selected.map { moods[max(0, moods.firstIndex(of: $0)! - 1)] } ?? .okay
            case .right:
                selected = selected.map { moods[min(moods.count - 1, moods.firstIndex(of: $0)! + 1)] } ?? .okay
            case let .character(c) where c.isNumber:
                if let mood = CheckIn.Mood(text: String(c)) { selected = mood }
            case .enter:
                if let selected { return selected }
            case .character("q"), .escape: return nil
            case let key?:
                _ = helpNow(key, digits: false)
                continue
            case nil: continue
            }
            if Calm.isOn, let selected {
                write("Selected: \(selected.label) (\(moods.firstIndex(of: selected)! + 1) of \(moods.count))\n")
            }
        }
    }

    private enum ReadyAnswer { case ready, back, leave }

    private func ready(_ prompt: String) -> ReadyAnswer {
        while true {
            screen(
                [
                    "", "  " + Terminal.dim("Just one question for today"), "",
                    "  " + Terminal.bold(prompt), "",
                    "  " + keyHint("Enter", "I'm ready") + "     " + keyHint("b", "Back"), "", helpLine(digits: true),
                ], keys: 3, focus: 1..<2)
            switch readKey() {
            case .enter: return .ready
            case .character("b"), .character("B"): return .back
            case .character("q"), .escape: return .leave
            case let key?: _ = helpNow(key, digits: true)
            case nil: continue
            }
        }
    }

    /// Records the entry (voice only) with a timer and a calm waveform; nil when discarded.
    private func record(day: String, mood: CheckIn.Mood, prompt: String) throws -> Recording? {
        let take: CheckInTake
        do {
            take = try CheckInTake(
                library: library, day: day, mood: mood, prompt: prompt, mic: mic, maxSeconds: maxSeconds)
            try take.start(keepingMood: true)
        } catch let CheckInTake.Failure.start(error) {
            throw CraveyFailure(
                message:
                    "\(error) — run 'cravey doctor' to see why and what to do; today's mood and question are kept for the next try"
            )
        } catch let failure as CheckInTake.Failure {
            throw CraveyFailure(failure)
        }
        let recorder = take.recorder
        self.recorder.withLock { $0 = recorder }
        var asking = false
        var discarded = false
        var calmLines = StatusLines()
        while recorder.isRunning {
            let status = recorder.status
            let wave = Format.sparkline(Array(status.waveform.suffix(48)), columns: 48)
            // Calm screens: the page without its moving lines, and the time as a status line.
            var lines =
                Calm.isOn
                ? ["", "  " + prompt, ""]
                : [
                    "", "  " + Terminal.dim(prompt), "",
                    "  " + Terminal.style("●", "2;31") + " " + Terminal.bold(Format.clock(status.elapsed)),
                    "  " + Terminal.style(wave.isEmpty ? " " : wave, "2;36"), "",
                ]
            if asking {
                lines += [
                    "  " + Terminal.bold("Discard today's entry?"), "",
                    "  " + keyHint("d", "Discard") + "     " + keyHint("Enter", "Keep recording"),
                ]
            } else {
                lines += [
                    "  You can stop anytime", "",
                    "  " + keyHint("Enter", "Stop and keep") + "     " + keyHint("d", "Discard"),
                ]
            }
            screen(lines, keys: 3)
            if Calm.isOn { calmLines.offer("Recording \(Format.clock(status.elapsed))", to: .standardError) }
            switch readKey(timeoutMilliseconds: 50) {
            case .enter where asking, .escape where asking, .character("k") where asking:
                asking = false
            case .character("d") where asking, .character("D") where asking:
                discarded = true
                recorder.requestStop(.user)
            case .character("d"), .character("D"):
                asking = true
            case .enter, .character("q"), .character("Q"):
                recorder.requestStop(.user)
            default: break
            }
        }
        let outcome: CheckInTake.Outcome
        do {
            outcome = try take.finish(discarding: discarded)
        } catch let CheckInTake.Failure.finish(error) {
            self.recorder.withLock { $0 = nil }
            throw CraveyFailure(message: "\(error)")
        } catch let failure as CheckInTake.Failure {
            throw CraveyFailure(failure)
        }
        guard case let .saved(saved) = outcome else {
            self.recorder.withLock { $0 = nil }
            return nil
        }
        return saved
    }

    /// "Saved for today", the day and mood, listening back, the transcript's place, Done.
    private func close(_ entry: Recording, already: Bool) throws -> CheckInOutcome {
        let checkIn = entry.checkIn
        let today = CheckIn.day(of: session.now())
        let heading =
            already
            ? (checkIn?.day == today ? "You checked in today" : "Checked in")
            : (checkIn?.day == today ? "Saved for today" : "Saved")
        let top = [
            "", "  " + Terminal.bold(heading),
            "  " + CheckIn.displayDay(checkIn?.day ?? today) + " · " + (checkIn?.mood.label ?? "") + " · "
                + Format.duration(entry.duration),
            "",
        ]
        var transcript = try? library.transcript(of: entry.id)
        if transcript == nil && !already {
            try? library.queueTranscripts([entry.id])
            switch session.configuration.transcribe {
            case .now:
                // Made here (q skips: it is made later).
                let outcome = Transcriber(library: library, engines: session.configuration.engines()).transcribe(entry)
                { fraction in
                    screen(
                        top + [
                            "  " + Terminal.dim("Transcribing… \(Int(fraction * 100)) %") + "   " + keyHint("q", "Skip")
                        ], title: 3)
                    return readKey(timeoutMilliseconds: 0) != .character("q")
                }
                if outcome != .stopped { transcript = try? library.transcript(of: entry.id) }
            case .background:
                // Made by the background worker; shown if it is ready within a few seconds.
                TranscriptWorker.start(for: library)
                let deadline = Date().addingTimeInterval(session.configuration.checkInTranscriptWait)
                while Date() < deadline {
                    screen(top + ["  " + Terminal.dim("Transcribing…") + "   " + keyHint("q", "Skip")], title: 3)
                    if let made = try? library.transcript(of: entry.id) { transcript = made; break }
                    if readKey(timeoutMilliseconds: 200) == .character("q") { break }
                }
            case .later:
                break
            }
        }
        let queued = Transcribing.onItsWay(entry.id, in: library)
        let width = max(30, min(80, Terminal.columns) - 4)
        let made: Transcript? = transcript ?? nil
        let preview = TranscriptWords.preview(made, count: 3, width: width, queued: queued)
        // The whole transcript: its heading and every line.
        let whole = TranscriptWords.preview(made, count: Int.max, width: width, queued: queued)
        // The note only for a transcript that was made and kept with its words.
        let saved =
            made?.state == .done && made?.words.isEmpty == false
            ? ["  " + Terminal.dim("Transcript saved automatically")] : []
        let more = whole.count > 4
        while true {
            screen(
                top + preview.map { "  " + $0 } + saved + [
                    "",
                    "  " + keyHint("p", "Listen back") + (more ? "     " + keyHint("s", "See more") : "") + "     "
                        + keyHint("Enter", "Done"), "", helpLine(digits: true),
                ], title: 3, keys: 3)
            switch readKey() {
            case .enter, .character("q"), .escape: return already ? .already(entry) : .saved(entry)
            case .character("p"), .character("P"): listen(to: entry)
            case .character("s") where more, .character("S") where more: seeMore(whole)
            case let key?: _ = helpNow(key, digits: true)
            case nil: continue
            }
        }
    }

    /// The whole transcript, a screen at a time: any key shows the next, Esc or q goes back.
    private func seeMore(_ lines: [String]) {
        let page = max(3, Terminal.rows - 4)
        var first = 0
        while true {
            let last = min(lines.count, first + page)
            let atEnd = last >= lines.count
            screen(
                lines[first..<last].map { "  " + $0 } + [
                    "",
                    "  "
                        + (atEnd
                            ? keyHint("Enter", "Back") : keyHint("Space", "More") + "     " + keyHint("q", "Back")),
                ], title: 0)
            guard let key = readKey() else { continue }
            if atEnd || key.isQuit { return }
            first = last
        }
    }

    /// Plays the entry (it is not counted as a play: entries have no ranking).
    private func listen(to entry: Recording) {
        do {
            let session = try PlaySession.open(
                entry, in: library, title: "Check-in \(CheckIn.displayDay(entry.checkIn?.day ?? ""))",
                what: "it back", speaker: speaker)
            write("\u{1B}[H\u{1B}[2J")
            _ = MessagePlay.play(entry, in: library, on: session.player, clock: self.session.now) {
                session.run(handlingSignals: false)
            }
        } catch {
            screen([
                "", "  " + ((error as? CraveyFailure)?.message ?? "cannot play it back: \(error)"), "",
                "  " + keyHint("Enter", "Back"),
            ])
            while ![.enter, .escape].contains(readKey()) {}
        }
    }

    // MARK: - Terminal

    private func keyHint(_ key: String, _ action: String) -> String { Terminal.style(key, "1") + "  " + action }

    /// The keys for a hard moment on a check-in screen (`digits`: with `1`–`3`).
    private func helpLine(digits: Bool) -> String {
        "  " + Terminal.dim("In a craving now?") + "  " + keyHint("o", "Ride it out")
            + (digits ? "  " + keyHint("1–3", "Play a message") : "")
    }

    /// `o` (and with `digits`, `1`–`3`): the ride or the message, as on every screen, on a screen
    /// of its own; its note is shown on the next check-in screen. False for any other key.
    private func helpNow(_ key: Key, digits: Bool) -> Bool {
        guard key.letter == "o" || (digits && (1...3).contains(key.digit ?? 0)) else { return false }
        // The screen of its own is gone (its leaving shows the cursor) before the check-in's is drawn.
        let ran: String?? = {
            guard let own = FullScreen() else { return nil }
            return .some((try? HelpNow(screen: own, session: session)(key)) ?? nil)
        }()
        guard let said = ran else { return false }
        note.withLock { $0 = said }
        Drawing.cursor(visible: false)
        return true
    }

    /// Draws a page laid out for the window: its first `title` lines stay at the top and its last
    /// `keys` lines (with the note of a ride or a message, when there is one) at the bottom; the
    /// lines between scroll to keep `focus` (counted from the first of them) in view. Lines wrap at
    /// spaces; a window below 60x12 shows the one line that asks for a bigger one.
    private func screen(_ lines: [String], title: Int = 2, keys: Int = 1, focus: Range<Int>? = nil) {
        let said = note.withLock { $0 }
        let top = Array(lines.prefix(title))
        let bottom = Array(lines.suffix(min(keys, lines.count - top.count)))
        let page = Page(
            title: top, body: Array(lines[top.count..<(lines.count - bottom.count)]), focus: focus,
            keys: bottom + (said.map { ["", "  " + Terminal.safe($0)] } ?? []))
        Drawing.screen(Calm.isOn ? page.all : page.lines(columns: Terminal.columns, rows: Terminal.rows, reserve: 1))
    }

    private func write(_ text: String) { FileHandle.standardError.show(text) }

    /// The next key; nil after `timeoutMilliseconds` (-1 waits). The end of input stops a
    /// recording (which is kept) and otherwise leaves; after a stop signal outside a recording,
    /// every key is Esc, so each screen goes back and the flow returns.
    private func readKey(timeoutMilliseconds: Int32 = -1) -> Key? {
        var waited: Int32 = 0
        while !leaving.withLock({ $0 }) {
            // In slices, so that a stop signal is noticed while a screen waits for a key.
            let slice = timeoutMilliseconds < 0 ? 100 : min(100, timeoutMilliseconds - waited)
            let key = KeyReader.shared.next(waiting: slice)
            waited += slice
            if key == .inputEnded {
                if let recorder = recorder.withLock({ $0 }), recorder.isRunning {
                    recorder.requestStop(.user)
                    return nil
                }
                leaving.withLock { $0 = true }
                break
            }
            if let key {
                // In a window too small to show the page only q and Esc answer: nothing is chosen unseen.
                if !Calm.isOn, Page.isTooSmall(columns: Terminal.columns, rows: Terminal.rows), !key.isQuit { continue }
                if Calm.isOn { CalmPage.shared.announce(key, to: .standardError) }
                note.withLock { $0 = nil }
                return key
            }
            if timeoutMilliseconds >= 0 && waited >= timeoutMilliseconds { return nil }
        }
        return .escape
    }
}
