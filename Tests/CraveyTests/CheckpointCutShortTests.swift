import CraveyTestSupport
import Foundation
import XCTest

/// A checkpoint cut short — SQLite copying its write-ahead log into the database when the process
/// was killed or the power went — leaves the database file shorter than its new header says, with
/// the missing pages still in the log. SQLite reads them from there on opening: the library is
/// whole, and is not rebuilt from a snapshot (which would lose what came after it: plays, what the
/// sync folder was last told).
final class CheckpointCutShortTests: CommandTestCase {
    @discardableResult
    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try runProcess(
            cravey, arguments + ["--library", root], environment: ["CRAVEY_TRANSCRIBE": "later", "NO_COLOR": "1"])
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stdout)\(result.stderr)")
        return result
    }

    var database: String { root + "/library.sqlite" }

    /// The rows only the write-ahead log holds (nil: the database could not be read).
    func probes() throws -> Int? {
        let result = try runProcess(
            "/usr/bin/sqlite3", [database, "SELECT count(*) FROM syncState WHERE key LIKE 'probe %'"])
        return result.status == 0 ? Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
    }

    /// A library whose newest pages are only in its write-ahead log (64 rows of 3,000 bytes kept
    /// through SQLite with no checkpoint, the writer then killed before it closed), then the log's
    /// page 1 — the header with the new page count — copied over the database's, as a checkpoint
    /// does first, and the process gone before the pages after it: the file cut short.
    func cutShortCheckpoint() throws -> (log: Data, pageSize: Int) {
        try run(["craving", "5", "--notes", "before"])
        let script = """
            PRAGMA wal_autocheckpoint = 0;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 64)
            INSERT INTO syncState (key, value) SELECT 'probe ' || i, hex(randomblob(1500)) FROM n;
            .shell kill -9 $PPID
            """
        _ = try runProcess("/usr/bin/sqlite3", [database], input: script)
        let log = try Data(contentsOf: URL(fileURLWithPath: database + "-wal"))
        func word(_ at: Int) -> Int { log[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let pageSize = word(8)
        var headerPage: Data?
        var offset = 32
        while offset + 24 + pageSize <= log.count {
            if word(offset) == 1 { headerPage = log[(offset + 24)..<(offset + 24 + pageSize)] }
            offset += 24 + pageSize
        }
        let page = try XCTUnwrap(headerPage, "the log holds the database's first page")
        let before = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: database)[.size] as? Int)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: database))
        try file.write(contentsOf: page)
        try file.close()
        let pages = page[page.startIndex + 28..<page.startIndex + 32].reduce(0) { $0 << 8 | Int($1) }
        XCTAssertGreaterThan(pages * pageSize, before, "the header now names pages the file does not hold")
        return (log, pageSize)
    }

    func testADatabaseCutShortWhoseLogHoldsTheRestIsOpenedWholeNotRebuilt() throws {
        _ = try cutShortCheckpoint()
        let check = try run(["check"])
        let said = check.stdout + check.stderr
        XCTAssertFalse(said.contains("cut short"), said)
        XCTAssertFalse(said.contains("snapshot"), said)
        XCTAssertEqual(try probes(), 64, "every page the log held is there: nothing was rebuilt")
        XCTAssertTrue(try run(["log", "--json"]).stdout.contains("\"before\""))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.contains("damaged") }, [],
            "no database was set aside as damaged")
    }

    func testADatabaseCutShortWhoseLogLostItsLastCommitIsStillRebuilt() throws {
        let (log, pageSize) = try cutShortCheckpoint()
        // The log's last frame torn (a power cut before its bytes were on the disk): its commit is
        // not whole, so SQLite would not take it, and the pages it held are nowhere.
        try log.prefix(log.count - pageSize / 2).write(to: URL(fileURLWithPath: database + "-wal"))
        let check = try runProcess(
            cravey, ["check", "--library", root], environment: ["CRAVEY_TRANSCRIBE": "later", "NO_COLOR": "1"])
        XCTAssertTrue((check.stdout + check.stderr).contains("cut short"), check.stdout + check.stderr)
        XCTAssertTrue(try run(["log", "--json"]).stdout.contains("\"before\""), "the logs come back from the journal")
    }
}
