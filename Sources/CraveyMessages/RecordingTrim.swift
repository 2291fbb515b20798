import CraveyLibrary
import CraveyMedia
import Foundation

/// Cutting a recording to a span: a saved one (`cravey trim`, replacing its file atomically), or
/// a take before it is saved (trimming the silence at its ends).
public enum RecordingTrim {
    /// A span that does not fit the recording, and why.
    public struct BadSpan: Error, CustomStringConvertible {
        public let description: String
    }

    /// The shortest recording a trim may leave, seconds.
    public static let minimumLength = 0.1

    /// Checks a span against a recording of `duration` seconds: start before end, both inside it.
    public static func check(_ span: MediaSpan, duration: Double) throws {
        guard span.start >= 0, span.end > span.start else {
            throw BadSpan(description: "the start must come before the end")
        }
        guard span.end <= duration + 0.001 else {
            throw BadSpan(description: "the end is past the recording's end (it lasts \(Timecode.text(duration)))")
        }
        guard span.length >= minimumLength else {
            throw BadSpan(description: String(format: "a trim keeps at least %.1f s", minimumLength))
        }
    }

    /// Keeps exactly `span` of a saved recording: the file is encoded again from it (sound to the
    /// sample; pictures from the one shown at the start) and replaces the old one atomically,
    /// with a new thumbnail, waveform and loudness; title, notes, dates and play count stay.
    public static func trim(_ recording: Recording, in library: Library, to span: MediaSpan) throws -> Recording {
        try library.refuseChanging(recording)
        try check(span, duration: recording.duration)
        let source = try library.file(of: recording)
        let info = try MediaFile.probe(source)
        let staged = try library.stage(.edit, id: recording.id, kind: recording.kind)
        var handed = false
        defer { if !handed { library.discard(staged) } }
        let encoded =
            recording.kind == .video
            ? try MediaTranscode.video(from: source, info: info, span: span, to: staged.path)
            : try MediaTranscode.audio(from: source, span: span, to: staged.path)
        let result = try MediaFile.probe(staged.path)
        let thumbnail =
            recording.kind == .video
            ? library.stageThumbnail(of: staged.path, id: recording.id, role: .editThumbnail) : nil
        handed = true  // the library's replace consumes the staged files, whatever happens
        return try library.replaceMedia(
            of: recording, with: staged, thumbnail: thumbnail, duration: min(result.duration, Validation.maxDuration),
            media: MediaFacts(result, waveform: encoded.waveform, loudness: encoded.loudness))
    }
}

/// Times as people write them: seconds ("42", "4.5") or minutes and seconds ("1:05", "0:42.5").
public enum Timecode {
    public static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isNumber || $0 == "." } })
        else {
            return nil
        }
        if parts.count == 1 { return Double(parts[0]).flatMap { $0.isFinite ? $0 : nil } }
        guard let minutes = Int(parts[0]), let seconds = Double(parts[1]), seconds < 60 else { return nil }
        return Double(minutes) * 60 + seconds
    }

    /// `m:ss` with the fraction as far as it goes, to the millisecond: `0:01.25`, `1:05`.
    public static func text(_ seconds: Double) -> String {
        let ms = Int((max(0, seconds) * 1000).rounded())
        var text = String(format: "%d:%02d", ms / 60_000, ms / 1000 % 60)
        if ms % 1000 != 0 {
            var fraction = String(format: "%03d", ms % 1000)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text
    }
}
