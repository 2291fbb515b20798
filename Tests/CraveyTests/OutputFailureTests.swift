import CraveyTestSupport
import Foundation
import XCTest

/// Standard output that cannot be written (a full disk behind `>`, here /dev/full): every command
/// that writes there says so in one line and fails, instead of crashing with a report of its
/// insides or ending with status 0 and an empty file; the library is left as it was.
final class OutputFailureTests: CommandTestCase {
    func testAFullDiskBehindTheOutputIsOneLineAndAFailingStatus() throws {
        for intensity in 1...30 {
            let logged = try runProcess(cravey, ["craving", String(intensity % 10 + 1), "--library", root])
            XCTAssertEqual(logged.status, 0, logged.stderr)
        }
        let before = try runProcess(cravey, ["export", "--output", "-", "--format", "json", "--library", root])
        XCTAssertEqual(before.status, 0, before.stderr)
        for arguments in [
            ["log", "--json"], ["log"], ["status"], ["progress", "--json"], ["export", "--output", "-"],
            ["export", "--output", "-", "--format", "json"], ["list", "--json"], ["report", "--json"],
            ["--help"], ["--version"], ["craving", "--help"],
        ] {
            let library = arguments.contains { $0.hasPrefix("--help") || $0 == "--version" } ? [] : ["--library", root]
            let command =
                "exec " + ([cravey] + arguments + library).map(shellQuote).joined(separator: " ") + " > /dev/full"
            let ran = try runProcess("/bin/sh", ["-c", command], environment: ["NO_COLOR": "1"])
            XCTAssertEqual(ran.status, 1, "\(arguments): \(ran.stderr)")
            XCTAssertEqual(
                ran.stderr, "cravey: the output could not be written whole: No space left on device\n", "\(arguments)")
        }
        let after = try runProcess(cravey, ["export", "--output", "-", "--format", "json", "--library", root])
        XCTAssertEqual(after.stdout, before.stdout, "nothing changed")
    }
}
