import CraveyTestSupport
import Foundation
import XCTest

/// The sync folder as a person meets it on a bad day: a folder that stops answering as it is
/// read (a stick going bad, a network mount gone), not only as it is written.
final class SyncProbeTests: SyncFoldersTestCase {
    /// `cravey ARGUMENTS --library LIBRARY` under strace, every call that touches `shared` (the
    /// folder, its folders and files as they are now) held `delay` first; with how long it took.
    func runWithTheFolderHanging(_ library: String, _ arguments: [String], shared: String, delay: String) throws -> (
        status: Int32, stdout: String, stderr: String, seconds: Double
    ) {
        var tracing = ["-f", "-qq", "-o", "/dev/null"]
        for path in [shared] + (FileManager.default.subpaths(atPath: shared) ?? []).map({ shared + "/" + $0 }) {
            tracing += ["-P", path]
        }
        tracing += ["-e", "inject=all:delay_enter=" + delay, cravey] + arguments + ["--library", library]
        let started = Date()
        let ran = try runProcess(
            "/usr/bin/strace", tracing,
            environment: ["CRAVEY_TRANSCRIBE": "later", "NO_COLOR": "1", "TZ": "Europe/Berlin"])
        return (ran.status, ran.stdout, ran.stderr, Date().timeIntervalSince(started))
    }

    func testAUseIsSaidInMomentsWhenTheFolderStopsAnsweringAsItIsRead() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "strace is not here")
        let (a, b, shared) = try machineWithACraving()
        try synced(b, ["--folder", shared])
        try cravey(b, ["craving", "3", "--notes", "news from the other machine"])  // something new for a

        // Every call on the folder waits a second: reading it whole takes a minute and more.
        let used = try runWithTheFolderHanging(
            a, ["use", "vape", "1", "--notes", "used while it hangs"], shared: shared, delay: "1s")
        XCTAssertEqual(used.status, 0, used.stderr)
        XCTAssertTrue(used.stdout.contains("logged"), used.stdout)
        XCTAssertLessThan(used.seconds, 20, "said and gone in moments, not after the folder's minute")
        XCTAssertTrue(try logText(a).contains("used while it hangs"), "kept in the library")

        // The folder answers again: its news come in, and the use goes out, once.
        let report = try synced(a)
        XCTAssertEqual(report["waiting"] as? Int, 0, "\(report)")
        XCTAssertTrue(try logText(a).contains("news from the other machine"))
        try synced(b)
        XCTAssertTrue(try logText(b).contains("used while it hangs"))
        XCTAssertEqual(try logText(b).components(separatedBy: "used while it hangs").count, 2, "once")
    }
}

extension SyncProbeTests {
    func testTheOtherMachineNamesAnOlderCopyPutBackAsOneAndTakesItAllOnceItIsWrittenAgain() throws {
        let (a, b, shared) = try machineWithACraving()
        try synced(b, ["--folder", shared])
        try cravey(a, ["craving", "5", "--notes", "first of two"])
        let older = try folder("older")
        try carry(a, from: shared, to: older)  // the folder as it was: copied aside
        try cravey(a, ["craving", "6", "--notes", "second of two"])
        try synced(b)
        XCTAssertTrue(try logText(b).contains("second of two"))
        try carry(a, from: older, to: shared)  // the older copy put back

        // b reads a's file shorter than it read it: said as what it most likely is.
        let said = try cravey(b, ["sync"], status: nil)
        let words = said.stdout + said.stderr
        XCTAssertTrue(words.contains("an older copy of the folder put back"), words)
        XCTAssertFalse(words.contains("(rewritten by hand, or two machines writing as one)"), words)

        // a writes its changes again; b takes what is new, each log once, and says nothing more.
        try synced(a)
        try cravey(a, ["craving", "7", "--notes", "after the older copy"])
        try synced(b)
        let logs = try logText(b)
        for note in ["first of two", "second of two", "after the older copy"] {
            XCTAssertEqual(logs.components(separatedBy: note).count, 2, "\(note) once")
        }
        XCTAssertEqual(try cravey(b, ["check"]).status, 0)
    }
}
