import ArgumentParser
import CraveyLibrary
import CraveyMedia
import CraveyPlayer
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension Cravey {
    /// `cravey play`: play a recording — above all one of the most played — when it is needed.
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play a recording (by id, unique start of an id, or start of a title), or one of the top three.",
            discussion: """
                Keys: space pauses and resumes, ← and → skip 15 seconds, q or Esc stops. A play counts when \
                it ends or is stopped. A video plays in the terminal (24-bit colour half blocks, its pictures \
                following the sound; frames are dropped, never shown late, when the terminal is slow); \
                --audio-only plays just its sound.
                """)

        @OptionGroup var library: LibraryOptions

        @Argument(help: "The recording: id, unique start of an id, or start of its title.")
        var key: String?

        @Flag(help: "Play one of the most played recordings (see 'cravey top').")
        var top = false

        @Option(help: "With --top: which one (1 = the most played).")
        var rank: Int = 1

        @Option(help: ArgumentHelp("ALSA playback device.", valueName: "name"))
        var speaker: String = "default"

        @Flag(help: "Play only the sound of a video.")
        var audioOnly = false

        func validate() throws {
            if top == (key != nil) { throw ValidationError("give a recording, or --top") }
            guard rank >= 1 else { throw ValidationError("--rank starts at 1") }
        }

        func run() throws {
            let lib = try library.open()
            let recording: Recording
            if top {
                let ranked = try lib.top(rank)
                guard ranked.count >= rank else {
                    if ranked.isEmpty {
                        throw CraveyFailure(message: "no recordings yet — record a message to your future self with 'cravey record audio'")
                    }
                    throw CraveyFailure(message: "there are only \(ranked.count) recordings; try --rank \(ranked.count)")
                }
                recording = ranked[rank - 1]
            } else {
                recording = try lib.recording(idOrTitle: key!)
            }
            let path = try lib.file(of: recording)
            let hasSound = recording.media.sampleRate != nil || recording.kind == .audio
            let player: any Playback
            do {
                player = hasSound ? try AudioPlayer(path: path, duration: recording.duration, speaker: speaker)
                    : SilentPlayer(duration: recording.duration)
            } catch let error as MediaError {
                throw CraveyFailure(message: "cannot play '\(recording.shownTitle)': \(error)")
            }
            let (video, window) = recording.kind == .video && !audioOnly ? PlaySession.pictures(of: path, title: recording.shownTitle) : (nil, nil)
            let session = PlaySession(title: recording.shownTitle, kind: recording.kind, duration: recording.duration,
                                      waveform: recording.media.waveform, player: player, video: video, window: window)
            let ending = session.run(handlingSignals: true)
            do {
                try lib.recordPlay(recording.id)
            } catch {
                // The playback happened; only counting it failed (a full or read-only disk).
                Terminal.printNote("this play was not counted: \(error)")
            }
            if ProcessInfo.processInfo.environment["CRAVEY_TIMINGS"] == "1" {
                Terminal.printNote("timings first_sample_ns=\(player.firstSampleAt ?? 0)")
            }
            if !Terminal.stdoutIsTerminal {
                print("\(ending == .finished ? "Played" : "Stopped") '\(recording.shownTitle)' (\(Format.duration(recording.duration)))")
            }
        }
    }
}

/// The play screen and keys, for `cravey play` and for the recording preview.
final class PlaySession: @unchecked Sendable {
    let title: String
    let kind: Recording.Kind
    let duration: Double
    let waveform: [UInt8]
    let player: any Playback
    let video: TerminalVideo?
    let window: WindowVideo?
    private var signalSources: [DispatchSourceSignal] = []

    init(title: String, kind: Recording.Kind, duration: Double, waveform: [UInt8], player: any Playback,
         video: TerminalVideo? = nil, window: WindowVideo? = nil) {
        self.title = title
        self.kind = kind
        self.duration = duration
        self.waveform = waveform
        self.player = player
        self.video = video
        self.window = window
    }

    /// Where a video's pictures go: a window where there is a display; else the terminal; else
    /// nowhere (just the sound), which is said.
    static func pictures(of path: String, title: String) -> (TerminalVideo?, WindowVideo?) {
        if VideoWindow.displayAvailable {
            do {
                return (nil, try WindowVideo(path: path, title: title))
            } catch {
                Terminal.printNote("no window (\(error)); playing in the terminal")
            }
        }
        if Terminal.stdoutIsTerminal, let video = try? TerminalVideo(path: path) { return (video, nil) }
        Terminal.printNote("no display and not a terminal: playing the sound of '\(title)' only")
        return (nil, nil)
    }

