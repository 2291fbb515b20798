import CraveyTestSupport
import Foundation
import XCTest

/// `cravey sync` over two real Syncthing instances on loopback (`SyncthingPair`): two machines
/// log while connected and while apart, the folder is carried by Syncthing alone, and both come
/// to the same logs and the same progress; the time until they agree is printed.
final class SyncOverSyncthingTests: CommandTestCase {
    func testTwoMachinesLogApartAndComeToTheSameHistoryThroughSyncthing() throws {
        let pair = try SyncthingPair.start(in: base, stoppedBy: self)
        let machineA = base + "/machine-a", machineB = base + "/machine-b"
        @discardableResult
        func run(_ library: String, _ arguments: [String], line: UInt = #line) throws -> String {
            let result = try runProcess(
                cravey, arguments + ["--library", library],
                environment: ["CRAVEY_TRANSCRIBE": "later", "NO_COLOR": "1", "TZ": "Europe/Berlin"])
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stdout) \(result.stderr)", line: line)
            return result.stdout
        }
        try run(machineA, ["craving", "6", "--trigger", "bored", "--notes", "logged on A"])
        try run(machineA, ["sync", "--folder", pair.a.folder])
        try run(machineB, ["use", "vape", "2"])
        try run(machineB, ["sync", "--folder", pair.b.folder])

        // Apart (a laptop away from home): each logs on its own.
        try pair.pause()
        try run(machineA, ["craving", "4", "--notes", "while apart, on A"])
        try run(machineB, ["craving", "8", "--notes", "while apart, on B"])
        try run(machineB, ["settings", "goal", "cut-down"])
        try pair.resume()

        let started = Date()
        let rounds = try pair.syncRounds(upTo: 4) {
            try run(machineA, ["sync"])
            try run(machineB, ["sync"])
        } until: {
            try run(machineA, ["log", "--json"]) == run(machineB, ["log", "--json"])
        }
        print(
            "cravey sync over Syncthing: the two machines agree after \(rounds) round(s), "
                + String(format: "%.2f s", Date().timeIntervalSince(started)))
        let logs = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(run(machineA, ["log", "--json"]).utf8)) as? [[String: Any]])
        XCTAssertEqual(logs.count, 4, "every log of both machines: \(logs)")
        XCTAssertEqual(try run(machineA, ["log", "--json"]), try run(machineB, ["log", "--json"]))
        XCTAssertEqual(try run(machineA, ["settings", "--json"]), try run(machineB, ["settings", "--json"]))
        let now = ["CRAVEY_NOW": "2026-11-27T12:00:00"]
        let progressA = try runProcess(cravey, ["progress", "--json", "--library", machineA], environment: now)
        let progressB = try runProcess(cravey, ["progress", "--json", "--library", machineB], environment: now)
        XCTAssertEqual(progressA.stdout, progressB.stdout)
        XCTAssertTrue(
            try pair.sockets().allSatisfy { $0.local.hasPrefix("127.0.0.1:") || $0.local.hasPrefix("[::1]:") })
    }
}
