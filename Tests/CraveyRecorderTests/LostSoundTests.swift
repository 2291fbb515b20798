import CraveyRecorder
import XCTest

/// Sound a microphone lost while the recorder fell behind (an overrun) is counted: the silence put
/// in its place, so the recording can say how much of it is not what the microphone heard.
final class LostSoundTests: XCTestCase {
    func testTheSilencePutInForLostSoundIsCounted() {
        var sync = ClockSync(sampleRate: 48_000)
        var captured: Int64 = 5_000_000_000
        for block in 0..<500 {
            captured += 10_000_000  // 480 samples, 10 ms
            if block == 300 { captured += 195_000_000 }  // 195 ms the device captured and nobody read
            _ = sync.plan(frames: 480, nanoseconds: captured, delay: 0)
        }
        XCTAssertEqual(Double(sync.insertedSilence) / 48_000, 0.195, accuracy: 0.002)
    }

    /// Sound alone is kept as it was heard (nothing is put in), so the recorder only asks the sync
    /// and keeps none of its plans: what an overrun lost is still counted, once, and a microphone
    /// a little fast or slow loses nothing.
    func testTheSoundAnOverrunLostIsCountedWhenNothingIsPutIn() {
        for (drift, gap) in [(1.0, 0.0), (1.001, 0.0), (0.999, 0.0), (1.001, 0.21), (0.999, 0.4)] {
            var sync = ClockSync(sampleRate: 48_000)
            var captured: Int64 = 5_000_000_000
            for block in 0..<3_000 {  // 30 s
                captured += Int64(10_000_000 / drift)
                if block == 1_500 { captured += Int64(gap * 1e9) }
                _ = sync.plan(frames: 480, nanoseconds: captured, delay: 120)
            }
            XCTAssertEqual(sync.lostSeconds, gap, accuracy: 0.01, "drift \(drift), gap \(gap)")
        }
    }

    func testNothingIsCountedWhenNoSoundWasLost() {
        var sync = ClockSync(sampleRate: 48_000)
        for block in 0..<500 {
            _ = sync.plan(frames: 480, nanoseconds: 5_000_000_000 + Int64(block) * 10_000_000, delay: 0)
        }
        XCTAssertEqual(sync.insertedSilence, 0)
    }
}
