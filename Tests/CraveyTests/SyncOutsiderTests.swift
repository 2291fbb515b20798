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

    /// The plans on `library`, as `plan list --json` gives them.
    func plans(_ library: String) throws -> [[String: Any]] {
        try XCTUnwrap(json(try cravey(library, ["plan", "list", "--json"]).stdout) as? [[String: Any]])
    }

    /// The first plan's message id on `library` (nil: none).
    func firstPlanMessage(_ library: String) throws -> String? {
        try XCTUnwrap(try plans(library).first, "a plan on \(library)")["messageId"] as? String
    }

    /// The links `library` notes as waiting for a message.
    func waitingLinks(_ library: String) throws -> [String] {
        let result = try runProcess(
            "/usr/bin/sqlite3", [library + "/library.sqlite", "SELECT key FROM syncState WHERE key LIKE 'link %'"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// A hand's edit of `library`'s change file in the folder `shared`: `text` written as `edited`.
    func handEdit(_ shared: String, _ library: String, _ text: String, to edited: String) throws {
        let changes = try deviceDirectory(shared, library) + "/changes.jsonl"
        let before = try String(contentsOfFile: changes, encoding: .utf8)
        let after = before.replacingOccurrences(of: text, with: edited)
        XCTAssertNotEqual(after, before, "\(text) is in the change file")
        try after.write(toFile: changes, atomically: false, encoding: .utf8)
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

    /// Machine A's plan with its message, carried on A's stick to B's, its message's file held
    /// back (put aside at `aside`): B has the plan and waits for its message.
    func planWaitingOnB() throws -> (
        a: String, b: String, stickA: String, stickB: String, water: String, file: String, aside: String
    ) {
        let (a, b) = (library("a"), library("b"))
        let (stickA, stickB) = (try folder("stick-a"), try folder("stick-b"))
        let water = try tone(a, titled: "Water first")
        try planPlaying(a, water)
        try synced(a, ["--folder", stickA])
        try synced(b, ["--folder", stickB])
        try carry(a, from: stickA, to: stickB)
        let media = try deviceDirectory(stickB, a) + "/media"
        let name = try XCTUnwrap(try names(media).first)
        try FileManager.default.moveItem(atPath: media + "/" + name, toPath: base + "/" + name)  // late
        try synced(b)
        XCTAssertNil(try firstPlanMessage(b))
        XCTAssertEqual(try waitingLinks(b).count, 1, "the plan waits for its message")
        return (a, b, stickA, stickB, water, media + "/" + name, base + "/" + name)
    }

    func testAMessageDeletedWhileItsFileWasOnTheWayLeavesNothingWaiting() throws {
        let (a, b, stickA, stickB, water, _, _) = try planWaitingOnB()
        try cravey(a, ["delete", water, "--yes"])
        try synced(a)
        try carry(a, from: stickA, to: stickB)
        try synced(b)
        XCTAssertNil(try firstPlanMessage(b))
        XCTAssertEqual(try waitingLinks(b), [], "the message will never come: the plan waits no more")
        try cravey(b, ["check"])
    }

    func testAPlanRemovedWhileItsMessageWasOnTheWayLeavesNothingWaiting() throws {
        let (_, b, _, _, water, file, aside) = try planWaitingOnB()
        try cravey(b, ["plan", "remove", "1"])
        XCTAssertEqual(try waitingLinks(b), [], "a removed plan waits for nothing")
        // Its message comes after all: a message of the library, no plan's.
        try FileManager.default.moveItem(atPath: aside, toPath: file)
        try synced(b)
        XCTAssertEqual(try waitingLinks(b), [])
        XCTAssertEqual(try plans(b).count, 0)
        XCTAssertEqual(try cravey(b, ["show", water, "--json"]).status, 0, "the message came")
        try cravey(b, ["check"])
    }

    func testAPlanRemovedOnTheOtherMachineWhileItsMessageWasOnTheWayLeavesNothingWaiting() throws {
        let (a, b, stickA, stickB, _, file, _) = try planWaitingOnB()
        try cravey(a, ["plan", "remove", "1"])
        try synced(a)
        try carry(a, from: stickA, to: stickB)
        try FileManager.default.removeItem(atPath: file)  // still on its way
        try synced(b)
        XCTAssertEqual(try plans(b).count, 0)
        XCTAssertEqual(try waitingLinks(b), [], "the plan's delete came: it waits for nothing")
    }

    func testACravingDeletedWhileItsMessageIsAwayLeavesNothingWaiting() throws {
        let (a, b, shared) = (library("a"), library("b"), try folder("shared"))
        try cravey(a, ["craving", "7"])
        try synced(a, ["--folder", shared])
        // A hand's edit: the craving names a message whose line and file have not come yet.
        try handEdit(shared, a, "\"recordingId\":null", to: "\"recordingId\":\"\(UUID().uuidString)\"")
        try synced(b, ["--folder", shared])
        XCTAssertEqual(try waitingLinks(b).count, 1, "the craving waits for its message")
        let logs = try XCTUnwrap(json(try logText(b)) as? [[String: Any]])
        let id = try XCTUnwrap(logs.first?["id"] as? String)
        try cravey(b, ["log", "delete", id, "--yes"])
        XCTAssertEqual(try waitingLinks(b), [], "a deleted craving waits for nothing")
    }

    func testALinkToAMessageWrittenInSmallLettersIsRefusedAndNamed() throws {
        let (a, b, shared) = (library("a"), library("b"), try folder("shared"))
        let water = try tone(a, titled: "Water first")
        try planPlaying(a, water)
        try synced(a, ["--folder", shared])
        // A hand's edit: the plan's link names the message's id in small letters (cravey writes
        // capitals; the same length, so the file stays whole).
        try handEdit(shared, a, "\"recordingId\":\"\(water)\"", to: "\"recordingId\":\"\(water.lowercased())\"")

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

    func testALogLineNamingItsLogInSmallLettersIsRefusedNotAddedTwice() throws {
        let (a, b, shared) = (library("a"), library("b"), try folder("shared"))
        try cravey(a, ["use", "vape", "2", "--notes", "after dinner"])
        try synced(a, ["--folder", shared])
        try synced(b, ["--folder", shared])
        let logs = try XCTUnwrap(json(try logText(b)) as? [[String: Any]])
        XCTAssertEqual(logs.count, 1)
        let id = try XCTUnwrap(logs.first?["id"] as? String)
        // A hand's edit on A's side: the use edited again under its id in small letters. Ids are
        // compared as text, so taking it in would add a second use beside the first.
        try cravey(a, ["log", "edit", id, "--notes", "after a long dinner"])
        let changes = try deviceDirectory(shared, a) + "/changes.jsonl"
        let text = try String(contentsOfFile: changes, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let last = try XCTUnwrap(lines.lastIndex { $0.contains("after a long dinner") })
        lines[last] = Substring(lines[last].replacingOccurrences(of: id, with: id.lowercased()))
        try lines.joined(separator: "\n").write(toFile: changes, atomically: false, encoding: .utf8)

        let sync = try cravey(b, ["sync", "--folder", shared], status: nil)
        XCTAssertNotEqual(sync.status, 0, sync.stdout + sync.stderr)
        XCTAssertTrue((sync.stdout + sync.stderr).contains("its id is not one cravey makes"), sync.stdout + sync.stderr)
        let after = try XCTUnwrap(json(try logText(b)) as? [[String: Any]])
        XCTAssertEqual(after.count, 1, "one use, not two: \(after)")
        XCTAssertEqual(after.first?["notes"] as? String, "after dinner")
    }

    /// The logs' search as v5 to v19 kept it (each entry found by its log's id), put back in
    /// place of the one keyed by row, as a library made before sees it.
    static let searchBefore =
        """
        DROP TABLE logSearch;
        CREATE VIRTUAL TABLE logSearch USING fts5(
          notes, kind UNINDEXED, logId UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2');
        DELETE FROM grdb_migrations WHERE identifier LIKE 'v20:%';
        """ + [("usage", "use"), ("craving", "craving")].map(searchByIdBefore).joined()

    /// One kind of log's part of the search as it was before it was keyed by row.
    static func searchByIdBefore(_ table: String, _ kind: String) -> String {
        let put = "INSERT INTO logSearch (notes, kind, logId)"
        let forget = "DELETE FROM logSearch WHERE kind = '\(kind)' AND logId = old.id"
        return """
            DROP TRIGGER \(table)_search_insert; DROP TRIGGER \(table)_search_update; DROP TRIGGER \(table)_search_delete;
            \(put) SELECT notes, '\(kind)', id FROM \(table) WHERE notes IS NOT NULL;
            CREATE TRIGGER \(table)_search_insert AFTER INSERT ON \(table) WHEN new.notes IS NOT NULL BEGIN
              \(put) VALUES (new.notes, '\(kind)', new.id); END;
            CREATE TRIGGER \(table)_search_update AFTER UPDATE OF notes ON \(table) BEGIN
              \(forget); \(put) SELECT new.notes, '\(kind)', new.id WHERE new.notes IS NOT NULL; END;
            CREATE TRIGGER \(table)_search_delete AFTER DELETE ON \(table) BEGIN \(forget); END;

            """
    }

    /// The ids of the logs `search` finds for `word` on `library`, shortened as it prints them.
    func found(_ word: String, _ library: String) throws -> [String] {
        try cravey(library, ["search", word]).stdout.split(separator: "\n").compactMap { line in
            line.hasPrefix("📝 ") ? String(line.dropFirst(2).prefix(8)) : nil
        }.sorted()
    }

    func testASearchInALibraryMadeBeforeItWasKeyedByRowFollowsEditsDeletesAndTheOtherMachine() throws {
        let (a, b, shared) = (library("a"), library("b"), try folder("shared"))
        try cravey(a, ["craving", "6", "--notes", "walked by the lake"])
        try cravey(a, ["use", "vape", "2", "--notes", "after the lake walk"])
        try cravey(a, ["craving", "3", "--notes", "first draft"])
        let logs = try XCTUnwrap(json(try logText(a)) as? [[String: Any]])
        let ids = logs.map { String(($0["id"] as? String ?? "").prefix(8)) }  // newest first
        XCTAssertEqual(ids.count, 3)
        let (draft, use, lake) = (ids[0], ids[1], ids[2])
        let revert = try runProcess("/usr/bin/sqlite3", [a + "/library.sqlite", Self.searchBefore])
        XCTAssertEqual(revert.status, 0, revert.stderr)
        let migrated = [a + "/library.sqlite", "SELECT count(*) FROM grdb_migrations WHERE identifier LIKE 'v20:%'"]
        XCTAssertEqual(try runProcess("/usr/bin/sqlite3", migrated).stdout, "0\n", "made as before")

        XCTAssertEqual(try found("lake", a), [lake, use].sorted(), "found as before, once the search is keyed by row")
        XCTAssertEqual(try runProcess("/usr/bin/sqlite3", migrated).stdout, "1\n", "keyed by row now")
        try cravey(a, ["log", "edit", draft, "--notes", "second thoughts by the lake"])
        try cravey(a, ["log", "delete", lake, "--yes"])
        try synced(a, ["--folder", shared])
        try synced(b, ["--folder", shared])
        try cravey(b, ["log", "edit", use, "--notes", ""])
        try synced(b)
        try synced(a)
        for machine in [a, b] {
            XCTAssertEqual(try found("lake", machine), [draft], machine)
            XCTAssertEqual(try found("draft", machine), [], "\(machine): the notes as edited")
            XCTAssertEqual(try found("walk", machine), [], "\(machine): a deleted log and cleared notes are not found")
            try cravey(machine, ["check"])
        }
        XCTAssertEqual(try logText(a), try logText(b))
    }

    /// `cravey sync` on `library`, killed at its `step`th step (its status: -9 when killed).
    func syncKilled(_ library: String, at step: Int) throws -> Int32 {
        try runProcess(
            cravey, ["sync", "--library", library],
            environment: [
                "CRAVEY_TRANSCRIBE": "later", "NO_COLOR": "1", "TZ": "Europe/Berlin", "CRAVEY_FAULT_KILL_AT": "\(step)",
            ]
        ).status
    }

    func testASyncKilledAnywhereWhileItSetsAWaitingLinkSetsItOnTheNextSync() throws {
        let (_, b, _, stickB, water, file, aside) = try planWaitingOnB()
        try FileManager.default.moveItem(atPath: aside, toPath: file)  // it comes
        let (libraryBefore, stickBefore) = (base + "/b-before", base + "/stick-b-before")
        XCTAssertEqual(try runProcess("/bin/cp", ["-a", b, libraryBefore]).status, 0)
        XCTAssertEqual(try runProcess("/bin/cp", ["-a", stickB, stickBefore]).status, 0)

        var killed = 0
        for step in 1...40 {
            for (copy, original) in [(libraryBefore, b), (stickBefore, stickB)] {
                try? FileManager.default.removeItem(atPath: original)
                XCTAssertEqual(try runProcess("/bin/cp", ["-a", copy, original]).status, 0)
            }
            let status = try syncKilled(b, at: step)
            try synced(b)
            XCTAssertEqual(try firstPlanMessage(b), water, "killed at step \(step): the link is set")
            XCTAssertEqual(try waitingLinks(b), [], "killed at step \(step)")
            try cravey(b, ["check"])
            guard status == -9 else { break }  // the sync ran whole: every step was tried
            killed += 1
        }
        XCTAssertGreaterThan(killed, 5, "the sync's steps were each killed")
    }

    func testAMessageWhoseFileCameAfterItsLineIsSaidAndWaitsForItsTranscript() throws {
        let (_, b, _, _, water, file, aside) = try planWaitingOnB()
        try FileManager.default.moveItem(atPath: aside, toPath: file)  // it comes
        let sync = try cravey(b, ["sync"]).stdout
        XCTAssertTrue(sync.contains(": 1 change brought in, 0 written."), sync)  // its line, taken in now
        XCTAssertTrue(sync.contains("1 recording came with its file and is here now."), sync)
        XCTAssertEqual(try firstPlanMessage(b), water)
        let jobs = try runProcess("/usr/bin/sqlite3", [b + "/library.sqlite", "SELECT recordingId FROM transcriptJob"])
        XCTAssertEqual(jobs.stdout, water + "\n", "its transcript is on its way, as a message that came with its line")
        XCTAssertEqual(try synced(b)["recordingsTakenIn"] as? Int, 0, "said once")
    }

    func testANewDeviceIdWhileAPlanWaitsForItsMessageKeepsTheWaitAndTheLink() throws {
        let (a, b, stickA, stickB, water, file, aside) = try planWaitingOnB()
        let old = try synced(b, ["--status"])["device"] as? String
        let renamed = try synced(b, ["--new-device"])
        XCTAssertNotEqual(renamed["device"] as? String, old)
        XCTAssertEqual(try waitingLinks(b).count, 1, "still waiting under the new id")
        try FileManager.default.moveItem(atPath: aside, toPath: file)  // it comes
        XCTAssertEqual(try synced(b)["recordingsTakenIn"] as? Int, 1)
        XCTAssertEqual(try firstPlanMessage(b), water)
        XCTAssertEqual(try waitingLinks(b), [])
        try carry(b, from: stickB, to: stickA)
        try synced(a)
        XCTAssertEqual(try firstPlanMessage(a), water, "B told A nothing that clears the link")
        for machine in [a, b] { try cravey(machine, ["check"]) }
    }

    func testAPlanLinkedToACheckInThroughTheFolderOffersNoCheckIn() throws {
        let (a, b, shared) = (library("a"), library("b"), try folder("shared"))
        let recorded = try runProcess(
            cravey, ["checkin", "--mood", "happy", "--mic", "cravey_file", "--max-seconds", "2", "--library", a],
            environment: ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_TRANSCRIBE": "later", "NO_COLOR": "1"])
        XCTAssertEqual(recorded.status, 0, recorded.stderr)
        let entries = try XCTUnwrap(json(try cravey(a, ["checkin", "list", "--json"]).stdout) as? [[String: Any]])
        let entry = try XCTUnwrap(entries.first?["id"] as? String)
        let water = try tone(a, titled: "Water first")
        try synced(a, ["--folder", shared])
        let changes = try deviceDirectory(shared, a) + "/changes.jsonl"
        // A hand's edit of A's newest plan line: its message made the check-in (the same length).
        func linkToTheEntry() throws {
            let text = try String(contentsOfFile: changes, encoding: .utf8)
            let edited = text.replacingOccurrences(
                of: "\"recordingId\":\"\(water)\"", with: "\"recordingId\":\"\(entry)\"")
            XCTAssertNotEqual(edited, text)
            try edited.write(toFile: changes, atomically: false, encoding: .utf8)
        }

        // The plan's line and the check-in come in one sync (the entry taken in after the plan).
        try planPlaying(a, water)
        try synced(a)
        try linkToTheEntry()
        try synced(b, ["--folder", shared])
        XCTAssertNil(try firstPlanMessage(b), "a check-in is never a plan's message")
        // The check-in here first, then a plan line that names it.
        try cravey(a, ["plan", "add", "--trigger", "sad", "--instead", "call Sam", "--message", water])
        try synced(a)
        try linkToTheEntry()
        try synced(b)
        let plans = try XCTUnwrap(json(try cravey(b, ["plan", "list", "--json"]).stdout) as? [[String: Any]])
        XCTAssertEqual(plans.count, 2)
        XCTAssertEqual(plans.filter { $0["messageId"] is NSNull }.count, 2, "\(plans)")
        let offered = try cravey(b, ["craving", "6", "--trigger", "sad"]).stdout
        XCTAssertFalse(offered.contains("Check-in"), offered)
        XCTAssertEqual(try waitingLinks(b), [])
        try cravey(b, ["check"])
    }
}
