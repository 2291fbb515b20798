internal import CFFmpeg
import FoundationEssentials
import Glibc

/// A media file's pictures, decoded and scaled to the size and layout the caller draws (RGB24) or
/// encodes (yuv420p), with frame-exact seeking. Not thread-safe: one reader at a time.
public final class VideoDecoder {
    private let decoder: OpaquePointer
    public let width: Int
    public let height: Int
    public let rgb: Bool
    /// The stream's average frame rate (nil when the file does not say).
    public let fps: Double?
    /// Bytes of one delivered frame.
    public var frameBytes: Int { (rgb ? PixelLayout.rgb24 : .yuv420p).bytes(width: width, height: height) }

    /// Opens the first video stream of `path`, delivered at `width`×`height` (nil: its own size).
    public init(path: String, width: Int? = nil, height: Int? = nil, rgb: Bool) throws {
        try SharedLibrary.ffmpeg.load()
        var pointer: OpaquePointer?
        let result = CFFmpeg_video_decoder_open(path, Int32(width ?? 0), Int32(height ?? 0), rgb ? 1 : 0, &pointer)
        guard result == 0, let pointer else { throw MediaError.ffmpeg(result, "decode video of \(path)") }
        decoder = pointer
        var w: Int32 = 0, h: Int32 = 0
        CFFmpeg_video_decoder_size(pointer, &w, &h)
        self.width = Int(w)
        self.height = Int(h)
        self.rgb = rgb
        let rate = CFFmpeg_video_decoder_fps(pointer)
        fps = rate > 0 ? rate : nil
    }

    deinit { CFFmpeg_video_decoder_free(decoder) }

    /// Decodes the next frame into `buffer` (resized to `frameBytes`) and returns its presentation
    /// time in seconds; nil at the end.
    public func next(into buffer: inout [UInt8]) throws -> Double? {
        if buffer.count != frameBytes { buffer = [UInt8](repeating: 0, count: frameBytes) }
        var pts = 0.0
        let result = buffer.withUnsafeMutableBufferPointer {
            CFFmpeg_video_decoder_read(decoder, $0.baseAddress, Int64($0.count), &pts)
        }
        guard result >= 0 else { throw MediaError.ffmpeg(result, "decode video") }
        return result == 0 ? nil : pts
    }

    /// Moves so that the next frame is the one shown at `seconds`.
    public func seek(to seconds: Double) throws {
        let result = CFFmpeg_video_decoder_seek(decoder, seconds)
        guard result == 0 else { throw MediaError.ffmpeg(result, "seek video") }
    }
}
