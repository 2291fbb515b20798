internal import CFFmpeg
import FoundationEssentials
import Glibc

/// Encodes samples to AAC in an MP4-family file (.m4a), and frames to H.264 beside them (.mov).
///
/// While recording, the file is a fragmented MP4 (about one fragment a second), so a crash loses
/// at most the last fragment; `MediaFile.remux` turns it into a regular file afterwards.
public final class MediaWriter {
    private var writer: OpaquePointer?
    public let path: String
    public let sampleRate: Int
    private let inputFrameBytes: Int
    private let channels: Int

    public init(audioPath path: String, sampleRate: Int, channels: Int = 1, fragmented: Bool = true) throws {
        try SharedLibrary.ffmpeg.load()
        var pointer: OpaquePointer?
        let bitRate = channels == 1 ? 96_000 : 160_000
        let result = CFFmpeg_writer_open_audio(
            path, Int32(sampleRate), Int32(channels), Int32(bitRate), fragmented ? 1 : 0, &pointer)
        guard result == 0 else { throw MediaError.ffmpeg(result, "start writing \(path)") }
        writer = pointer
        self.path = path
        self.sampleRate = sampleRate
        self.channels = channels
        inputFrameBytes = 0
    }

    /// Opens `path` for H.264 video from `inputWidth`×`inputHeight` yuv420p frames, written at
    /// `size` (at most 1280×720: `VideoSize.fitting` picks it), with AAC audio at `sampleRate`
    /// unless that is nil (a silent video).
    public init(
        videoPath path: String, inputWidth: Int, inputHeight: Int, inputIsYUYV: Bool = false, size: VideoSize, fps: Int,
        sampleRate: Int?, encoder: VideoEncoderSettings = .default, fragmented: Bool = true
    ) throws {
        try SharedLibrary.ffmpeg.load()
        var config = CFFmpeg_video_config()
        config.in_yuyv = inputIsYUYV ? 1 : 0
        config.in_width = Int32(inputWidth)
        config.in_height = Int32(inputHeight)
        config.width = Int32(size.width)
        config.height = Int32(size.height)
        config.fps = Int32(max(1, fps))
        config.crf = Int32(encoder.crf)
        config.threads = Int32(encoder.threads)
        config.sample_rate = Int32(sampleRate ?? 0)
        config.channels = 1
        config.audio_bit_rate = 96_000
        var pointer: OpaquePointer?
        let result = encoder.preset.withCString { preset in
            encoder.x264Params.withCString { params in
                config.preset = preset
                config.x264_params = params
                return CFFmpeg_writer_open_video(path, &config, fragmented ? 1 : 0, &pointer)
            }
        }
        guard result == 0 else { throw MediaError.ffmpeg(result, "start writing \(path)") }
        writer = pointer
        self.path = path
        self.sampleRate = sampleRate ?? 0
        channels = 1
        inputFrameBytes = (inputIsYUYV ? PixelLayout.yuyv : .yuv420p).bytes(width: inputWidth, height: inputHeight)
    }

    deinit { CFFmpeg_writer_free(writer) }

    /// Encodes one frame (yuv420p, or YUYV when opened so) shown at `microseconds` from the start (from the camera's clock;
    /// a frame not later than the previous one is skipped).
    public func writeVideo(_ frame: [UInt8], at microseconds: Int64) throws {
        try frame.withUnsafeBytes { try writeVideo($0, at: microseconds) }
    }

    /// The same, from memory the caller owns (no copy).
    public func writeVideo(_ frame: UnsafeRawBufferPointer, at microseconds: Int64) throws {
        guard frame.count >= inputFrameBytes else {
            throw MediaError(
                source: .ffmpeg, code: -EINVAL, operation: "encode video",
                message: "a frame of \(frame.count) bytes is shorter than \(inputFrameBytes)")
        }
        let result = CFFmpeg_writer_write_video(writer, frame.baseAddress, Int64(frame.count), microseconds)
        guard result == 0 else { throw MediaError.ffmpeg(result, "encode video") }
    }

    /// Video frames encoded so far.
    public var videoFramesWritten: Int { Int(CFFmpeg_writer_video_frames(writer)) }

    /// Encodes mono float samples.
    public func write<C: Collection>(_ samples: C) throws where C.Element == Float {
        let result =
            samples.withContiguousStorageIfAvailable { buffer in
                CFFmpeg_writer_write_audio(writer, buffer.baseAddress, Int32(buffer.count))
            }
            ?? Array(samples).withUnsafeBufferPointer {
                CFFmpeg_writer_write_audio(writer, $0.baseAddress, Int32($0.count))
            }
        guard result == 0 else { throw MediaError.ffmpeg(result, "encode audio") }
    }

    /// Encodes a whole sound at once on `threads` threads (stretches encoded side by side and written
    /// in order, as one encoder writes them): for an import, whose sound is all there before it is
    /// encoded. Only on an audio writer that has been given nothing yet; then `finish`.
    public func writeAll(_ samples: [Float], threads: Int) throws {
        let frames = Int64(samples.count / max(1, channels))
        let result = samples.withUnsafeBufferPointer {
            CFFmpeg_writer_write_audio_parallel(writer, $0.baseAddress, frames, Int32(threads))
        }
        guard result == 0 else { throw MediaError.ffmpeg(result, "encode audio") }
    }

    /// Pushes buffered bytes to the file (fsync the file afterwards to make them durable).
    public func flush() throws {
        let result = CFFmpeg_writer_flush(writer)
        guard result == 0 else { throw MediaError.ffmpeg(result, "write \(path)") }
    }

    /// Samples written so far.
    public var samplesWritten: Int { Int(CFFmpeg_writer_samples(writer)) }

    /// Drains the encoder and closes the file.
    public func finish() throws {
        let result = CFFmpeg_writer_finish(writer)
        guard result == 0 else { throw MediaError.ffmpeg(result, "finish \(path)") }
    }
}
