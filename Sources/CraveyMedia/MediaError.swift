internal import CALSA
internal import CFFmpeg
import FoundationEssentials
import Glibc

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

    /// What kind of problem this is, named the way a user would (in the manner of swift-system's
    /// `Errno` names), so that no floor above this one compares raw codes.
    public enum Kind: Sendable, Equatable {
        /// Another program holds the device (EBUSY).
        case busy
        /// No such device or file (ENOENT).
        case missing
        /// This user may not open it (EACCES, EPERM).
        case permission
        /// It opens but cannot capture as asked: no capture side, no usable format (EINVAL, ENOTTY).
        case cannotCapture
        /// It went away while in use: unplugged, driver gone (ENODEV, EBADFD, EIO, ENXIO).
        case gone
        /// Not media, or nothing playable in it (FFmpeg's AVERROR_INVALIDDATA).
        case invalidData
        /// Reading it took longer than cravey allows.
        case timedOut
        case other
    }

    public var kind: Kind {
        if source == .ffmpeg && code == CFFmpeg_AVERROR_INVALIDDATA { return .invalidData }
        switch -code {
        case EBUSY: return .busy
        case ENOENT: return .missing
        case EACCES, EPERM: return .permission
        case EINVAL, ENOTTY: return .cannotCapture
        case ENODEV, EBADFD, EIO, ENXIO: return .gone
        case ETIMEDOUT: return .timedOut
        default: return .other
        }
    }

    /// The device went away (unplugged, driver gone): the stream ended, what came before is good.
    public var isDeviceGone: Bool { kind == .gone }

    static func alsa(_ code: Int32, _ operation: String) -> MediaError {
        MediaError(source: .alsa, code: code, operation: operation, message: String(cString: CALSA_strerror(code)))
    }

    static func system(_ code: Int32, _ operation: String) -> MediaError {
        MediaError(source: .system, code: code, operation: operation, message: String(cString: strerror(-code)))
    }

    static func ffmpeg(_ code: Int32, _ operation: String) -> MediaError {
        var buffer = [CChar](repeating: 0, count: 256)
        CFFmpeg_strerror(code, &buffer, buffer.count)
        return MediaError(
            source: .ffmpeg, code: code, operation: operation,
            message: String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}

/// A camera that cannot be chosen or that stopped sending pictures: cravey's own findings, not a
/// system call's (so they carry no error code).
public enum CameraTrouble: Error, Equatable, Sendable, CustomStringConvertible {
    /// No V4L2 capture device at all.
    case noneFound
    /// No camera has that node or card name.
    case noSuchCamera(String)
    /// The camera at the path offers no mode cravey can record.
    case noUsableMode(String)
    /// Its pictures stopped decoding (the decoder's reason) for this long.
    case undecodable(path: String, format: String, seconds: Int, reason: String)
    /// It sent no picture for this long.
    case silent(path: String, seconds: Int)

    /// What was being done.
    public var operation: String {
        switch self {
        case .noneFound: return "find a camera"
        case let .noSuchCamera(key): return "find camera '\(key)'"
        case let .noUsableMode(path): return "choose a mode of \(path)"
        case let .undecodable(path, _, _, _), let .silent(path, _): return "read camera \(path)"
        }
    }

    /// What went wrong.
    public var message: String {
        switch self {
        case .noneFound: return "no camera found (no V4L2 capture device)"
        case .noSuchCamera: return "no camera has that node or name"
        case .noUsableMode: return "the camera offers no mode cravey can record"
        case let .undecodable(_, format, seconds, reason):
            return "its \(format) pictures could not be decoded for \(seconds) s (\(reason))"
        case let .silent(_, seconds): return "it sent no picture for \(seconds) s"
        }
    }

    public var description: String { "\(operation): \(message)" }
}
