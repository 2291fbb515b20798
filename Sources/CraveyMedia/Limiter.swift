import FoundationEssentials
import Glibc

/// A gain followed by a look-ahead peak limiter: raises a quiet recording to the listening level
/// and, where the raised sound would pass the ceiling, turns it down smoothly just before the peak
/// and lets it back up over about a tenth of a second — no sample ever passes the ceiling, and
/// nothing is clipped.
///
/// The gain each sample needs is held for the look-ahead window, eased back up (release), and
/// averaged over the window; the sound is delayed by the window, so the averaged gain is at or
/// under what every peak in it needs when the peak comes out.
public struct Limiter: Sendable {
    public let gain: Float
    public let ceiling: Float
    /// Samples of look-ahead: the sound comes out `window - 1` samples late.
    public let window: Int
    private let release: Float
    /// The last `window` raised samples and their smoothed gains (rings indexed by `count`).
    private var raised: [Float]
    private var smoothed: [Float]
    private var smoothedSum: Double
    /// Sliding minimum of the needed gains over the window: (sample number, gain), gains rising.
    private var minima: [(index: Int, gain: Float)] = []
    private var minimaStart = 0
    private var released: Float = 1
    /// Samples taken in since the start (or the last reset or flush).
    private var count = 0

    /// `gainDecibels` applied to every sample; `ceilingDecibels` (dBFS) never passed.
    public init(
        gainDecibels: Double, ceilingDecibels: Double = -1.5, sampleRate: Int = 48_000, lookAhead: Double = 0.002,
        releaseSeconds: Double = 0.04
    ) {
        gain = Float(pow(10, gainDecibels / 20))
        ceiling = Float(pow(10, ceilingDecibels / 20))
        window = max(1, Int(Double(sampleRate) * lookAhead))
        release = Float(1 - exp(-1 / (Double(sampleRate) * releaseSeconds)))
        raised = [Float](repeating: 0, count: window)
        smoothed = [Float](repeating: 1, count: window)
        smoothedSum = Double(window)
    }

    /// Processes `input`; the output is `window - 1` samples late (`flush` gives the rest).
    public mutating func process(_ input: [Float]) -> [Float] {
        var output: [Float] = []
        output.reserveCapacity(input.count)
        for x in input { step(x * gain, into: &output) }
        return output
    }

    /// The last samples still in the window, at the end of the sound.
    public mutating func flush() -> [Float] {
        var output: [Float] = []
        let waiting = min(count, window - 1)
        while output.count < waiting { step(0, into: &output) }
        count = 0
        return output
    }

    /// Forgets the sound so far (after a seek).
    public mutating func reset() {
        raised = [Float](repeating: 0, count: window)
        smoothed = [Float](repeating: 1, count: window)
        smoothedSum = Double(window)
        minima = []
        minimaStart = 0
        released = 1
        count = 0
    }

    private mutating func step(_ x: Float, into output: inout [Float]) {
        let n = count
        let slot = n % window
        let magnitude = abs(x)
        let needed = magnitude > ceiling ? ceiling / magnitude : 1
        // The smallest gain any sample in the window needs (a monotonic queue: O(1) a sample).
        while minima.count > minimaStart, minima[minima.count - 1].gain >= needed { minima.removeLast() }
        minima.append((n, needed))
        while minima[minimaStart].index <= n - window { minimaStart += 1 }
        if minimaStart > 4096 { minima.removeFirst(minimaStart); minimaStart = 0 }
        let held = minima[minimaStart].gain
        // Release: back up gradually after a peak, never above what the window needs.
        released = min(held, released + (1 - released) * release)
        // Average over the window: the gain moves smoothly, and is at or under every peak's need
        // when that peak leaves the window.
        smoothedSum += Double(released) - Double(smoothed[slot])
        smoothed[slot] = released
        raised[slot] = x
        count += 1
        guard n >= window - 1 else { return }
        let oldest = raised[(slot + 1) % window]
        output.append(oldest * min(1, Float(smoothedSum / Double(window))))
    }
}
