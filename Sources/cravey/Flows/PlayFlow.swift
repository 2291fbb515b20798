import CraveyLibrary
import CraveyMedia
import CraveyMessages
import CraveyPlayer
import CraveyTracker
import Foundation
import TerminalKit

/// Playing a message when it is needed: choose it, find where to start, wait for the speaker
/// (never past its deadline), play it and count the play — or, when the speaker cannot open, show
/// the message's words instead (read, they count as played). What `cravey play`, home's `1`–`3`,
/// the recordings screen's Enter and a craving's offer all run.
enum PlayFlow {
    /// Plays the message at `rank` in Quick Play's order, as `cravey play --top --rank N` does:
    /// the home screen's play.
    @discardableResult
    static func play(top rank: Int, in session: Session) throws -> MessagePlay.Played {
        try play(try quickPlay(rank: rank, in: session.library, now: session.now()), in: session)
    }

    /// The message at `rank` in Quick Play's order (as set in settings). With fewer messages
    /// it stays the rank among the most played, which says how many there are.
    static func quickPlay(rank: Int, in lib: Library, now: Date) throws -> MessagePlay.Choice {
        let ranked = try Tracker(library: lib).quickPlay(rank, now: now)
        return ranked.count >= rank ? .key(ranked[rank - 1].id.uuidString) : .top(rank: rank)
    }

    /// Chooses the recording, finds where to start, plays it and counts the play (one line
    /// each when there is none to choose or the start is not in it). `fromText` is the --from
    /// asked for, to word a start past the end; `offeringRide` as below.
    @discardableResult
    static func play(
        _ choice: MessagePlay.Choice, in session: Session, from start: MessagePlay.Start = .beginning,
        originalLevel: Bool = false, pictures: Bool = true, fromText: String? = nil, offeringRide: Bool = false
    ) throws -> MessagePlay.Played {
        do {
            let recording = try MessagePlay.choose(choice, in: session.library)
            let seconds = try MessagePlay.seconds(of: start, in: recording, library: session.library)
            return try play(
                recording, in: session, from: seconds, originalLevel: originalLevel, pictures: pictures,
                offeringRide: offeringRide)
        } catch let failure as MessagePlay.Failure {
            throw CraveyFailure(failure, from: fromText)
        }
    }

    /// Plays a recording and counts the play (also the hard-moment offer after a craving). Only a
    /// play of its own (`offeringRide`: `cravey play --top`, from a key) offers the ride in a
    /// notification when the speaker cannot open: a craving's play is part of a craving already
    /// logged, and a ride from there would log a second.
    @discardableResult
    static func play(
        _ recording: Recording, in session: Session, from startAt: Double = 0, originalLevel: Bool = false,
        pictures: Bool = true, offeringRide: Bool = false
    ) throws -> MessagePlay.Played {
        let (lib, speaker) = (session.library, session.speaker)
        let playing: PlaySession
        do {
            playing = try PlaySession.opening(
                recording, in: lib, title: recording.shownTitle, speaker: speaker, originalLevel: originalLevel,
                pictures: pictures)
        } catch is SpeakerOpening.Stopped {
            throw CraveyFailure(message: PlaySession.stopped("'\(recording.shownTitle)'"))
        } catch let trouble as PlaySession.SpeakerUnavailable {
            // Started from the desktop, the words come in a notification too, with "Ride it out".
            defer { if offeringRide { LaunchFlow.offerRide(instead: recording, trouble.error, in: session) } }
            // A hard moment is no time for a device error alone: the message's words instead
            // (read, they count as played), or what helps without a speaker.
            if showWords(of: recording, in: session, trouble.error, waiting: true) {
                let shown = MessagePlay.shown(recording, in: lib, at: session.now())
                if case let .failed(error) = shown.counting {
                    Terminal.printNote("this play was not counted: \(error)")
                }
                return shown
            }
            throw CraveyFailure(
                message: "'\(recording.shownTitle)' was not played: the speaker '\(speaker)' did not open")
        } catch let error as MediaError {
            throw CraveyFailure(message: "cannot play '\(recording.shownTitle)': \(error)")
        }
        if let unheard = playing.unheard {  // a video: its pictures play, its words are shown too
            showWords(of: recording, in: session, unheard, waiting: false)
        }
        let player = playing.player
        if startAt > 0 { player.skip(startAt) }
        let timings = session.configuration.timings
        let played = MessagePlay.play(recording, in: lib, on: player, clock: session.now) {
            playing.run(handlingSignals: true, timings: timings)
        }
        if case let .failed(error) = played.counting {
            // The playback happened; only counting it failed (a full or read-only disk).
            Terminal.printNote("this play was not counted: \(error)")
        }
        if timings {
            Terminal.printNote(
                "timings first_sample_ns=\(player.firstSampleAt ?? 0) gain_db=\(playing.level?.gain ?? 0) heard_s=\(String(format: "%.2f", played.heardSeconds))"
            )
        }
        if !Terminal.stdoutIsTerminal {
            print(
                "\(played.ending == .finished ? "Played" : "Stopped") '\(recording.shownTitle)' (\(Format.duration(recording.duration)))"
            )
        }
        return played
    }

