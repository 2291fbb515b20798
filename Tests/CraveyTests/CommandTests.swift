import CraveyLibraryFixtures
import CraveyLibrary
import CraveyTracker
import CraveyTestSupport
import Foundation
import XCTest

/// End-to-end: the built `cravey` binary against a seeded temporary library.
final class CommandTests: CommandTestCase {
    var seeded: [Recording] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        let media = base + "/media.bin"
        // Opaque bytes behind an MP4 file's first box, as cravey's own files start.
        try (Data([0, 0, 0, 16]) + Data("ftypM4A ".utf8) + Data(repeating: 7, count: 1000)).write(
            to: URL(fileURLWithPath: media))
        let library = try Library(root: root)
        let t0 = Date(timeIntervalSince1970: 1_761_406_920)
        let specs: [(String, Recording.Kind, Recording.Purpose?, String?)] = [
            ("Why I started", .audio, .motivational, "Day one,\nwith \"quotes\""),
            ("30 days, clean", .video, .milestone, nil),
            ("Late-night craving", .audio, .craving, nil),
        ]
        seeded = try specs.enumerated().map { i, spec in
            try library.save(
                copying: media, thumbnail: spec.1 == .video ? media : nil, kind: spec.1,
                draft: .init(title: spec.0, notes: spec.3, purpose: spec.2), duration: Double(30 + i * 40),
                media: MediaFacts(sampleRate: 48000, channels: 1, waveform: [10, 200, 90]),
                createdAt: t0 + Double(i) * 3600)
        }
        try library.recordPlay(seeded[0].id, at: Date())
        try library.recordPlay(seeded[0].id, at: Date())
        try library.recordPlay(seeded[2].id, at: Date())
    }

    @discardableResult
    func cravey(
        _ args: String..., env: [String: String] = [:], status expected: Int32 = 0,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try runProcess(cravey, args + ["--library", root], environment: env, directory: base)
        XCTAssertEqual(
            result.status, expected, "cravey \(args.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        if expected != 0 {
            XCTAssertEqual(
                result.stderr.split(separator: "\n").count, 1, "one line on stderr: \(result.stderr)", file: file,
                line: line)
            XCTAssertTrue(result.stderr.hasPrefix("cravey: "), result.stderr, file: file, line: line)
        }
        return result
    }

    func testListNewestFirstWithFilters() throws {
        let table = try cravey("list").stdout
        let lines = table.split(separator: "\n")
        XCTAssertEqual(lines.count, 4)
        XCTAssertTrue(
            lines[1].contains("Late-night craving") && lines[1].contains("1:50") && lines[1].contains("1 play"))
        XCTAssertTrue(lines[2].contains("30 days, clean") && lines[2].contains("milestone"))
        XCTAssertTrue(
            lines[3].contains("Why I started") && lines[3].contains("Oct 25, 2025") || lines[3].contains("Oct 26, 2025")
        )
        XCTAssertFalse(table.contains("\u{1B}["), "no colour without a terminal")

        let all = try json(try cravey("list", "--json").stdout) as! [[String: Any]]
        XCTAssertEqual(all.map { $0["title"] as! String }, ["Late-night craving", "30 days, clean", "Why I started"])
        XCTAssertEqual(all[2]["notes"] as? String, "Day one,\nwith \"quotes\"")
        XCTAssertEqual(all[2]["playCount"] as? Int, 2)
        XCTAssertEqual(all[1]["thumbnailPath"] as? String, seeded[1].thumbnailPath)
        let audio = try json(try cravey("list", "--type", "audio", "--json").stdout) as! [[String: Any]]
        XCTAssertEqual(audio.map { $0["kind"] as! String }, ["audio", "audio"])
        let cravings = try json(try cravey("list", "--purpose", "craving", "--json").stdout) as! [[String: Any]]
        XCTAssertEqual(cravings.map { $0["id"] as! String }, [seeded[2].id.uuidString])
        try cravey("list", "--type", "photo", status: 64)
        try cravey("list", "--purpose", "boredom", status: 64)
    }

    func testTop() throws {
        let top = try json(try cravey("top", "--json").stdout) as! [[String: Any]]
        XCTAssertEqual(top.map { $0["title"] as! String }, ["Why I started", "Late-night craving", "30 days, clean"])
        XCTAssertEqual(try cravey("top", "1").stdout.split(separator: "\n").count, 1)
        XCTAssertTrue(try cravey("top").stdout.hasPrefix("1. "))
        try cravey("top", "0", status: 64)
        try cravey("purge", "--yes")
        XCTAssertTrue(try cravey("top").stdout.contains("cravey record"))
    }

    func testShowByPrefixAndBadIds() throws {
        let prefix = String(seeded[1].id.uuidString.prefix(6)).lowercased()
        let shown = try cravey("show", prefix).stdout
        XCTAssertTrue(
            shown.contains("30 days, clean") && shown.contains(seeded[1].id.uuidString) && shown.contains("1:10"))
        let object = try json(try cravey("show", prefix, "--json").stdout) as! [String: Any]
        XCTAssertEqual(object["waveform"] as? [Int], [10, 200, 90])
        XCTAssertEqual(object["duration"] as? Double, 70)
        let missing = try cravey("show", "ZZZZ", status: 1)
        XCTAssertEqual(missing.stderr, "cravey: no recording matches 'ZZZZ'\n")
        // Make two ids share a prefix, then ask for it.
        let library = try Library(root: root)
        let twin = UUID(uuidString: String(seeded[0].id.uuidString.prefix(4)) + "0000-0000-4000-8000-000000000000")!
        _ = try library.save(
            copying: base + "/media.bin", kind: .audio, draft: .init(title: "twin"), duration: 5,
            media: MediaFacts(), id: twin)
        let ambiguous = try cravey("show", String(seeded[0].id.uuidString.prefix(4)), status: 1)
        XCTAssertTrue(ambiguous.stderr.contains("matches 2 recordings"), ambiguous.stderr)
    }

    func testEditAppliesLimitsAndChangesNothingOnBadInput() throws {
        let id = seeded[0].id.uuidString
        let edited =
            try json(try cravey("edit", id, "--title", "New start 🌱", "--purpose", "reflection", "--json").stdout)
            as! [String: Any]
        XCTAssertEqual(edited["title"] as? String, "New start 🌱")
        XCTAssertEqual(edited["purpose"] as? String, "reflection")
        let tooLong = try cravey("edit", id, "--title", String(repeating: "é", count: 41), status: 1)
        XCTAssertTrue(tooLong.stderr.contains("at most 40"), tooLong.stderr)
        try cravey("edit", id, "--notes", String(repeating: "n", count: 201), status: 1)
        try cravey("edit", id, "--purpose", "boredom", status: 1)
        try cravey("edit", id, status: 64)
        var row = try json(try cravey("show", id, "--json").stdout) as! [String: Any]
        XCTAssertEqual(row["title"] as? String, "New start 🌱", "refused edits changed nothing")
        try cravey("edit", id, "--title", "  ", "--clear-purpose")
        row = try json(try cravey("show", id, "--json").stdout) as! [String: Any]
        XCTAssertEqual(row["title"] as? String, Validation.automaticTitle(for: seeded[0].createdAt))
        XCTAssertTrue(row["purpose"] is NSNull)
    }

    func testDeleteNeedsConfirmation() throws {
        let video = seeded[1]
        let refused = try cravey("delete", video.id.uuidString, status: 1)
        XCTAssertTrue(refused.stderr.contains("without confirmation"), refused.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/" + video.filePath))
        // At a terminal: "n" keeps it, "y" deletes it, and the question is the documented one.
        let command = "\(shellQuote(cravey)) delete \(video.id.uuidString) --library \(shellQuote(root))"
        let no = try runInTerminal(command, input: "n\n")
        XCTAssertTrue(
            no.screen.contains(
                "Delete '30 days, clean'? This recording will be permanently deleted. This cannot be undone."),
            no.screen)
        // Saying no is not a failure: nothing is deleted, and it says so.
        XCTAssertEqual(no.status, 0, no.screen)
        XCTAssertTrue(no.screen.contains("Nothing deleted."), no.screen)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/" + video.filePath))
        let yes = try runInTerminal(command, input: "y\n")
        XCTAssertEqual(yes.status, 0, yes.screen)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/" + video.filePath))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/" + video.thumbnailPath!))
        try cravey("delete", seeded[0].id.uuidString, "--yes")
        let left = try json(try cravey("list", "--json").stdout) as! [[String: Any]]
        XCTAssertEqual(left.map { $0["id"] as! String }, [seeded[2].id.uuidString])
        try cravey("delete", seeded[0].id.uuidString, "--yes", status: 1)
    }

    func testPurge() throws {
        try cravey("purge", status: 1)
        XCTAssertEqual((try json(try cravey("list", "--json").stdout) as! [Any]).count, 3)
        XCTAssertTrue(try cravey("purge", "--yes").stdout.contains("Deleted 3 recordings"))
        XCTAssertEqual(try cravey("list", "--json").stdout, "[]\n")
        let files = try FileManager.default.contentsOfDirectory(atPath: root + "/Recordings")
        XCTAssertEqual(files, ["Thumbnails"])
    }

    func testExportCSVAndJSON() throws {
        try cravey("export")  // CSV unless told otherwise
        let name = try FileManager.default.contentsOfDirectory(atPath: base).first { $0.hasPrefix("cravey_export_") }
        XCTAssertNotNil(name)
        XCTAssertNotNil(name!.range(of: #"^cravey_export_\d{4}-\d{2}-\d{2}\.csv$"#, options: .regularExpression))
        let csvPath = base + "/" + name!
        XCTAssertEqual(try mode(csvPath), 0o600)
        let rows = parseCSV(try String(contentsOfFile: csvPath, encoding: .utf8))
        let header = try XCTUnwrap(rows.first)
        XCTAssertEqual(header.first, "record")
        XCTAssertEqual(
            Set(header),
            Set(["record"] + RecordingExport.columns + RecordingExport.transcriptColumns + LogExport.columns))
        XCTAssertEqual(rows.count, 4)
        func cell(_ row: [String], _ column: String) -> String { row[header.firstIndex(of: column)!] }
        let started = rows.first { cell($0, "title") == "Why I started" }!
        XCTAssertEqual(cell(started, "record"), "recording")
        XCTAssertEqual(cell(started, "notes"), "Day one,\nwith \"quotes\"", "CSV quoting round-trips")
        XCTAssertEqual(cell(started, "playCount"), "2")
        XCTAssertTrue(
            try String(contentsOfFile: csvPath, encoding: .utf8).contains("\"Day one,\nwith \"\"quotes\"\"\""))
        // Twice the same day: a numbered name keeps both; --force replaces today's instead.
        let second = try cravey("export", "--format", "csv").stdout
        XCTAssertTrue(second.hasSuffix(" to \(name!.dropLast(4))_2.csv\n"), second)
        XCTAssertTrue(FileManager.default.fileExists(atPath: base + "/\(name!.dropLast(4))_2.csv"))
        try cravey("export", "--format", "csv", "--force")
        XCTAssertFalse(FileManager.default.fileExists(atPath: base + "/\(name!.dropLast(4))_3.csv"))
        try cravey("export", "--format", "json", "--output", base + "/out.json")
        let document = try json(try String(contentsOfFile: base + "/out.json", encoding: .utf8)) as! [String: Any]
        XCTAssertEqual((document["cravings"] as? [Any])?.count, 0)
        XCTAssertEqual((document["usage"] as? [Any])?.count, 0)
        let exported = document["recordings"] as! [[String: Any]]
        XCTAssertEqual(Set(exported.map { $0["id"] as! String }), Set(seeded.map(\.id.uuidString)))
        XCTAssertNil(exported[0]["waveform"], "export is metadata only")
        try cravey("export", "--format", "xml", status: 64)
    }

    func testCheckReportsAndRepairs() throws {
        XCTAssertTrue(try cravey("check").stdout.contains("Library OK: 3 recordings"))
        try FileManager.default.removeItem(atPath: root + "/" + seeded[2].filePath)
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/Recordings/video_stray.mov"))
        let found = try cravey("check", status: 1)
        XCTAssertTrue(found.stdout.contains("row whose file is missing"), found.stdout)
        XCTAssertTrue(found.stdout.contains("Recordings/video_stray.mov"), found.stdout)
        let report = try json(try cravey("check", "--repair", "--json").stdout) as! [String: Any]
        XCTAssertEqual(report["recordings"] as? Int, 2)
        // Two problems repaired; the seeded rows (opaque bytes, saved without a loudness) stay unmeasured.
        let findings = report["findings"] as? [String] ?? []
        XCTAssertEqual(findings.filter { !$0.contains("loudness") }.count, 2, "\(findings)")
        XCTAssertTrue(try cravey("check").stdout.contains("Library OK: 2 recordings"))
    }

    func testColourOnlyOnATerminalAndNeverWithNoColor() throws {
        let command = "\(shellQuote(cravey)) list --library \(shellQuote(root))"
        let coloured = try runInTerminal(command).screen
        XCTAssertTrue(coloured.contains("\u{1B}["), "colour on a terminal: \(coloured.debugDescription)")
        XCTAssertFalse(try runInTerminal(command, environment: ["NO_COLOR": "1"]).screen.contains("\u{1B}["))
        XCTAssertFalse(try cravey("list").stdout.contains("\u{1B}["))
    }

    func testLibraryLocationFromEnvironment() throws {
        let elsewhere = base + "/xdg"
        // A listing makes no library; the first log makes it where XDG_DATA_HOME says.
        let listed = try runProcess(
            cravey, ["list", "--json"], environment: ["XDG_DATA_HOME": elsewhere, "CRAVEY_LIBRARY": ""])
        XCTAssertEqual(listed.stdout, "[]\n", listed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: elsewhere + "/cravey"))
        let result = try runProcess(
            cravey, ["craving", "3"], environment: ["XDG_DATA_HOME": elsewhere, "CRAVEY_LIBRARY": ""])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: elsewhere + "/cravey/library.sqlite"))
        XCTAssertEqual(try mode(elsewhere + "/cravey"), 0o700)
        let viaEnv = try runProcess(cravey, ["list", "--json"], environment: ["CRAVEY_LIBRARY": root])
        XCTAssertEqual((try json(viaEnv.stdout) as! [Any]).count, 3)
    }

    func testDevicesListsOnlyPCMsThatCanRecordAsMicrophones() throws {
        let result = try runProcess(cravey, ["devices", "--json"], environment: ["ALSA_CONFIG_PATH": testALSAConfig])
        XCTAssertEqual(result.status, 0, result.stderr)
        let mics = ((try json(result.stdout) as? [String: Any])?["microphones"] as? [[String: Any]] ?? []).compactMap {
            $0["name"] as? String
        }
        XCTAssertTrue(mics.contains("default") && mics.contains("cravey_file"), "\(mics)")
        XCTAssertFalse(mics.contains("cravey_speaker_only"), "a playback-only plugin is no microphone: \(mics)")
    }

    func testUnknownCommandAndHelp() throws {
        let help = try runProcess(cravey, ["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("list") && help.stdout.contains("purge"))
        let bad = try runProcess(cravey, ["frobnicate"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
    }
}
