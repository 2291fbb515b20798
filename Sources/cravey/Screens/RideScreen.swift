import CraveyLibrary
import CraveyMedia
import CraveyMessages
import CraveyPlayer
import CraveyTracker
import Dispatch
import Foundation
import TerminalKit

/// How a ride ended. Every way keeps the ratings given, and every way is met with the same
/// words: leaving early is riding it out too.
enum RideEnding: Equatable {
    /// The person said it has passed.
    case passed
    /// Its minutes are up.
    case timeUp
    /// q, Esc, Ctrl-C, SIGTERM, SIGHUP, or the terminal gone.
    case stopped
}

/// A ride's lengths: its minutes, the real seconds a minute lasts (`Configuration`, for tests),
/// how often it asks how strong the craving is, and the breathing between two messages.
struct RidePace {
    var minutes = 15
    var minuteSeconds: Double
    /// Real seconds between two questions (3 minutes).
    let askSeconds: Double

    init(_ configuration: Configuration, minutes: Int = 15) {
        self.minutes = minutes
        minuteSeconds = configuration.rideMinuteSeconds
        askSeconds = configuration.rideAskSeconds ?? 3 * minuteSeconds
    }

    /// The seconds on the ride's clock since `started` (a ride's minute may be shorter in tests).
    func rideSeconds(since started: Date) -> Double {
        Date().timeIntervalSince(started) * 60 / minuteSeconds
    }
    /// Real seconds the ride lasts.
    var length: Double { Double(minutes) * minuteSeconds }
    /// Real seconds of breathing between two messages (half a minute).
    var pause: Double { minuteSeconds / 2 }
}

/// `cravey ride` on a terminal: a calm companion while a craving rises, peaks and falls. The
/// person's messages play in turn (`Tracker.messageOrder`: the one made for this craving's
/// trigger first), a breathing guide runs between them, and every few minutes it asks how strong
/// the craving is now; each answer is kept at once (`Tracker.Ride`), so nothing is lost however
/// the ride ends. Without a speaker a message's words are shown instead of its sound.
final class RideScreen {
    /// What is in front of the person now.
    private enum Showing {
        case breathing
        case playing(Recording, any Playback)
        /// A message whose sound cannot be heard: its words (`UnheardWords`).
        case words(Recording, [String])
    }

    private let lib: Library
    private let speaker: String
    private let screen: FullScreen
    private let pace: RidePace
    private let messages: [Recording]
    private(set) var ride: Tracker.Ride
    private let signals = StopSignals()
    private let begun = monotonicNanoseconds()
    private var ending: RideEnding?
    private var showing = Showing.breathing
    private var nextMessage = 0
    /// Set by `s`: no message plays on its own until `n` asks for one.
    private var quiet = false
    /// Set by `n` while a message plays: the next one follows at once.
    private var skipping = false
    /// When (ride seconds) the next message plays on its own; nil: none to play.
    private var playNextAt: Double? = 0
    /// When the breathing guide began (its breath starts there).
    private var breathingSince = 0.0
    private var askAt: Double
    private var asking = false
    /// A line under the ratings: what could not be done (a rating or a play not kept).
    private var note: String?
    /// The plan for this craving's trigger: its sentence heads the ride.
    private var plan: Plan?

    private init(
        ride: Tracker.Ride, messages: [Recording], lib: Library, speaker: String, screen: FullScreen, pace: RidePace
    ) {
        (self.ride, self.messages, self.lib, self.speaker, self.screen, self.pace) = (
            ride, messages, lib, speaker, screen, pace
        )
        askAt = pace.askSeconds
    }

    /// What a ride leaves: how it ended and the ratings kept.
    struct Outcome {
        var ending: RideEnding
        var ratings: [Craving.Rating]
    }

    /// Rides `craving` out on `screen` (or, without one, on a screen of its own): keeps its
    /// intensity as the first rating, then plays, breathes and asks until it ends. nil without a
    /// terminal.
    static func ride(
        _ craving: Craving, in session: Session, pace: RidePace, on screen: FullScreen? = nil
    ) throws -> Outcome? {
        try ride(
            try Tracker.Ride(craving, tracker: Tracker(library: session.library)), in: session, pace: pace, on: screen)
    }

