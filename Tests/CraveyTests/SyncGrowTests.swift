import CraveyTestSupport
import Foundation
import XCTest

/// What only grows when two machines share one history, through the binary: a ride's ratings
/// given on one machine while the other edited the craving (its clock an hour ahead) are all
/// kept; plays are counted per machine and summed, so Quick Play's order agrees on both, for a
/// library set up on a second machine from a copy of the first.
final class SyncGrowTests: SyncMachinesTestCase {
    /// A rides a craving out on its screen; B, an hour ahead, takes the craving in after its first
    /// rating and edits its intensity (its first rating follows). A's later ratings are kept on
    /// both machines, after the first as B set it: none lost, none twice.
    func testARidesRatingsAndAnEditOfItOnTheOtherMachineAreAllKept() throws {
        let devices = try chooseSticks()
        let inner =
            "exec env \(environment.map { "\($0.key)=\(shellQuote($0.value))" }.sorted().joined(separator: " ")) \(shellQuote(cravey)) ride 6 --speaker cravey_capture --library \(shellQuote(machineA))"
        let tmux = try TmuxSession("sh -c \(shellQuote(inner)); echo EXIT=$?; sleep 60", width: 100, height: 40)
        defer { tmux.close() }
        try tmux.waitFor("How strong: 6")
        // The craving and its first rating reach B (each written to A's stick as it is kept).
        var craving: [String: Any]?
        for _ in 0..<50 where craving?["ratings"] as? String != "0:6" {
            try carry(from: stickA, to: stickB, except: devices.b)
            try sync(machineB)
            craving = try logs(machineB).first
            usleep(100_000)
        }
        XCTAssertEqual(craving?["ratings"] as? String, "0:6", "seconds:rating")
        let id = try XCTUnwrap(craving?["id"] as? String)
        try on(machineB, ["log", "edit", id, "--intensity", "8"], now: berlinNow(3600))

        for (key, trail) in [("4", "6 → 4"), ("3", "6 → 4 → 3")] {
            try tmux.send(key, literal: true)
            try tmux.waitFor("How strong: " + trail)
        }
        try tmux.send("q", literal: true)
        XCTAssertTrue(try tmux.waitFor("EXIT=").contains("EXIT=0"))
        try meet(devices)

        for machine in [machineA, machineB] {
            let ride = try XCTUnwrap(try logs(machine).first)
            XCTAssertEqual(ride["intensity"] as? Int, 8)
            let ratings = try XCTUnwrap(ride["ratings"] as? String).split(separator: " ").map {
                $0.split(separator: ":").compactMap { Int($0) }
            }
            XCTAssertEqual(ratings.map { $0.last }, [8, 4, 3], "\(machine): \(ratings)")
            XCTAssertEqual(ratings.map { $0[0] }, ratings.map { $0[0] }.sorted(), "in time order")
        }
        XCTAssertEqual(try on(machineA, ["log", "--json"]).stdout, try on(machineB, ["log", "--json"]).stdout)
        try on(machineA, ["check"])
    }

    /// A plays "Walk" once and "Breathe" twice, chooses a folder, and B is set up from a copy of
    /// A's library (`sync --new-device`), sharing the same folder. B plays "Walk" three times, A "Breathe" once: each
    /// machine counts its own, the counts are summed (Walk 4, Breathe 3) and Quick Play's order
    /// is the same on both. A count of a message whose file has not reached B yet is kept, and
    /// counted once the message is there.
    func testPlaysAreCountedPerMachineAndSummedSoQuickPlayAgrees() throws {
        let walk = try message("Walk", on: machineA), breathe = try message("Breathe", on: machineA)
        try play(walk, on: machineA)
        try play(breathe, on: machineA, times: 2)
        let a = try XCTUnwrap(try sync(machineA, ["--folder", stickA])["device"] as? String)
        XCTAssertEqual(try runProcess("/bin/cp", ["-a", machineA, machineB]).status, 0)
        let b = try XCTUnwrap(try sync(machineB, ["--new-device"])["device"] as? String)
        XCTAssertNotEqual(a, b, "the copy writes to the same folder as itself")
        try play(walk, on: machineB, times: 3)
        try play(breathe, on: machineA)
        let later = try message("Later", on: machineA)
        try play(later, on: machineA, times: 5)
        try sync(machineA)
        // "Later"'s file has not reached B yet (a sync tool still copying it): its line waits,
        // and the count of its plays is kept for when it comes.
        let media = stickA + "/cravey/devices/" + a + "/media/" + later.lowercased() + ".1.m4a"
        XCTAssertEqual(rename(media, base + "/later-on-its-way"), 0)
        for machine in [machineB, machineA] { try sync(machine) }

        XCTAssertEqual(try playCounts(machineA), [walk: 4, breathe: 3, later: 5])
        XCTAssertEqual(try playCounts(machineB), [walk: 4, breathe: 3])
        XCTAssertEqual(try quickPlay(machineB), ["Walk", "Breathe"])
        XCTAssertEqual(try quickPlay(machineA), ["Later", "Walk", "Breathe"])
        let kept = try runProcess(
            "/usr/bin/sqlite3",
            [machineB + "/library.sqlite", "SELECT count FROM recordingPlays WHERE recordingId = '\(later)'"])
        XCTAssertEqual(kept.stdout, "5\n", "kept for when the message comes")
        // The file comes whole: the message is taken in with its count, and Quick Play agrees.
        XCTAssertEqual(rename(base + "/later-on-its-way", media), 0)
        try sync(machineB)
        XCTAssertEqual(try playCounts(machineB), [walk: 4, breathe: 3, later: 5])
        XCTAssertEqual(try quickPlay(machineB), try quickPlay(machineA))
        // Nothing counted twice however often the same lines are read again.
        for machine in [machineB, machineA, machineB] { try sync(machine) }
        XCTAssertEqual(try playCounts(machineA), [walk: 4, breathe: 3, later: 5])
        try on(machineA, ["check"])
    }

