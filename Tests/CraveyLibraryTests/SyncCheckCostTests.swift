import Foundation
import XCTest

@testable import CraveyLibrary

/// A command's look at the sync folder when nothing is new writes nothing (its cost is a benchmark's), and a
/// change of a shared setting travels through a real folder between two real libraries.
final class SyncCheckCostTests: XCTestCase {
    func testFindingNothingNewIsCheap() throws {
        let first = try TemporaryLibrary(), second = try TemporaryLibrary()
        let folder = (first.root as NSString).deletingLastPathComponent + "/shared"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let a = try first.open(), b = try second.open()
        try a.setSetting(.goal, to: "quit")
        _ = try a.syncChoose(folder: folder)
        _ = try b.syncChoose(folder: folder)
        XCTAssertEqual(try b.setting(.goal), "quit")
        try b.setSetting(.goal, to: "monitor")
        a.syncBringInIfNew()
        XCTAssertEqual(try a.setting(.goal), "monitor", "brought in before a change")
        // Finding nothing new writes nothing: the database and its write-ahead log stay as they
        // were. Its cost is a benchmark's figure (`Tests/bench/sync.sh`), never a timed test.
        let files = [first.root + "/library.sqlite", first.root + "/library.sqlite-wal"]
        let before = files.map { try? FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as? Date }
        let beforeSizes = files.map { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }
        let rounds = 500
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<rounds { a.syncBringInIfNew() }
        let each = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(rounds) / 1e6
        print("sync: the look at a folder of 2 devices with nothing new took \(String(format: "%.3f", each)) ms")
        XCTAssertEqual(
            files.map { try? FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as? Date }, before,
            "nothing new: nothing written")
        XCTAssertEqual(files.map { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }, beforeSizes)
    }
}