    /// Rides `ride` out: one whose craving is logged, or one that cannot be saved (a full disk),
    /// which keeps company all the same — sound, breathing, ratings on screen — and says once,
    /// under the ratings, that it is not kept.
    static func ride(
        _ ride: Tracker.Ride, in session: Session, pace: RidePace,
        on screen: FullScreen? = nil
    ) throws -> Outcome? {
        // Messages without sound (a silent video) have nothing to say in a ride.
        // Its plan's message first (`Tracker.rideOrder`), its sentence at the top of the ride.
        let (plan, order) = try ride.tracker.rideOrder(for: ride.craving, now: LocalClock.now())
        let messages = order.filter { $0.media.sampleRate != nil }
        guard let screen = screen ?? FullScreen() else { return nil }
        let riding = RideScreen(
            ride: ride, messages: messages, lib: session.library, speaker: session.speaker, screen: screen, pace: pace)
        riding.plan = plan
        let ending = riding.run()
        return Outcome(ending: ending, ratings: riding.ride.ratings)
    }

    /// Before a ride whose intensity was not given: "How strong is it?", one key (0 is 10,
    /// Enter a 5). nil when the person leaves instead (nothing is logged).
    static func askIntensity(on screen: FullScreen) -> Int? {
        let lines = Page(
            title: [Terminal.bold("Ride it out"), ""], body: ["How strong is it? 1–10"],
            keys: [Terminal.dim("  1 mild … 10 overwhelming · 0 is 10 · Enter: \(Intensity.standard) · Esc: not now")])
        while true {
            let key = screen.ask(lines)
            if let value = key.digit.flatMap(Intensity.value(ofDigit:)) { return value }
            if key == .enter { return Intensity.standard }
            if key.isQuit || key == .inputEnded { return nil }
        }
    }

    /// Seconds since the ride began.
    private var elapsed: Double { Double(monotonicNanoseconds() - begun) / 1e9 }

    private func run() -> RideEnding {
        defer { signals.cancel() }
        while ending == nil {
            if let at = playNextAt, !quiet, elapsed >= at {
                playNext()
                continue
            }
            tick()
            if ending == nil, let key = KeyReader.shared.next(waiting: 60) { handle(key) }
        }
        return ending ?? .stopped
    }

    /// What every moment checks: the time, a signal, a question due; then the page is drawn.
    private func tick() {
        if signals.stopRequested { ending = .stopped }
        if elapsed >= pace.length { ending = ending ?? .timeUp }
        if !asking, elapsed >= askAt { asking = true }
        if ending == nil { screen.draw(page()) }
    }

    // MARK: - Messages

    /// Plays the next message in turn (after the last, the first again), through the play use
    /// case (counted as a play), and keeps that it was played during this craving.
    private func playNext() {
        guard !messages.isEmpty else {
            playNextAt = nil
            return
        }
        let recording = messages[nextMessage % messages.count]
        nextMessage += 1
        note = nil
        let playing: Playing
        do {
            // The speaker is waited for only until its deadline; the ride goes on meanwhile.
            playing = try Playing(recording, in: lib, speaker: speaker) { [self] in
                tick()
                for key in KeyReader.shared.pending() { handle(key) }
                return ending != nil || quiet
            }
        } catch is SpeakerOpening.Stopped {
            showing = .breathing
            breathingSince = elapsed
            playNextAt = elapsed + pace.pause
            return
        } catch let error as MediaError where MessagePlay.isSpeakerProblem(error) {
            // No speaker: the message's words, for as long as it lasts (10 s at least), then breathing.
            let words = MessagePlay.words(of: recording, in: lib)
            showing = .words(
                recording,
                UnheardWords.lines(
                    recording, words: words, speaker: speaker, problem: DeviceProblem.speaker(speaker, error)))
            if words.shown && ride.isSaved {  // read: played; only a title and notes: not
                if case let .failed(error) = MessagePlay.shown(recording, in: lib, at: LocalClock.now()).counting {
                    note = "This play was not counted: \(error)"
                }
                keep { try ride.played(recording.id) }
            }
            breathingSince = elapsed
            playNextAt = elapsed + max(10, recording.duration) + pace.pause
            return
        } catch {
            note = "'\(Terminal.safe(recording.shownTitle))' cannot play: \(error)"
            showing = .breathing
            playNextAt = elapsed + pace.pause
            return
        }
        let player = playing.player
        showing = .playing(recording, player)
        let listen = { [self] () -> AudioPlayer.Ending in
            player.start()
            while true {
                if let ending = player.wait(timeout: .now() + .milliseconds(40)) { return ending }
                tick()
                if ending != nil {
                    player.dismiss()
                    continue
                }
                for key in KeyReader.shared.pending() { handle(key, playing: player) }
            }
        }
        if ride.isSaved {
            let played = MessagePlay.play(recording, in: lib, on: player, clock: LocalClock.now, through: listen)
            if case let .failed(error) = played.counting { note = "This play was not counted: \(error)" }
            if played.heard { keep { try ride.played(recording.id) } }
        } else {
            _ = listen()  // a ride that cannot be saved counts no play either (the disk is full)
        }
        showing = .breathing
        breathingSince = elapsed
        playNextAt = skipping ? elapsed : elapsed + pace.pause
        skipping = false
    }