    /// Plays to the end or until dismissed. With `handlingSignals`, Ctrl-C/SIGTERM/SIGHUP dismiss
    /// the playback (the record flow handles its own signals).
    func run(handlingSignals: Bool) -> AudioPlayer.Ending {
        for signo in handlingSignals ? [SIGINT, SIGTERM, SIGHUP] : [] {
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler { [player] in player.dismiss() }
            source.resume()
            signalSources.append(source)
        }
        player.start()
        defer {
            if let window, ProcessInfo.processInfo.environment["CRAVEY_TIMINGS"] == "1" {
                Terminal.printNote("timings first_frame_ns=\(window.firstFrameAt ?? 0) frames_shown=\(window.frames.shown) frames_dropped=\(window.frames.dropped)")
            }
        }
        guard Terminal.stdoutIsTerminal else {
            guard let window else { return player.wait() ?? .dismissed }
            while true {  // the window alone: its frames and its keys
                if let ending = player.wait(timeout: .now() + .milliseconds(5)) { return ending }
                window.update(player)
            }
        }
        var raw = Terminal.stdinIsTerminal ? Terminal.RawMode() : nil
        // Hide the cursor; a video gets the alternate screen, so the shell's screen comes back after.
        FileHandle.standardOutput.write(Data(((video != nil ? "\u{1B}[?1049h\u{1B}[2J" : "") + "\u{1B}[?25l").utf8))
        defer {
            raw = nil
            FileHandle.standardOutput.write(Data(((video != nil ? "\u{1B}[?1049l" : "") + "\u{1B}[?25h\n").utf8))
            if let video, ProcessInfo.processInfo.environment["CRAVEY_TIMINGS"] == "1" {
                Terminal.printNote("timings first_frame_ns=\(video.firstFrameAt ?? 0) frames_shown=\(video.frames.shown) frames_dropped=\(video.frames.dropped)")
            }
        }
        _ = raw
        var drawn = 0
        // A video redraws as often as frames can come; the sound-only screen 25 times a second.
        let tick: DispatchTimeInterval = video != nil || window != nil ? .milliseconds(10) : .milliseconds(40)
        var lastStatus: UInt64 = 0
        while true {
            if let ending = player.wait(timeout: .now() + tick) {
                drawn = render(drawn)
                return ending
            }
            handleKeys()
            window?.update(player)
            // The status lines 25 times a second; a terminal video as often as its frames come.
            if video != nil || monotonicNanoseconds() - lastStatus > 40_000_000 {
                drawn = render(drawn)
                lastStatus = monotonicNanoseconds()
            }
        }
    }

    private func handleKeys() {
        guard Terminal.stdinIsTerminal else { return }
        var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return }
        var bytes = [UInt8](repeating: 0, count: 16)
        let n = read(STDIN_FILENO, &bytes, bytes.count)
        guard n > 0 else { return }
        // Several keys can arrive in one read: take them one at a time.
        var i = 0
        while i < n {
            if bytes[i] == 0x1B, i + 2 < n, bytes[i + 1] == 0x5B {  // ESC [ C / ESC [ D: arrows
                if bytes[i + 2] == 0x43 { player.skip(15) }
                if bytes[i + 2] == 0x44 { player.skip(-15) }
                i += 3
                continue
            }
            switch bytes[i] {
            case 0x20: player.togglePause()
            case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x1B: player.dismiss()
            default: break
            }
            i += 1
        }
    }

    /// Draws title, waveform with cursor, position / duration and a progress bar, in place.
    private func render(_ drawn: Int) -> Int {
        let width = 60
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
            "\(Format.icon(kind)) \(Terminal.bold(title))" + (player.isPaused ? Terminal.style("  ❚❚ paused", "33") : ""),
            waveLine,
            Terminal.accent(bar) + "  \(Format.clock(position)) / \(Format.clock(duration))",
            Terminal.dim("space pause · ← → 15 s · q quit"),
        ]
        var out: String
        if let video {
            // The picture due now (if a new one is), then the status lines below it.
            out = (video.draw(at: position) ?? "") + "\u{1B}[\(video.rows + 1);1H"
        } else {
            out = drawn > 0 ? "\u{1B}[\(drawn)A" : ""
        }
        for line in lines { out += "\r\u{1B}[2K" + line + "\n" }
        FileHandle.standardOutput.write(Data(out.utf8))
        return lines.count
    }
}

/// A video drawn in the terminal with half blocks, sized to fit above the status lines.
final class TerminalVideo {
    let frames: VideoFrames
    let columns: Int
    let rows: Int
    private(set) var firstFrameAt: UInt64?

    init(path: String) throws {
        let size = try Picture.size(of: path)
        let termRows = max(8, Terminal.rows)
        let termColumns = max(16, Terminal.columns)
        // A cell is about twice as tall as it is wide: two picture rows per cell keep pixels square.
        let aspect = Double(size.width) / Double(max(1, size.height))
        let maxRows = termRows - 5
        var columns = min(termColumns, Int(Double(maxRows * 2) * aspect))
        columns = max(8, columns)
        rows = max(2, Int((Double(columns) / aspect / 2).rounded()))
        self.columns = columns
        frames = try VideoFrames(path: path, width: columns, height: rows * 2, rgb: true)
    }

    /// The escape sequence drawing the frame due at `position`, or nil when it is already shown.
    func draw(at position: Double) -> String? {
        guard let frame = try? frames.frame(at: position) else { return nil }
        if firstFrameAt == nil { firstFrameAt = monotonicNanoseconds() }
        return "\u{1B}[H" + TerminalImage.halfBlocks(Picture(width: columns, height: rows * 2, rgb: frame.data), lineEnd: "\r\n")
    }
}

/// A video shown in a window (SDL2), its pictures following the playback clock; the window's keys
/// drive the player and closing it dismisses the playback.
final class WindowVideo {
    let frames: VideoFrames
    let window: VideoWindow
    private(set) var firstFrameAt: UInt64?

    init(path: String, title: String) throws {
        let size = try Picture.size(of: path)
        let width = size.width & ~1, height = size.height & ~1
        frames = try VideoFrames(path: path, width: width, height: height, rgb: false)
        window = try VideoWindow(title: "cravey — \(title)", width: width, height: height)
    }

    /// Handles the window's events and shows the frame due now.
    func update(_ player: any Playback) {
        while let event = window.poll() {
            switch event {
            case .close, .quit: player.dismiss()
            case .pause: player.togglePause()
            case .back: player.skip(-15)
            case .forward: player.skip(15)
            }
        }
        if let frame = try? frames.frame(at: player.position) {
            window.show(frame.data)
            if firstFrameAt == nil { firstFrameAt = monotonicNanoseconds() }
        }
    }
}
