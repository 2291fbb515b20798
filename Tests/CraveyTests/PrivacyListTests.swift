@testable import CraveyLibrary
import CraveyTestSupport
import CraveyTracker
import Foundation
import XCTest

@testable import cravey

/// The privacy statement's list of what is stored is the library as it is: every table of a
/// library cravey makes (read from the database itself), every setting, and every file and folder
/// of its own is named by one of the statement's items, and the statement says each item.
final class PrivacyListTests: CommandTestCase {
    /// The tables of the library at `root` (SQLite's own and a full-text index's shadow tables
    /// left out: they are the index named).
    func tables() throws -> Set<String> {
        let listed = try runProcess(
            "/usr/bin/sqlite3",
            [
                "-readonly", root + "/library.sqlite",
                "SELECT name, sql LIKE 'CREATE VIRTUAL TABLE%' FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
            ])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let rows = listed.stdout.split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
        let virtual = rows.filter { $0.last == "1" }.map { $0[0] + "_" }
        return Set(rows.map { $0[0] }.filter { name in !virtual.contains { name.hasPrefix($0) } })
    }

    func testEveryTableSettingAndFileOfTheLibraryIsInTheStatement() throws {
        let environment = ["CRAVEY_LIBRARY": root, "CRAVEY_TRANSCRIBE": "later"]
        for arguments in [["craving", "4"], ["today", "--dont-remember"]] {
            let made = try runProcess(cravey, arguments, environment: environment)
            XCTAssertEqual(made.status, 0, made.stderr)
        }
        let found = try tables()
        XCTAssertTrue(found.isSuperset(of: ["craving", "usage", "plan", "dayMark", "withdrawalCheck", "selfScreen"]))
        let named = Set(Privacy.kept.flatMap(\.tables))
        XCTAssertEqual(found.subtracting(named).sorted(), [], "tables of the library the statement does not name")
        XCTAssertEqual(named.subtracting(found).sorted(), [], "tables the statement names that the library has not")
        XCTAssertEqual(
            Set(Library.Setting.allCases.map(\.rawValue)), Set(Privacy.kept.flatMap(\.settings)),
            "every setting, and only those")

        let files = Privacy.kept.flatMap(\.files)
        for name in FileStore.ownEntries.keys.sorted() + [NudgeFiles.stateName, NudgeFiles.markName] {
            XCTAssertTrue(files.contains { name.hasPrefix($0) }, "\(name) is not named")
        }
        for name in files { XCTAssertNotNil(FileStore.ownEntries[name], "\(name) is no file of the library") }
        for name in try FileManager.default.contentsOfDirectory(atPath: root) {
            XCTAssertTrue(files.contains { name.hasPrefix($0) }, "\(name), in the library, is not named")
        }

        // The statement says every item, and the files it names by name.
        let privacy = try runProcess(cravey, ["privacy"], environment: environment)
        XCTAssertEqual(privacy.status, 0, privacy.stderr)
        let paragraphs = Privacy.paragraphs(
            privacy.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        for item in Privacy.kept {
            XCTAssertTrue(paragraphs.contains("- " + item.words), "\(item.words) in\n\(privacy.stdout)")
        }
        for word in [
            "plans", "days you answered for", "withdrawal checks", "self-screens", "nudge.state", "cravey-today",
        ] {
            XCTAssertTrue(privacy.stdout.contains(word), word)
        }
        XCTAssertTrue(
            privacy.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 || $0.contains(root) }, privacy.stdout)
    }
}
