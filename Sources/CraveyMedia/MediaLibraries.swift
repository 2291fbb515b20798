internal import CALSA
internal import CEBUR128
internal import CFFmpeg
internal import CV4L2
import Foundation

/// The media libraries open on first use (a command that only reads the library never loads
/// them). A recording opens them before its devices start: opening FFmpeg's hundred-odd shared
/// objects takes a moment (seconds on an emulated CPU), during which a camera that is already
/// streaming would fill its buffers and drop frames.
public enum MediaLibraries {
    /// Opens what a recording uses: ALSA, V4L2 (for a video), FFmpeg and libebur128. Throws, with
    /// the loader's reason, when one of them is missing or broken.
    public static func openForRecording(video: Bool) throws {
        var shims: [(String, () -> Int32, () -> UnsafePointer<CChar>?)] = [
            ("ALSA", CALSA_load, CALSA_load_error), ("FFmpeg", CFFmpeg_load, CFFmpeg_load_error),
            ("libebur128", CEBUR128_load, CEBUR128_load_error),
        ]
        if video { shims.append(("libv4l2", CV4L2_load, CV4L2_load_error)) }
        for (what, load, error) in shims {
            let result = load()
            guard result == 0 else {
                throw MediaError(source: .system, code: result, operation: "load \(what)",
                                 message: error().map { String(cString: $0) } ?? "missing")
            }
        }
    }
}