    /// The words of a message whose sound cannot be heard, calmly: its transcript (or, without one,
    /// its title and notes), and one line on what `cravey doctor` checks. On a terminal `waiting`
    /// keeps them on screen until a key, so that a screen called from (home, a craving's offer)
    /// does not cover them at once.
    @discardableResult
    static func showWords(of recording: Recording, in session: Session, _ error: MediaError, waiting: Bool) -> Bool {
        let lib = session.library
        let width = max(40, min(Terminal.stdoutIsTerminal ? Terminal.columns : 80, 100)) - 3
        let words = MessagePlay.words(of: recording, in: lib)
        let others = words.shown || !waiting ? nil : otherWords(than: recording, in: lib)
        for line in UnheardWords.lines(
            recording, words: words, speaker: session.speaker,
            problem: DeviceProblem.speaker(session.speaker, error), others: others)
        {
            let indent = line.hasPrefix("  ") ? "  " : ""
            print(
                line.isEmpty
                    ? "" : Terminal.wrap(line, width: width - indent.count).map { indent + $0 }.joined(separator: "\n"))
        }
        if waiting, Terminal.stdinIsTerminal, Terminal.stdoutIsTerminal {
            Prompt.choice(
                Terminal.dim("Press any key when you're ready."), key: { _ in () }, line: { _ in () }, ended: ())
        }
        return words.shown
    }

    /// The titles of the other messages whose words can be read instead (up to three).
    private static func otherWords(than recording: Recording, in lib: Library) -> [Recording] {
        let others = ((try? lib.top(20)) ?? []).filter { $0.id != recording.id && $0.checkIn == nil }
        return Array(others.filter { MessagePlay.words(of: $0, in: lib).shown }.prefix(3))
    }
}

extension CraveyFailure {
    /// A play that could not begin, in one line (`from`: the --from asked for).
    init(_ failure: MessagePlay.Failure, from: String?) {
        switch failure {
        case .noRecordings:
            self.init(message: "no recordings yet — record a message to your future self with 'cravey record audio'")
        case let .onlyRanked(count):
            self.init(message: "there are only \(count) recordings; try --rank \(count)")
        case let .pastTheEnd(recording):
            self.init(
                message:
                    "--from \(from ?? "") is past the end of '\(recording.shownTitle)' (\(Format.duration(recording.duration)))"
            )
        case let .noTranscript(recording):
            self.init(
                message:
                    "'\(recording.shownTitle)' has no transcript yet ('cravey transcribe \(recording.id.uuidString.prefix(8))' makes it)"
            )
        case let .notSaid(word, recording):
            self.init(message: "'\(word)' is not in the transcript of '\(recording.shownTitle)'")
        }
    }
}
