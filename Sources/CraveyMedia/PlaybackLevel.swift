import Foundation

/// The level a recording is played at: every recording at one comfortable loudness (-16 LUFS, the
/// level of speech on laptops and phones), so a quiet laptop-mic message is heard as well as a loud
/// headset one. The gain comes from the recording's EBU R128 measurement; where it would push the
/// true peak over -1 dBTP, the limiter (`Limiter`) turns the peaks down smoothly instead of
/// clipping them, and the gain is measured again through the limiter so the result is still at
/// -16 LUFS (`SoundAnalysis` does this once, when a recording is saved).
public struct PlaybackLevel: Sendable, Equatable {
    public static let target: Double = -16
    public static let truePeakCeiling: Double = -1
    /// The limiter's sample ceiling: under the true-peak ceiling by a margin for the peaks that
    /// fall between samples.
    public static let sampleCeiling: Double = -1.5
    /// Never more than this: a message whispered at -56 LUFS still reaches -16; a near-silent
    /// recording is not raised further into loud noise.
    public static let maxGain: Double = 40
    /// Raised more than this, `show` says the recording was made very quietly.
    public static let raisedFar: Double = 30
    public static let minGain: Double = -30

    /// dB applied to every sample.
    public let gain: Double
    /// Whether the limiter shapes the peaks (the gain alone would pass the ceiling).
    public let limits: Bool

    public init(gain: Double, limits: Bool) {
        self.gain = gain
        self.limits = limits
    }

    /// The level for a measured recording: its stored playback gain, or (measured before gains
    /// were stored) the gain its loudness asks for. Too quiet to measure: as recorded.
    public init(loudness: Double?, truePeak: Double?, gain stored: Double?) {
        let gain = stored ?? loudness.map(Self.gain(forLoudness:)) ?? 0
        self.init(gain: gain, limits: truePeak.map { $0 + gain > Self.truePeakCeiling } ?? false)
    }

    /// Target minus loudness, within the bounds.
    public static func gain(forLoudness loudness: Double) -> Double {
        min(maxGain, max(minGain, target - loudness))
    }

    /// As recorded (`--original-level`).
    public static let original = PlaybackLevel(gain: 0, limits: false)

    /// "+12.5 dB" / "-3.0 dB".
    public var gainText: String { String(format: "%+.1f dB", gain) }
}
