import CraveyMedia
import CraveyTestSupport
import XCTest

/// Capture through real libasound, from the `file`-plugin device of Media/alsa.
final class AudioInputTests: XCTestCase {
    override func setUp() {
        setenv("ALSA_CONFIG_PATH", testALSAConfig, 1)
        setenv("CRAVEY_ALSA_INFILE", phraseFixture, 1)
    }

    func testCapturesTheFixtureSampleForSample() throws {
        let input = try AudioInput(device: "cravey_file")
        XCTAssertEqual(input.sampleRate, 48_000)
        var captured: [Float] = []
        while captured.count < 4 * 48_000 {
            captured += try input.read(limit: 4 * 48_000 - captured.count)
        }
        let source = try readS16(phraseFixture)
        XCTAssertEqual(captured.count, source.count)
        XCTAssertEqual(captured, source, "the file plugin delivers the fixture unchanged")
    }

    func testUnknownDeviceIsAClearError() {
        XCTAssertThrowsError(try AudioInput(device: "no_such_mic")) { error in
            XCTAssertTrue("\(error)".hasPrefix("open microphone 'no_such_mic': "), "\(error)")
        }
    }

    func testDeviceHintsListTheTestMicrophone() throws {
        let mics = try AudioDevice.microphones()
        XCTAssertTrue(mics.contains { $0.name == "cravey_file" }, "\(mics.map(\.name))")
    }
}
