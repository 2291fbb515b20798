import CraveyRecorder
import XCTest

/// The A/V clock sync, driven by a simulated capture clock: a microphone whose sample clock runs
/// `drift` fast or slow against CLOCK_MONOTONIC delivers 10 ms blocks; the file's sound must stay
/// within 40 ms of the monotonic clock over 120 s (the pictures are placed on that clock).
final class ClockSyncTests: XCTestCase {
    /// Feeds `seconds` of 480-sample blocks from a device `drift` off nominal, with `jitterMs` of
    /// timestamp noise. Returns the final |sound − clock| offset in seconds and the sync.
    func simulate(
        seconds: Double, drift: Double, jitterMs: Double = 0, start: Int64 = 5_000_000_000,
        lose: (at: Int, samples: Int)? = nil
    ) -> (end: Double, sync: ClockSync) {
        var sync = ClockSync(sampleRate: 48_000)
        let trueRate = 48_000 * (1 + drift)  // samples the device delivers per real second
        var deviceSamples = 0
        var generator = SystemRandomNumberGenerator()
        var block = 0
        var fileSamples = 0
        while Double(deviceSamples) / trueRate < seconds {
            deviceSamples += 480
            if let lose, lose.at == block { deviceSamples += lose.samples }  // an overrun: samples never read
            let captured = start + Int64(Double(deviceSamples) / trueRate * 1e9)
            let noise = jitterMs > 0 ? Int64(Double.random(in: -jitterMs...jitterMs, using: &generator) * 1e6) : 0
            let delay = 96  // 2 ms waiting in the buffer
            let stamp = captured + Int64(Double(delay) / trueRate * 1e9) + noise
            let plan = sync.plan(frames: 480, nanoseconds: stamp, delay: delay)
            fileSamples += plan.silence + 480 + plan.adjust
            block += 1
        }
        let realTime = Double(deviceSamples) / trueRate
        let offset = Double(fileSamples) / 48_000 - realTime
        return (abs(offset), sync)
    }

    func testAFastMicrophoneIsPulledBackIntoSync() {
        let uncorrected = 60 * 0.001
        let (end, sync) = simulate(seconds: 60, drift: 0.001, jitterMs: 2)
        XCTAssertLessThanOrEqual(end, 0.040, "without correction it would be \(uncorrected) s")
        XCTAssertLessThan(end, 0.010)
        XCTAssertNotNil(sync.reportedWorstOffset)
        XCTAssertLessThanOrEqual(sync.reportedWorstOffset ?? 1, 0.040)
    }

    func testASlowMicrophoneOverTheWholeCap() {
        let (end, sync) = simulate(seconds: 120, drift: -0.002, jitterMs: 1)
        XCTAssertLessThanOrEqual(end, 0.040)
        XCTAssertLessThanOrEqual(sync.reportedWorstOffset ?? 1, 0.040)
    }

    func testAnExactMicrophoneIsLeftAlone() {
        var sync = ClockSync(sampleRate: 48_000)
        var changed = 0
        for block in 1...6000 {
            let stamp = 1_000_000_000 + Int64(Double(block * 480) / 48_000 * 1e9)
            let plan = sync.plan(frames: 480, nanoseconds: stamp, delay: 0)
            changed += abs(plan.adjust) + plan.silence
        }
        XCTAssertEqual(changed, 0)
        XCTAssertEqual(sync.reportedWorstOffset ?? 1, 0, accuracy: 0.0001)
    }

    func testAnOverrunGapComesBackAsSilence() {
        let (end, _) = simulate(seconds: 10, drift: 0, lose: (at: 300, samples: 9_600))  // 200 ms lost
        XCTAssertLessThan(end, 0.005, "the gap is filled at once, not stretched over minutes")
    }

    func testAnUnclockedDeviceIsNotCorrectedOrReported() {
        // A plugin reading a file delivers seconds of sound in milliseconds.
        var sync = ClockSync(sampleRate: 48_000)
        var adjusted = 0
        for block in 1...500 {
            let plan = sync.plan(frames: 480, nanoseconds: 1_000_000_000 + Int64(block) * 10_000, delay: 0)
            adjusted += abs(plan.adjust) + plan.silence
        }
        XCTAssertEqual(adjusted, 0)
        XCTAssertNil(sync.reportedWorstOffset)
    }

    func testFramesArePlacedFromTheFirstSample() {
        var sync = ClockSync(sampleRate: 48_000)
        XCTAssertNil(sync.position(ofFrameAt: 0))
        _ = sync.plan(frames: 480, nanoseconds: 2_000_000_000, delay: 480)
        // The block ends 10 ms before the stamp (480 samples still waiting) and began 10 ms before that.
        XCTAssertEqual(sync.anchorNanoseconds, 1_980_000_000)
        XCTAssertEqual(sync.position(ofFrameAt: 2_013_000_000), 33_000)
        XCTAssertEqual(sync.position(ofFrameAt: 1_970_000_000), -10_000)
    }

    func testResamplingKeepsTheSignal() {
        let block = (0..<480).map { Float(sin(Double($0) / 20)) }[...]
        let shorter = ClockSync.resample(block, to: 479)
        let longer = ClockSync.resample(block, to: 481)
        XCTAssertEqual(shorter.count, 479)
        XCTAssertEqual(longer.count, 481)
        XCTAssertEqual(shorter.first, block.first)
        XCTAssertEqual(longer.last, block.last)
        XCTAssertEqual(shorter[240], block[240], accuracy: 0.05)
    }
}
