internal import CEBUR128
import FoundationEssentials
import Glibc

/// How loud a recording is, by EBU R128: integrated loudness (gated, in LUFS) and true peak (4×
/// oversampled, in dBTP). Playback uses both to bring every recording to one level without clipping.
public struct Loudness: Sendable, Equatable {
    /// Integrated loudness; nil when the sound is too quiet or too short to have one (below the
    /// standard's -70 LUFS gate, or under 0.4 s).
    public var integrated: Double?
    /// True peak; `Loudness.floor` for digital silence.
    public var truePeak: Double
    /// The gain that plays it at -16 LUFS through the limiter (see `PlaybackLevel`); nil when
    /// not worked out (a meter alone does not).
    public var playbackGain: Double?

    /// What is stored for "no peak at all" instead of -∞.
    public static let floor: Double = -120

    public init(integrated: Double?, truePeak: Double, playbackGain: Double? = nil) {
        self.integrated = integrated
        self.truePeak = max(Self.floor, truePeak)
        self.playbackGain = playbackGain
    }

    /// Measures a whole file's sound (decoded to 48 kHz mono, as it is played).
    public static func measure(file path: String) throws -> Loudness {
        try SoundAnalysis(file: path).loudness
    }
}

/// A running EBU R128 measurement of one mono signal (libebur128).
public final class LoudnessMeter {
    private let meter: OpaquePointer

    /// `truePeak: false` measures the loudness alone (several times faster).
    public init(sampleRate: Int, truePeak: Bool = true) throws {
        try SharedLibrary.ebur128.load()
        var pointer: OpaquePointer?
        let result = CEBUR128_meter_open(UInt(sampleRate), truePeak ? 1 : 0, &pointer)
        guard result == 0, let pointer else { throw MediaError.system(result, "measure loudness") }
        meter = pointer
    }

    deinit { CEBUR128_meter_free(meter) }

    public func add(_ samples: [Float]) throws {
        let result = samples.withUnsafeBufferPointer { CEBUR128_meter_add(meter, $0.baseAddress, $0.count) }
        guard result == 0 else { throw MediaError.system(result, "measure loudness") }
    }

    /// The loudness of everything added so far.
    public func result() throws -> Loudness {
        var lufs = 0.0
        var peak = 0.0
        let result = CEBUR128_meter_result(meter, &lufs, &peak)
        if result == -ENODATA { return Loudness(integrated: nil, truePeak: peak) }
        guard result == 0 else { throw MediaError.system(result, "measure loudness") }
        return Loudness(integrated: lufs, truePeak: peak)
    }
}

/// A span of a media file, in seconds from its start.
public struct MediaSpan: Sendable, Equatable {
    public var start: Double
    public var end: Double
    public init(start: Double, end: Double) { self.start = start; self.end = end }
    public var length: Double { end - start }
}

/// One pass over a finished file's sound: the waveform for display, the loudness for playback,
/// and where the sound rises above its own background (for trimming silence at the ends).
public struct SoundAnalysis: Sendable {
    public var waveform: [UInt8]
    public var loudness: Loudness
    /// Seconds of sound decoded.
    public var duration: Double
    /// RMS level of each 10 ms window, in dBFS (the last window may be partial).
    public var windowLevels: [Double]

    public static let windowSeconds = 0.01
    static let sampleRate = 48_000

    /// Reads the file's sound once (twice when the limiter will shape its peaks, to measure the
    /// loudness that comes out of it; `playbackGain: false` leaves the gain out, for a file that
    /// is only looked at, not saved).
    public init(file path: String, playbackGain: Bool = true) throws {
        try self.init(file: path, playbackGain: playbackGain, thumbnail: nil)
    }

    /// The same for a video, whose thumbnail (the picture at 1.0 s, or the last of a shorter video,
    /// 320 px wide) is written to `thumbnail` in the same pass; `thumbnailWritten` says whether it
    /// could be (a video whose pictures do not decode still has its sound read).
    public init(file path: String, playbackGain: Bool = true, thumbnail: String?) throws {
        var written = false
        var first = true  // the thumbnail comes with the first pass; a second (the limiter's) skips it
        let source: Source = { body in
            let decoder = try AudioDecoder(path: path, sampleRate: Self.sampleRate, channels: 1, floats: true)
            let catching = first && thumbnail != nil && (try? decoder.catchPicture(at: 1.0)) != nil
            first = false
            while true {
                let block = try decoder.readFloats(frames: 4800)
                if block.isEmpty { break }
                try body(block)
            }
            if catching, let thumbnail { written = (try? decoder.writePicture(to: thumbnail)) != nil }
        }
        try self.init(playbackGain: playbackGain, first: source, again: source)
        thumbnailWritten = written
    }

