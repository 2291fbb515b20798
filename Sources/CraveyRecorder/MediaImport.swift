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
                return "\(path) lasts \(Int(seconds) / 60):" + String(format: "%04.1f", seconds.truncatingRemainder(dividingBy: 60))
                    + "; messages are at most 2:00 (use --trim to keep the first 2:00)"
            case let .notRegularFile(path):
                return "\(path) is not a regular file (a pipe, device or directory cannot be imported)"
            case let .tooSlow(path):
                return "\(path) is not an audio or video file cravey can read (its headers take too long to read)"
            case let .truncated(path, expected, got):
                return "\(path) is damaged or cut short: it says \(String(format: "%.1f", expected)) s but only \(String(format: "%.1f", got)) s decode"
            }
        }
    }

    /// Imports `path`; with `trim`, keeps only the first 120 seconds of a longer file.
    public static func importFile(_ path: String, into library: Library, draft: Library.Draft, trim: Bool) throws -> Recording {
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
        // Encoders pad the last frame (an MP3 of 2:00 says 120.03 s): up to 0.1 s over is 2:00.
        if info.duration > Validation.maxDuration + 0.1 && !trim { throw Failure.tooLong(path, info.duration) }
        if isVideo { return try importVideo(path, info: info, into: library, draft: draft) }

        // An import needs no crash recovery (the source is still there), so it writes the regular
        // file directly: no fragmented file to remux afterwards.
        let id = UUID()
        let final = try library.stage(.final, id: id, kind: .audio)
        var saved = false
        defer { if !saved { library.discard(final) } }
        let decoder = try AudioDecoder(path: path, floats: true)
        let writer = try MediaWriter(audioPath: final.path, sampleRate: decoder.sampleRate, fragmented: false)
        var waveform = WaveformBuilder(sampleRate: decoder.sampleRate)
        let limit = Int(Validation.maxDuration) * decoder.sampleRate
        var total = 0
        while total < limit {
            let samples = try decoder.readFloats(frames: min(4800, limit - total))
            if samples.isEmpty { break }
            try writer.write(samples)
            waveform.add(samples)
            total += samples.count
        }
        guard total > 0 else { throw Failure.notMedia(path) }
        let decoded = Double(total) / Double(decoder.sampleRate)
        let expected = min(info.duration, Validation.maxDuration)
        if decoded < expected * 0.9 - 0.1 { throw Failure.truncated(path, expected: info.duration, got: decoded) }
        try writer.finish()
        let result = try MediaFile.probe(final.path)
        saved = true  // from here the library's save consumes the staged file, whatever happens
        return try library.save(final, kind: .audio, draft: titled(draft, path), duration: result.duration,
                                media: MediaFacts(result, waveform: waveform.finish()),
                                id: id)
    }

    /// The draft, titled after the file when it has no title.
    static func titled(_ draft: Library.Draft, _ path: String) -> Library.Draft {
        var details = draft
        if details.title == nil {
            let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            details.title = String(name.filter { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }.prefix(40))
        }
        return details
    }

    /// A video: frames decoded at their own size (the writer scales to at most 1280×720) and
    /// written at their own times, the sound interleaved by time, both cut at 120 s.
    static func importVideo(_ path: String, info: MediaInfo, into library: Library, draft: Library.Draft) throws -> Recording {
        let id = UUID()
        let final = try library.stage(.final, id: id, kind: .video)
        var saved = false
        defer { if !saved { library.discard(final) } }
        let video = try VideoDecoder(path: path, rgb: false)
        let audio = info.audioCodec != nil ? try AudioDecoder(path: path, floats: true) : nil
        let size = VideoSize.fitting(width: video.width, height: video.height)
        let fps = Int((video.fps ?? info.fps ?? 30).rounded())
        let writer = try MediaWriter(videoPath: final.path, inputWidth: video.width, inputHeight: video.height, size: size,
                                     fps: min(60, max(1, fps)), sampleRate: audio?.sampleRate, fragmented: false)
        var waveform = WaveformBuilder(sampleRate: audio?.sampleRate ?? 48_000)
        let limit = Validation.maxDuration
        var samples = 0
        var soundEnded = audio == nil
        var frame = [UInt8]()
        var lastPicture = 0.0
        // A picture lasts until the next: the last one until one frame later (at 2 fps, 0.5 s).
        let frameDuration = 1 / Double(min(60, max(1, fps)))
        /// Writes sound up to `seconds` (the time of the next picture), so the two stay interleaved.
        func writeSound(until seconds: Double) throws {
            guard let audio, !soundEnded else { return }
            let target = Int(min(seconds, limit) * Double(audio.sampleRate))
            while samples < target {
                let floats = try audio.readFloats(frames: min(4800, target - samples))
                if floats.isEmpty { soundEnded = true; return }
                try writer.write(floats)
                waveform.add(floats)
                samples += floats.count
            }
        }
        while let pts = try video.next(into: &frame) {
            if pts >= limit { break }
            try writeSound(until: pts)
            try writer.writeVideo(frame, at: Int64((max(0, pts) * 1_000_000).rounded()))
            lastPicture = pts
        }
        try writeSound(until: limit)
        guard writer.videoFramesWritten > 0 else { throw Failure.notMedia(path) }
        let decoded = max(lastPicture + frameDuration, Double(samples) / Double(audio?.sampleRate ?? 48_000))
        let expected = min(info.duration, limit)
        if decoded < expected * 0.9 - 0.2 { throw Failure.truncated(path, expected: info.duration, got: decoded) }
        try writer.finish()
        let result = try MediaFile.probe(final.path)
        let thumbnail = library.stageThumbnail(of: final.path, id: id)
        saved = true  // from here the library's save consumes the staged files, whatever happens
        return try library.save(final, thumbnail: thumbnail, kind: .video, draft: titled(draft, path),
                                duration: min(result.duration, limit),
                                media: MediaFacts(result, waveform: audio != nil ? waveform.finish() : []),
                                id: id)
    }
}
