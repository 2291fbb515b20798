import CraveyMedia
import FoundationEssentials
import Glibc

/// Which picture to show now: frames are decoded in order and handed out by the playback clock
/// (the ALSA audio position), so the pictures follow the sound. When drawing falls behind (a slow
/// terminal), the frames whose time has passed are dropped, never shown late.
public final class VideoFrames {
    public let decoder: VideoDecoder
    private var pending: (pts: Double, data: [UInt8])?
    private var ended = false
    private var lastPosition = 0.0
    /// Frames handed out, and frames decoded but skipped because their time had passed.
    public private(set) var shown = 0
    public private(set) var dropped = 0

    /// Opens the video of `path` at `width`×`height`, as RGB24 (terminal) or yuv420p (window).
    public init(path: String, width: Int, height: Int, rgb: Bool) throws {
        decoder = try VideoDecoder(path: path, width: width, height: height, rgb: rgb)
    }

    /// The newest frame due at `position` seconds, or nil when the one already shown is still
    /// current. A jump in the position (a skip) seeks.
    public func frame(at position: Double) throws -> (pts: Double, data: [UInt8])? {
        if position < lastPosition - 0.2 || position > lastPosition + 1.0 {
            try decoder.seek(to: position)
            pending = nil
            ended = false
        }
        lastPosition = position
        var candidate: (pts: Double, data: [UInt8])?
        while true {
            if pending == nil && !ended { try readNext() }
            guard let next = pending, next.pts <= position + 0.005 else { break }
            if candidate != nil { dropped += 1 }
            candidate = next
            pending = nil
        }
        if candidate != nil { shown += 1 }
        return candidate
    }

    private func readNext() throws {
        var buffer = [UInt8]()
        if let pts = try decoder.next(into: &buffer) { pending = (pts, buffer) } else { ended = true }
    }
}
