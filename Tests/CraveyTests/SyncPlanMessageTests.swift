import CraveyTestSupport
import Foundation
import XCTest

/// A plan's message and a craving's message travel with them through the sync folder: the plan
/// made on one machine plays the same message first on the other; a plan whose message's file
/// has not come yet keeps its sentence, waits for the file without a message, and has it once the
/// file is taken in (and its machine never tells the folder it was cleared); a message deleted
/// after the plan leaves the plan without a message on every machine.
final class SyncPlanMessageTests: SyncFoldersTestCase {
    /// `cravey ARGUMENTS --library LIBRARY` with the tests' ALSA devices (a message played goes to
    /// the `file` plugin).
    @discardableResult
    func aloud(_ library: String, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws
        -> String
    {
        let result = try runProcess(
            cravey, arguments + ["--library", library],
            environment: [
                "ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_TRANSCRIBE": "later", "NO_COLOR": "1",
                "TZ": "Europe/Berlin",
            ])
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stdout)\(result.stderr)", file: file, line: line)
        return result.stdout
    }

    /// Imports a one-second tone as a message on `library`; returns its id.
    func message(_ library: String, _ title: String, for trigger: String? = nil) throws -> String {
        let wav = base + "/\(UUID().uuidString.prefix(6)).wav"
        try makeToneWAV(wav, seconds: 1)
        let id = try XCTUnwrap(
            jsonObject(try cravey(library, ["import", wav, "--title", title, "--json"]).stdout)["id"] as? String)
        if let trigger { try cravey(library, ["edit", id, "--for", trigger]) }
        return id
    }

    func plans(_ library: String) throws -> [[String: Any]] {
        try XCTUnwrap(json(try cravey(library, ["plan", "list", "--json"]).stdout) as? [[String: Any]])
    }

    func logs(_ library: String) throws -> [[String: Any]] {
        try XCTUnwrap(json(try logText(library)) as? [[String: Any]])
    }

    /// A plan for boredom on `library` that plays `message`.
    func plan(_ library: String, playing message: String) throws {
        try cravey(
            library, ["plan", "add", "--trigger", "bored", "--instead", "walk round the block", "--message", message])
    }

    func testAPlanMadeOnOneMachinePlaysTheSameMessageFirstOnTheOther() throws {
        let (a, b, shared) = (library("a"), library("b"), try folder("shared"))
        let bored = try message(a, "For boredom", for: "bored")
        let walk = try message(a, "Walk first")
        try plan(a, playing: walk)
        try aloud(a, ["craving", "6", "--trigger", "bored", "--play", "1", "--speaker", "cravey_capture"])
        XCTAssertEqual(try logs(a).first?["recordingId"] as? String, walk)
        try synced(a, ["--folder", shared])
        try synced(b, ["--folder", shared])

        let onB = try XCTUnwrap(try plans(b).first)
        XCTAssertEqual(onB["messageId"] as? String, walk, "\(onB)")
        XCTAssertEqual(onB["message"] as? String, "Walk first")
        XCTAssertEqual(try logs(b).first?["recordingId"] as? String, walk, "the craving's message came with it")
        let offered = try aloud(b, ["craving", "7", "--trigger", "bored"])
        XCTAssertTrue(offered.contains("📝 Your plan for bored: walk round the block"), offered)
        try aloud(b, ["craving", "7", "--trigger", "bored", "--play", "1", "--speaker", "cravey_capture"])
        XCTAssertEqual(try logs(b).first?["recordingId"] as? String, walk, "B's offer plays the plan's message first")

        // The other way round: a plan made once the message is on both machines, and B's craving.
        try cravey(a, ["plan", "add", "--trigger", "sad", "--instead", "call Sam", "--message", bored])
        try synced(b)
        try synced(a)
        try synced(b)
        XCTAssertEqual(try plans(b).map { $0["messageId"] as? String }, [walk, bored])
        XCTAssertEqual(try logs(a).first?["recordingId"] as? String, walk, "B's craving's message, on A")
        XCTAssertEqual(try logText(a), try logText(b))
        try cravey(a, ["check"])
        try cravey(b, ["check"])
    }

