import CraveyTestSupport
import Foundation
import XCTest

/// What comes from outside cravey's own typing: stored text a restored backup or an older version
/// wrote, argument bytes that are not UTF-8, file names as titles, values that start with a dash,
/// a full disk while logging, and refusals that name the option the command really takes.
final class OutsideInputTests: FaultCampaign {
    var root: String { base + "/lib" }

    /// A one-second WAV at `name` in the test's directory.
    func wav(_ name: String) throws -> String {
        let path = base + "/" + name
        let made = try runProcess("/usr/bin/sox", ["-n", "-r", "48000", "-c", "1", path, "synth", "1", "sine", "440"])
        XCTAssertEqual(made.status, 0, made.stderr)
        return path
    }

    /// `script` in bash, in the test's directory (for arguments that are bytes, not UTF-8).
    func bash(_ script: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess("/bin/bash", ["-c", script], environment: ["C": cravey, "CRAVEY_TRANSCRIBE": "later"], directory: base)
    }

    // MARK: - Paths are bytes, names are the person's

    func testAnArgumentThatIsNotUTF8IsRefusedAndNothingIsWritten() throws {
        XCTAssertEqual(try run(["craving", "4"], root).status, 0)
        _ = try wav("memo.wav")
        XCTAssertEqual(try bash("cp memo.wav $'caf\\xe9.wav'").status, 0)
        let cases = [("$C backup $'bk\\xe9' --library lib", "bk\\xE9"), ("$C import $'caf\\xe9.wav' --library lib", "caf\\xE9.wav")]
        for (command, shown) in cases {
            let result = try bash(command)
            assertOneLineError(result, containing: "the argument '\(shown)' is not valid UTF-8", command)
            XCTAssertTrue(result.stderr.contains("convmv"), result.stderr)
            XCTAssertFalse(result.stderr.contains("\u{FFFD}"), "the bad byte is shown escaped, never raw: \(result.stderr)")
        }
        XCTAssertEqual(try bash("test -e $'bk\\xe9' || test -e $'bk\\xef\\xbf\\xbd'").status, 1, "no backup directory under either name")
        XCTAssertEqual(try listed(root).count, 0, "nothing imported")
    }

    func testTextThatStartsWithADashIsSavedAsTyped() throws {
        let craving = try run(["craving", "4", "--notes", "- rough day", "--json"], root)
        XCTAssertEqual(craving.status, 0, craving.stderr)
        let logged = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try run(["log", "--json"], root).stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(logged.first?["notes"] as? String, "- rough day")
        let imported = try run(["import", try wav("memo.wav"), "--title", "-cmd", "--notes", "-x"], root, environment: ["CRAVEY_TRANSCRIBE": "later"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let row = try XCTUnwrap(try listed(root).first)
        XCTAssertEqual(row["title"] as? String, "-cmd")
        XCTAssertEqual(row["notes"] as? String, "-x")
    }

    func listedLogs(_ root: String) throws -> [[String: Any]] {
        let result = try run(["log", "--json"], root)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    func jsonObject(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }
}
