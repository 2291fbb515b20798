internal import CFFmpeg
import Foundation

/// Encodes samples to AAC in an MP4-family file (.m4a), and frames to H.264 beside them (.mov).
///
/// While recording, the file is a fragmented MP4 (about one fragment a second), so a crash loses
/// at most the last fragment; `MediaFile.remux` turns it into a regular file afterwards.
public final class MediaWriter: @unchecked Sendable {
    private var writer: OpaquePointer?
    public let path: String
    public let sampleRate: Int
    private let inputFrameBytes: Int

    public init(audioPath path: String, sampleRate: Int, channels: Int = 1, fragmented: Bool = true) throws {
        var pointer: OpaquePointer?
        let bitRate = channels == 1 ? 96_000 : 160_000
        let result = CFFmpeg_writer_open_audio(path, Int32(sampleRate), Int32(channels), Int32(bitRate), fragmented ? 1 : 0, &pointer)
        guard result == 0 else { throw MediaError.ffmpeg(result, "start writing \(path)") }
        writer = pointer
        self.path = path
        self.sampleRate = sampleRate
        inputFrameBytes = 0
    }

    /// Opens `path` for H.264 video from `inputWidth`×`inputHeight` yuv420p frames, written at
    /// `size` (at most 1280×720: `VideoSize.fitting` picks it), with AAC audio at `sampleRate`
    /// unless that is nil (a silent video).
    public init(videoPath path: String, inputWidth: Int, inputHeight: Int, inputIsYUYV: Bool = false, size: VideoSize, fps: Int,
                sampleRate: Int?, encoder: VideoEncoderSettings = .default, fragmented: Bool = true) throws {
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
            throw MediaError(source: .ffmpeg, code: -EINVAL, operation: "encode video",
                             message: "a frame of \(frame.count) bytes is shorter than \(inputFrameBytes)")
        }
        let result = CFFmpeg_writer_write_video(writer, frame.baseAddress, Int64(frame.count), microseconds)
        guard result == 0 else { throw MediaError.ffmpeg(result, "encode video") }
    }

    /// Video frames encoded so far.
    public var videoFramesWritten: Int { Int(CFFmpeg_writer_video_frames(writer)) }

    /// Encodes mono float samples.
    public func write<C: Collection>(_ samples: C) throws where C.Element == Float {
        let result = samples.withContiguousStorageIfAvailable { buffer in
            CFFmpeg_writer_write_audio(writer, buffer.baseAddress, Int32(buffer.count))
        } ?? Array(samples).withUnsafeBufferPointer { CFFmpeg_writer_write_audio(writer, $0.baseAddress, Int32($0.count)) }
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

/// How a frame's pixels are laid out in memory, always tightly packed.
public enum PixelLayout: Sendable {
    /// Y, then U, then V; chroma planes of ⌈w/2⌉×⌈h/2⌉.
    case yuv420p
    case rgb24
    /// Packed 4:2:2 as many webcams deliver it.
    case yuyv

    /// Bytes of one `width`×`height` frame, as FFmpeg lays it out (odd sides included); 0 for an
    /// impossible size.
    public func bytes(width: Int, height: Int) -> Int {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else { return 0 }
        let layout = switch self {
        case .yuv420p: CFFmpeg_PIXELS_YUV420P
        case .rgb24: CFFmpeg_PIXELS_RGB24
        case .yuyv: CFFmpeg_PIXELS_YUYV
        }
        return max(0, Int(CFFmpeg_frame_bytes(layout, Int32(width), Int32(height))))
    }
}

/// A video frame size.
public struct VideoSize: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }

    /// `width`×`height` scaled down, keeping the aspect ratio, to fit 1280×720 (even sides, as
    /// H.264 wants); unchanged when it fits.
    public static func fitting(width: Int, height: Int, maxWidth: Int = 1280, maxHeight: Int = 720) -> VideoSize {
        let scale = min(1, min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height)))
        func even(_ v: Double) -> Int { max(2, Int(v.rounded()) & ~1) }
        return VideoSize(width: even(Double(width) * scale), height: even(Double(height) * scale))
    }
}

/// x264 settings. The defaults were measured with Tests/bench/video.sh on a 2-core machine: veryfast
/// encodes 720p30 at about 10× real time using 0.17 CPU-s per second; two frame threads use both
/// cores without the third thread x264 would add; a 5-frame lookahead instead of 10 saves about
/// 20 MB at 720p for a file 0.7 % smaller or larger (no lookahead at all would save 15 MB more but
/// make files 45 % larger).
public struct VideoEncoderSettings: Sendable {
    public var preset: String
    public var crf: Int
    public var threads: Int
    /// Extra x264 options ("key=value:…").
    public var x264Params: String
    public init(preset: String, crf: Int, threads: Int, x264Params: String = "") {
        self.preset = preset
        self.crf = crf
        self.threads = threads
        self.x264Params = x264Params
    }
    public static let `default` = VideoEncoderSettings(preset: "veryfast", crf: 23, threads: 2, x264Params: "rc-lookahead=5")
}

/// Thumbnails of video files.
public enum Thumbnailer {
    /// Writes the frame shown at `seconds` (the last frame of a shorter video) as a JPEG `width`
    /// pixels wide, keeping the aspect ratio.
    public static func make(from video: String, at seconds: Double = 1.0, width: Int = 320, to jpeg: String) throws {
        let result = CFFmpeg_thumbnail(video, seconds, Int32(width), jpeg)
        guard result == 0 else { throw MediaError.ffmpeg(result, "make a thumbnail of \(video)") }
    }
}

/// Facts about a media file, read from the file.
public struct MediaInfo: Sendable, Equatable {
    public var duration: Double
    public var audioCodec: String?
    public var videoCodec: String?
    public var sampleRate: Int?
    public var channels: Int?
    public var width: Int?
    public var height: Int?
    public var fps: Double?
    public var container: String
}

/// Whole-file operations: probe and remux.
public enum MediaFile {
    /// The AAC encoder's priming samples, which a fragmented file cannot mark as skipped.
    static let aacPriming: Int32 = CFFmpeg_aac_priming(48_000)

    /// Reads duration, codecs and stream facts. Throws for files that are not media.
    public static func probe(_ path: String) throws -> MediaInfo {
        var info = CFFmpeg_probe_info()
        let result = CFFmpeg_probe(path, &info)
        guard result == 0 else { throw MediaError.ffmpeg(result, "read \(path)") }
        func text<T>(_ tuple: T) -> String {
            withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return MediaInfo(
            duration: info.duration,
            audioCodec: info.has_audio != 0 ? text(info.audio_codec) : nil,
            videoCodec: info.has_video != 0 ? text(info.video_codec) : nil,
            sampleRate: info.has_audio != 0 ? Int(info.sample_rate) : nil,
            channels: info.has_audio != 0 ? Int(info.channels) : nil,
            width: info.has_video != 0 ? Int(info.width) : nil,
            height: info.has_video != 0 ? Int(info.height) : nil,
            fps: info.has_video != 0 && info.fps > 0 ? info.fps : nil,
            container: text(info.format))
    }

    /// Copies a (fragmented, possibly truncated) file into a regular one at `output`, keeping every
    /// complete packet. Returns how many packets were kept; throws `isInvalidData` when none were.
    @discardableResult
    public static func remux(_ input: String, to output: String) throws -> Int {
        var packets: Int64 = 0
        let result = CFFmpeg_remux(input, output, aacPriming, &packets)
        guard result == 0 else { throw MediaError.ffmpeg(result, "finalize \(input)") }
        return Int(packets)
    }
}
