import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A command that reads the library, or changes what it holds, on a path where there is no
/// library says so in one line and makes nothing there: no directory, no file. The commands that
/// log still start a library.
final class LibraryNotThereTests: LogTestCase {
    func testCommandsThatNeedALibraryMakeNoneWhereThereIsNone() throws {
        let missing = base + "/new"
        let refused: [[String]] = [
            ["play", "Walk"], ["play", "--top"], ["edit", "Walk", "--title", "Run"], ["delete", "Walk", "--yes"],
            ["show", "Walk"], ["search", "walk"], ["export", "--output", base + "/out.json"], ["report", "--json"],
            ["trim", "Walk", "--to", "0:01"], ["transcribe", "Walk"], ["log", "show", "AB12"],
            ["log", "delete", "AB12", "-y"], ["backup", base + "/stick"], ["check"], ["purge", "--yes"],
            ["checkin", "show", "today"], ["checkin", "play", "2026-01-02"],
        ]
        for command in refused {
            let result = try runProcess(cravey, command + ["--library", missing], environment: env())
            XCTAssertNotEqual(result.status, 0, "\(command): \(result.stdout)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(command): one line: \(result.stderr)")
            for made in [missing, base + "/out.json", base + "/stick"] {
                XCTAssertFalse(FileManager.default.fileExists(atPath: made), "\(command) made \(made)")
            }
        }
        // A listing's honest answer is its empty state.
        let empty: [([String], String)] = [
            (["list"], "No recordings yet."), (["list", "--json"], "[]"), (["top", "--json"], "[]"),
            (["top"], "No recordings yet."), (["log"], "Nothing logged yet."), (["log", "--json"], "[]"),
            (["progress"], "📊 Progress"), (["progress", "--json"], "\"cravings\":0"), (["status"], "cravey"),
            (["checkin", "list"], "No check-ins yet."), (["checkin", "list", "--json"], "[]"),
            (["checkin", "calendar", "2026-02"], "February 2026"),
            (["checkin", "calendar", "2026-02", "--json"], "{\"month\":\"2026-02\",\"today\":"),
        ]
        for (command, words) in empty {
            let result = try runProcess(cravey, command + ["--library", missing], environment: env())
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
            XCTAssertTrue(result.stdout.contains(words), "\(command): \(result.stdout)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "\(command) made \(missing)")
        }
        // The reminder finds no check-in where there is no library, and makes none to find out.
        _ = try runProcess(cravey, ["checkin", "notify", "--library", missing], environment: env())
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "checkin notify made \(missing)")
        let said = try runProcess(cravey, ["check", "--library", base + "/new"], environment: env())
        XCTAssertEqual(
            said.stderr,
            "cravey: there is no cravey library at \(base)/new yet, so there is nothing to read or change there (nothing was made); your first craving, use or recording starts it\n"
        )

        // A file where the library would be is not "nothing logged": it is refused as before.
        FileManager.default.createFile(atPath: base + "/a-file", contents: Data("mine".utf8))
        let file = try runProcess(cravey, ["log", "--library", base + "/a-file"], environment: env())
        XCTAssertEqual(file.status, 1, file.stdout)
        XCTAssertFalse(file.stdout.contains("Nothing logged"), file.stdout)

        // An empty directory is no library either, and stays empty.
        try FileManager.default.createDirectory(atPath: base + "/empty", withIntermediateDirectories: false)
        XCTAssertEqual(try runProcess(cravey, ["check", "--library", base + "/empty"], environment: env()).status, 1)
        XCTAssertEqual(
            try runProcess(cravey, ["progress", "--library", base + "/empty"], environment: env()).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: base + "/empty"), [])

        // A log starts the library, and then the same commands read it.
        try run(["craving", "4"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/library.sqlite"))
        try run(["progress", "--json"])
        try run(["list"])
    }
}

/// A craving kept in `logs.waiting` while another process holds the library is in the very next
/// `progress` and `status`, and counted once after it reaches the database.
final class WaitingLogsReadTests: LogTestCase {
    func testProgressAndStatusCountACravingThatWaitsForTheLibrary() throws {
        try run(["craving", "3"])
        let before = try jsonObject(try run(["progress", "--json", "--range", "all"]).stdout)
        let cravingsToday = { try self.run(["status", "--format", "{cravings}"]).stdout }
        XCTAssertEqual(try cravingsToday(), "1\n")

        let holder = try holdLibraryLock(root: root)
        defer {
            holder.terminate()
            holder.waitUntilExit()
        }
        let logged = try run(["craving", "7"])
        XCTAssertTrue(logged.stdout.contains("logged ✓"), logged.stdout)
        XCTAssertGreaterThan(
            (try? FileManager.default.attributesOfItem(atPath: root + "/logs.waiting")[.size] as? Int) ?? 0, 0,
            "the craving waits for the library")

        let held = try jsonObject(try run(["progress", "--json", "--range", "all"]).stdout)
        XCTAssertNotEqual(
            NSDictionary(dictionary: held), NSDictionary(dictionary: before), "progress counts the waiting craving")
        XCTAssertEqual(try cravingsToday(), "2\n")

        holder.terminate()
        holder.waitUntilExit()
        try run(["log", "--json"])  // takes the library: the waiting craving is written
        XCTAssertEqual(
            (try? FileManager.default.attributesOfItem(atPath: root + "/logs.waiting")[.size] as? Int) ?? 0, 0)
        let after = try jsonObject(try run(["progress", "--json", "--range", "all"]).stdout)
        XCTAssertEqual(
            NSDictionary(dictionary: held), NSDictionary(dictionary: after),
            "the same figures once the craving is in the database")
        XCTAssertEqual(try cravingsToday(), "2\n")
    }
}
