import CraveyTestSupport
import Foundation
import XCTest

/// Recordings over two real Syncthing instances on loopback (`SyncthingPair`): a message recorded
/// on one machine and a check-in on each the same day reach the other through the folder Syncthing
/// carries, and both machines list the same recordings and both check-ins.
final class SyncRecordingsOverSyncthingTests: CommandTestCase {
    func testARecordingAndBothCheckInsOfADayCrossThroughSyncthing() throws {
        let pair = try SyncthingPair.start(in: base, stoppedBy: self)
        let machineA = base + "/machine-a", machineB = base + "/machine-b"
        let now = "2026-11-21T20:00:00"
        @discardableResult
        func run(_ library: String, _ arguments: [String], line: UInt = #line) throws -> String {
            let result = try runProcess(
                cravey, arguments + ["--library", library],
                environment: [
                    "ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": phraseFixture,
                    "CRAVEY_TRANSCRIBE": "later", "NO_COLOR": "1", "TZ": "Europe/Berlin", "CRAVEY_NOW": now,
                ])
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stdout) \(result.stderr)", line: line)
            return result.stdout
        }
        let id = try run(
            machineA, ["record", "audio", "--mic", "cravey_file", "--max-seconds", "2", "--title", "Call Sam"]
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        for (library, mood) in [(machineA, "happy"), (machineB, "low")] {
            try run(library, ["checkin", "--mood", mood, "--mic", "cravey_file", "--max-seconds", "2"])
        }
        try run(machineA, ["sync", "--folder", pair.a.folder])
        try run(machineB, ["sync", "--folder", pair.b.folder])

        let started = Date()
        func ids(_ library: String) throws -> [String] {
            (try JSONSerialization.jsonObject(with: Data(run(library, ["list", "--json"]).utf8)) as? [[String: Any]]
                ?? []).compactMap { $0["id"] as? String }
        }
        func entries(_ library: String) throws -> [String] {
            (try JSONSerialization.jsonObject(with: Data(run(library, ["checkin", "list", "--json"]).utf8))
                as? [[String: Any]] ?? []).map { "\($0["checkinDay"]!) \($0["mood"]!)" }.sorted()
        }
        let rounds = try pair.syncRounds(upTo: 6) {
            try run(machineA, ["sync"])
            try run(machineB, ["sync"])
        } until: {
            try ids(machineB) == [id] && entries(machineA).count == 2 && entries(machineB).count == 2
        }
        print(
            "cravey sync of recordings over Syncthing: the two machines agree after \(rounds) round(s), "
                + String(format: "%.2f s", Date().timeIntervalSince(started)))
        XCTAssertEqual(try ids(machineB), [id])
        XCTAssertEqual(try ids(machineA), [id])
        XCTAssertEqual(try entries(machineA), ["2026-11-21 happy", "2026-11-21 low"])
        XCTAssertEqual(try entries(machineB), ["2026-11-21 happy", "2026-11-21 low"])
        try run(machineA, ["check"])
        try run(machineB, ["check"])
    }
}
