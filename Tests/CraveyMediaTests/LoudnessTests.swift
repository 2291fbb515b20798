import CraveyMedia
import CraveyTestSupport
import Foundation
import XCTest

/// EBU R128 measurement (libebur128), the look-ahead limiter, and finding the silence at a
/// take's ends.
final class LoudnessTests: XCTestCase {
    func sine(seconds: Double, amplitude: Float, frequency: Double = 997, rate: Int = 48_000) -> [Float] {
        (0..<Int(seconds * Double(rate))).map {
            amplitude * Float(sin(2 * .pi * frequency * Double($0) / Double(rate)))
        }
    }

    func testASineMeasuresAsTheStandardSays() throws {
        // EBU Tech 3341: a 997 Hz sine at full scale, mono, reads -3.01 LUFS; half scale 6.02 lower.
        let meter = try LoudnessMeter(sampleRate: 48_000)
        try meter.add(sine(seconds: 5, amplitude: 0.5))
        let result = try meter.result()
        XCTAssertEqual(try XCTUnwrap(result.integrated), -9.03, accuracy: 0.1)
        XCTAssertEqual(result.truePeak, -6.02, accuracy: 0.1)
    }

    func testSilenceHasNoLoudness() throws {
        let meter = try LoudnessMeter(sampleRate: 48_000)
        try meter.add([Float](repeating: 0, count: 96_000))
        let result = try meter.result()
        XCTAssertNil(result.integrated, "below the -70 LUFS gate")
        XCTAssertEqual(result.truePeak, Loudness.floor)
    }

    func testTheLimiterNeverPassesItsCeilingAndKeepsEverySample() {
        // Speech-like: a quiet bed with sharp peaks, raised 18 dB (peaks would reach +12 dBFS).
        var input = sine(seconds: 2, amplitude: 0.05, frequency: 220)
        for peak in stride(from: 1000, to: input.count, by: 7919) { input[peak] = peak % 2 == 0 ? 0.25 : -0.25 }
        var limiter = Limiter(gainDecibels: 18, ceilingDecibels: -1.5)
        var output: [Float] = []
        for start in stride(from: 0, to: input.count, by: 960) {
            output += limiter.process(Array(input[start..<min(input.count, start + 960)]))
        }
        output += limiter.flush()
        XCTAssertEqual(output.count, input.count, "every sample comes out, none added")
        let ceiling = Float(pow(10, -1.5 / 20))
        XCTAssertLessThanOrEqual(output.map(abs).max() ?? 0, ceiling * 1.0001)
        // Away from the peaks the gain is the full 18 dB, and the delay is `window - 1` samples.
        let gain = Float(pow(10, 18.0 / 20))
        let quietIndex = 500  // aligned with the input: the look-ahead's delay is taken back out
        XCTAssertEqual(output[quietIndex], input[quietIndex] * gain, accuracy: 1e-4)
    }

    func testAQuietSignalPassesUnchangedButForTheGain() {
        let input = sine(seconds: 0.5, amplitude: 0.01)
        var limiter = Limiter(gainDecibels: 6)
        let output = limiter.process(input) + limiter.flush()
        XCTAssertEqual(output.count, input.count)
        let gain = Float(pow(10, 6.0 / 20))
        for i in stride(from: 0, to: input.count, by: 997) {
            XCTAssertEqual(output[i], input[i] * gain, accuracy: 1e-6)
        }
    }

    func testSpeechSpanFindsTheSoundBetweenSilences() throws {
        // 1.5 s of faint noise, 2 s of tone, 1 s of faint noise: the span is the tone plus 0.2 s each side.
        let dir = FileManager.default.temporaryDirectory.path + "/cravey-span-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var parts: [String] = []
        for (i, (seconds, synth)) in [
            (1.5, ["whitenoise", "vol", "0.0003"]), (2.0, ["sine", "440", "vol", "0.5"]),
            (1.0, ["whitenoise", "vol", "0.0003"]),
        ].enumerated() {
            let part = dir + "/part\(i).wav"
            let made = try runProcess(
                "/usr/bin/sox", ["-n", "-r", "48000", "-c", "1", "-b", "16", part, "synth", String(seconds)] + synth)
            XCTAssertEqual(made.status, 0, made.stderr)
            parts.append(part)
        }
        let shaped = dir + "/shaped.wav"
        let joined = try runProcess("/usr/bin/sox", parts + [shaped])
        XCTAssertEqual(joined.status, 0, joined.stderr)
        let analysis = try SoundAnalysis(file: shaped)
        XCTAssertEqual(analysis.duration, 4.5, accuracy: 0.01)
        let span = try XCTUnwrap(analysis.speechSpan())
        XCTAssertEqual(span.start, 1.3, accuracy: 0.011)
        XCTAssertEqual(span.end, 3.7, accuracy: 0.011)
        XCTAssertNotNil(analysis.loudness.integrated)
    }
}
