import CraveyMedia
import FoundationEssentials
import Glibc

/// Where a video's pictures go while it plays.
public enum PictureOutput: Sendable, Equatable {
    case window, terminal, none

    /// One rule for `cravey play` and the recording preview: a window where there is a display;
    /// else the terminal itself, when output goes to one; else nowhere (the sound only).
    public static func choose(displayAvailable: Bool = VideoWindow.displayAvailable, outputIsTerminal: Bool)
        -> PictureOutput
    {
        displayAvailable ? .window : outputIsTerminal ? .terminal : .none
    }
}

/// The clock a playback follows, one rule for `cravey play` and the recording preview: the sound
/// at the speaker when the file has sound, else (a silent video) a clock of its own.
/// Whether the file has sound is handed down (the library's row or the take knows it), so the file
/// is opened once, by the sound's decoder.
public enum Player {
    public static func open(
        path: String, duration: Double, hasSound: Bool, speaker: String, level: PlaybackLevel? = nil,
        stopping: () -> Bool = { false }
    ) throws -> any Playback {
        hasSound
            ? try AudioPlayer(path: path, duration: duration, speaker: speaker, level: level, stopping: stopping)
            : SilentPlayer(duration: duration)
    }
}

/// A video shown in a window (SDL2), its pictures following the playback clock; the window's keys
/// drive the player and closing it dismisses the playback.
public final class WindowVideo {
    public let frames: VideoFrames
    let window: VideoWindow
    public private(set) var firstFrameAt: UInt64?

    public init(path: String, title: String) throws {
        let size = try Picture.size(of: path)
        let width = size.width & ~1, height = size.height & ~1
        frames = try VideoFrames(path: path, width: width, height: height, rgb: false)
        window = try VideoWindow(title: "cravey — \(title)", width: width, height: height)
    }

    /// Handles the window's events and shows the frame due now.
    public func update(_ player: any Playback) {
        while let event = window.poll() {
            switch event {
            case .close: player.dismiss()
            case let .key(key): PlayerKey(window: key)?.apply(to: player)
            }
        }
        if let frame = try? frames.frame(at: player.position) {
            window.show(frame.data)
            if firstFrameAt == nil { firstFrameAt = monotonicNanoseconds() }
        }
    }
}

/// A video's pictures sized for a terminal of `terminalRows`×`terminalColumns` cells (two picture
/// rows per cell, which keeps pixels square; four rows left for the status lines), handed out by
/// the playback clock.
public final class TerminalPictures {
    public let frames: VideoFrames
    public let columns: Int
    /// Terminal rows the picture takes.
    public let rows: Int
    public private(set) var firstFrameAt: UInt64?

    public init(path: String, terminalRows: Int, terminalColumns: Int) throws {
        let size = try Picture.size(of: path)
        let aspect = Double(size.width) / Double(max(1, size.height))
        let maxRows = max(8, terminalRows) - 5
        let columns = max(8, min(max(16, terminalColumns), Int(Double(maxRows * 2) * aspect)))
        rows = max(2, Int((Double(columns) / aspect / 2).rounded()))
        self.columns = columns
        frames = try VideoFrames(path: path, width: columns, height: rows * 2, rgb: true)
    }

    /// The picture due at `position`, or nil when the one already shown is still current.
    public func picture(at position: Double) -> Picture? {
        guard let frame = try? frames.frame(at: position) else { return nil }
        if firstFrameAt == nil { firstFrameAt = monotonicNanoseconds() }
        return Picture(width: columns, height: rows * 2, rgb: frame.data)
    }
}
