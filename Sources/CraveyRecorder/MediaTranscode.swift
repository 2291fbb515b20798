import CraveyLibrary
import CraveyMedia
import Foundation

/// Encodes a media file, or a span of it, the way cravey writes recordings (AAC in .m4a, or
/// H.264 + AAC in .mov at most 1280×720), then reads the result's waveform and loudness (of the
/// file as encoded, which is what is played): what import, trimming silence and `trim` share. Sound is cut exactly to the sample; pictures follow the sound (the
/// picture shown at the span's start is the first one, at time zero).
enum MediaTranscode {
    struct Result {
        /// Seconds decoded: sound samples, or pictures up to the last one's end.
        var seconds: Double
        var waveform: [UInt8]
        var loudness: Loudness?
        var frames: Int
    }

    static func audio(from path: String, span: MediaSpan, to output: String) throws -> Result {
        let decoder = try AudioDecoder(path: path, floats: true)
        if span.start > 0 { try decoder.seek(to: span.start) }
        // Encoded as a regular file (no fragments): a transcode needs no crash recovery, its source
        // is still there.
        let writer = try MediaWriter(audioPath: output, sampleRate: decoder.sampleRate, fragmented: false)
        let limit = Int((span.length * Double(decoder.sampleRate)).rounded())
        var total = 0
        while total < limit {
            let samples = try decoder.readFloats(frames: min(4800, limit - total))
            if samples.isEmpty { break }
            try writer.write(samples)
            total += samples.count
        }
        guard total > 0 else { return Result(seconds: 0, waveform: [], loudness: nil, frames: 0) }
        try writer.finish()
        let sound = try SoundAnalysis(file: output)
        return Result(seconds: Double(total) / Double(decoder.sampleRate), waveform: sound.waveform,
                      loudness: sound.loudness, frames: 0)
    }

    /// Frames are decoded at their own size (the writer scales to at most 1280×720) and written
    /// at their own times less the span's start, the sound interleaved by time.
    static func video(from path: String, info: MediaInfo, span: MediaSpan, to output: String) throws -> Result {
        let video = try VideoDecoder(path: path, rgb: false)
        let audio = info.audioCodec != nil ? try AudioDecoder(path: path, floats: true) : nil
        if span.start > 0 {
            try video.seek(to: span.start)
            try audio?.seek(to: span.start)
        }
        let size = VideoSize.fitting(width: video.width, height: video.height)
        let fps = min(60, max(1, Int((video.fps ?? info.fps ?? 30).rounded())))
        let writer = try MediaWriter(videoPath: output, inputWidth: video.width, inputHeight: video.height, size: size,
                                     fps: fps, sampleRate: audio?.sampleRate, fragmented: false)
        let limit = span.length
        var samples = 0
        var soundEnded = audio == nil
        var frame = [UInt8]()
        var lastPicture = 0.0
        // A picture lasts until the next: the last one until one frame later (at 2 fps, 0.5 s).
        let frameDuration = 1 / Double(fps)
        /// Writes sound up to `seconds` (the time of the next picture), so the two stay interleaved.
        func writeSound(until seconds: Double) throws {
            guard let audio, !soundEnded else { return }
            let target = Int((min(seconds, limit) * Double(audio.sampleRate)).rounded())
            while samples < target {
                let floats = try audio.readFloats(frames: min(4800, target - samples))
                if floats.isEmpty { soundEnded = true; return }
                try writer.write(floats)
                samples += floats.count
            }
        }
        var previous: Int64 = -1
        while let pts = try video.next(into: &frame) {
            // The picture shown at the span's start (decoded first after the seek) goes at zero.
            let time = max(0, pts - span.start)
            if time >= limit { break }
            let microseconds = Int64((time * 1_000_000).rounded())
            if microseconds <= previous { continue }
            try writeSound(until: time)
            try writer.writeVideo(frame, at: microseconds)
            previous = microseconds
            lastPicture = time
        }
        try writeSound(until: limit)
        let frames = writer.videoFramesWritten
        guard frames > 0 else { return Result(seconds: 0, waveform: [], loudness: nil, frames: 0) }
        try writer.finish()
        let seconds = max(min(limit, lastPicture + frameDuration), Double(samples) / Double(audio?.sampleRate ?? 48_000))
        let sound = samples > 0 ? try SoundAnalysis(file: output) : nil
        return Result(seconds: seconds, waveform: sound?.waveform ?? [], loudness: sound?.loudness, frames: frames)
    }
}
