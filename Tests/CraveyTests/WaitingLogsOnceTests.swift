import CraveyTestSupport
import Foundation
import XCTest

/// What waits in `logs.waiting` while another process holds the library, through the binary: a
/// play's count put in again after a run that stopped between its commit and emptying the file is
/// counted once, and something planted in the file's place (a FIFO) never holds a command.
final class WaitingLogsOnceTests: SyncMachinesTestCase {
    /// A play kept while the library was held is counted by the next command; that command stops
    /// after its commit and before it empties the file (as a kill there would): the command after
    /// it finds the same line again and counts nothing more, here and in what the folder is told.
    func testAPlayPutInAgainAfterARunStoppedBeforeItEmptiedTheFileIsCountedOnce() throws {
        let walk = try message("Walk", on: machineA)
        let device = try XCTUnwrap(try sync(machineA, ["--folder", stickA])["device"] as? String)
        let holder = try holdLibraryLock(root: machineA)
        try play(walk, on: machineA)
        holder.terminate()
        holder.waitUntilExit()
        let waiting = try String(contentsOfFile: machineA + "/logs.waiting", encoding: .utf8)
        XCTAssertTrue(waiting.contains("\"play\""), waiting)

        let stopped = try runProcess(
            cravey, ["craving", "3", "--library", machineA],
            environment: environment.merging(["CRAVEY_FAULT_FAIL": "waiting.trim"]) { $1 })
        XCTAssertEqual(stopped.status, 0, stopped.stderr)
        XCTAssertEqual(
            try String(contentsOfFile: machineA + "/logs.waiting", encoding: .utf8), waiting,
            "the line is still there, as after a kill before the file was emptied")
        XCTAssertEqual(try playCounts(machineA)[walk], 1)

        try on(machineA, ["craving", "4"])
        XCTAssertEqual(try playCounts(machineA)[walk], 1, "counted once, not again")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: machineA + "/logs.waiting")[.size] as? Int, 0)
        let notes = try runProcess(
            "/usr/bin/sqlite3",
            [machineA + "/library.sqlite", "SELECT count(*) FROM syncState WHERE key LIKE 'counted %'"])
        XCTAssertEqual(notes.stdout, "0\n", "the notes go with the lines")
        try sync(machineA)
        try sync(machineB, ["--folder", stickA])
        XCTAssertEqual(try playCounts(machineB)[walk], 1)
        let counted = try runProcess(
            "/usr/bin/sqlite3",
            [machineB + "/library.sqlite", "SELECT device, count FROM recordingPlays WHERE recordingId = '\(walk)'"])
        XCTAssertEqual(counted.stdout, "\(device)|1\n")
    }

    /// A FIFO where `logs.waiting` goes: `status`, `log`, `home`'s glance and a craving answer at
    /// once (an open of a FIFO waits for a writer for ever); the FIFO is left as it is.
    func testAFIFOInPlaceOfTheWaitingLogsHoldsNothing() throws {
        try on(machineA, ["craving", "5"])
        let fifo = machineA + "/logs.waiting"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for arguments in [["status"], ["log"], ["log", "--json"], ["craving", "6"], ["check"]] {
            let started = Date()
            let out = try runProcess(
                "/usr/bin/timeout", ["20", cravey] + arguments + ["--library", machineA], environment: environment)
            XCTAssertNotEqual(out.status, 124, "\(arguments) waited on the FIFO")
            XCTAssertLessThan(Date().timeIntervalSince(started), 10, "\(arguments)")
        }
        XCTAssertEqual(try logs(machineA).count, 2, "both cravings kept")
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is left as it is")
    }
}