    // MARK: - Keys

    private func handle(_ key: Key, playing player: (any Playback)? = nil) {
        if Calm.isOn { CalmPage.shared.announce(key, to: .standardOutput) }
        switch key {
        case .inputEnded, .escape, .character("q"), .character("Q"):
            ending = .stopped
        case .character("p"), .character("P"):
            ending = .passed
        case .character("n"), .character("N"):
            quiet = false
            if let player {
                skipping = true
                player.dismiss()
            } else {
                playNextAt = elapsed
            }
        case .character("s"), .character("S"):
            quiet = true
            player?.dismiss()
        case .character(" "):
            player?.togglePause()
        case .enter where asking:
            rate(ride.last)
        default:
            if let value = key.digit.flatMap(Intensity.value(ofDigit:)) { rate(value) }
        }
        if ending != nil { player?.dismiss() }
    }

    /// Keeps a rating at once; the next question comes a few minutes after it.
    private func rate(_ value: Int) {
        keep { try ride.rate(value, at: LocalClock.now()) }
        asking = false
        askAt = elapsed + pace.askSeconds
    }

    /// Runs a change to the craving; a failure is said on the page, and the ride goes on.
    private func keep(_ change: () throws -> Void) {
        do {
            try change()
        } catch {
            note = "Not kept: \(Problem.of(error)?.message ?? "\(error)")"
        }
    }

    // MARK: - Drawing

    /// Said once, under the ratings, in a ride that cannot be saved.
    static let notSaved = "The disk is full, so this ride can't be saved — I'm still here with you."

    /// Whether the breathing guide is words and a countdown (nothing that moves).
    static var plainBreathing: Bool { Calm.isOn || !Terminal.useColor }

