internal import CALSA
internal import CEBUR128
internal import CFFmpeg
internal import CSDL
internal import CSphinx
internal import CV4L2
import FoundationEssentials
import Glibc

/// A system library that could not be opened (missing, or too old for a function cravey calls):
/// what it is, why, and the Debian package that installs it, in one line.
public struct MissingLibrary: Error, CustomStringConvertible {
    public let description: String
}

/// The shared libraries of the media floor, opened on first use (a command that only reads the
/// library never loads them). Every entry point of this floor loads the library it calls into
/// first, so a missing or broken one is a `MissingLibrary` error at that point, never a call into
/// an empty slot.
public enum SharedLibrary: Sendable {
    case alsa, ffmpeg, v4l2, ebur128, speech, sdl

    /// Opens the library (once; later calls are free). Throws `MissingLibrary` when it cannot.
    public func load() throws {
        let (load, message): (() -> Int32, () -> UnsafePointer<CChar>?) =
            switch self {
            case .alsa: (CALSA_load, CALSA_load_message)
            case .ffmpeg: (CFFmpeg_load, CFFmpeg_load_message)
            case .v4l2: (CV4L2_load, CV4L2_load_message)
            case .ebur128: (CEBUR128_load, CEBUR128_load_message)
            case .speech: (CSphinx_load, CSphinx_load_message)
            case .sdl: (CSDL_load, CSDL_load_message)
            }
        guard load() != 0 else { return }
        throw MissingLibrary(description: message().map { String(cString: $0) } ?? "cannot load a library")
    }
}

/// A recording opens its libraries before its devices start: opening FFmpeg's hundred-odd shared
/// objects takes a moment (seconds on an emulated CPU), during which a camera that is already
/// streaming would fill its buffers and drop frames.
public enum MediaLibraries {
    /// Opens what a recording uses: ALSA, V4L2 (for a video), FFmpeg and libebur128.
    public static func openForRecording(video: Bool) throws {
        for library in [SharedLibrary.alsa, .ffmpeg, .ebur128] + (video ? [.v4l2] : []) { try library.load() }
    }
}