    /// A compacts its changes (a snapshot in place of its change files) before B ever joins: B,
    /// taking in the snapshot, has A's messages with A's counts of their plays.
    func testPlaysSurviveACompactionForAMachineThatWasAway() throws {
        let walk = try message("Walk", on: machineA)
        try play(walk, on: machineA, times: 3)
        try sync(machineA, ["--folder", stickA])
        try play(walk, on: machineA)
        try sync(machineA, ["--compact"])
        XCTAssertEqual(try playCounts(machineA), [walk: 4])
        try sync(machineB, ["--folder", stickA])
        XCTAssertEqual(try playCounts(machineB), [walk: 4], "the snapshot holds A's count")
        try play(walk, on: machineB)
        for machine in [machineB, machineA] { try sync(machine) }
        XCTAssertEqual(try playCounts(machineA), [walk: 5])
        XCTAssertEqual(try playCounts(machineB), [walk: 5])
    }

    /// A play while another process holds the library waits in `logs.waiting` (a play never
    /// waits on the library); the next command counts it as this machine's, and its count goes
    /// to the folder once, as every play's does.
    func testAPlayThatWaitedForTheLibraryIsCountedAndTravels() throws {
        let walk = try message("Walk", on: machineA)
        let a = try XCTUnwrap(try sync(machineA, ["--folder", stickA])["device"] as? String)
        let holder = try holdLibraryLock(root: machineA)
        try play(walk, on: machineA)
        let waiting = try String(contentsOfFile: machineA + "/logs.waiting", encoding: .utf8)
        XCTAssertTrue(waiting.contains("\"play\""), waiting)
        holder.terminate()
        holder.waitUntilExit()
        XCTAssertEqual(try playCounts(machineA)[walk], 1)
        try sync(machineA)
        try sync(machineB, ["--folder", stickA])
        let counted = try runProcess(
            "/usr/bin/sqlite3",
            [machineB + "/library.sqlite", "SELECT device, count FROM recordingPlays WHERE recordingId = '\(walk)'"])
        XCTAssertEqual(counted.stdout, "\(a)|1\n")
        XCTAssertEqual(try changeLines(stickA, a).filter { $0["kind"] as? String == "plays" }.count, 1)
    }

    /// The folder is untrusted: a line from another device whose ratings, plays in a craving or
    /// count of plays are not what cravey writes changes nothing, and `sync` and `check` name it.
    func testHostileRatingsAndCountsChangeNothingAndAreNamed() throws {
        let walk = try message("Walk", on: machineA)
        try play(walk, on: machineA)
        try on(machineA, ["ride", "7", "--ratings", "5,3"])
        let a = try XCTUnwrap(try sync(machineA, ["--folder", stickA])["device"] as? String)
        try sync(machineB, ["--folder", stickA])
        let (logs, plays) = (try on(machineB, ["log", "--json"]).stdout, try playCounts(machineB))
        let craving = try XCTUnwrap(try self.logs(machineB).first?["id"] as? String)
        let file = stickA + "/cravey/devices/" + a + "/changes.jsonl"
        var counter = try changeLines(stickA, a).count
        let ms = Int(Date().timeIntervalSince1970 * 1000)
        var hostile = ""
        for (kind, id, row) in [
            ("craving", craving, #"{"ratings":"garbage"}"#), ("craving", craving, #"{"ratings":"[[0,99]]"}"#),
            ("craving", craving, #"{"ratings":"[[600,2],[0,7]]"}"#), ("craving", craving, #"{"ratings":5}"#),
            ("craving", craving, #"{"ratings":"[[0,7,1]]"}"#), ("craving", craving, #"{"played":"../../etc"}"#),
            ("plays", walk, #"{"count":-1}"#), ("plays", walk, #"{"count":"9"}"#),
            ("plays", walk, #"{"count":9,"playCount":9}"#), ("plays", walk, "null"),
            ("plays", "not-an-id", #"{"count":9}"#), ("plays", walk, #"{"count":9,"lastPlayedAt":"yesterday"}"#),
        ] {
            counter += 1
            hostile +=
                #"{"clock":[\#(ms),\#(counter)],"counter":\#(counter),"device":"\#(a)","id":"\#(id)","kind":"\#(kind)","row":\#(row)}"#
                + "\n"
        }
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: file))
        handle.seekToEndOfFile()
        handle.write(Data(hostile.utf8))
        try handle.close()

        let refused = try on(machineB, ["sync", "--json"], status: 1)
        let problems = try XCTUnwrap(try jsonObject(refused.stdout)["problems"] as? [String])
        XCTAssertEqual(problems.filter { $0.contains("was not applied") }.count, 12, "\(problems)")
        XCTAssertEqual(try on(machineB, ["log", "--json"]).stdout, logs, "nothing changed")
        XCTAssertEqual(try playCounts(machineB), plays)
        XCTAssertTrue(try on(machineB, ["check"], status: 1).stdout.contains("its ratings are not a ride's"))
    }
}
