import CraveyTestSupport
import Foundation
import XCTest

/// Recordings on both machines through the sync folder: a message recorded on one (the tests' ALSA
/// `file` plugin) is listed and played on the other, a trim and an edit follow it, a delete on
/// either removes it on both; both check-ins of one day are kept on both; a file that is not the
/// one its line names is refused and named; a line whose file has not come yet waits quietly.
final class SyncRecordingsTests: CommandTestCase {
    /// The two machines' libraries and the folder they share (made).
    var machineA = "", machineB = "", shared = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        (machineA, machineB, shared) = (base + "/a", base + "/b", base + "/shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    }

    func env(_ extra: [String: String] = [:]) -> [String: String] {
        [
            "ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": phraseFixture, "CRAVEY_TRANSCRIBE": "later",
            "NO_COLOR": "1", "TZ": "Europe/Berlin",
        ].merging(extra) { $1 }
    }

    /// `cravey ARGUMENTS` on one machine's library, held to the exit status expected.
    @discardableResult
    func run(
        _ library: String, _ arguments: [String], status expected: Int32 = 0, now: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        var extra: [String: String] = [:]
        if let now { extra["CRAVEY_NOW"] = now }
        let ran = try runProcess(cravey, arguments + ["--library", library], environment: env(extra))
        if ran.status != expected {
            XCTFail("\(arguments) ended \(ran.status): \(ran.stdout) \(ran.stderr)", file: file, line: line)
        }
        return ran
    }

    /// `cravey sync --json` on one machine, its report read.
    @discardableResult
    func sync(_ library: String, _ options: [String] = [], status: Int32 = 0, now: String? = nil) throws -> [String:
        Any]
    {
        let report = try run(library, ["sync", "--json"] + options, status: status, now: now)
        return try jsonObject(report.stdout)
    }

    func listed(_ library: String) throws -> [[String: Any]] {
        try json(try run(library, ["list", "--json"]).stdout) as! [[String: Any]]
    }

    func device(_ library: String) throws -> String { try sync(library, ["--status"])["device"] as! String }

    func media(_ folder: String, _ device: String) -> String { folder + "/cravey/devices/" + device + "/media" }

    func names(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    /// Records a two-second message on `library`; returns its id.
    func record(_ library: String, title: String, extra: [String] = []) throws -> String {
        let made = try run(
            library, ["record", "audio", "--mic", "cravey_file", "--max-seconds", "2", "--title", title] + extra)
        return made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testAMessageRecordedOnOneMachinePlaysOnTheOtherAndFollowsItsTrimEditAndDelete() throws {
        let id = try record(machineA, title: "Call Sam", extra: ["--for", "bored"])
        XCTAssertEqual(try sync(machineA, ["--folder", shared])["written"] as? Int, 1, "the recording's line")
        let a = try device(machineA)
        XCTAssertEqual(names(media(shared, a)), [id.lowercased() + ".1.m4a"], "its file, once, by its id and version")
        XCTAssertEqual(try mode(media(shared, a)), 0o700)
        XCTAssertEqual(try mode(media(shared, a) + "/" + id.lowercased() + ".1.m4a"), 0o600)

        XCTAssertEqual(try sync(machineB, ["--folder", shared])["broughtIn"] as? Int, 1)
        let onB = try XCTUnwrap(try listed(machineB).first)
        XCTAssertEqual(onB["id"] as? String, id)
        XCTAssertEqual(onB["title"] as? String, "Call Sam")
        XCTAssertEqual(onB["forTriggers"] as? String, "bored")
        XCTAssertEqual(onB["duration"] as? Double ?? 0, 2, accuracy: 0.05)
        let file = machineB + "/" + (onB["filePath"] as! String)
        XCTAssertEqual(try mode(file), 0o600)
        XCTAssertEqual(try ffprobe(file).codecs, ["aac"])
        let speaker = base + "/speaker.raw"
        let played = try runProcess(
            cravey, ["play", id, "--speaker", "cravey_capture", "--library", machineB],
            environment: env(["CRAVEY_ALSA_OUTFILE": speaker]))
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertTrue(played.stdout.hasPrefix("Played 'Call Sam'"), played.stdout)
        XCTAssertGreaterThan(try readS16(speaker).filter { $0 != 0 }.count, 48_000, "the sound reached B's speaker")
        XCTAssertEqual(try sync(machineB)["broughtIn"] as? Int, 0, "taken in once")
        XCTAssertEqual(names(media(shared, try device(machineB))), [], "B wrote no copy of A's recording")

        // A trims: a new version goes into the folder and replaces B's copy; the old one leaves.
        try run(machineA, ["trim", id, "--start", "0.5", "--end", "1.5"])
        try sync(machineA)
        XCTAssertEqual(names(media(shared, a)), [id.lowercased() + ".2.m4a"])
        try sync(machineB)
        XCTAssertEqual(try listed(machineB).first?["duration"] as? Double ?? 0, 1, accuracy: 0.05)

        // B edits its title: the last writer per field, as for logs.
        try run(machineB, ["edit", id, "--title", "Call Sam tonight"])
        try sync(machineB)
        try sync(machineA)
        XCTAssertEqual(try listed(machineA).first?["title"] as? String, "Call Sam tonight")
        XCTAssertEqual(try listed(machineA).first?["duration"] as? Double ?? 0, 1, accuracy: 0.05, "A kept its trim")

        // A edits it again while B deletes it: the delete wins on both, and A's copy leaves the folder.
        try run(machineA, ["edit", id, "--title", "Keep it"])
        try run(machineB, ["delete", id, "--yes"])
        try sync(machineA)
        try sync(machineB)
        try sync(machineA)
        XCTAssertEqual(try listed(machineA).count, 0)
        XCTAssertEqual(try listed(machineB).count, 0)
        XCTAssertEqual(names(media(shared, a)), [])
        XCTAssertEqual(names(machineA + "/Recordings").filter { $0.hasSuffix(".m4a") }, [])
        XCTAssertEqual(try sync(machineB)["broughtIn"] as? Int, 0)
        XCTAssertEqual(try run(machineA, ["check"]).status, 0)
        XCTAssertEqual(try run(machineB, ["check"]).status, 0)
    }

    func testBothCheckInsOfOneDayAreKeptOnBothMachinesAndCountOneDay() throws {
        let now = "2026-11-21T20:00:00"
        try sync(machineA, ["--folder", shared], now: now)
        try sync(machineB, ["--folder", shared], now: now)
        for day in ["2026-11-19", "2026-11-20", "2026-11-21"] {
            for (library, mood) in [(machineA, "happy"), (machineB, "low")] {
                try run(
                    library, ["checkin", "--mood", mood, "--date", day, "--mic", "cravey_file", "--max-seconds", "2"],
                    now: now)
            }
        }
        try sync(machineA, now: now)
        try sync(machineB, now: now)
        try sync(machineA, now: now)
        for library in [machineA, machineB] {
            let entries =
                try json(try run(library, ["checkin", "list", "--json"], now: now).stdout) as! [[String: Any]]
            XCTAssertEqual(entries.count, 6, "both entries of each day, on each machine")
            XCTAssertEqual(
                entries.map { "\($0["checkinDay"]!) \($0["mood"]!)" }.sorted(),
                [
                    "2026-11-19 happy", "2026-11-19 low", "2026-11-20 happy", "2026-11-20 low", "2026-11-21 happy",
                    "2026-11-21 low",
                ])
            let month = try jsonObject(try run(library, ["checkin", "calendar", "2026-11", "--json"], now: now).stdout)
            XCTAssertEqual((month["days"] as! [[String: Any]]).count, 6, "the calendar lists both of a day")
            // A check-in milestone counts days: three days are not five check-ins.
            let milestones = try XCTUnwrap(
                try jsonObject(try run(library, ["progress", "--json"], now: now).stdout)["milestones"]
                    as? [[String: Any]])
            XCTAssertEqual(
                milestones.filter { $0["kind"] as? String == "checkIns" }.map { $0["count"] as! Int }, [1],
                "\(milestones)")
            // Each machine still records its own entry of a day once.
            let again = try run(
                library, ["checkin", "--mood", "okay", "--mic", "cravey_file", "--max-seconds", "2"], status: 1,
                now: now)
            XCTAssertTrue(again.stderr.contains("has its check-in already"), again.stderr)
        }
        XCTAssertEqual(try run(machineA, ["check"], now: now).status, 0)
    }

    /// A machine's folder copied to another stick (a USB stick carrying it): only its changes,
    /// or its changes with a file changed on the way.
    /// A video made on one machine reaches the other with a thumbnail of its own, made there as a
    /// local save makes one, and a trim on the first gives it a new one.
    func testAVideoTakenInHasItsThumbnail() throws {
        let video = base + "/walk.mov"
        try makeTestVideo(video, seconds: 3)
        let id = try XCTUnwrap(try jsonObject(try run(machineA, ["import", video, "--json"]).stdout)["id"] as? String)
        try run(machineA, ["edit", id, "--title", "Walk"])
        try sync(machineA, ["--folder", shared])
        XCTAssertEqual(try sync(machineB, ["--folder", shared])["broughtIn"] as? Int, 1)
        let onB = try XCTUnwrap(try listed(machineB).first { $0["title"] as? String == "Walk" })
        let thumbnail = try XCTUnwrap(onB["thumbnailPath"] as? String, "\(onB)")
        XCTAssertEqual(try mode(machineB + "/" + thumbnail), 0o600)
        XCTAssertEqual(try ffprobe(machineB + "/" + thumbnail).codecs, ["mjpeg"])
        try run(machineB, ["check"])

        let before = try Data(contentsOf: URL(fileURLWithPath: machineB + "/" + thumbnail))
        try run(machineA, ["trim", id, "--start", "1.5"])
        try sync(machineA)
        try sync(machineB)
        let trimmed = try XCTUnwrap(try listed(machineB).first { $0["title"] as? String == "Walk" })
        XCTAssertEqual(trimmed["duration"] as? Double ?? 0, 1.5, accuracy: 0.2)
        let after = try Data(contentsOf: URL(fileURLWithPath: machineB + "/" + (trimmed["thumbnailPath"] as! String)))
        XCTAssertNotEqual(before, after, "the trimmed video's own picture")
        try run(machineB, ["check"])
    }

    func carry(_ device: String, from: String, to: String, withMedia: Bool = true) throws {
        let source = from + "/cravey/devices/" + device, target = to + "/cravey/devices/" + device
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        for name in names(source) where name != "media" || withMedia {
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: target + "/" + name)
        }
    }

    /// A message recorded on A, each machine with its own stick: the stick of each, the
    /// message's id and A's device.
    func recordedOnTwoSticks() throws -> (stickA: String, stickB: String, id: String, a: String) {
        let sticks = [base + "/stick-a", base + "/stick-b"]
        for stick in sticks {
            try FileManager.default.createDirectory(atPath: stick, withIntermediateDirectories: true)
        }
        let id = try record(machineA, title: "Breathe")
        try sync(machineA, ["--folder", sticks[0]])
        try sync(machineB, ["--folder", sticks[1]])
        return (sticks[0], sticks[1], id, try device(machineA))
    }

    func testALineWhoseFileHasNotComeWaitsQuietlyAndIsTakenInOnceTheFileIsWhole() throws {
        let (stickA, stickB, id, a) = try recordedOnTwoSticks()
        try carry(a, from: stickA, to: stickB, withMedia: false)
        XCTAssertEqual(try sync(machineB)["problems"] as? [String], [], "waiting is quiet")
        XCTAssertEqual(try listed(machineB).count, 0)
        let check = try run(machineB, ["check"], status: 1)
        XCTAssertTrue(
            check.stdout.contains("waits for") && check.stdout.contains(id.lowercased() + ".1.m4a"), check.stdout)

        // Half the file (a sync tool still copying it): still waiting.
        let name = "/cravey/devices/" + a + "/media/" + id.lowercased() + ".1.m4a"
        let whole = try Data(contentsOf: URL(fileURLWithPath: stickA + name))
        try FileManager.default.createDirectory(atPath: media(stickB, a), withIntermediateDirectories: true)
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: stickB + name))
        try sync(machineB)
        XCTAssertEqual(try listed(machineB).count, 0)
        XCTAssertEqual(names(machineB + "/.incoming"), [], "no partial copy left")

        try whole.write(to: URL(fileURLWithPath: stickB + name))
        try sync(machineB)
        XCTAssertEqual(try listed(machineB).map { $0["id"] as? String }, [id])
        XCTAssertEqual(try run(machineB, ["check"]).status, 0)
    }

