import CraveyTestSupport
import Foundation
import XCTest

/// The campaign's full disk in a hard moment: once even the library's reserve is spent, a ride
/// (`cravey ride`, home's `o`) still keeps company — its messages heard, breathing, ratings on
/// screen — and says once that it cannot be saved; a recording says the disk is full first,
/// with no temporary path (see `FaultCampaign`).
final class FaultCampaignFullDiskRideTests: FaultCampaign {
    /// A terminal running `cravey arguments` on `root`, its speaker writing to `heard`.
    func terminal(_ arguments: String, _ root: String, heard: String) throws -> TmuxSession {
        try TmuxSession(
            "env NO_COLOR=1 CRAVEY_TRANSCRIBE=later ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) CRAVEY_ALSA_OUTFILE=\(shellQuote(heard)) \(shellQuote(cravey)) \(arguments) --speaker cravey_capture --library \(shellQuote(root)); echo EXIT=$?; sleep 30",
            width: 120, height: 40)
    }

    func cravings(_ root: String) throws -> Int {
        let logs = try run(["log", "--json"], root)
        XCTAssertEqual(logs.status, 0, logs.stderr)
        return ((try? JSONSerialization.jsonObject(with: Data(logs.stdout.utf8))) as? [Any])?.count ?? -1
    }

    func testARideOnAFullDiskKeepsCompany() throws {
        try requireRoot()
        let disk = try smallDisk("12m")
        let baseline = try makeLibrary(at: disk + "/lib")
        let root = baseline.root
        let welcome = try terminal("home", root, heard: "/dev/null")
        try welcome.waitFor("Skip tour")
        try welcome.send("s", literal: true)
        try welcome.waitFor("Quick Play")
        welcome.close()

        try fill(disk)
        var refused: String?
        for _ in 0..<200 where refused == nil {
            let craving = try run(["craving", "3"], root)
            if craving.status != 0 { refused = craving.stderr }
        }
        XCTAssertTrue(
            refused?.contains("Not logged: the disk is full") ?? false, "the reserve is spent: \(refused ?? "")")
        let logged = try cravings(root)

        // `cravey ride 8`: the messages play, ratings show, one line says it is not kept.
        let heard = base + "/heard.raw"
        let ride = try terminal("ride 8", root, heard: heard)
        try ride.waitFor("this ride can't be saved")
        try ride.send("6", literal: true)
        let rated = try ride.waitFor("How strong: 8 → 6")
        XCTAssertEqual(rated.components(separatedBy: "can't be saved").count, 2, "said once: \(rated)")
        let deadline = Date() + 10
        while (try? Data(contentsOf: URL(fileURLWithPath: heard)))?.count ?? 0 < 48_000 && Date() < deadline {
            usleep(50_000)
        }
        XCTAssertGreaterThan(
            (try? Data(contentsOf: URL(fileURLWithPath: heard)))?.count ?? 0, 48_000, "a message was heard")
        try ride.send("q", literal: true)
        let ended = try ride.waitFor("EXIT=1")
        XCTAssertTrue(ended.contains("It's coming down: from 8 to 6"), ended)
        XCTAssertTrue(ended.contains("cravey: Not logged: the disk is full"), ended)
        ride.close()

        // Home's `o`: the same ride, and home says it was not logged.
        let home = try terminal("home", root, heard: "/dev/null")
        try home.waitFor("Quick Play")
        try home.send("o", literal: true)
        try home.waitFor("How strong is it?")
        try home.send("7", literal: true)
        try home.waitFor("this ride can't be saved")
        try home.send("q", literal: true)
        let back = try home.waitFor("The ride ended before a rating.")
        XCTAssertTrue(back.contains("Not logged: the disk is full"), back)
        home.close()
        XCTAssertEqual(try cravings(root), logged, "nothing was stored")

        // A recording says the disk is full first, and names no temporary file.
        let recorded = try record(root, seconds: "10")
        assertOneLineError(recorded, containing: "cravey: Not recorded: the disk is full", "record on a full disk")
        XCTAssertFalse(recorded.stderr.contains(".incoming"), recorded.stderr)
        unfill(disk)
        try assertIntact(baseline, "a ride on a full disk")
    }
}