    func testAPlanWhoseMessageHasNotComeKeepsItsSentenceAndGetsItsMessageWithTheFile() throws {
        let (a, b) = (library("a"), library("b"))
        let (stickA, stickB) = (try folder("stick-a"), try folder("stick-b"))
        let walk = try message(a, "Walk first")
        try plan(a, playing: walk)
        try synced(a, ["--folder", stickA])
        try synced(b, ["--folder", stickB])
        try carry(a, from: stickA, to: stickB)
        let media = try deviceDirectory(stickB, a) + "/media"
        let file = try XCTUnwrap(try names(media).first)
        let aside = base + "/" + file
        try FileManager.default.moveItem(atPath: media + "/" + file, toPath: aside)  // held back

        try synced(b)
        let waiting = try XCTUnwrap(try plans(b).first)
        XCTAssertEqual(waiting["instead"] as? String, "walk round the block", "its other fields are applied")
        XCTAssertTrue(waiting["messageId"] is NSNull, "no message yet: \(waiting)")
        XCTAssertEqual(
            try cravey(b, ["plan", "list"]).stdout, " 1  bored → walk round the block\n",
            "shown as a plan without a message")
        // B tells the folder nothing of the link it has not got: A keeps its message.
        try carry(b, from: stickB, to: stickA)
        try synced(a)
        XCTAssertEqual(try plans(a).first?["messageId"] as? String, walk)

        try FileManager.default.moveItem(atPath: aside, toPath: media + "/" + file)  // the file comes
        try synced(b)
        let linked = try XCTUnwrap(try plans(b).first)
        XCTAssertEqual(linked["messageId"] as? String, walk, "the link set once the file is taken in")
        XCTAssertEqual(linked["message"] as? String, "Walk first")
        try cravey(b, ["check"])
        XCTAssertEqual(try synced(b)["broughtIn"] as? Int, 0)
        try carry(b, from: stickB, to: stickA)
        try synced(a)
        XCTAssertEqual(try plans(a).first?["messageId"] as? String, walk)
        try cravey(a, ["check"])
    }

    func testAMessageDeletedAfterThePlanLeavesNoMessageOnEveryMachine() throws {
        let (a, b, shared) = (library("a"), library("b"), try folder("shared"))
        let walk = try message(a, "Walk first")
        try plan(a, playing: walk)
        try aloud(a, ["craving", "6", "--trigger", "bored", "--play", "1", "--speaker", "cravey_capture"])
        try synced(a, ["--folder", shared])
        try synced(b, ["--folder", shared])
        XCTAssertEqual(try plans(b).first?["messageId"] as? String, walk)

        try cravey(a, ["delete", walk, "--yes"])
        try synced(a)
        try synced(b)
        try synced(a)
        // A third machine joins after the delete: the plan's line names a message that never comes.
        let c = library("c")
        try synced(c, ["--folder", shared])
        for machine in [a, b, c] {
            let kept = try XCTUnwrap(try plans(machine).first, machine)
            XCTAssertEqual(kept["instead"] as? String, "walk round the block", machine)
            XCTAssertTrue(kept["messageId"] is NSNull, "\(machine): \(kept)")
            XCTAssertTrue(try logs(machine).first?["recordingId"] is NSNull, machine)
            try cravey(machine, ["check"])
        }
        XCTAssertEqual(try logText(a), try logText(b))
        XCTAssertEqual(try logText(a), try logText(c))
    }

    func testAPlanMadeBeforeMessagesTravelledGetsItsMessageOnTheOtherMachineOnTheNextSync() throws {
        let (a, b, shared) = (library("a"), library("b"), try folder("shared"))
        let walk = try message(a, "Walk first")
        try plan(a, playing: walk)
        try synced(a, ["--folder", shared])
        // As a cravey that kept a message on the machine that linked it left A and the folder.
        let sql = "DELETE FROM syncField WHERE field = 'recordingId'; DELETE FROM syncState WHERE key = 'links shared';"
        XCTAssertEqual(try runProcess("/usr/bin/sqlite3", [a + "/library.sqlite", sql]).status, 0)
        let changes = try deviceDirectory(shared, a) + "/changes.jsonl"
        let text = try String(contentsOfFile: changes, encoding: .utf8)
        let kept = text.replacingOccurrences(
            of: "\"recordingId\":\"\(walk)\"", with: "\"recordingId\":null" + String(repeating: " ", count: 34))
        XCTAssertNotEqual(kept, text)
        XCTAssertEqual(kept.utf8.count, text.utf8.count)
        try kept.write(toFile: changes, atomically: false, encoding: .utf8)
        try synced(b, ["--folder", shared])
        XCTAssertTrue(try plans(b).first?["messageId"] is NSNull)

        try synced(a)
        try synced(b)
        XCTAssertEqual(try plans(b).first?["messageId"] as? String, walk, "told once by A's next sync")
        XCTAssertEqual(try synced(a)["written"] as? Int, 0, "once")
        try cravey(a, ["check"])
        try cravey(b, ["check"])
    }
}
