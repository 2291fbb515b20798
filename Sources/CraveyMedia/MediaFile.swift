internal import CFFmpeg
import FoundationEssentials
import Glibc

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
        try SharedLibrary.ffmpeg.load()
        var info = CFFmpeg_probe_info()
        let result = CFFmpeg_probe(path, &info)
        guard result == 0 else { throw MediaError.ffmpeg(result, "read \(path)") }
        return MediaInfo(info)
    }

    /// Copies a (fragmented, possibly truncated) file into a regular one at `output`, keeping every
    /// complete packet. Returns how many packets were kept and the facts of the file written (what
    /// a probe of it reads, told from what was written); throws `.invalidData` when nothing was kept.
    @discardableResult
    public static func remux(_ input: String, to output: String) throws -> (packets: Int, info: MediaInfo) {
        try SharedLibrary.ffmpeg.load()
        var packets: Int64 = 0
        var info = CFFmpeg_probe_info()
        let result = CFFmpeg_remux(input, output, aacPriming, &packets, &info)
        guard result == 0 else { throw MediaError.ffmpeg(result, "finalize \(input)") }
        return (Int(packets), MediaInfo(info))
    }
}

extension MediaFile {
    /// Copies the finished file `input` to `output` packet for packet (timestamps and edit lists
    /// unchanged) with `tags` as its file-level tags in place of the ones it had. Returns how many
    /// packets were copied; a damaged or truncated input is refused.
    @discardableResult
    public static func retag(_ input: String, to output: String, tags: [(key: String, value: String)]) throws -> Int {
        try SharedLibrary.ffmpeg.load()
        var packets: Int64 = 0
        let keys = tags.map { strdup($0.key)! }
        let values = tags.map { strdup($0.value)! }
        defer { (keys + values).forEach { free($0) } }
        let result = keys.map { UnsafePointer($0) }.withUnsafeBufferPointer { keyPointers in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valuePointers in
                CFFmpeg_retag(
                    input, output, keyPointers.baseAddress, valuePointers.baseAddress, Int32(tags.count), &packets)
            }
        }
        guard result == 0 else { throw MediaError.ffmpeg(result, "write the details into \(input)") }
        return Int(packets)
    }

    /// One file-level tag of `path` (nil when the file has none by that name).
    public static func tag(_ key: String, of path: String) throws -> String? {
        try SharedLibrary.ffmpeg.load()
        var value: UnsafeMutablePointer<CChar>?
        let result = CFFmpeg_read_tag(path, key, &value)
        guard result == 0 else { throw MediaError.ffmpeg(result, "read \(path)") }
        defer { CFFmpeg_free(value) }
        return value.map { String(cString: $0) }
    }
}

extension MediaInfo {
    init(_ info: CFFmpeg_probe_info) {
        func text<T>(_ tuple: T) -> String {
            withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        self.init(
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
}

/// Thumbnails of video files.
public enum Thumbnailer {
    /// Writes the frame shown at `seconds` (the last frame of a shorter video) as a JPEG `width`
    /// pixels wide, keeping the aspect ratio.
    public static func make(from video: String, at seconds: Double = 1.0, width: Int = 320, to jpeg: String) throws {
        try SharedLibrary.ffmpeg.load()
        let result = CFFmpeg_thumbnail(video, seconds, Int32(width), jpeg)
        guard result == 0 else { throw MediaError.ffmpeg(result, "make a thumbnail of \(video)") }
    }
}
