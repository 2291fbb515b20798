import CraveyTestSupport
import Foundation
import XCTest

/// The benchmarks' set-up, run once by the suite so a break is seen before a benchmark run: every
/// script parses, the library benchmarks' way of making a library makes one, and the webcam
/// benchmark reads its encoder settings from the program (`devices --json`), never from the
/// source text.
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

    /// The library benchmarks make their libraries with a write that changes nothing (`settings
    /// name --clear`; a read such as `list` or `log` makes no library, and they stopped at their
    /// first query when they relied on one): it makes the library, and each of them uses it.
    func testTheLibraryBenchmarksMakeTheirLibraryWithAWrite() throws {
        let folder = FileManager.default.temporaryDirectory.path + "/bench-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try runProcess(productPath("cravey"), ["settings", "name", "--clear", "--library", folder + "/lib"])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/lib/library.sqlite"), made.stdout)
        for script in ["library.sh", "logs.sh", "report.sh", "status.sh"] {
            let text = try String(contentsOfFile: repositoryRoot + "/Tests/bench/" + script, encoding: .utf8)
            XCTAssertTrue(text.contains("settings name --clear"), "\(script) makes its library with a write")
        }
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
