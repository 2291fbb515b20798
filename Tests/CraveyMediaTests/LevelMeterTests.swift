import CraveyMedia
import XCTest

final class LevelMeterTests: XCTestCase {
    func sine(amplitude: Float, count: Int = 48_000) -> [Float] {
        (0..<count).map { amplitude * sin(2 * .pi * 440 * Float($0) / 48_000) }
    }

    func testSilenceIsTheFloor() {
        let level = Level(of: [Float](repeating: 0, count: 960))
        XCTAssertEqual(level.rms, Level.floor)
        XCTAssertEqual(level.peak, Level.floor)
        XCTAssertFalse(level.clipped)
        XCTAssertEqual(Level(of: [Float]()).rms, Level.floor)
    }

    func testFullScaleSine() {
        let level = Level(of: sine(amplitude: 1))
        XCTAssertEqual(level.rms, -3.01, accuracy: 0.02)
        XCTAssertEqual(level.peak, 0, accuracy: 0.01)
        XCTAssertTrue(level.clipped)
    }

    func testHalfScaleSineAndClipping() {
        let half = Level(of: sine(amplitude: 0.5))
        XCTAssertEqual(half.rms, -9.03, accuracy: 0.02)
        XCTAssertEqual(half.peak, -6.02, accuracy: 0.02)
        XCTAssertFalse(half.clipped)
        var clipped = sine(amplitude: 0.5)
        clipped[100] = 1.0
        XCTAssertTrue(Level(of: clipped).clipped)
        XCTAssertTrue(Level(of: [32767 / 32768]).clipped, "the largest 16-bit sample is clipping")
    }

    func testWaveformHasTwentyPointsASecondOfPeaks() {
        var builder = WaveformBuilder(sampleRate: 48_000)
        var samples = [Float](repeating: 0, count: 48_000 + 100)
        samples[2400 * 3 + 5] = 0.5
        samples[48_000 + 50] = -1
        builder.add(samples)
        let points = builder.finish()
        XCTAssertEqual(points.count, 21)
        XCTAssertEqual(points[3], 128)
        XCTAssertEqual(points[20], 255)
        XCTAssertEqual(points.filter { $0 > 0 }.count, 2)
    }
}
