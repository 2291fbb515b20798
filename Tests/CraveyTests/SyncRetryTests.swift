import CraveyTestSupport
import Foundation
import XCTest

/// A change the database refuses is not lost, and not named for ever: it is tried again once
/// what it needs arrives (a log's first line carried after an edit of it), and it is no longer
/// named once a later change holds every field it sets.
final class SyncRetryTests: SyncFoldersTestCase {
    func testAnEditThatArrivesBeforeItsLogIsAppliedOnceTheLogArrives() throws {
        let a = library("a"), b = library("b"), c = library("c")
        let stickA = try folder("stick-a"), stickB = try folder("stick-b"), stickC = try folder("stick-c")
        try cravey(a, ["craving", "6", "--notes", "on the bus"])
        try synced(a, ["--folder", stickA])
        try carry(a, from: stickA, to: stickC)
        try synced(c, ["--folder", stickC])
        let id = try XCTUnwrap((try json(try logText(c)) as! [[String: Any]]).first?["id"] as? String)
        try cravey(c, ["log", "edit", id, "--notes", "edited on c"])

        // B gets C's edit first: the log it edits is not here yet.
        try synced(b, ["--folder", stickB])
        try carry(c, from: stickC, to: stickB)
        let early = try synced(b, status: 1)
        XCTAssertTrue((early["problems"] as! [String]).contains { $0.contains("was not applied") }, "\(early)")
        XCTAssertTrue(try cravey(b, ["check"], status: 1).stdout.contains("was not applied"))

        // The log arrives: the edit held is applied, and nothing is named any more.
        try carry(a, from: stickA, to: stickB)
        let later = try synced(b)
        XCTAssertEqual(later["problems"] as? [String], [], "\(later)")
        XCTAssertEqual(later["broughtIn"] as? Int, 2, "the log, then the edit held")
        XCTAssertEqual(try logText(b), try logText(c))
        XCTAssertTrue(try logText(b).contains("edited on c"))
        try cravey(b, ["check"])
    }

    func testARefusedValueIsNoLongerNamedOnceALaterChangeHoldsItsField() throws {
        let (a, b, shared) = try machineWithACraving()
        try synced(b, ["--folder", shared])
        let id = try XCTUnwrap((try json(try logText(b)) as! [[String: Any]]).first?["id"] as? String)
        // A third device (a newer cravey, or a hand-edit) sets a value this database refuses.
        let other = String(repeating: "e", count: 32)
        let directory = shared + "/cravey/devices/" + other
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data("{\"device\":\"\(other)\",\"format\":1}\n".utf8)
            .write(to: URL(fileURLWithPath: directory + "/device.json"))
        let ms = Int(Date().timeIntervalSince1970 * 1000)  // after the craving, before the edit below
        try Data(
            "{\"clock\":[\(ms),0],\"counter\":1,\"device\":\"\(other)\",\"id\":\"\(id)\",\"kind\":\"craving\",\"row\":{\"intensity\":99}}\n"
                .utf8
        ).write(to: URL(fileURLWithPath: directory + "/changes.jsonl"))
        let refused = try synced(b, status: 1)
        XCTAssertTrue((refused["problems"] as! [String]).contains { $0.contains("was not applied") }, "\(refused)")
        XCTAssertTrue(try cravey(b, ["check"], status: 1).stdout.contains("was not applied"))
        XCTAssertEqual(try synced(b, status: 1)["broughtIn"] as? Int, 0, "named until something holds its field")

        // A later edit of the same field: the refused value is older than it, so it is done with.
        try cravey(a, ["log", "edit", id, "--intensity", "6"])
        let later = try synced(b)
        XCTAssertEqual(later["problems"] as? [String], [], "\(later)")
        XCTAssertEqual((try json(try logText(b)) as! [[String: Any]]).first?["intensity"] as? Int, 6)
        try cravey(b, ["check"])
    }
}
