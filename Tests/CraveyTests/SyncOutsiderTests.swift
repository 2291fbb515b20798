import CraveyTestSupport
import Foundation
import XCTest

/// A person's look at a plan's and a craving's message travelling between two machines, from
/// outside: the message deleted before the other machine took the plan in, and a line that names
/// the message in a form cravey never writes. Nothing waits for ever for a message that will never
/// come, and what the folder holds that cravey would not make is refused and named.
final class SyncOutsiderTests: SyncFoldersTestCase {
    /// A one-second tone imported as a message on `library`, its id.
    func tone(_ library: String, titled title: String) throws -> String {
        let wav = base + "/\(title.filter(\.isLetter)).wav"
        try makeToneWAV(wav, seconds: 1)
        let imported = try jsonObject(try cravey(library, ["import", wav, "--title", title, "--json"]).stdout)
        return try XCTUnwrap(imported["id"] as? String)
    }

    /// The first plan's message id on `library` (nil: none).
    func firstPlanMessage(_ library: String) throws -> String? {
        let listed = try XCTUnwrap(json(try cravey(library, ["plan", "list", "--json"]).stdout) as? [[String: Any]])
        return try XCTUnwrap(listed.first, "a plan on \(library)")["messageId"] as? String
    }

    /// The links `library` notes as waiting for a message.
    func waitingLinks(_ library: String) throws -> [String] {
        let result = try runProcess(
            "/usr/bin/sqlite3", [library + "/library.sqlite", "SELECT key FROM syncState WHERE key LIKE 'link %'"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// A plan on `library` for boredom that plays `message`.
    func planPlaying(_ library: String, _ message: String) throws {
        try cravey(
            library, ["plan", "add", "--trigger", "bored", "--instead", "a glass of water", "--message", message])
    }

    func testAMessageDeletedBeforeTheOtherMachineTookThePlanInLeavesNothingWaiting() throws {
        let (a, b, shared) = (library("a"), library("b"), try folder("shared"))
        let water = try tone(a, titled: "Water first")
        try planPlaying(a, water)
        try synced(a, ["--folder", shared])
        try cravey(a, ["delete", water, "--yes"])
        try synced(a)

        // B takes in the plan's line (naming the message) and the message's delete in one sync.
        try synced(b, ["--folder", shared])
        XCTAssertNil(try firstPlanMessage(b))
        XCTAssertEqual(try waitingLinks(b), [], "nothing waits for a message that was deleted")
        try synced(b)
        XCTAssertEqual(try waitingLinks(b), [])
        try cravey(b, ["check"])
    }

    func testAMessageDeletedWhileItsFileWasOnTheWayLeavesNothingWaiting() throws {
        let (a, b) = (library("a"), library("b"))
        let (stickA, stickB) = (try folder("stick-a"), try folder("stick-b"))
        let water = try tone(a, titled: "Water first")
        try planPlaying(a, water)
        try synced(a, ["--folder", stickA])
        try synced(b, ["--folder", stickB])
        try carry(a, from: stickA, to: stickB)
        let media = try deviceDirectory(stickB, a) + "/media"
        for name in try names(media) { try FileManager.default.removeItem(atPath: media + "/" + name) }  // late
        try synced(b)
        XCTAssertNil(try firstPlanMessage(b))
        XCTAssertEqual(try waitingLinks(b).count, 1, "the plan waits for its message")

        try cravey(a, ["delete", water, "--yes"])
        try synced(a)
        try carry(a, from: stickA, to: stickB)
        try synced(b)
        XCTAssertNil(try firstPlanMessage(b))
        XCTAssertEqual(try waitingLinks(b), [], "the message will never come: the plan waits no more")
        try cravey(b, ["check"])
    }

    func testALinkToAMessageWrittenInSmallLettersIsRefusedAndNamed() throws {
        let (a, b, shared) = (library("a"), library("b"), try folder("shared"))
        let water = try tone(a, titled: "Water first")
        try planPlaying(a, water)
        try synced(a, ["--folder", shared])
        // A hand's edit: the plan's link names the message's id in small letters (cravey writes
        // capitals; the same length, so the file stays whole).
        let changes = try deviceDirectory(shared, a) + "/changes.jsonl"
        let text = try String(contentsOfFile: changes, encoding: .utf8)
        let edited = text.replacingOccurrences(
            of: "\"recordingId\":\"\(water)\"", with: "\"recordingId\":\"\(water.lowercased())\"")
        XCTAssertNotEqual(edited, text)
        try edited.write(toFile: changes, atomically: false, encoding: .utf8)

        let sync = try cravey(b, ["sync", "--folder", shared], status: nil)
        XCTAssertNotEqual(sync.status, 0, sync.stdout + sync.stderr)
        let words = sync.stdout + sync.stderr
        XCTAssertTrue(words.contains("recordingId is not the id of a recording cravey makes"), words)
        XCTAssertEqual(try waitingLinks(b), [], "nothing waits for a message under a name cravey never gives")
        let check = try cravey(b, ["check"], status: nil)
        XCTAssertTrue(
            (check.stdout + check.stderr).contains("recordingId is not the id of a recording cravey makes"),
            check.stdout + check.stderr)
    }
}
