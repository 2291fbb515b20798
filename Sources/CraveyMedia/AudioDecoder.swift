internal import CFFmpeg
import FoundationEssentials
import Glibc

/// A media file's audio, decoded and resampled to interleaved 16-bit samples (for a speaker), or
/// to floats (`floats: true`, for the encoder: no 16-bit step in between).
public final class AudioDecoder {
    private let decoder: OpaquePointer
    public let sampleRate: Int
    public let channels: Int
    public let floats: Bool

    public init(path: String, sampleRate: Int = 48_000, channels: Int = 1, floats: Bool = false) throws {
        try SharedLibrary.ffmpeg.load()
        var pointer: OpaquePointer?
        self.floats = floats
        let result = CFFmpeg_decoder_open(path, Int32(sampleRate), Int32(channels), floats ? 1 : 0, &pointer)
        guard result == 0, let pointer else { throw MediaError.ffmpeg(result, "decode \(path)") }
        decoder = pointer
        self.sampleRate = sampleRate
        self.channels = channels
    }

    deinit { CFFmpeg_decoder_free(decoder) }

    /// Up to `frames` frames of floats (a decoder opened with `floats`); empty at the end.
    public func readFloats(frames: Int) throws -> [Float] {
        precondition(floats, "opened for 16-bit samples")
        var buffer = [Float](repeating: 0, count: frames * channels)
        let n = buffer.withUnsafeMutableBufferPointer { CFFmpeg_decoder_read(decoder, $0.baseAddress, Int32(frames)) }
        guard n >= 0 else { throw MediaError.ffmpeg(n, "decode audio") }
        buffer.removeLast(buffer.count - Int(n) * channels)
        return buffer
    }

    /// Up to `frames` frames; empty at the end.
    public func read(frames: Int) throws -> [Int16] {
        precondition(!floats, "opened for floats")
        var buffer = [Int16](repeating: 0, count: frames * channels)
        let n = buffer.withUnsafeMutableBufferPointer { CFFmpeg_decoder_read(decoder, $0.baseAddress, Int32(frames)) }
        guard n >= 0 else { throw MediaError.ffmpeg(n, "decode audio") }
        buffer.removeLast(buffer.count - Int(n) * channels)
        return buffer
    }

    /// Moves to `seconds`, exact to the sample.
    public func seek(to seconds: Double) throws {
        let result = CFFmpeg_decoder_seek(decoder, seconds)
        guard result == 0 else { throw MediaError.ffmpeg(result, "seek") }
    }

    /// Samples (per channel) from the start to the next one `read` returns.
    public var position: Int { Int(CFFmpeg_decoder_position(decoder)) }

    /// Also catches the video's picture shown at `seconds` while the sound is read (before the
    /// first read), for `writePicture`: the thumbnail of a video then needs no second opening.
    public func catchPicture(at seconds: Double) throws {
        let result = CFFmpeg_decoder_catch_picture(decoder, seconds)
        guard result == 0 else { throw MediaError.ffmpeg(result, "decode a picture") }
    }

    /// Writes the caught picture (the last one of a shorter video) `width` pixels wide as a JPEG;
    /// call once the sound has been read to its end.
    public func writePicture(width: Int = 320, to jpeg: String) throws {
        let result = CFFmpeg_decoder_write_picture(decoder, Int32(width), jpeg)
        guard result == 0 else { throw MediaError.ffmpeg(result, "make a thumbnail") }
    }
}
