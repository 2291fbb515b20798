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

    func testNothingIsCountedWhenNoSoundWasLost() {
        var sync = ClockSync(sampleRate: 48_000)
        for block in 0..<500 {
            _ = sync.plan(frames: 480, nanoseconds: 5_000_000_000 + Int64(block) * 10_000_000, delay: 0)
        }
        XCTAssertEqual(sync.insertedSilence, 0)
    }
}
