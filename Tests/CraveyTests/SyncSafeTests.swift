import CraveyTestSupport
import Foundation
import XCTest

/// Nothing in the folder lost or wrongly refused, through the built `cravey`: a change stamped a
/// month ahead of this machine's clock waits and is taken in once the clock comes near it; a log
/// whose time is years later than its change is refused and named; this machine's changes in the
/// folder found older than its own (an older copy put back, a file cut short by a power cut) are
/// written again, while a shorter file holding another machine's lines is still a clone.
final class SyncSafeTests: TwoMachinesCase {
    var shared: String { base + "/shared" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    }

    func settingName(_ machine: String, at time: String? = nil) throws -> String {
        try on(machine, ["settings", "name"], at: time).stdout
    }

    /// The milliseconds of a moment given as `CRAVEY_NOW` takes it (Berlin's wall clock).
    func milliseconds(_ time: String) throws -> Int64 {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "Europe/Berlin")
        format.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return Int64(try XCTUnwrap(format.date(from: time)).timeIntervalSince1970 * 1000)
    }

    // MARK: - A clock a month ahead

    func testAChangeStampedAMonthAheadWaitsAndIsTakenInOnceThisMachinesClockComesNear() throws {
        let month = "2026-12-27T12:00:00", later = "2026-12-27T13:00:00"
        try on(machineA, ["craving", "3", "--notes", "on A"])
        try synced(machineA, ["--folder", shared])
        let b = try XCTUnwrap(try synced(machineB, ["--folder", shared])["device"] as? String)
        // B's clock is a month ahead: its craving and its name for the person are stamped then.
        try on(machineB, ["craving", "7", "--notes", "on B, a month ahead"], at: month)
        try on(machineB, ["settings", "name", "Alex"], at: month)

        let held = try synced(machineA, status: 1)
        XCTAssertEqual(held["broughtIn"] as? Int, 0, "\(held)")
        let problems = try XCTUnwrap(held["problems"] as? [String])
        XCTAssertEqual(problems.count, 1, "named once, with its device: \(problems)")
        XCTAssertTrue(problems[0].hasPrefix("2 changes of device \(b) wait here"), problems[0])
        XCTAssertTrue(problems[0].contains("(the latest on 2026-12-27)"), problems[0])
        XCTAssertTrue(try on(machineA, ["check"], status: 1).stdout.contains("more than a week ahead"))
        XCTAssertEqual(try notes(machineA), ["on A"], "not shown before its time")
        // A names the person meanwhile, on its own clock (a month earlier than B's name).
        try on(machineA, ["settings", "name", "Sam"])
        XCTAssertEqual(try settingName(machineA), "Sam\n")
        let again = try synced(machineA, status: 1)
        XCTAssertEqual(again["problems"] as? [String], problems, "still waiting, said the same")

        // A's clock comes within a week of B's: both changes are taken in, by the rules: B's name
        // is stamped later than A's, on both machines.
        let taken = try synced(machineA, at: later)
        XCTAssertEqual(taken["broughtIn"] as? Int, 2, "\(taken)")
        XCTAssertEqual(taken["problems"] as? [String], [])
        try synced(machineB, at: later)
        XCTAssertEqual(try notes(machineA), ["on A", "on B, a month ahead"])
        XCTAssertEqual(try settingName(machineA, at: later), "Alex\n")
        XCTAssertEqual(try settingName(machineB, at: later), "Alex\n")
        XCTAssertEqual(
            try on(machineA, ["log", "--json"], at: later).stdout,
            try on(machineB, ["log", "--json"], at: later).stdout)
        try on(machineA, ["check"], at: later)
        XCTAssertEqual(try synced(machineA, at: later)["broughtIn"] as? Int, 0, "taken once")
    }

    // MARK: - A log's time from the folder

    func testALogWhoseTimeIsLaterThanItsChangeIsRefusedAndNamed() throws {
        try on(machineA, ["craving", "4", "--notes", "typed"])
        try synced(machineA, ["--folder", shared])
        try synced(machineB, ["--folder", shared])
        let before = try on(machineB, ["log", "--json"]).stdout
        let status = try on(machineB, ["status"]).stdout
        // A third device's lines, written by hand: a craving A typed, copied with a new id and a
        // time three years ahead, stamped now; the same stamped three years ahead too.
        let typed = try String(
            contentsOfFile: try deviceFolder(machineA, in: shared) + "/changes.jsonl", encoding: .utf8)
        let craving = try XCTUnwrap(
            typed.split(separator: "\n").map { try jsonObject(String($0)) }.first { $0["kind"] as? String == "craving" }
        )
        let other = String(repeating: "e", count: 32)
        let directory = shared + "/cravey/devices/" + other
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data("{\"device\":\"\(other)\",\"format\":1}\n".utf8)
            .write(to: URL(fileURLWithPath: directory + "/device.json"))
        let now = try milliseconds(try XCTUnwrap(self.now)), years = try milliseconds("2029-11-27T12:00:00")
        var hostile = ""
        for (n, clock) in [now, years].enumerated() {
            var line = craving
            var row = try XCTUnwrap(line["row"] as? [String: Any])
            row["id"] = UUID().uuidString
            row["at"] = "2029-11-27T11:00:00.000Z"
            row["notes"] = "years ahead \(n + 1)"
            line["row"] = row
            line["id"] = row["id"]
            line["device"] = other
            line["counter"] = n + 1
            line["clock"] = [clock, 0]
            hostile +=
                String(
                    decoding: try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]), as: UTF8.self)
                + "\n"
        }
        try Data(hostile.utf8).write(to: URL(fileURLWithPath: directory + "/changes.jsonl"))

        let refused = try synced(machineB, status: 1)
        let problems = try XCTUnwrap(refused["problems"] as? [String])
        XCTAssertTrue(
            problems.contains {
                $0.hasPrefix("change 1 of device \(other) was not applied: its at (2029-11-27T11:00:00.000Z) is later")
            }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("1 change of device \(other) waits here") }, "\(problems)")
        XCTAssertEqual(try on(machineB, ["log", "--json"]).stdout, before, "never shown")
        XCTAssertEqual(try on(machineB, ["status"]).stdout, status, "never counted")
        let check = try on(machineB, ["check"], status: 1).stdout
        XCTAssertTrue(check.contains("is later than the moment its change was made"), check)
    }

    // MARK: - This machine's changes in the folder older than its own

    func testAnOlderCopyOfTheFolderPutBackIsWrittenAgainAndTheOtherMachineGetsEverything() throws {
        try on(machineA, ["craving", "3", "--notes", "before the copy"])
        try synced(machineA, ["--folder", shared])
        try synced(machineB, ["--folder", shared])
        let aside = base + "/aside"
        try tool("/bin/cp", ["-a", shared, aside])
        try on(machineA, ["craving", "5", "--notes", "after the copy"])
        try on(machineA, ["use", "vape", "2"])
        try on(machineA, ["settings", "goal", "cut-down"])
        try synced(machineB)
        // The older copy is put back (a stick restored from a backup, a sync tool rolling back).
        try FileManager.default.removeItem(atPath: shared)
        try FileManager.default.moveItem(atPath: aside, toPath: shared)
        let named = try on(machineA, ["check"], status: 1).stdout
        XCTAssertTrue(named.contains("older than the ones it wrote"), named)
        XCTAssertFalse(named.contains("--new-device"), "not a copied library: \(named)")
        try on(machineA, ["craving", "6", "--notes", "after it was put back"])

        let healed = try on(machineA, ["sync"])
        XCTAssertTrue(healed.stdout.contains("brought in, this machine's changes written again."), healed.stdout)
        XCTAssertTrue(
            healed.stdout.contains(
                "This machine's changes in the folder were older than its own (an older copy put back, or a file cut short); they are written again, and nothing is lost."
            ), healed.stdout)
        let next = try synced(machineA)
        XCTAssertEqual(next["rewritten"] as? Bool, false, "said once")
        XCTAssertEqual(next["waiting"] as? Int, 0)
        try synced(machineB)
        try assertOneHistory()
        XCTAssertEqual(try notes(machineB), ["after it was put back", "after the copy", "before the copy"])
        XCTAssertTrue(try on(machineB, ["settings", "--json"]).stdout.contains("\"cut-down\""))
        try on(machineA, ["craving", "2", "--notes", "and after"])
        try synced(machineB)
        try assertOneHistory()
        try on(machineA, ["check"])
        try on(machineB, ["check"])
    }

    func testAChangeFileAPowerCutCutShortIsWrittenAgain() throws {
        try synced(machineA, ["--folder", shared])
        for n in 1...4 { try on(machineA, ["craving", "\(n + 2)", "--notes", "craving \(n)"]) }
        let file = try deviceFolder(machineA, in: shared) + "/changes.jsonl"
        let whole = try Data(contentsOf: URL(fileURLWithPath: file))
        // A FAT stick's power cut: the file's end lost in the middle of a line, a few zeros after.
        try (whole.prefix(whole.count / 2) + Data(count: 16)).write(to: URL(fileURLWithPath: file))
        XCTAssertTrue(try on(machineA, ["check"], status: 1).stdout.contains("older than the ones it wrote"))

        XCTAssertEqual(try synced(machineA)["rewritten"] as? Bool, true)
        try synced(machineB, ["--folder", shared])
        try assertOneHistory()
        XCTAssertEqual(try notes(machineB), ["craving 1", "craving 2", "craving 3", "craving 4"])
        try on(machineA, ["check"])
    }

    /// A library copied whole to a second machine, both writing under one id: the copy's file
    /// put back shorter, holding the first machine's line where the copy's were. Still a clone.
    func testAShorterFileHoldingAnotherMachinesLineIsStillAClone() throws {
        try on(machineA, ["craving", "3", "--notes", "before the copy"])
        try synced(machineA, ["--folder", shared])
        try tool("/bin/cp", ["-a", machineA, machineB])
        let file = try deviceFolder(machineA, in: shared) + "/changes.jsonl"
        let copied = try Data(contentsOf: URL(fileURLWithPath: file))
        try on(machineB, ["craving", "6", "--notes", "on the copy, written first, with longer notes"])
        try on(machineB, ["craving", "7", "--notes", "on the copy again, written second"])
        // The first machine's own copy of the folder, without the copy's lines: it writes there.
        try copied.write(to: URL(fileURLWithPath: file))
        try on(machineA, ["craving", "2", "--notes", "on A"])

        let cloned = try synced(machineB, status: 1)
        XCTAssertEqual(cloned["rewritten"] as? Bool, false)
        let problems = try XCTUnwrap(cloned["problems"] as? [String])
        XCTAssertTrue(problems.contains { $0.contains("run 'cravey sync --new-device'") }, "\(problems)")
        XCTAssertFalse(problems.contains { $0.contains("older than the ones it wrote") }, "\(problems)")
        XCTAssertTrue(try on(machineB, ["check"], status: 1).stdout.contains("another machine writes as this one"))
        XCTAssertTrue(try Data(contentsOf: URL(fileURLWithPath: file)).count > copied.count, "A's line stays")

        try synced(machineB, ["--new-device"])
        try synced(machineA)
        try synced(machineB)
        try assertOneHistory()
        XCTAssertEqual(
            try notes(machineA),
            [
                "before the copy", "on A", "on the copy again, written second",
                "on the copy, written first, with longer notes",
            ])
    }
}
