import CraveyLibrary
import CraveyMedia
import Foundation

/// Brings an existing audio or video file (a phone voice memo, another recorder's clip) into the
/// library: decoded with FFmpeg, re-encoded through the same writer as a recording (AAC in .m4a, or
/// H.264 + AAC in .mov at most 1280×720 with a thumbnail), with its waveform, and saved atomically.
/// Anything that is not playable media is refused with nothing left behind.
public enum MediaImport {
    public enum Failure: Error, CustomStringConvertible {
        case notMedia(String)
        case missing(String)
        case noSound(String)
        case tooLong(String, Double)
        case truncated(String, expected: Double, got: Double)
        case notRegularFile(String)
        case tooSlow(String)

        public var description: String {
            switch self {
            case let .notMedia(path): return "\(path) is not an audio or video file cravey can read"
            case let .missing(path): return "\(path): no such file"
            case let .noSound(path): return "\(path) has no sound to import"
            case let .tooLong(path, seconds):
                return "\(path) lasts \(Int(seconds) / 60):"
                    + String(format: "%04.1f", seconds.truncatingRemainder(dividingBy: 60))
                    + "; messages are at most 2:00"
            case let .notRegularFile(path):
                return "\(path) is not a regular file (a pipe, device or directory cannot be imported)"
            case let .tooSlow(path):
                return "\(path) is not an audio or video file cravey can read (its headers take too long to read)"
            case let .truncated(path, expected, got):
                return
                    "\(path) is damaged or cut short: it says \(String(format: "%.1f", expected)) s but only \(String(format: "%.1f", got)) s decode"
            }
        }
    }

    /// Imports `path`; with `trim`, keeps only the first 120 seconds of a longer file; with
    /// `trimSilence`, leaves out the silence at both ends (see `SoundAnalysis.speechSpan`). The
    /// recording is made at `now` (the caller's clock).
    public static func importFile(
        _ path: String, into library: Library, draft: Library.Draft, trim: Bool,
        trimSilence: Bool = false, now: Date
    ) throws -> Recording {
        // Only local regular files: a FIFO would block, a device never end (the FFmpeg shim refuses
        // them too, and never opens anything but a local file).
        var status = stat()
        guard stat(path, &status) == 0 else { throw Failure.missing(path) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw Failure.notRegularFile(path) }
        let info: MediaInfo
        do {
            info = try MediaFile.probe(path)
        } catch let error as MediaError where error.kind == .timedOut {
            throw Failure.tooSlow(path)
        } catch let error as MediaError where error.kind == .invalidData {
            throw Failure.notMedia(path)
        } catch let error as MediaError {
            throw error.kind == .missing ? Failure.missing(path) : Failure.notMedia(path)
        }
        // A still picture in an audio file (cover art) does not make it a video: the probe skips
        // attached pictures, and a single JPEG/PNG frame has no frame rate. Motion JPEG (an AVI
        // from an old camera) has one, and is a video.
        let isVideo = info.videoCodec.map { !["mjpeg", "png"].contains($0) || (info.fps ?? 0) >= 1 } ?? false
        guard info.audioCodec != nil || isVideo else { throw Failure.noSound(path) }
        guard info.duration > 0 else { throw Failure.notMedia(path) }
        var span = MediaSpan(start: 0, end: info.duration)
        if trimSilence, info.audioCodec != nil,
            let speech = try? SoundAnalysis(file: path, playbackGain: false).speechSpan()
        {
            span = speech
        }
        // Encoders pad the last frame (an MP3 of 2:00 says 120.03 s): up to 0.1 s over is 2:00.
        if span.length > Validation.maxDuration + 0.1 && !trim { throw Failure.tooLong(path, span.length) }
        span.end = min(span.end, span.start + Validation.maxDuration)

        let id = UUID()
        let kind: Recording.Kind = isVideo ? .video : .audio
        let final = try library.stage(.final, id: id, kind: kind)
        var saved = false
        defer { if !saved { library.discard(final) } }
        let encoded =
            isVideo
            ? try MediaTranscode.video(from: path, info: info, span: span, to: final.path)
            : try MediaTranscode.audio(from: path, span: span, to: final.path)
        guard encoded.seconds > 0, !isVideo || encoded.frames > 0 else { throw Failure.notMedia(path) }
        if encoded.seconds < span.length * 0.9 - (isVideo ? 0.2 : 0.1) {
            throw Failure.truncated(path, expected: info.duration, got: encoded.seconds)
        }
        let result = try MediaFile.probe(final.path)
        let thumbnail = isVideo ? library.stageThumbnail(of: final.path, id: id) : nil
        saved = true  // from here the library's save consumes the staged files, whatever happens
        return try library.save(
            final, thumbnail: thumbnail, kind: kind, draft: titled(draft, path),
            duration: min(result.duration, Validation.maxDuration),
            media: MediaFacts(result, waveform: encoded.waveform, loudness: encoded.loudness),
            id: id, createdAt: now)
    }

    /// The draft, titled after the file when it has no title.
    static func titled(_ draft: Library.Draft, _ path: String) -> Library.Draft {
        var details = draft
        if details.title == nil {
            let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            details.title = Validation.automaticTitle(from: name)
        }
        return details
    }
}
