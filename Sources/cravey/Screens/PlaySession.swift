import CraveyLibrary
import CraveyMedia
import CraveyMessages
import CraveyPlayer
import Dispatch
import Foundation
import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

/// The play screen and keys, for `cravey play` and for the recording preview.
final class PlaySession {
    let title: String
    let kind: Recording.Kind
    let duration: Double
    let waveform: [UInt8]
    let player: any Playback
    let video: TerminalVideo?
    let window: WindowVideo?
    /// The status lines, redrawn in place (without a picture above them).
    private var block = LiveBlock()
    private var calmLines = StatusLines()
    /// The level a saved recording plays at (nil for a take's preview).
    private(set) var level: PlaybackLevel?

    init(
        title: String, kind: Recording.Kind, duration: Double, waveform: [UInt8], player: any Playback,
        video: TerminalVideo? = nil, window: WindowVideo? = nil
    ) {
        self.title = title
        self.kind = kind
        self.duration = duration
        self.waveform = waveform
        self.player = player
        self.video = video
        self.window = window
    }

    /// The speaker could not be opened for a recording whose pictures are not wanted (or that has
    /// none): its words are shown instead (`UnheardMessage`).
    struct SpeakerUnavailable: Error {
        let error: MediaError
    }

    /// Why the sound of a playing video is not heard: the speaker that did not open (its pictures
    /// play on their own clock).
    private(set) var unheard: MediaError?

    /// A session for a saved recording: its player at the common level (or as recorded), and a
    /// video's pictures unless only its sound is wanted. A player that cannot open is one line
    /// naming `what` ("'Walk'", "the check-in of 2026-11-21").
    static func open(
        _ recording: Recording, in library: Library, title: String, what: String, speaker: String,
        originalLevel: Bool = false, pictures wantsPictures: Bool = false
    ) throws -> PlaySession {
        do {
            return try opening(
                recording, in: library, title: title, speaker: speaker, originalLevel: originalLevel,
                pictures: wantsPictures)
        } catch is SpeakerOpening.Stopped {
            throw CraveyFailure(message: Self.stopped(what))
        } catch let trouble as SpeakerUnavailable {
            throw CraveyFailure(message: "cannot play \(what): \(trouble.error)")
        } catch let error as MediaError {
            throw CraveyFailure(message: "cannot play \(what): \(error)")
        }
    }

    /// The words for a play stopped while its speaker was waited for.
    static func stopped(_ what: String) -> String {
        "\(what) was not played: it was stopped before the speaker answered"
    }

    /// As `open`, for a message played when it is needed: a video whose speaker cannot open still
    /// shows, silently (`unheard` says why); anything else whose speaker cannot open throws
    /// `SpeakerUnavailable`, so that its words can be shown instead. The speaker is waited for
    /// until its deadline (`SpeakerOpening`); q, Esc, Ctrl-C, SIGTERM or SIGHUP meanwhile give the
    /// play up at once (`SpeakerOpening.Stopped`: nothing was heard, nothing is counted).
    static func opening(
        _ recording: Recording, in library: Library, title: String, speaker: String, originalLevel: Bool = false,
        pictures wantsPictures: Bool = false
    ) throws -> PlaySession {
        let showsPictures = recording.kind == .video && wantsPictures
        let path: String
        let player: any Playback
        var level: PlaybackLevel?
        var unheard: MediaError?
        do {
            let playing = try whileOpening(speaker: speaker) { stopping in
                try Playing(
                    recording, in: library, speaker: speaker, originalLevel: originalLevel, stopping: stopping)
            }
            (path, player, level) = (playing.path, playing.player, playing.level)
        } catch let error as MediaError where MessagePlay.isSpeakerProblem(error) {
            guard showsPictures else { throw SpeakerUnavailable(error: error) }
            (path, player, unheard) = (
                try library.file(of: recording), SilentPlayer(duration: recording.duration), error
            )
        }
        let (video, window) = showsPictures ? pictures(of: path, title: title) : (nil, nil)
        let session = PlaySession(
            title: title, kind: recording.kind, duration: recording.duration,
            waveform: recording.media.waveform, player: player, video: video, window: window)
        session.level = level
        session.unheard = unheard
        return session
    }

