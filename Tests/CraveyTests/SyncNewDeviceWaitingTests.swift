import CraveyTestSupport
import Foundation
import XCTest

/// `cravey sync --new-device` keeps every change of this machine still waiting to be written
/// under its old id: plays counted while the folder was away are counted once, under the new id,
/// so both machines sum the same counts and Quick Play's order agrees; edits waiting go too.
final class SyncNewDeviceWaitingTests: SyncMachinesTestCase {
    func testPlaysWaitingWhenANewDeviceIdIsGivenAreCountedOnceOnBothMachines() throws {
        let walk = try message("Walk", on: machineA), breathe = try message("Breathe", on: machineA)
        try play(walk, on: machineA)
        let a = try XCTUnwrap(try sync(machineA, ["--folder", stickA])["device"] as? String)
        try sync(machineB, ["--folder", stickA])
        try play(breathe, on: machineB)
        try sync(machineB)
        try sync(machineA)
        XCTAssertEqual(try playCounts(machineB), [walk: 1, breathe: 1])

        // A's folder is away: its plays and an edit wait in its library; then it takes a new id.
        XCTAssertEqual(rename(stickA, stickA + ".away"), 0)
        try play(walk, on: machineA, times: 2)
        try play(breathe, on: machineA, times: 3)
        try on(machineA, ["settings", "name", "Sam"])
        let waiting = try on(machineA, ["sync", "--status", "--json"], status: 1).stdout
        XCTAssertEqual(try jsonObject(waiting)["waiting"] as? Int, 6, "five counts and the name wait: \(waiting)")
        let renewed = try on(machineA, ["sync", "--new-device", "--json"], status: 1)
        let id = try XCTUnwrap(try jsonObject(renewed.stdout)["device"] as? String)
        XCTAssertNotEqual(id, a)
        XCTAssertEqual(try playCounts(machineA), [walk: 3, breathe: 4], "nothing counted twice here")
        XCTAssertEqual(rename(stickA + ".away", stickA), 0)

        for machine in [machineA, machineB, machineA] { try sync(machine) }
        XCTAssertEqual(try playCounts(machineA), [walk: 3, breathe: 4])
        XCTAssertEqual(try playCounts(machineB), [walk: 3, breathe: 4], "the plays that waited reach B, once")
        XCTAssertEqual(try quickPlay(machineB), ["Breathe", "Walk"])
        XCTAssertEqual(try quickPlay(machineA), try quickPlay(machineB))
        XCTAssertEqual(try on(machineB, ["settings", "name"]).stdout, "Sam\n")
        let counted = try runProcess(
            "/usr/bin/sqlite3",
            [
                machineB + "/library.sqlite",
                "SELECT device, count FROM recordingPlays WHERE recordingId = '\(walk)' ORDER BY count",
            ])
        XCTAssertEqual(counted.stdout, "\(a)|1\n\(id)|2\n", "the old id's count as written, the new id's the rest")
        // Read again, the old id's lines change nothing.
        for machine in [machineB, machineA] { try sync(machine) }
        XCTAssertEqual(try playCounts(machineA), try playCounts(machineB))
        try on(machineA, ["check"])
        try on(machineB, ["check"])
    }
}
