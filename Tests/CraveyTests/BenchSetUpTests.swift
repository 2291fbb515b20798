import CraveyTestSupport
import Foundation
import XCTest

/// The benchmarks' set-up, run once by the suite so a break is seen before a benchmark run: every
/// script parses, and the webcam benchmark reads its encoder settings from the program
/// (`devices --json`), never from the source text.
final class BenchSetUpTests: XCTestCase {
    func testEveryBenchmarkScriptParses() throws {
        let folder = repositoryRoot + "/Tests/bench"
        let scripts = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".sh") }
        XCTAssertGreaterThan(scripts.count, 10)
        for script in scripts {
            let parsed = try runProcess("/bin/bash", ["-n", folder + "/" + script])
            XCTAssertEqual(parsed.status, 0, "\(script): \(parsed.stderr)")
        }
    }

    func testTheWebcamBenchmarkReadsTheEncoderSettingsFromTheProgram() throws {
        let check = try runProcess(
            "/bin/bash", [repositoryRoot + "/Tests/bench/webcam.sh", "--check"],
            environment: ["CRAVEY_BINARY": productPath("cravey")])
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertEqual(
            check.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
            "webcam.sh: x264 veryfast crf 23 threads 2 (rc-lookahead=5)")
    }

    /// A program that names no encoder settings fails the benchmark in one line that says so.
    func testAMissingSettingFailsLoudlyInOneLine() throws {
        let check = try runProcess(
            "/bin/bash", [repositoryRoot + "/Tests/bench/webcam.sh", "--check"],
            environment: ["CRAVEY_BINARY": "/bin/true"])
        XCTAssertNotEqual(check.status, 0)
        XCTAssertTrue(check.stderr.contains("webcam.sh: cravey devices --json names no encoder settings"), check.stderr)
    }
}