    /// Whether the thumbnail asked of `init(file:playbackGain:thumbnail:)` was written.
    public private(set) var thumbnailWritten = false

    /// The same for a sound given as it is decoded (48 kHz mono): `next` hands out its blocks until
    /// nil, and `whole` the complete sound if it must be read again (for the playback gain). An
    /// import measures what it encodes while it decodes it, instead of decoding its file again.
    public init(next: () -> [Float]?, whole: () -> [Float], playbackGain: Bool = true) throws {
        try self.init(
            playbackGain: playbackGain,
            first: { body in
                while let block = next() { try body(block) }
            },
            again: { body in
                let samples = whole()
                var start = 0
                while start < samples.count {
                    let end = min(samples.count, start + 4800)
                    try body(Array(samples[start..<end]))
                    start = end
                }
            })
    }

    /// A sound given block by block, as many times as asked for.
    typealias Source = (_ body: ([Float]) throws -> Void) throws -> Void

    private init(playbackGain: Bool, first: Source, again: Source) throws {
        var builder = WaveformBuilder(sampleRate: Self.sampleRate)
        let meter = try LoudnessMeter(sampleRate: Self.sampleRate)
        var levels = Levels(window: Int(Double(Self.sampleRate) * Self.windowSeconds))
        var total = 0
        try first { block in
            builder.add(block)
            try meter.add(block)
            levels.add(block)
            total += block.count
        }
        waveform = builder.finish()
        loudness = try meter.result()
        duration = Double(total) / Double(Self.sampleRate)
        windowLevels = levels.finish()
        if playbackGain, let integrated = loudness.integrated {
            loudness.playbackGain = try Self.playbackGain(again, loudness: integrated, truePeak: loudness.truePeak)
        }
    }

    /// The gain that brings the sound to the target loudness as it comes out of the limiter: where
    /// the limiter turns peaks down, the sound is a little quieter than the gain alone says, so it
    /// is measured through the limiter and the gain corrected once.
    static func playbackGain(_ source: Source, loudness: Double, truePeak: Double) throws -> Double {
        let gain = PlaybackLevel.gain(forLoudness: loudness)
        guard truePeak + gain > PlaybackLevel.truePeakCeiling else { return gain }
        var limiter = Limiter(gainDecibels: gain, ceilingDecibels: PlaybackLevel.sampleCeiling, sampleRate: sampleRate)
        let meter = try LoudnessMeter(sampleRate: sampleRate, truePeak: false)
        try source { try meter.add(limiter.process($0)) }
        try meter.add(limiter.flush())
        guard let limited = try meter.result().integrated else { return gain }
        return min(PlaybackLevel.maxGain, max(PlaybackLevel.minGain, gain + PlaybackLevel.target - limited))
    }

    /// The span to keep when trimming silence at both ends: from `margin` seconds before the sound
    /// first rises above the take's own background to `margin` after it last does. The threshold
    /// follows the take (30 dB under its speaking level, the 95th percentile of its windows, and
    /// never under -70 dBFS), so a quiet laptop mic and a loud headset trim alike. Nil when
    /// nothing rises above it (all silence).
    public func speechSpan(margin: Double = 0.2) -> MediaSpan? {
        guard !windowLevels.isEmpty else { return nil }
        let sorted = windowLevels.sorted()
        let speaking = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]
        let threshold = max(-70, speaking - 30)
        guard speaking > -70,
            let first = windowLevels.firstIndex(where: { $0 > threshold }),
            let last = windowLevels.lastIndex(where: { $0 > threshold })
        else { return nil }
        let start = max(0, Double(first) * Self.windowSeconds - margin)
        let end = min(duration, Double(last + 1) * Self.windowSeconds + margin)
        return MediaSpan(start: start, end: end)
    }

    /// RMS per fixed window, in dBFS.
    private struct Levels {
        let window: Int
        var sum = 0.0
        var count = 0
        var levels: [Double] = []

        init(window: Int) { self.window = window }

        mutating func add(_ samples: [Float]) {
            for s in samples {
                sum += Double(s) * Double(s)
                count += 1
                if count == window { flush() }
            }
        }

        mutating func flush() {
            levels.append(Level.decibels((sum / Double(max(1, count))).squareRoot()))
            sum = 0
            count = 0
        }

        mutating func finish() -> [Double] {
            if count > 0 { flush() }
            return levels
        }
    }
}
