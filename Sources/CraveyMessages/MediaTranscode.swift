import CraveyLibrary
import CraveyMedia
import Foundation
import Synchronization

/// Encodes a media file, or a span of it, the way cravey writes recordings (AAC in .m4a, or
/// H.264 + AAC in .mov at most 1280×720) with its waveform and loudness (a video's read from the file
/// as encoded; a sound's measured on the samples it encodes): what import, trimming silence and
/// `trim` share. Sound is cut exactly to the sample; pictures follow the sound (the
/// picture shown at the span's start is the first one, at time zero).
enum MediaTranscode {
    struct Result {
        /// Seconds decoded: sound samples, or pictures up to the last one's end.
        var seconds: Double
        var waveform: [UInt8]
        var loudness: Loudness?
        var frames: Int
    }

    /// Three threads on two cores: the span is decoded (48 kHz mono, 23 MB for 2 minutes) while
    /// another thread measures each block as it comes; then it is encoded in two stretches side by
    /// side. Encoding is most of an import's work, so splitting it is what makes an import quicker
    /// than ffmpeg's one encoder.
    static func audio(from path: String, span: MediaSpan, to output: String) throws -> Result {
        let decoder = try AudioDecoder(path: path, floats: true)
        if span.start > 0 { try decoder.seek(to: span.start) }
        let limit = Int((span.length * Double(decoder.sampleRate)).rounded())
        let blocks = BlockQueue()
        let analysis = Thread {
            blocks.finished(Swift.Result { try SoundAnalysis(next: blocks.take, whole: blocks.all) })
        }
        analysis.start()
        defer { blocks.close(); blocks.waitUntilFinished() }
        while blocks.count < limit {
            let block = try decoder.readFloats(frames: min(4800, limit - blocks.count))
            if block.isEmpty { break }
            blocks.put(block)
        }
        blocks.close()
        let samples = blocks.all()
        guard !samples.isEmpty else { return Result(seconds: 0, waveform: [], loudness: nil, frames: 0) }
        // Encoded as a regular file (no fragments): a transcode needs no crash recovery, its source
        // is still there.
        let writer = try MediaWriter(audioPath: output, sampleRate: decoder.sampleRate, fragmented: false)
        try writer.writeAll(samples, threads: 2)
        try writer.finish()
        let sound = try blocks.waitUntilFinished().get()
        return Result(
            seconds: Double(samples.count) / Double(decoder.sampleRate), waveform: sound.waveform,
            loudness: sound.loudness, frames: 0)
    }

    /// Decoded blocks handed from the decoding thread to the measuring one, kept whole as well, and
    /// the measurement handed back.
    final class BlockQueue: Sendable {
        private struct State {
            var samples: [Float] = []
            var taken = 0
            var closed = false
            var measured: Swift.Result<SoundAnalysis, Error>?
        }
        private let state = Mutex(State())
        /// Signalled at each put and at the close: the taker looks again (and waits again if nothing is new).
        private let changed = DispatchSemaphore(value: 0)
        /// Signalled once the measurement is in.
        private let done = DispatchSemaphore(value: 0)

        var count: Int { state.withLock { $0.samples.count } }

        func put(_ block: [Float]) {
            state.withLock { $0.samples += block }
            changed.signal()
        }

        func close() {
            state.withLock { $0.closed = true }
            changed.signal()
        }

        /// The next block not yet taken (waiting for it), or nil once closed and all taken.
        func take() -> [Float]? {
            while true {
                let (block, closed) = state.withLock { state -> ([Float]?, Bool) in
                    guard state.taken < state.samples.count else { return (nil, state.closed) }
                    let block = Array(state.samples[state.taken...])
                    state.taken = state.samples.count
                    return (block, false)
                }
                if let block { return block }
                if closed { return nil }
                changed.wait()
            }
        }

        /// Every sample put (complete once closed).
        func all() -> [Float] { state.withLock { $0.samples } }

        /// The measuring thread's last word.
        func finished(_ measured: Swift.Result<SoundAnalysis, Error>) {
            state.withLock { $0.measured = measured }
            done.signal()
        }

        /// Waits for the measurement (as often as asked).
        @discardableResult
        func waitUntilFinished() -> Swift.Result<SoundAnalysis, Error> {
            done.wait()
            done.signal()
            return state.withLock { $0.measured! }
        }
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
        let writer = try MediaWriter(
            videoPath: output, inputWidth: video.width, inputHeight: video.height, size: size,
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
        let seconds = max(
            min(limit, lastPicture + frameDuration), Double(samples) / Double(audio?.sampleRate ?? 48_000))
        let sound = samples > 0 ? try SoundAnalysis(file: output) : nil
        return Result(seconds: seconds, waveform: sound?.waveform ?? [], loudness: sound?.loudness, frames: frames)
    }
}