    /// Runs `open` with what says to stop while the speaker is waited for: a stop signal, or q or
    /// Esc at the terminal (keys arrive one by one meanwhile; others are dropped).
    /// A speaker slow to answer is said on a terminal once, after a moment.
    static func whileOpening<T>(speaker: String, _ open: (_ stopping: () -> Bool) throws -> T) rethrows -> T {
        let signals = StopSignals()
        defer { signals.cancel() }
        let raw = Terminal.stdinIsTerminal ? RawMode() : nil
        defer { raw?.release() }
        let begun = monotonicNanoseconds()
        var said = false
        return try open {
            if !said, Terminal.stdoutIsTerminal, monotonicNanoseconds() - begun > 300_000_000 {
                said = true
                print(Terminal.dim("Waiting for the speaker '\(Terminal.safe(speaker))'… (q stops)"))
            }
            return signals.stopRequested
                || (Terminal.stdinIsTerminal && KeyReader.shared.pending().contains { PlayerKey($0) == .stop })
        }
    }

    /// Where a video's pictures go (`PictureOutput.choose`): a window, else the terminal, else
    /// nowhere (the sound only), which is said.
    static func pictures(of path: String, title: String) -> (TerminalVideo?, WindowVideo?) {
        var output = PictureOutput.choose(outputIsTerminal: Terminal.stdoutIsTerminal)
        if output == .window {
            do {
                return (nil, try WindowVideo(path: path, title: title))
            } catch {
                Terminal.printNote("no window (\(error)); playing in the terminal")
                output = PictureOutput.choose(displayAvailable: false, outputIsTerminal: Terminal.stdoutIsTerminal)
            }
        }
        if output == .terminal && Calm.isOn {
            Terminal.printNote(
                "reduced motion: the pictures of '\(title)' are not drawn in the terminal; playing its sound")
            return (nil, nil)
        }
        if output == .terminal, let video = try? TerminalVideo(path: path) { return (video, nil) }
        Terminal.printNote("no display and not a terminal: playing the sound of '\(title)' only")
        return (nil, nil)
    }

    /// Plays to the end or until dismissed. With `handlingSignals`, Ctrl-C/SIGTERM/SIGHUP dismiss
    /// the playback (the record flow handles its own signals). With `paused`, at a terminal, it
    /// loads paused at the start and space plays it. With `timings`, how long its pictures took is
    /// said after (benchmarks).
    func run(handlingSignals: Bool, paused: Bool = false, timings: Bool = false) -> AudioPlayer.Ending {
        let signals = handlingSignals ? StopSignals(onStop: { [player] _ in player.dismiss() }) : nil
        defer { signals?.cancel() }
        if paused && Terminal.stdinIsTerminal && Terminal.stdoutIsTerminal { player.togglePause() }
        player.start()
        defer {
            if let window, timings {
                Terminal.printNote(
                    "timings first_frame_ns=\(window.firstFrameAt ?? 0) frames_shown=\(window.frames.shown) frames_dropped=\(window.frames.dropped)"
                )
            }
        }
        guard Terminal.stdoutIsTerminal else {
            guard let window else { return player.wait() ?? .dismissed }
            while true {  // the window alone: its frames and its keys
                if let ending = player.wait(timeout: .now() + .milliseconds(5)) { return ending }
                window.update(player)
            }
        }
        let raw = Terminal.stdinIsTerminal ? RawMode() : nil
        // Hide the cursor; a video gets the alternate screen, so the shell's screen comes back after.
        if video != nil { FileHandle.standardOutput.show(Data("\u{1B}[?1049h\u{1B}[2J".utf8)) }
        Drawing.cursor(visible: false, to: .standardOutput)
        defer {
            raw?.release()
            if video != nil { FileHandle.standardOutput.show(Data("\u{1B}[?1049l".utf8)) }
            Drawing.cursor(visible: true, to: .standardOutput)
            if !Calm.isOn { FileHandle.standardOutput.show(Data("\n".utf8)) }
            if let video, timings {
                Terminal.printNote(
                    "timings first_frame_ns=\(video.firstFrameAt ?? 0) frames_shown=\(video.frames.shown) frames_dropped=\(video.frames.dropped)"
                )
            }
        }
        // A video redraws as often as frames can come; the sound-only screen 25 times a second.
        let tick: DispatchTimeInterval = video != nil || window != nil ? .milliseconds(10) : .milliseconds(40)
        var lastStatus: UInt64 = 0
        while true {
            if let ending = player.wait(timeout: .now() + tick) {
                render()
                return ending
            }
            handleKeys()
            window?.update(player)
            // The status lines 25 times a second; a terminal video as often as its frames come.
            if video != nil || monotonicNanoseconds() - lastStatus > 40_000_000 {
                render()
                lastStatus = monotonicNanoseconds()
            }
        }
    }

