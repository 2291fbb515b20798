import CraveyLibrary
import CraveyMedia
import CraveyRecorder
import Foundation

/// A finished take on its way into the library: the recorder's capture, its thumbnail (video) and
/// the facts read from its sound — loudness and the span between the silences at its ends.
/// Saving, trimming and discarding it are the use cases of a recording's last step.
public struct Take: Sendable {
    public let library: Library
    public let id: UUID
    public let kind: Recording.Kind
    public let startedAt: Date
    public let duration: Double
    public let info: MediaInfo
    public let waveform: [UInt8]
    public let stopReason: Recorder.StopReason
    public let finalFile: Library.StagedFile
    /// The JPEG of the frame at 1.0 s (video), when it could be made.
    public let thumbnail: Library.StagedFile?
    public let frames: Int
    public let droppedFrames: Int
    public let avOffset: Double?
    /// The sound's loudness, and the span between the silences at its ends (nil: no sound, or
    /// nothing but silence).
    public let loudness: Loudness?
    public let speech: MediaSpan?
    /// The fragmented file the take was captured into: kept until the take is saved or discarded.
    let part: Library.StagedFile

    /// Seconds of silence trimming would leave out at the start and at the end.
    public var silenceAtEnds: (start: Double, end: Double)? {
        speech.map { ($0.start, max(0, duration - $0.end)) }
    }

    /// Silence at the ends worth trimming, both ends together: less is left as it is.
    public static let trimmedFrom = 0.1
    /// Silence at the ends worth offering to trim after a take (asked once it is this much).
    public static let offeredFrom = 0.5

    /// The silence at the ends when there is at least `least` seconds of it, both ends together
    /// (nil: less, or no sound to tell).
    public static func silence(_ ends: (start: Double, end: Double)?, atLeast least: Double) -> (
        start: Double, end: Double
    )? {
        ends.flatMap { $0.start + $0.end >= least ? $0 : nil }
    }

    /// The silence trimming this take leaves out, when there is enough to trim (`trimmedFrom`).
    public var trimmableSilence: (start: Double, end: Double)? {
        Self.silence(silenceAtEnds, atLeast: Self.trimmedFrom)
    }

    /// The silence worth offering to trim after this take (`offeredFrom`).
    public var silenceToOffer: (start: Double, end: Double)? { Self.silence(silenceAtEnds, atLeast: Self.offeredFrom) }

    /// Finishes `recorder`'s capture and reads what the save needs from the finished file in one
    /// pass: the sound's loudness and speech span, and the thumbnail of a video.
    public static func finish(_ recorder: Recorder) throws -> Take {
        let capture = try recorder.finish()
        let library = recorder.library
        let (sound, thumbnail) = library.readFinished(
            capture.file.path, id: capture.id, kind: capture.kind, hasSound: capture.hasSound)
        return Take(
            library: library, id: capture.id, kind: capture.kind, startedAt: capture.startedAt,
            duration: capture.info.duration, info: capture.info, waveform: capture.waveform,
            stopReason: capture.stopReason, finalFile: capture.stagedFile, thumbnail: thumbnail,
            frames: capture.frames, droppedFrames: capture.droppedFrames, avOffset: capture.avOffset,
            loudness: sound?.loudness, speech: sound?.speechSpan(), part: capture.stagedPart)
    }

    /// Saves the take into the library atomically, then removes the fragmented file.
    public func save(draft: Library.Draft) throws -> Recording {
        let saved = try library.save(
            finalFile, thumbnail: thumbnail, kind: kind, draft: draft, duration: duration,
            media: MediaFacts(info, waveform: waveform, avOffset: avOffset, loudness: loudness),
            id: id, createdAt: startedAt)
        try library.faults.hit("record.saved")
        library.discard(part)
        return saved
    }

    /// The take cut to `span` (the silence at its ends left out): encoded again from the finished
    /// file, sound exact to the sample and pictures following it. The untrimmed file is dropped;
    /// the fragmented file stays until the save, as for any take.
    public func trimmed(to span: MediaSpan) throws -> Take {
        let staged = try library.stage(.edit, id: id, kind: kind)
        let encoded: MediaTranscode.Result
        let trimmedInfo: MediaInfo
        var trimmedThumbnail: Library.StagedFile?
        do {
            encoded =
                kind == .video
                ? try MediaTranscode.video(from: finalFile.path, info: info, span: span, to: staged.path)
                : try MediaTranscode.audio(from: finalFile.path, span: span, to: staged.path)
            trimmedInfo = try MediaFile.probe(staged.path)
            if kind == .video {
                trimmedThumbnail = library.stageThumbnail(of: staged.path, id: id, role: .editThumbnail)
            }
        } catch {
            library.discard(staged)
            throw error
        }
        library.discard(finalFile)
        if let thumbnail { library.discard(thumbnail) }
        return Take(
            library: library, id: id, kind: kind, startedAt: startedAt, duration: trimmedInfo.duration,
            info: trimmedInfo, waveform: encoded.waveform, stopReason: stopReason, finalFile: staged,
            thumbnail: trimmedThumbnail, frames: encoded.frames, droppedFrames: droppedFrames, avOffset: avOffset,
            loudness: encoded.loudness, speech: MediaSpan(start: 0, end: trimmedInfo.duration), part: part)
    }

    /// Throws the take away (after the user confirmed): nothing of it stays in the library.
    public func discard() {
        library.discard(finalFile)
        if let thumbnail { library.discard(thumbnail) }
        library.discard(part)
    }
}
