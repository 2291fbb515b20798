import Foundation
import XCTest

@testable import CraveyLibrary

/// A command's look at the sync folder when nothing is new costs under a millisecond, and a
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
        let rounds = 500
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<rounds { a.syncBringInIfNew() }
        let each = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(rounds) / 1e6
        print("sync: the look at a folder of 2 devices with nothing new took \(String(format: "%.3f", each)) ms")
        XCTAssertLessThan(each, 1, "a command's look at the folder costs under 1 ms")
    }
}
