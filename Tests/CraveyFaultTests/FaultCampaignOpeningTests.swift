import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The fault campaign's cases of opening and holding a library: several cravey making one new
/// library at once, and a craving logged while another process holds the library's lock.
final class FaultCampaignOpeningTests: FaultCampaign {
    /// How many cravings the library at `root` lists.
    func cravings(_ root: String) throws -> Int {
        let listed = try run(["log", "--json"], root)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        return ((try? JSONSerialization.jsonObject(with: Data(listed.stdout.utf8))) as? [Any])?.count ?? -1
    }

    func testSeveralFirstStartsTogetherLoseNoCraving() throws {
        for round in 1...10 {
            let root = base + "/new-\(round)"
            Self.faults += 1
            nonisolated(unsafe) var statuses = [Int32](repeating: -1, count: 4)
            let lock = NSLock()
            let cravey = cravey
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                let result = try? runProcess(
                    cravey, ["craving", "\(index + 2)", "--library", root], environment: ["NO_COLOR": "1"])
                lock.withLock { statuses[index] = result?.status ?? -1 }
            }
            XCTAssertEqual(statuses, [0, 0, 0, 0], "round \(round)")
            let kept = try cravings(root)
            if kept != 4 {
                Self.lost += 4 - kept
                XCTFail("round \(round): \(4 - kept) cravings lost")
            }
            Self.cases += 1
            let check = try run(["check"], root)
            XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        }
    }

    func testACravingLoggedWhileTheLockIsHeldIsKept() throws {
        let baseline = try makeLibrary(at: base + "/lib")
        let root = baseline.root
        XCTAssertEqual(try run(["craving", "3"], root).status, 0)
        Self.faults += 1
        let holder = try holdLock(
            "import fcntl, os, sys, time\nf = os.open(sys.argv[1], os.O_RDWR)\nfcntl.flock(f, fcntl.LOCK_EX)\ntime.sleep(30)",
            root + "/library.lock")
        defer { holder.terminate(); holder.waitUntilExit() }
        Thread.sleep(forTimeInterval: 0.3)
        let started = Date()
        let logged = try run(["craving", "8", "--notes", "kept while held"], root)
        XCTAssertEqual(logged.status, 0, logged.stderr)
        XCTAssertTrue(logged.stdout.contains("logged ✓"), logged.stdout)
        // Kept at once, not after the 10 s a change waits for the lock, however busy the machine.
        XCTAssertTrue(holder.isRunning, "logged while the library was held")
        XCTAssertLessThan(Date().timeIntervalSince(started), 9)
        // Killed right after saying so: the line is on the disk already.
        holder.terminate()
        holder.waitUntilExit()
        let kept = try cravings(root)
        if kept != 2 {
            Self.lost += 2 - max(kept, 0)
            XCTFail("\(2 - kept) cravings lost")
        }
        XCTAssertTrue(try run(["log"], root).stdout.contains("kept while held"))
        try assertIntact(baseline, "a craving logged while the lock was held")
    }
}
