import FoundationEssentials
import Glibc

/// Levels of one block of samples, in dBFS (0 dBFS = full scale; a full-scale sine is -3 dBFS RMS).
public struct Level: Sendable, Equatable {
    /// The floor reported for silence instead of -∞.
    public static let floor: Double = -96

    public var rms: Double
    public var peak: Double
    /// A sample reached full scale (the input is clipping).
    public var clipped: Bool

    public static let silence = Level(rms: floor, peak: floor, clipped: false)

    /// Measures a block of float samples in [-1, 1].
    public init<C: Collection>(of samples: C) where C.Element == Float {
        // Generic code is not specialized across modules: measure through a contiguous buffer.
        self =
            samples.withContiguousStorageIfAvailable { Level(buffer: $0) }
            ?? Array(samples).withUnsafeBufferPointer { Level(buffer: $0) }
    }

    private init(buffer samples: UnsafeBufferPointer<Float>) {
        var sumSquares: Double = 0
        var peak: Float = 0
        for s in samples {
            sumSquares += Double(s) * Double(s)
            peak = max(peak, abs(s))
        }
        let count = Double(max(samples.count, 1))
        self.init(
            rms: Self.decibels(sqrt(sumSquares / count)), peak: Self.decibels(Double(peak)),
            clipped: peak >= Self.clipThreshold)
    }

    public init(rms: Double, peak: Double, clipped: Bool) {
        self.rms = rms
        self.peak = peak
        self.clipped = clipped
    }

    /// 32767/32768: the largest 16-bit sample counts as clipping.
    public static let clipThreshold: Float = 0.9999

    public static func decibels(_ amplitude: Double) -> Double {
        amplitude > 0 ? max(floor, 20 * log10(amplitude)) : floor
    }
}

/// Peak levels at a fixed rate (about 20 a second), for the stored waveform and live display.
public struct WaveformBuilder: Sendable {
    public static let pointsPerSecond = 20

    public let samplesPerPoint: Int
    public private(set) var points: [UInt8] = []
    private var currentPeak: Float = 0
    private var currentCount = 0

    public init(sampleRate: Int) {
        samplesPerPoint = max(1, sampleRate / Self.pointsPerSecond)
    }

    /// Adds samples; each completed point is the block's peak scaled to 0–255.
    public mutating func add<C: Collection>(_ samples: C) where C.Element == Float {
        // Generic code is not specialized across modules: work through a contiguous buffer.
        if samples.withContiguousStorageIfAvailable({ add(buffer: $0) }) == nil {
            Array(samples).withUnsafeBufferPointer { add(buffer: $0) }
        }
    }

    private mutating func add(buffer samples: UnsafeBufferPointer<Float>) {
        for s in samples {
            currentPeak = max(currentPeak, abs(s))
            currentCount += 1
            if currentCount == samplesPerPoint { flushPoint() }
        }
    }

    /// The points, including a final partial one.
    public mutating func finish() -> [UInt8] {
        if currentCount > 0 { flushPoint() }
        return points
    }

    private mutating func flushPoint() {
        points.append(UInt8(min(255, (currentPeak * 255).rounded())))
        currentPeak = 0
        currentCount = 0
    }
}

/// CLOCK_MONOTONIC in nanoseconds: the clock of ALSA and V4L2 timestamps, used for every
/// timing cravey measures.
public func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
