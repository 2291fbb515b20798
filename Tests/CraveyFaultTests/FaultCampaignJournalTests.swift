import CraveyTestSupport
import Foundation
import XCTest

/// The fault campaign's journal cases: a torn end of the journal (cut short, or the zeros a power
/// cut leaves) then a log then a lost database, and a line that cannot be replayed. Nothing saved
/// or typed is lost, nothing foreign is touched, and the library stays usable.
final class FaultCampaignJournalTests: FaultCampaign {
    func testATornJournalThenALogThenALostDatabaseLosesNothing() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        XCTAssertEqual(try run(["craving", "4", "--notes", "before"], root).status, 0)
        for (index, tail) in [Data(#"{"id":"4C2E","kind":"cra"#.utf8), Data(count: 4096)].enumerated() {
            Self.faults += 1
            let handle = try XCTUnwrap(FileHandle(forWritingAtPath: root + "/logs.journal"))
            try handle.seekToEnd()
            try handle.write(contentsOf: tail)
            try handle.close()
            let typed = try run(["craving", "6", "--notes", "typed-after-\(index)"], root)
            XCTAssertEqual(typed.status, 0, typed.stderr)
            for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
            let logs = try run(["log"], root)
            XCTAssertEqual(logs.status, 0, logs.stderr)
            for note in ["before"] + (0...index).map({ "typed-after-\($0)" }) where !logs.stdout.contains(note) {
                Self.lost += 1
                XCTFail("the log '\(note)' was lost: \(logs.stdout)")
            }
            try assertIntact(baseline, "a torn journal (\(index == 0 ? "cut short" : "zeros")), a log, a lost database")
        }
    }

    func testALineThatCannotBeReplayedLeavesTheLibraryUsable() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        XCTAssertEqual(try run(["craving", "4", "--notes", "before"], root).status, 0)
        Self.faults += 1
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: root + "/logs.journal"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"id":"name","kind":"setting","row":{"futureColumn":"x"}}"#.utf8 + [0x0A]))
        try handle.close()
        for suffix in ["", "-wal", "-shm"] { unlink(root + "/library.sqlite" + suffix) }
        for arguments in [["craving", "5", "--notes", "after"], ["check", "--repair"], ["log"]] {
            let result = try run(arguments, root)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("SQLite error"), result.stderr)
        }
        let logs = try run(["log"], root).stdout
        XCTAssertTrue(logs.contains("before") && logs.contains("after"), logs)
        try assertIntact(baseline, "a journal line that cannot be replayed")
    }
}
