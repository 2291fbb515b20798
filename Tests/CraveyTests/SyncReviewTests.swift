import CraveyTestSupport
import Foundation
import XCTest

/// What a review of syncing found, each held here through the built `cravey`: a change this
/// machine kept but could not yet journal is not undone by an older one brought in; the status
/// of a folder that is away says how many changes wait; a use, a plan, a limit and a check-in
/// bring in the other machine's changes as an edit does; a craving brings them in only once it
/// is said to be logged.
final class SyncReviewTests: TwoMachinesCase {
    var shared: String { base + "/shared" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    }

    /// The steps a command passed through, in order (`CRAVEY_FAULT_TRACE`).
    func sites(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }.map {
            String($0.dropFirst("fault-site ".count))
        }
    }

    /// On this machine's own clock (the real one: the journal written when the library opens
    /// stamps by it), the other machine's an hour behind.
    func testAnEditNotYetJournaledIsNotUndoneByAnOlderEditBroughtIn() throws {
        now = nil
        let behind = DateFormatter()
        behind.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        behind.timeZone = TimeZone(identifier: "Europe/Berlin")
        try on(machineA, ["craving", "5", "--notes", "as logged", "--at", "-3h"])
        try synced(machineA, ["--folder", shared])
        try synced(machineB, ["--folder", shared])
        let id = try XCTUnwrap(try logged(machineB).first?["id"] as? String)
        // A edits it, its journal not writable (as on a full disk): the edit is kept in the
        // database and not yet stamped for the folder.
        let failing = ["CRAVEY_FAULT_FAIL": "journal.append"]
        try on(machineA, ["log", "edit", id, "--notes", "from A"], status: nil, environment: failing)
        // B edits it after, its clock an hour behind; A changes a setting (which brings in) while
        // its journal still fails.
        try on(
            machineB, ["log", "edit", id, "--notes", "from B, an hour behind"],
            at: behind.string(from: Date().addingTimeInterval(-3600)))
        try on(machineA, ["settings", "name", "Sam"], status: nil, environment: failing)
        try synced(machineA)
        try synced(machineB)
        XCTAssertEqual(try notes(machineA), ["from A"], "the later edit, made on A, stays")
        XCTAssertEqual(try notes(machineB), ["from A"])
        XCTAssertEqual(try on(machineA, ["log", "--json"]).stdout, try on(machineB, ["log", "--json"]).stdout)
    }

    /// A first sync cut short (here its first look into the folder fails) leaves everything this
    /// machine had to the next sync: the status says so, there and away, never "0 changes wait".
    func testAFirstSyncCutShortSaysEverythingThisMachineHasWaits() throws {
        try on(machineA, ["craving", "3"])
        try on(
            machineA, ["sync", "--folder", shared], status: 1, environment: ["CRAVEY_FAULT_FAIL": "sync.survey"])
        let there = try on(machineA, ["sync", "--status"])
        XCTAssertTrue(
            there.stdout.contains(
                "Everything this machine has is still to be written to the folder (its first sync did not get that far); 'cravey sync' writes it."
            ), there.stdout)
        XCTAssertEqual(try synced(machineA, ["--status"])["historyToShare"] as? Bool, true)
        try FileManager.default.moveItem(atPath: shared, toPath: shared + ".away")
        let away = try on(machineA, ["sync", "--status"], status: 1)
        XCTAssertTrue(away.stdout.contains("Everything this machine has waits here until it is back."), away.stdout)
        XCTAssertFalse(away.stdout.contains("0 changes of this machine"), away.stdout)
        XCTAssertTrue(
            try on(machineA, ["sync"], status: 1).stdout.contains("Everything this machine has waits here until it is.")
        )
        try FileManager.default.moveItem(atPath: shared + ".away", toPath: shared)
        let written = try synced(machineA)
        XCTAssertGreaterThan(written["written"] as? Int ?? 0, 0, "the craving logged before the folder")
        XCTAssertEqual(written["historyToShare"] as? Bool, false)
        XCTAssertFalse(try on(machineA, ["sync", "--status"]).stdout.contains("wait"))
    }

    func testTheStatusOfAFolderThatIsAwaySaysHowManyChangesWait() throws {
        try synced(machineA, ["--folder", shared])
        try FileManager.default.moveItem(atPath: shared, toPath: shared + ".away")
        try on(machineA, ["craving", "3"])
        let one = try on(machineA, ["sync", "--status"], status: 1)
        XCTAssertTrue(one.stdout.contains("(not there now)"), one.stdout)
        XCTAssertTrue(one.stdout.contains("1 change of this machine waits here until it is back."), one.stdout)
        try on(machineA, ["use", "vape", "2"])
        let two = try on(machineA, ["sync", "--status"], status: 1)
        XCTAssertTrue(two.stdout.contains("2 changes of this machine wait here until it is back."), two.stdout)
        XCTAssertTrue(
            try on(machineA, ["sync"], status: 1).stdout.contains("2 changes of this machine wait here until it is."))
        let status = try synced(machineA, ["--status"], status: 1)
        XCTAssertEqual(status["reachable"] as? Bool, false)
        XCTAssertEqual(status["waiting"] as? Int, 2)
        try FileManager.default.moveItem(atPath: shared + ".away", toPath: shared)
        XCTAssertEqual(try synced(machineA)["written"] as? Int, 2)
        XCTAssertFalse(try on(machineA, ["sync", "--status"]).stdout.contains("wait"))
    }

    func testAUseAPlanALimitAndACheckInBringInTheOtherMachinesChanges() throws {
        try synced(machineA, ["--folder", shared])
        try synced(machineB, ["--folder", shared])
        try on(machineA, ["settings", "goal", "cut-down"])
        let commands = [
            ["use", "vape", "2"], ["plan", "add", "--trigger", "bored", "--instead", "a walk round the block"],
            ["limit", "week", "3"], ["limit", "break", "add", "21:00-23:00"],
            ["checkin", "--mood", "okay", "--mic", "cravey_file", "--max-seconds", "1"],
        ]
        for (n, command) in commands.enumerated() {
            let words = "on B, before A's \(command.prefix(2).joined(separator: " "))"
            try on(machineB, ["craving", "\(n + 2)", "--notes", words])
            XCTAssertFalse(try notes(machineA).contains(words))
            try on(machineA, command, environment: ["CRAVEY_ALSA_INFILE": phraseFixture])
            XCTAssertTrue(try notes(machineA).contains(words), "\(command) brought in B's craving")
        }
        // Logs travel; the check-in and the limits stay on the machine they were made on.
        try synced(machineB)
        XCTAssertEqual(try on(machineA, ["log", "--json"]).stdout, try on(machineB, ["log", "--json"]).stdout)
    }

    func testACravingBringsInOnlyOnceItIsSaidToBeLogged() throws {
        // Two logs first: the day's snapshot is taken (the journal emptied) and the journal made
        // again before the craving traced, so the one killed passes the same steps.
        try on(machineA, ["craving", "3", "--notes", "before the folder"])
        try synced(machineA, ["--folder", shared])
        try on(machineA, ["craving", "2", "--notes", "after the folder"])
        try synced(machineB, ["--folder", shared])
        try on(machineB, ["craving", "8", "--notes", "on B"])
        let traced = try on(
            machineA, ["craving", "4", "--notes", "on A"], environment: ["CRAVEY_FAULT_TRACE": "1"])
        XCTAssertTrue(traced.stdout.contains("logged"), traced.stdout)
        XCTAssertTrue(try notes(machineA).contains("on B"), "brought in after the craving")
        let steps = sites(traced.stderr)
        let merged = try XCTUnwrap(steps.firstIndex(of: "sync.merge.commit"), "\(steps)")
        for kept in ["journal.fsync", "sync.fsync"] {
            let index = try XCTUnwrap(steps.firstIndex(of: kept), "\(steps)")
            XCTAssertLessThan(index, merged, "the craving is kept (\(kept)) before anything is brought in: \(steps)")
        }

        // Killed while bringing in: the craving was said, and is kept; the rest comes next time.
        try on(machineB, ["craving", "9", "--notes", "on B, again"])
        let killed = try on(
            machineA, ["craving", "5", "--notes", "killed while bringing in"], status: nil,
            environment: ["CRAVEY_FAULT_KILL_AT": "\(merged + 1)", "CRAVEY_FAULT_TRACE": "1"])
        XCTAssertEqual(killed.status, -9, killed.stderr)
        XCTAssertEqual(sites(killed.stderr).last, "sync.merge.commit", "killed as it brought in")
        XCTAssertTrue(killed.stdout.contains("logged"), "said before it was killed: \(killed.stdout)")
        XCTAssertTrue(try notes(machineA).contains("killed while bringing in"))
        XCTAssertFalse(try notes(machineA).contains("on B, again"))
        try synced(machineA)
        try synced(machineB)
        try assertOneHistory()
    }
}
