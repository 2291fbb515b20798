import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The two real Syncthing instances the sync tests run on (`SyncthingPair`): a file written on one
/// side is on the other after a rescan, both ways, with its mode; nothing goes across while paused,
/// and all of it once resumed; a file changed on both sides while apart leaves a
/// `*.sync-conflict-*` copy of the older change on both; every socket the two hold is on loopback;
/// and no instance outlives its test, whichever way the test ends. Each step's time is printed.
final class SyncthingPairTests: CommandTestCase {
    func startPair() throws -> SyncthingPair {
        let pair = try SyncthingPair.start(in: base, stoppedBy: self)
        addTeardownBlock { print("SyncthingPair \(self.name): " + Self.timings(pair)) }
        return pair
    }

    static func timings(_ pair: SyncthingPair) -> String {
        pair.timings.map { "\($0.step) \(String(format: "%.2f", $0.seconds)) s" }.joined(separator: ", ")
    }

    func write(_ text: String, to path: String, mode: mode_t = 0o600) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(chmod(path, mode), 0)
    }

    func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    func testAFileWrittenOnOneSideIsOnTheOtherAfterARescanBothWays() throws {
        let pair = try startPair()
        try write("a craving, logged on A\n", to: pair.a.folder + "/cravey/devices/aaaa/changes-1.jsonl")
        try pair.rescan()
        try pair.waitInSync()
        XCTAssertEqual(read(pair.b.folder + "/cravey/devices/aaaa/changes-1.jsonl"), "a craving, logged on A\n")
        XCTAssertEqual(try mode(pair.b.folder + "/cravey/devices/aaaa/changes-1.jsonl"), 0o600, "the mode goes across")

        try write("a use, logged on B\n", to: pair.b.folder + "/cravey/devices/bbbb/changes-1.jsonl")
        try write("two lines now\nsecond\n", to: pair.b.folder + "/cravey/devices/aaaa/changes-1.jsonl")
        try pair.rescan()
        try pair.waitInSync()
        XCTAssertEqual(read(pair.a.folder + "/cravey/devices/bbbb/changes-1.jsonl"), "a use, logged on B\n")
        XCTAssertEqual(read(pair.a.folder + "/cravey/devices/aaaa/changes-1.jsonl"), "two lines now\nsecond\n")

        try FileManager.default.removeItem(atPath: pair.a.folder + "/cravey/devices/bbbb/changes-1.jsonl")
        try pair.rescan()
        try pair.waitInSync()
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: pair.b.folder + "/cravey/devices/bbbb/changes-1.jsonl"),
            "a removal goes across too")
    }

    func testNothingGoesAcrossWhilePausedAndAllOfItOnceResumed() throws {
        let pair = try startPair()
        try pair.pause()
        try write("logged on A while apart\n", to: pair.a.folder + "/a.jsonl")
        try write("logged on B while apart\n", to: pair.b.folder + "/b.jsonl")
        try pair.rescan()
        // Long enough for a connected pair to have pulled both (they take well under a second).
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertNil(read(pair.b.folder + "/a.jsonl"), "paused: A's file stays on A")
        XCTAssertNil(read(pair.a.folder + "/b.jsonl"), "paused: B's file stays on B")

        try pair.resume()
        try pair.waitInSync()
        XCTAssertEqual(read(pair.b.folder + "/a.jsonl"), "logged on A while apart\n")
        XCTAssertEqual(read(pair.a.folder + "/b.jsonl"), "logged on B while apart\n")
    }

    /// The name a reader of the folder must recognise: the older change is kept as
    /// `NAME.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.EXT` on both sides, the newer under the name.
    func testAFileChangedOnBothSidesWhileApartLeavesASyncConflictCopyOnBoth() throws {
        let pair = try startPair()
        try pair.pause()
        let name = "/cravey/devices/cccc/changes-1.jsonl"
        try write("A's change, made first\n", to: pair.a.folder + name)
        try write("B's change, made later\n", to: pair.b.folder + name)
        let earlier = Date().addingTimeInterval(-3600), later = Date().addingTimeInterval(-60)
        try FileManager.default.setAttributes([.modificationDate: earlier], ofItemAtPath: pair.a.folder + name)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: pair.b.folder + name)
        try pair.rescan()
        try pair.resume()
        try pair.rescan()
        try pair.waitInSync()
        let pattern = try NSRegularExpression(pattern: SyncthingPair.conflictPattern)
        for side in [pair.a, pair.b] {
            let folder = side.folder + "/cravey/devices/cccc"
            let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            XCTAssertEqual(names.count, 2, "\(side.name): \(names)")
            XCTAssertEqual(
                read(folder + "/changes-1.jsonl"), "B's change, made later\n", "\(side.name): the newer wins")
            let copies = names.filter {
                pattern.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil
            }
            XCTAssertEqual(copies.count, 1, "\(side.name): \(names)")
            XCTAssertTrue(copies.first?.hasPrefix("changes-1.sync-conflict-") == true, "\(names)")
            XCTAssertTrue(copies.first?.hasSuffix(".jsonl") == true, "\(names)")
            XCTAssertEqual(copies.first.flatMap { read(folder + "/" + $0) }, "A's change, made first\n")
        }
        XCTAssertNil(
            pattern.firstMatch(in: "changes-1.jsonl", range: NSRange(location: 0, length: 15)),
            "the pattern matches only conflict copies")
    }

    /// Nothing leaves this machine: every TCP and UDP socket the two processes hold, listening or
    /// connected, is bound to loopback, and each connects only to loopback.
    func testEverySocketTheTwoHoldIsOnLoopback() throws {
        let pair = try startPair()
        try write("x\n", to: pair.a.folder + "/x")
        try pair.rescan()
        try pair.waitInSync()
        let sockets = try pair.sockets()
        let loopback = ["127.0.0.1", "[::1]", "[::ffff:127.0.0.1]"]
        func host(_ address: String) -> String { String(address[..<(address.lastIndex(of: ":") ?? address.endIndex)]) }
        for socket in sockets {
            XCTAssertTrue(loopback.contains(host(socket.local)), "bound beyond loopback: \(socket)")
            XCTAssertTrue(
                (loopback + ["0.0.0.0", "*", "[::]"]).contains(host(socket.peer)), "a peer beyond loopback: \(socket)")
        }
        let locals = Set(sockets.map(\.local))
        for side in [pair.a, pair.b] {
            XCTAssertTrue(locals.contains("127.0.0.1:\(side.guiPort)"), "\(side.name)'s REST API: \(sockets)")
            XCTAssertTrue(locals.contains("127.0.0.1:\(side.listenPort)"), "\(side.name)'s sync port: \(sockets)")
        }
        XCTAssertFalse(sockets.contains { $0.netid == "udp" }, "no discovery, no QUIC, no STUN: \(sockets)")
        XCTAssertTrue(
            sockets.contains {
                $0.local == "127.0.0.1:\(pair.b.listenPort)" || $0.peer == "127.0.0.1:\(pair.b.listenPort)"
            },
            "the two are connected: \(sockets)")
    }

    /// A pair stopped by its test, one whose start fails half-way and one only let go of: no
    /// syncthing started under the test's folder runs afterwards.
    func testNoInstanceOutlivesItsTestWhicheverWayItEnds() throws {
        func running() -> [Int32] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return names.compactMap { Int32($0) }.filter { pid in
                guard let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else {
                    return false
                }
                let words = line.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                return words.contains(SyncthingPair.program) && words.contains { $0.contains(base) }
            }
        }
        let pair = try SyncthingPair(in: base + "/stopped")
        let pids = [pair.a.pid, pair.b.pid].compactMap { $0 }
        XCTAssertEqual(pids.count, 2)
        XCTAssertEqual(Set(running()), Set(pids))
        pair.stop()
        pair.stop()
        XCTAssertEqual(running(), [], "stopped")

        XCTAssertThrowsError(try SyncthingPair(in: base + "/failed", connectWithin: 0)) { error in
            XCTAssertTrue("\(error)".contains("not within"), "\(error)")
        }
        XCTAssertEqual(running(), [], "a start that fails stops what it started")

        do { _ = try SyncthingPair(in: base + "/dropped") }
        XCTAssertEqual(running(), [], "a pair let go of is stopped")
    }
}
