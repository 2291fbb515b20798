import FoundationEssentials
import Glibc

/// Keeps a recording's sound on the same clock as its pictures.
///
/// Video frames are placed by their V4L2 CLOCK_MONOTONIC timestamps; sound is placed by counting
/// samples. A microphone's sample clock is never exactly its nominal rate (0.1 % off is 60 ms over
/// a minute), so after each block the sync compares where the block ends in the file (samples
/// written) with when the device captured it (the ALSA status timestamp and delay, on the same
/// monotonic clock), and asks for a gentle correction: drop or add at most one sample in 200
/// (0.5 %, inaudible) while the smoothed offset is outside a 2 ms dead band. Samples lost to an
/// overrun (a sudden gap of more than 50 ms) come back as silence at once. A device whose sound
/// arrives more than 1 % faster than its timestamps allow (an unclocked plugin reading a file) is
/// left alone, and its offset is not reported.
public struct ClockSync: Sendable {
    public let sampleRate: Double
    /// CLOCK_MONOTONIC time (ns) of the file's first sample: the recording's zero.
    public private(set) var anchorNanoseconds: Int64?
    /// Samples in the file so far.
    public private(set) var written = 0
    /// The smoothed offset, in samples: positive when the sound runs ahead of the clock.
    public private(set) var offset: Double = 0
    /// The largest |offset| seen after correction, in seconds (nil for an unclocked device).
    public private(set) var worstOffset: Double = 0
    public private(set) var clocked = true
    /// Samples of silence asked for in place of sound the device lost (overruns): put in a video;
    /// for sound alone (kept as heard), only counted.
    public private(set) var insertedSilence = 0

    /// The sound the device lost, seconds (0 for an unclocked device, whose gaps cannot be told).
    public var lostSeconds: Double { Double(insertedSilence) / sampleRate }

    static let deadBand = 0.002  // seconds
    static let overrunGap = 0.050  // seconds
    static let smoothing = 0.5  // seconds: time constant of the offset's average

    public init(sampleRate: Int) { self.sampleRate = Double(sampleRate) }

    /// What to do with a block of `frames` samples just read, given the capture clock read right
    /// after it (`nanoseconds`, `delay`): `silence` samples of silence go first (an overrun's gap),
    /// then the block stretched or squeezed to `frames + adjust` samples.
    public mutating func plan(frames: Int, nanoseconds: Int64, delay: Int) -> (silence: Int, adjust: Int) {
        // At `nanoseconds`, the device was capturing the sample `delay` after this block's end.
        let blockEnd = nanoseconds - Int64(Double(delay) / sampleRate * 1e9)
        guard let anchor = anchorNanoseconds else {
            anchorNanoseconds = blockEnd - Int64(Double(frames) / sampleRate * 1e9)
            written = frames
            return (0, 0)
        }
        let clockSamples = Double(blockEnd - anchor) / 1e9 * sampleRate
        let error = Double(written + frames) - clockSamples
        guard clocked else {
            written += frames
            return (0, 0)
        }
        // No microphone runs 1 % fast: sound arriving faster than that is an unclocked plugin.
        if error > Self.overrunGap * sampleRate + 0.01 * clockSamples {
            clocked = false
            written += frames
            return (0, 0)
        }
        var silence = 0
        var current = error
        if error < -Self.overrunGap * sampleRate {
            silence = Int((-error).rounded())
            insertedSilence += silence
            current += Double(silence)
            offset = current
        } else {
            offset += (current - offset) * min(1, Double(frames) / (Self.smoothing * sampleRate))
        }
        var adjust = 0
        // The first half second only measures: the device is still settling.
        let settled = clockSamples >= Self.smoothing * sampleRate
        let band = Self.deadBand * sampleRate
        let limit = max(1, frames / 200)
        if !settled {
        } else if offset > band {
            adjust = -min(limit, Int((offset - band).rounded(.up)))
        } else if offset < -band {
            adjust = min(limit, Int((-offset - band).rounded(.up)))
        }
        offset += Double(adjust)
        written += silence + frames + adjust
        worstOffset = max(worstOffset, abs(offset) / sampleRate)
        return (silence, adjust)
    }

    /// The worst offset to store with the recording, or nil when the device's clock was unusable.
    public var reportedWorstOffset: Double? { clocked && anchorNanoseconds != nil ? worstOffset : nil }

    /// Where a frame captured at `nanoseconds` goes in the file, in microseconds (negative: before
    /// the recording's zero).
    public func position(ofFrameAt nanoseconds: Int64) -> Int64? {
        anchorNanoseconds.map { (nanoseconds - $0) / 1000 }
    }

    /// `block` resampled (linearly) to `count` samples: a difference of a sample or two in a few
    /// hundred, which no one hears.
    public static func resample(_ block: ArraySlice<Float>, to count: Int) -> [Float] {
        let n = block.count
        guard count != n, n > 1, count > 1 else {
            return Array(block.prefix(count)) + [Float](repeating: block.last ?? 0, count: max(0, count - n))
        }
        let base = block.startIndex
        let step = Double(n - 1) / Double(count - 1)
        return (0..<count).map { i in
            let x = Double(i) * step
            let j = min(n - 2, Int(x))
            let t = Float(x - Double(j))
            return block[base + j] * (1 - t) + block[base + j + 1] * t
        }
    }
}
