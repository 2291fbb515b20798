internal import CALSA
internal import CFFmpeg
import Foundation

/// A failure in the media layer, carrying the C library's own message (like swift-system's Errno).
public struct MediaError: Error, Equatable, CustomStringConvertible {
    public enum Source: Sendable, Equatable { case alsa, ffmpeg, system }

    public let source: Source
    /// The negative error code the C call returned.
    public let code: Int32
    /// What cravey was doing, e.g. "open microphone 'default'".
    public let operation: String
    /// The library's message for `code`.
    public let message: String

    public var description: String { "\(operation): \(message)" }

    /// The errno value behind the code (ALSA and FFmpeg both return negative errno values).
    public var errno: Int32 { -code }

    public var isBusy: Bool { code == -EBUSY || code == CFFmpeg_AVERROR(EBUSY) }
    /// The device went away (unplugged, driver gone): the stream ended, what came before is good.
    public var isDeviceGone: Bool { [-ENODEV, -EBADFD, -EIO, -ENXIO].contains(code) }

    static func alsa(_ code: Int32, _ operation: String) -> MediaError {
        MediaError(source: .alsa, code: code, operation: operation, message: String(cString: CALSA_strerror(code)))
    }

    static func system(_ code: Int32, _ operation: String) -> MediaError {
        MediaError(source: .system, code: code, operation: operation, message: String(cString: strerror(-code)))
    }

    static func ffmpeg(_ code: Int32, _ operation: String) -> MediaError {
        var buffer = [CChar](repeating: 0, count: 256)
        CFFmpeg_strerror(code, &buffer, buffer.count)
        return MediaError(source: .ffmpeg, code: code, operation: operation,
                          message: String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Opening the file took longer than the shim allows (a crafted file that makes a demuxer crawl).
    public var isTimedOut: Bool { source == .ffmpeg && code == CFFmpeg_AVERROR(ETIMEDOUT) }

    /// FFmpeg's "Invalid data found when processing input": not media, or nothing playable.
    public var isInvalidData: Bool { source == .ffmpeg && code == CFFmpeg_AVERROR_INVALIDDATA }
}