    private func page() -> Page {
        let width = min(72, max(40, Terminal.columns - 1))
        let rule = Terminal.dim(String(repeating: "─", count: width))
        let minute = min(pace.minutes, Int(elapsed / pace.minuteSeconds) + 1)
        // The plan's sentence stays in view with the title, whole; on a short window the rules
        // give way to it, and what is below it scrolls.
        let planLines = plan.map { Terminal.wrap(PlanWords.heading($0), width: width) } ?? []
        let roomy = Terminal.rows - planLines.count - 6 >= 6
        let title =
            [Terminal.bold("Riding it out") + "   " + Terminal.dim("minute \(minute) of \(pace.minutes)")]
            + planLines + (roomy ? [rule] : [])
        var lines: [String] = []
        switch showing {
        case let .playing(recording, player):
            lines.append(
                "▶ " + Format.icon(recording.kind) + " " + Terminal.bold(Terminal.safe(recording.shownTitle))
                    + (player.isPaused ? Terminal.style("  ❚❚ paused", "33") : ""))
            if !Calm.isOn {
                let fraction = player.duration > 0 ? min(1, player.position / player.duration) : 0
                let bar = Charts.bar(fraction, width: 30)
                lines.append(
                    "  " + Terminal.accent(bar.filled) + Terminal.dim(bar.track) + "  "
                        + Format.clock(player.position) + " / " + Format.clock(player.duration))
            }
        case let .words(_, words):
            lines += words.flatMap { line -> [String] in
                let indent = line.hasPrefix("  ") ? "  " : ""
                return line.isEmpty ? [""] : Terminal.wrap(line, width: width - indent.count).map { indent + $0 }
            }
        case .breathing:
            if messages.isEmpty {
                lines.append("No messages yet — breathe with me. On a calmer day, record one: cravey record audio")
            }
        }
        if case .playing = showing {
        } else {
            lines += [""] + breathing(width: width)
        }
        lines.append("")
        let question = lines.count
        lines += ratingLines(width: width)
        if !ride.isSaved { lines.append(Terminal.style(Self.notSaved, "33")) }
        if let note { lines.append(Terminal.style(note, "33")) }
        let keys =
            (roomy ? [rule] : []) + [
                "  " + Terminal.bold("n") + "  next message   " + Terminal.bold("s") + "  stop the sound   "
                    + Terminal.bold("space") + "  pause",
                "  " + Terminal.bold("1–9, 0") + "  how strong   " + Terminal.bold("p") + "  it has passed   "
                    + Terminal.bold("q") + "  end",
            ]
        // The question and the ratings stay in view; what shows above them scrolls.
        return Page(title: title, body: lines, focus: question..<(question + 2), keys: keys)
    }

    /// The breathing guide: a line that grows (in, 4 s) and shrinks (out, 6 s) over its words,
    /// or the words and a countdown where nothing should move.
    private func breathing(width: Int) -> [String] {
        let seconds = elapsed - breathingSince
        if Calm.isOn { return ["  " + Breathing.phase(at: seconds)] }
        guard !Self.plainBreathing else { return ["  " + Breathing.words(at: seconds)] }
        let words = Breathing.moment(at: seconds).inhaling ? "Breathe in" : "Breathe out"
        let guide = min(width, 48)
        return [
            Terminal.accent(Breathing.line(at: seconds, width: guide)),
            String(repeating: " ", count: (guide - words.count) / 2) + Terminal.dim(words),
        ]
    }

    /// The question when it is due, the ratings so far, and their curve.
    private func ratingLines(width: Int) -> [String] {
        // The question's line is there when it is not asked too, so a calm screen prints only it.
        var lines = [
            asking
                ? Terminal.bold("How strong is it now? 1–10") + Terminal.dim("   0 is 10 · Enter keeps \(ride.last)")
                : ""
        ]
        lines.append("How strong: " + Self.trail(ride.ratings))
        if !Calm.isOn, ride.ratings.count >= 2 {
            let span = Double(max(ride.ratings.last!.seconds, 1))
            let points = ride.ratings.map { (x: Double($0.seconds) / span, y: Double($0.value - 1) / 9) }
            let chart = Charts.line(points, width: min(40, width - 6), height: 4)
            lines += chart.enumerated().map { index, row in
                Terminal.dim(index == 0 ? "10 ┤" : index == chart.count - 1 ? " 1 ┤" : "   │") + Terminal.accent(row)
            }
        }
        return lines
    }

    /// The ratings as a trail, the latest eight: `8 → 6 → 4`.
    static func trail(_ ratings: [Craving.Rating]) -> String { Tracker.rideTrail(ratings) }

    /// The words after a ride, following what the ratings did (`Tracker.rideClosing`);
    /// `rideSeconds` on the ride's clock (nil for one told afterwards), the goal read from `lib`.
    static func closing(_ ratings: [Craving.Rating], rideSeconds: Double? = nil, in lib: Library? = nil) -> [String] {
        let goal = lib.flatMap { try? Tracker(library: $0).goal() }
        return Tracker.rideClosing(ratings, rideSeconds: rideSeconds, goal: goal)
    }
}
