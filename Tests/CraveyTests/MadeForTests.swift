import CraveyTestSupport
import Foundation
import XCTest

/// A message can name the triggers it was made for (`--for` on import and edit; the record form
/// asks it of a message for craving moments): kept in the row, shown, exported, and refused
/// whole when a name is not a trigger.
final class MadeForTests: CommandTestCase {
    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess(cravey, arguments + ["--library", root], environment: ["CRAVEY_TRANSCRIBE": "later"])
    }

    func row(_ id: String) throws -> [String: Any] {
        let shown = try run(["show", id, "--json"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
    }

    func testMadeForIsKeptShownEditedAndRefusedWhole() throws {
        let source = base + "/walk.wav"
        XCTAssertEqual(
            try runProcess(
                "/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=330:d=2", source]
            ).status, 0)
        let bad = try run(["import", source, "--for", "anxious,restless"])
        XCTAssertNotEqual(bad.status, 0, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("'restless' is not one of"), bad.stderr)
        XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
        XCTAssertEqual(try run(["list", "--json"]).stdout, "[]\n", "nothing imported")

        let imported = try run(["import", source, "--for", "Bored, anxious", "--json"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let id = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any])?["id"] as? String)
        XCTAssertEqual(try row(id)["forTriggers"] as? String, "anxious,bored", "in the set's order")
        XCTAssertTrue(try run(["show", id]).stdout.contains("made for   anxious, bored"))

        let refused = try run(["edit", id, "--for", "tired,nope"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertEqual(try row(id)["forTriggers"] as? String, "anxious,bored", "a refused edit changes nothing")
        XCTAssertEqual(try run(["edit", id, "--for", "tired"]).status, 0)
        XCTAssertEqual(try row(id)["forTriggers"] as? String, "tired")
        XCTAssertEqual(try run(["edit", id, "--title", "Walk"]).status, 0)
        XCTAssertEqual(try row(id)["forTriggers"] as? String, "tired", "other edits keep it")
        XCTAssertEqual(try run(["edit", id, "--for", "none"]).status, 0)
        XCTAssertEqual(try row(id)["forTriggers"] as? String, "")
        XCTAssertFalse(try run(["show", id]).stdout.contains("made for"))

        let csv = try run(["export", "--format", "csv", "--output", "-"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        XCTAssertTrue(csv.stdout.contains("forTriggers"), csv.stdout)
    }
}
