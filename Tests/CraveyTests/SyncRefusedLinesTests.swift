import CraveyTestSupport
import Foundation
import XCTest

/// Lines in another machine's change file that cravey refuses, from outside: a line whose counter
/// is far ahead (a corrupt or tampered line) stops nothing after it, before and after that
/// machine compacts, and is never shown as taken in; a hundred thousand junk lines are named a
/// few, then counted in one line, and the good lines after them come in; a recording's line that
/// waits for its file is not said to be brought in until it is.
final class SyncRefusedLinesTests: SyncFoldersTestCase {
    /// Machine A's device folder carried from `stickA` to `stickB`, with `lines` put into its
    /// change file after its first line there (a file a hand or a fault changed on the way).
    func carry(_ a: String, from stickA: String, to stickB: String, inserting lines: String) throws {
        try carry(a, from: stickA, to: stickB)
        let changes = try deviceDirectory(stickB, a) + "/changes.jsonl"
        let text = try String(contentsOfFile: changes, encoding: .utf8)
        let first = try XCTUnwrap(text.firstIndex(of: "\n"))
        let edited = text[...first] + lines + text[text.index(after: first)...]
        try edited.write(toFile: changes, atomically: false, encoding: .utf8)
    }

    func intensities(_ library: String) throws -> [Int] {
        let logs = try XCTUnwrap(json(try logText(library)) as? [[String: Any]])
        return logs.compactMap { $0["intensity"] as? Int }.sorted()
    }

    func device(_ library: String) throws -> String {
        try XCTUnwrap(try synced(library, ["--status"], status: nil)["device"] as? String)
    }

    /// The changes `sync --status` shows taken in of `device`.
    func changesShown(_ library: String, of device: String) throws -> Int? {
        let devices = try XCTUnwrap(try synced(library, ["--status"], status: nil)["devices"] as? [[String: Any]])
        return devices.first { $0["device"] as? String == device }?["changes"] as? Int
    }

