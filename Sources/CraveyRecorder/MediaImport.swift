import CraveyLibrary
import CraveyMedia
import Foundation

/// Brings an existing audio file (a phone voice memo, another recorder's clip) into the library:
/// decoded with FFmpeg, re-encoded through the same writer as a recording (AAC in .m4a), with its
/// waveform, and saved atomically. Anything that is not playable audio is refused with nothing
/// left behind.
public enum MediaImport {
    public enum Failure: Error, CustomStringConvertible {
        case notMedia(String)
        case missing(String)
        case noSound(String)
        case videoNotSupported(String)
        case tooLong(String, Double)
        case truncated(String, expected: Double, got: Double)

        public var description: String {
            switch self {
            case let .notMedia(path): return "\(path) is not an audio or video file cravey can read"
            case let .missing(path): return "\(path): no such file"
            case let .noSound(path): return "\(path) has no sound to import"
            case let .videoNotSupported(path): return "\(path) is a video; importing video is not available in this version (audio files only)"
            case let .tooLong(path, seconds):
                return "\(path) lasts \(Int(seconds) / 60):" + String(format: "%04.1f", seconds.truncatingRemainder(dividingBy: 60))
                    + "; messages are at most 2:00 (use --trim to keep the first 2:00)"
            case let .truncated(path, expected, got):
                return "\(path) is damaged or cut short: it says \(String(format: "%.1f", expected)) s but only \(String(format: "%.1f", got)) s decode"
            }
        }
    }

    /// Imports `path`; with `trim`, keeps only the first 120 seconds of a longer file.
    public static func importAudio(_ path: String, into library: Library, draft: Library.Draft, trim: Bool) throws -> Recording {
        let info: MediaInfo
        do {
            info = try MediaFile.probe(path)
        } catch let error as MediaError where error.isInvalidData {
            throw Failure.notMedia(path)
        } catch let error as MediaError {
            throw error.errno == ENOENT ? Failure.missing(path) : Failure.notMedia(path)
        }
        guard info.audioCodec != nil else { throw info.videoCodec != nil ? Failure.videoNotSupported(path) : Failure.noSound(path) }
        if info.videoCodec != nil && !["mjpeg", "png"].contains(info.videoCodec!) { throw Failure.videoNotSupported(path) }
        guard info.duration > 0 else { throw Failure.notMedia(path) }
        // Encoders pad the last frame (an MP3 of 2:00 says 120.03 s): up to 0.1 s over is 2:00.
        if info.duration > Validation.maxDuration + 0.1 && !trim { throw Failure.tooLong(path, info.duration) }

        let id = UUID()
        let part = try library.makeStagedFile(named: "import_\(id.uuidString).m4a.part")
        defer { library.discard(part) }
        let decoder = try AudioDecoder(path: path)
        let writer = try MediaWriter(audioPath: part.path, sampleRate: decoder.sampleRate)
        var waveform = WaveformBuilder(sampleRate: decoder.sampleRate)
        let limit = Int(Validation.maxDuration) * decoder.sampleRate
        var total = 0
        while total < limit {
            let block = try decoder.read(frames: min(4800, limit - total))
            if block.isEmpty { break }
            let samples = block.map { Float($0) / 32768 }
            try writer.write(samples)
            waveform.add(samples)
            total += samples.count
        }
        guard total > 0 else { throw Failure.notMedia(path) }
        let decoded = Double(total) / Double(decoder.sampleRate)
        let expected = min(info.duration, Validation.maxDuration)
        if decoded < expected * 0.9 - 0.1 { throw Failure.truncated(path, expected: info.duration, got: decoded) }
        try writer.finish()
        let final = try library.makeStagedFile(named: "save_\(id.uuidString).m4a")
        let result: MediaInfo
        do {
            try MediaFile.remux(part.path, to: final.path)
            result = try MediaFile.probe(final.path)
        } catch {
            library.discard(final)
            throw error
        }
        var details = draft
        if details.title == nil {
            let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            details.title = String(name.filter { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }.prefix(40))
        }
        return try library.save(final, kind: .audio, draft: details, duration: result.duration,
                                media: MediaFacts(sampleRate: result.sampleRate, channels: result.channels, waveform: waveform.finish()),
                                id: id)
    }
}
