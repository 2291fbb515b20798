import CraveyTestSupport
import Foundation
import XCTest

/// The README's quoted `status` screens are the real output: the same logs (a first craving 29
/// days ago, a use 27 days ago, two cravings today more than 2 hours ago), at the same moment.
final class ReadmeStatusScreensTests: CommandTestCase {
    func testTheQuotedStatusLinesAreTheRealOnes() throws {
        let environment = [
            "NO_COLOR": "1", "TZ": "UTC", "CRAVEY_TRANSCRIBE": "later", "CRAVEY_NOW": "2026-11-19T18:00:00",
        ]
        func run(_ arguments: [String]) throws -> String {
            let result = try runProcess(cravey, arguments + ["--library", root], environment: environment)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        try run(["craving", "6", "--at", "2026-10-21 20:00"])
        try run(["use", "bowls", "1", "--at", "2026-10-23 21:00"])
        try run(["craving", "5", "--at", "2026-11-19 09:00"])
        try run(["craving", "4", "--at", "2026-11-19 13:30"])
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        for (arguments, quoted) in [
            (["status"], "$ cravey status\n"),
            (["status", "--discreet"], "$ cravey status --discreet "),
            (
                ["status", "--format", "{days}d {since} {resisted}✓"],
                "$ cravey status --format '{days}d {since} {resisted}✓'\n"
            ),
            (["status", "--json"], "$ cravey status --json "),
        ] {
            let out = try run(arguments)
            let at = try XCTUnwrap(readme.range(of: quoted), "README quotes \(arguments)")
            let next = readme[at.upperBound...].drop { $0 != "\n" }.dropFirst()
            let line =
                quoted.hasSuffix("\n") ? readme[at.upperBound...].prefix { $0 != "\n" } : next.prefix { $0 != "\n" }
            XCTAssertEqual(String(line) + "\n", out, "README's line after '\(quoted)'")
        }
    }
}