    func testAFileThatIsNotTheOneItsLineNamesIsRefusedNamedAndChangesNothing() throws {
        let (stickA, stickB, id, a) = try recordedOnTwoSticks()
        try carry(a, from: stickA, to: stickB)
        let name = media(stickB, a) + "/" + id.lowercased() + ".1.m4a"

        // One byte changed on the way: the same size, another hash.
        var data = try Data(contentsOf: URL(fileURLWithPath: name))
        data[data.count / 2] ^= 0xFF
        try data.write(to: URL(fileURLWithPath: name))
        let refused = try sync(machineB, status: 1)
        XCTAssertTrue(
            (refused["problems"] as! [String]).contains { $0.contains("SHA-256") && $0.contains(id.lowercased()) },
            "\(refused)")
        XCTAssertEqual(try listed(machineB).count, 0)
        XCTAssertEqual(names(machineB + "/Recordings").filter { $0.hasSuffix(".m4a") }, [])
        XCTAssertEqual(names(machineB + "/.incoming"), [])
        XCTAssertTrue(try run(machineB, ["check"], status: 1).stdout.contains("SHA-256"))

        // A file with the hash its line names that is not media at all, on a third machine.
        let machineC = base + "/c", stickC = base + "/stick-c"
        try FileManager.default.createDirectory(atPath: stickC, withIntermediateDirectories: true)
        try sync(machineC, ["--folder", stickC])
        try carry(a, from: stickA, to: stickC)
        let junk = Data(repeating: 0x41, count: 4000)
        let changes = stickC + "/cravey/devices/" + a + "/changes.jsonl"
        var line = try jsonObject(try String(contentsOfFile: changes, encoding: .utf8))
        var row = line["row"] as! [String: Any]
        row["sizeBytes"] = junk.count
        row["sha"] = try runProcess("/bin/sh", ["-c", "head -c 4000 /dev/zero | tr '\\0' A | sha256sum"]).stdout
            .prefix(64).description
        line["row"] = row
        try (JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]) + Data("\n".utf8))
            .write(to: URL(fileURLWithPath: changes))
        try junk.write(to: URL(fileURLWithPath: media(stickC, a) + "/" + id.lowercased() + ".1.m4a"))
        let notMedia = try sync(machineC, status: 1)
        XCTAssertTrue(
            (notMedia["problems"] as! [String]).contains { $0.contains("FFmpeg does not read it") }, "\(notMedia)")
        XCTAssertEqual(try listed(machineC).count, 0)

        // A link planted among the files: named, never followed.
        symlink("/etc/passwd", media(stickC, a) + "/planted.m4a")
        let check = try run(machineC, ["check"], status: 1)
        XCTAssertTrue(check.stdout.contains("planted.m4a is a link; it was not followed"), check.stdout)
    }
}
