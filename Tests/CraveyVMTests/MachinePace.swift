import CraveyTestSupport
import Foundation
import XCTest

/// The emulated machine's own pace while a camera records (`Tests/vm/pace.py`, at nice -10): how
/// long the host held the whole machine up. A camera delivers its frames whether or not the
/// machine runs; what the recorder could keep is what came while it ran. So the frames a test
/// asks for are set by the seconds the machine was not held up: frames lost while the host starved
/// it are the host's, frames lost while it ran are cravey's and fail the test. When the host held
/// it up for more than a quarter of the recording, the check is skipped with the figures, never
/// passed.
final class MachinePace {
    private let process = Process()
    private let output = Pipe()

    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
        process.arguments = ["-n", "-10", "/usr/bin/python3", repositoryRoot + "/Tests/vm/pace.py"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Stops the probe: the milliseconds the machine was held up, the longest hold-up, its line.
    func stop() -> (heldMs: Int, longestMs: Int, line: String) {
        if process.isRunning { process.terminate() }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let line = text.split(separator: "\n").last.map(String.init) ?? "vm-pace: said nothing"
        func figure(_ pattern: String) -> Int {
            guard let range = line.range(of: pattern, options: .regularExpression) else { return 0 }
            return Int(line[range].split(separator: " ").first { Int($0) != nil } ?? "") ?? 0
        }
        return (figure(#"held up \d+ ms"#), figure(#"longest \d+ ms"#), line)
    }

    /// At least `share` of the frames a 30 fps camera sent in `seconds` while the machine ran:
    /// fails when cravey kept fewer, skips (with the figures) when the host held the machine up
    /// for more than a quarter of the recording.
    static func assertFramesKept(
        _ kept: Int, in seconds: Double, share: Double, pace: (heldMs: Int, longestMs: Int, line: String),
        _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let ran = seconds - Double(pace.heldMs) / 1000
        print("\(what): \(kept) frames kept in \(seconds) s; \(pace.line)")
        if ran < seconds * 0.75 {
            throw XCTSkip(
                "the host starved the emulated machine: held up \(pace.heldMs) ms of a \(Int(seconds)) s recording (\(what): \(kept) frames kept)"
            )
        }
        XCTAssertGreaterThan(
            kept, Int(share * 30 * ran),
            "\(what): cravey dropped frames while the machine ran (\(pace.line))", file: file, line: line)
    }
}
