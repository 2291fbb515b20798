import CraveyTestSupport
import Foundation
import XCTest

/// Every read-only command's plain form, printed into a pipe, ends with a newline: a prompt or
/// the next command's output starts on a line of its own, and `wc -l` counts the last line.
final class PlainOutputEndsTests: CommandTestCase {
    var environment: [String: String] {
        ["NO_COLOR": "1", "TZ": "UTC", "CRAVEY_TRANSCRIBE": "later", "LANG": "C.UTF-8", "CRAVEY_LIBRARY": root]
    }

    /// The commands that only read, each as typed without a terminal.
    let readers: [[String]] = [
        ["progress"], ["progress", "--range", "30d"], ["progress", "--range", "all"], ["progress", "--json"],
        ["status"], ["status", "--json"], ["status", "--discreet"], ["status", "--format", "{since} {resisted}"],
        ["log"], ["log", "--json"], ["log", "show", "1"], ["list"], ["list", "--json"], ["top"], ["top", "--json"],
        ["checkin", "list"], ["checkin", "calendar"],
        ["search", "vape"], ["settings"], ["settings", "--json"], ["settings", "price"], ["privacy"],
        ["report", "--json"], ["check"], ["--version"],
        ["help", "progress"],
    ]

    func testEveryReadOnlyCommandEndsItsOutputWithANewline() throws {
        for arguments in [["settings", "goal", "quit"], ["craving", "7"], ["use", "vape", "2"]] {
            let made = try runProcess(cravey, arguments, environment: environment)
            XCTAssertEqual(made.status, 0, "cravey \(arguments.joined(separator: " ")): \(made.stderr)")
        }
        let entries = try json(
            try runProcess(cravey, ["log", "--json"], environment: environment).stdout)
        let first = try XCTUnwrap((entries as? [[String: Any]])?.first?["id"], "the log lists an entry")
        for arguments in readers {
            let typed = arguments == ["log", "show", "1"] ? ["log", "show", "\(first)"] : arguments
            let result = try runProcess(cravey, typed, environment: environment)
            let place = "cravey \(typed.joined(separator: " "))"
            XCTAssertEqual(result.status, 0, "\(place): \(result.stderr)")
            XCTAssertFalse(result.stdout.isEmpty, "\(place) prints something")
            XCTAssertTrue(
                result.stdout.hasSuffix("\n"), "\(place) ends without a newline: …\(result.stdout.suffix(60))")
        }
    }
}