    private func handleKeys() {
        guard Terminal.stdinIsTerminal else { return }
        for key in KeyReader.shared.pending() { PlayerKey(key)?.apply(to: player) }
    }

    /// Draws title, waveform with cursor, position / duration and a progress bar, in place.
    private func render() {
        // The bar and its clock within the window (a wrapped line would break the redraw in place).
        let width = max(20, min(60, Terminal.columns - 16))
        let position = player.position
        let fraction = duration > 0 ? min(1, position / duration) : 0
        let cursor = min(width - 1, Int(fraction * Double(width)))
        var wave = Array(Format.sparkline(waveform, columns: width))
        if wave.isEmpty { wave = Array(repeating: "·", count: width) }
        while wave.count < width { wave.append(" ") }
        let played = String(wave[0..<cursor]), rest = String(wave[(cursor + 1)...])
        let waveLine = Terminal.accent(played) + Terminal.style("│", "1;33") + Terminal.dim(rest)
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "━", count: filled) + String(repeating: "─", count: width - filled)
        let lines = [
            "\(Format.icon(kind)) \(Terminal.bold(title))"
                + (player.isPaused ? Terminal.style("  ❚❚ paused", "33") : ""),
            waveLine,
            Terminal.accent(bar) + "  \(Format.clock(position)) / \(Format.clock(duration))",
            Terminal.dim((player.isPaused ? "space play" : "space pause") + " · ← → 15 s · q quit"),
        ].map { Terminal.fit($0, max(20, Terminal.columns - 1)) }
        if Calm.isOn {
            let state = player.isPaused ? "Paused" : "Playing"
            return calmLines.offer(
                "\(state) '\(title)' \(Format.clock(position)) of \(Format.clock(duration))", to: .standardOutput)
        }
        guard let video else { return block.draw(lines, to: .standardOutput) }
        // The picture due now (if a new one is), then the status lines below it.
        var out = (video.draw(at: position) ?? "") + "\u{1B}[\(video.rows + 1);1H"
        for line in lines { out += "\r\u{1B}[2K" + line + "\n" }
        FileHandle.standardOutput.show(Data(out.utf8))
    }
}

/// A video drawn in the terminal with half blocks, above the status lines.
final class TerminalVideo {
    let pictures: TerminalPictures
    var frames: VideoFrames { pictures.frames }
    var rows: Int { pictures.rows }
    var firstFrameAt: UInt64? { pictures.firstFrameAt }

    init(path: String) throws {
        pictures = try TerminalPictures(path: path, terminalRows: Terminal.rows, terminalColumns: Terminal.columns)
    }

    /// The escape sequence drawing the frame due at `position`, or nil when it is already shown.
    func draw(at position: Double) -> String? {
        guard let picture = pictures.picture(at: position) else { return nil }
        return "\u{1B}[H" + TerminalImage.halfBlocks(picture, lineEnd: "\r\n")
    }
}

extension PlayerKey {
    /// The player's key for a key at the terminal: space, ← and →, q or Esc.
    init?(_ key: Key) {
        switch key {
        case .character(" "): self = .pauseResume
        case .left: self = .back
        case .right: self = .forward
        case .character("q"), .character("Q"), .escape: self = .stop
        default: return nil
        }
    }
}