    func syncStateRows(_ library: String, like pattern: String) throws -> [String] {
        let result = try runProcess(
            "/usr/bin/sqlite3",
            [library + "/library.sqlite", "SELECT value FROM syncState WHERE key LIKE '\(pattern)' ORDER BY key"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// Machines A and B, each with a folder of its own (A's carried to B's by hand), A with a
    /// craving of 4 written to its folder; and A's device id.
    func twoMachinesWithACraving() throws -> (
        a: String, b: String, stickA: String, stickB: String, other: String
    ) {
        let (a, b) = (library("a"), library("b"))
        let (stickA, stickB) = (try folder("stick-a"), try folder("stick-b"))
        try cravey(a, ["craving", "4"])
        try synced(a, ["--folder", stickA])
        try synced(b, ["--folder", stickB])
        return (a, b, stickA, stickB, try device(a))
    }

    func testALineWithACounterFarAheadStopsNothingAfterItBeforeOrAfterACompaction() throws {
        let (a, b, stickA, stickB, other) = try twoMachinesWithACraving()
        let junk =
            #"{"clock":[1,0],"counter":900000000000000,"device":"\#(other)","id":"\#(UUID().uuidString)","kind":"craving","row":{"intensity":9}}"#
            + "\n"

        // A's next craving comes after the line cravey refuses: it is taken in, the line named.
        try cravey(a, ["craving", "5"])
        try synced(a)
        try carry(a, from: stickA, to: stickB, inserting: junk)
        let looked = try cravey(b, ["sync", "--status"], status: nil).stdout
        XCTAssertFalse(looked.contains("--new-device") || looked.contains("goes back"), looked)
        let first = try cravey(b, ["sync", "--json"], status: 1)
        let report = try jsonObject(first.stdout)
        XCTAssertEqual(report["broughtIn"] as? Int, 2, "\(report)")
        XCTAssertEqual(try intensities(b), [4, 5])
        let problems = try XCTUnwrap(report["problems"] as? [String])
        XCTAssertTrue(
            problems.contains {
                $0.hasPrefix("change 900000000000000 of device \(other) was not applied: its clock is not a time")
            }, "\(problems)")
        XCTAssertFalse(problems.contains { $0.contains("--new-device") || $0.contains("goes back") }, "\(problems)")
        XCTAssertEqual(try changesShown(b, of: other), 2, "what the refused line says of itself is not shown")
        let status = try cravey(b, ["sync", "--status"], status: 1).stdout
        XCTAssertFalse(status.contains("900000000000000 changes"), status)

        // A compacts, then logs again: B takes in what comes after, and the refused line (no
        // longer in the folder) is named no more.
        try synced(a, ["--compact"])
        try cravey(a, ["craving", "6"])
        try synced(a)
        try carry(a, from: stickA, to: stickB)
        XCTAssertEqual(try synced(b)["broughtIn"] as? Int, 1)
        XCTAssertEqual(try intensities(b), [4, 5, 6])
        XCTAssertEqual(try changesShown(b, of: other), 3)
        try cravey(b, ["check"])
    }

    /// Two refused lines naming one counter are two lines named, each kept as its own note.
    func testTwoRefusedLinesNamingOneCounterAreBothNamed() throws {
        let (a, b, stickA, stickB, other) = try twoMachinesWithACraving()
        let junk = (1...2).map { intensity in
            #"{"clock":[1,0],"counter":900000000000000,"device":"\#(other)","id":"\#(UUID().uuidString)","kind":"craving","row":{"intensity":\#(intensity)}}"#
                + "\n"
        }.joined()
        try cravey(a, ["craving", "5"])
        try synced(a)
        try carry(a, from: stickA, to: stickB, inserting: junk)
        let report = try jsonObject(try cravey(b, ["sync", "--json"], status: 1).stdout)
        XCTAssertEqual(report["broughtIn"] as? Int, 2, "\(report)")
        let problems = try XCTUnwrap(report["problems"] as? [String])
        XCTAssertEqual(
            problems.filter { $0.hasPrefix("change 900000000000000 of device \(other) was not applied") }.count, 2,
            "\(problems)")
        XCTAssertEqual(try syncStateRows(b, like: "refused %").count, 2)
        // Synced again, the same two, not four.
        try cravey(b, ["sync"], status: 1)
        XCTAssertEqual(try syncStateRows(b, like: "refused %").count, 2)
    }

    func testAHundredThousandJunkLinesAreNamedAFewThenCountedAndTheGoodLinesAfterThemComeIn() throws {
        let (a, b, stickA, stickB, other) = try twoMachinesWithACraving()
        let junk = String(repeating: "x\n", count: 100_000)

        try cravey(a, ["craving", "5"])
        try synced(a)
        try carry(a, from: stickA, to: stickB, inserting: junk)
        let sync = try cravey(b, ["sync"], status: 1)
        XCTAssertTrue(sync.stdout.contains(": 2 changes brought in, 0 written."), sync.stdout)
        XCTAssertEqual(try intensities(b), [4, 5], "the good line after the junk came in")
        let said = sync.stdout.split(separator: "\n")
        XCTAssertLessThan(said.count, SyncRefusedLinesTests.named + 10, sync.stdout)
        XCTAssertEqual(said.filter { $0.contains("is not a change cravey reads") }.count, SyncRefusedLinesTests.named)
        let more = "and \(100_000 - SyncRefusedLinesTests.named) more lines of device \(other) were refused"
        XCTAssertTrue(said.contains { $0.hasPrefix(more) }, sync.stdout)
        XCTAssertEqual(try syncStateRows(b, like: "refused %").count, SyncRefusedLinesTests.named + 1)
        let check = try cravey(b, ["check"], status: 1)
        XCTAssertLessThan(check.stdout.split(separator: "\n").count, SyncRefusedLinesTests.named + 10, check.stdout)

        // Synced again, and with a later craving after the junk: the count stays what it was.
        try cravey(b, ["sync"], status: 1)
        try cravey(a, ["craving", "6"])
        try synced(a)
        try carry(a, from: stickA, to: stickB, inserting: junk)
        let again = try cravey(b, ["sync"], status: 1).stdout
        XCTAssertTrue(again.contains(": 1 change brought in, 0 written."), again)
        XCTAssertEqual(try intensities(b), [4, 5, 6])
        XCTAssertTrue(again.split(separator: "\n").contains { $0.hasPrefix(more) }, again)
        XCTAssertEqual(try syncStateRows(b, like: "refused %").count, SyncRefusedLinesTests.named + 1)
    }

    /// How many refused lines of one device are named each (`SyncStream.refusalsNamed`).
    static let named = 20

    func testARecordingsLineWaitingForItsFileIsBroughtInOnceItIsTakenIn() throws {
        let (a, b) = (library("a"), library("b"))
        let (stickA, stickB) = (try folder("stick-a"), try folder("stick-b"))
        let wav = base + "/water.wav"
        try makeToneWAV(wav, seconds: 1)
        try cravey(a, ["import", wav, "--title", "Water first"])
        try synced(a, ["--folder", stickA])
        try synced(b, ["--folder", stickB])
        try carry(a, from: stickA, to: stickB)
        let media = try deviceDirectory(stickB, a) + "/media"
        let name = try XCTUnwrap(try names(media).first)
        try FileManager.default.moveItem(atPath: media + "/" + name, toPath: base + "/" + name)  // late

        let waiting = try cravey(b, ["sync"], status: nil).stdout
        XCTAssertTrue(waiting.contains(": 0 changes brought in, 0 written."), waiting)
        let check = try cravey(b, ["check"], status: nil)
        XCTAssertTrue(check.stdout.contains("a recording from device"), check.stdout)  // said there, waiting
        try FileManager.default.moveItem(atPath: base + "/" + name, toPath: media + "/" + name)  // it comes
        let taken = try synced(b)
        XCTAssertEqual(taken["broughtIn"] as? Int, 1, "\(taken)")
        XCTAssertEqual(taken["recordingsTakenIn"] as? Int, 1, "\(taken)")
        XCTAssertEqual(try synced(b)["broughtIn"] as? Int, 0, "brought in once")
    }
}
