import CraveyTestSupport
import Foundation
import XCTest

/// What comes from outside cravey's own typing: stored text a restored backup or an older version
/// wrote, argument bytes that are not UTF-8, file names as titles, values that start with a dash,
/// a full disk while logging, and refusals that name the option the command really takes.
final class OutsideInputTests: FaultCampaign {
    var root: String { base + "/lib" }

    /// Every run without the background transcript worker: no other process holds the library
    /// unless a test says so.
    override func run(_ arguments: [String], _ root: String, environment: [String: String] = [:]) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        try super.run(arguments, root, environment: ["CRAVEY_TRANSCRIBE": "later"].merging(environment) { $1 })
    }

    /// A one-second WAV at `name` in the test's directory.
    func wav(_ name: String) throws -> String {
        let path = base + "/" + name
        let made = try runProcess("/usr/bin/sox", ["-n", "-r", "48000", "-c", "1", path, "synth", "1", "sine", "440"])
        XCTAssertEqual(made.status, 0, made.stderr)
        return path
    }

    /// `script` in bash, in the test's directory (for arguments that are bytes, not UTF-8).
    func bash(_ script: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess(
            "/bin/bash", ["-c", script], environment: ["C": cravey, "CRAVEY_TRANSCRIBE": "later"], directory: base)
    }

    // MARK: - Stored text never drives a terminal

    func testExportToATerminalShowsStoredControlCharactersAsTheListingsDo() throws {
        XCTAssertEqual(try run(["craving", "4", "--notes", "calm"], root).status, 0)
        XCTAssertEqual(try run(["use", "vape", "2", "--notes", "calm"], root).status, 0)
        XCTAssertEqual(try run(["import", try wav("memo.wav"), "--title", "Memo"], root).status, 0)
        // As a restored backup could hold them: a title change, a screen clear, a bell, C1 CSI, a direction override.
        let hostile =
            "'Pwn' || char(27) || ']0;pwned' || char(7) || char(27) || '[2J' || char(155) || char(8238) || 'end'"
        try sqlite(
            root,
            "UPDATE craving SET notes = \(hostile); UPDATE usage SET notes = \(hostile); UPDATE recording SET title = \(hostile), notes = \(hostile)"
        )
        let raw = ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}"]
        for format in ["csv", "json"] {
            let shown = try runInTerminal(
                "\(shellQuote(cravey)) export --format \(format) --output - --library \(shellQuote(root))")
            XCTAssertEqual(shown.status, 0, shown.screen)
            XCTAssertFalse(
                raw.contains { shown.screen.contains($0) },
                "\(format) on a terminal printed a raw control character: \(shown.screen.debugDescription)")
            XCTAssertTrue(shown.screen.contains("]0;pwned"), "the stored text is still shown: \(shown.screen)")
        }
        let onTerminal = try runInTerminal(
            "\(shellQuote(cravey)) export --format csv --output - --library \(shellQuote(root))"
        ).screen
        XCTAssertEqual(
            onTerminal.components(separatedBy: "\u{FFFD}]0;pwned\u{FFFD}\u{FFFD}[2J\u{FFFD}\u{FFFD}end").count - 1, 4,
            "each stored control character is shown as the listings show it, in every cell: \(onTerminal)")
        // Not a terminal: a pipe and a file keep the data as it is stored.
        let piped = try run(["export", "--format", "csv", "--output", "-"], root)
        XCTAssertTrue(piped.stdout.contains("Pwn\u{1B}]0;pwned\u{07}"), piped.stdout)
        XCTAssertEqual(try run(["export", "--format", "csv", "--output", base + "/out.csv"], root).status, 0)
        XCTAssertTrue(
            try String(contentsOfFile: base + "/out.csv", encoding: .utf8).contains("Pwn\u{1B}]0;pwned\u{07}"))
    }

    // MARK: - Paths are bytes, names are the person's

    func testAnArgumentThatIsNotUTF8IsRefusedAndNothingIsWritten() throws {
        XCTAssertEqual(try run(["craving", "4"], root).status, 0)
        _ = try wav("memo.wav")
        XCTAssertEqual(try bash("cp memo.wav $'caf\\xe9.wav'").status, 0)
        let cases = [
            ("$C backup $'bk\\xe9' --library lib", "bk\\xE9"),
            ("$C import $'caf\\xe9.wav' --library lib", "caf\\xE9.wav"),
        ]
        for (command, shown) in cases {
            let result = try bash(command)
            assertOneLineError(result, containing: "the argument '\(shown)' is not valid UTF-8", command)
            XCTAssertTrue(result.stderr.contains("convmv"), result.stderr)
            XCTAssertFalse(
                result.stderr.contains("\u{FFFD}"), "the bad byte is shown escaped, never raw: \(result.stderr)")
        }
        XCTAssertEqual(
            try bash("test -e $'bk\\xe9' || test -e $'bk\\xef\\xbf\\xbd'").status, 1,
            "no backup directory under either name")
        XCTAssertEqual(try listed(root).count, 0, "nothing imported")
    }

    func testAFileNameBecomesATitleWithoutInvisibleCharacters() throws {
        let name = "rlo\u{202E}gpj zero\u{200B}width"
        let file = try wav(name + ".wav")
        let imported = try run(["import", file, "--json"], root)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(try jsonObject(imported.stdout)["title"] as? String, "rlogpj zerowidth")
        // A typed title is still refused for the same character.
        assertOneLineError(
            try run(["import", file, "--title", name], root), containing: "U+202E", "a typed direction override")
    }

    func testTextThatStartsWithADashIsSavedAsTyped() throws {
        let craving = try run(["craving", "4", "--notes", "- rough day", "--json"], root)
        XCTAssertEqual(craving.status, 0, craving.stderr)
        let logged = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(try run(["log", "--json"], root).stdout.utf8))
                as? [[String: Any]])
        XCTAssertEqual(logged.first?["notes"] as? String, "- rough day")
        let imported = try run(["import", try wav("memo.wav"), "--title", "-cmd", "--notes", "-x"], root)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let row = try XCTUnwrap(try listed(root).first)
        XCTAssertEqual(row["title"] as? String, "-cmd")
        XCTAssertEqual(row["notes"] as? String, "-x")
    }

    // MARK: - A full disk while logging

    /// A library on a small disk of its own, with a craving and a recording whose file's tags wait
    /// to be written (its row was changed by another program). Without `read`, opening it on a
    /// full disk needs space; with `read`, another process keeps reading it (as the transcript
    /// worker does), SQLite's files stay open, the library opens, the tags cannot be written, and
    /// it is the log's commit that needs space.
    func libraryToFill(read: Bool) throws -> (disk: String, root: String) {
        let disk = try smallDisk("4m")
        let root = disk + "/lib"
        XCTAssertEqual(try run(["craving", "3"], root).status, 0)
        XCTAssertEqual(try run(["import", try wav("memo.wav")], root).status, 0)
        if read {
            let ready = base + "/reading-\(mounts.count)"
            let reader = Process()
            reader.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            reader.arguments = [
                "-c",
                "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1]); c.execute('SELECT count(*) FROM craving').fetchall(); "
                    + "open(sys.argv[2], 'w').close(); time.sleep(60)", root + "/library.sqlite", ready,
            ]
            try reader.run()
            readers.append(reader)
            for _ in 0..<100 where !FileManager.default.fileExists(atPath: ready) { usleep(50_000) }
        }
        try sqlite(root, "UPDATE recording SET title = 'Renamed'")
        return (disk, root)
    }

    var readers: [Process] = []

    override func tearDownWithError() throws {
        for reader in readers { reader.terminate(); reader.waitUntilExit() }
        try super.tearDownWithError()
    }

    func testAFullDiskStillLogsACravingWithTheReserve() throws {
        try requireRoot()
        for read in [false, true] {
            let (disk, root) = try libraryToFill(read: read)
            try fill(disk)
            let logged = try run(["craving", "5"], root)
            XCTAssertEqual(logged.status, 0, "read: \(read): \(logged.stderr)")
            XCTAssertTrue(logged.stdout.contains("logged"), logged.stdout)
            if read {  // the tags wait for space, said after the log, as a full disk
                XCTAssertTrue(
                    logged.stderr.contains("could not finish now (will try again): the tags of"), logged.stderr)
                XCTAssertTrue(logged.stderr.contains("No space left on device"), logged.stderr)
            }
            XCTAssertFalse(logged.stderr.contains("library database"), logged.stderr)
            unfill(disk)
            XCTAssertEqual(try listedLogs(root).count, 2, "read: \(read): the craving is there")
            // The next opening with space to spare takes the reserve back.
            var info = stat()
            XCTAssertEqual(stat(root + "/.reserve", &info), 0)
            XCTAssertGreaterThanOrEqual(Int(info.st_blocks) * 512, 512 << 10, "the reserve holds its space again")
            Self.cases += 1
        }
    }

    func testADiskTooFullEvenForTheReserveSaysNotLoggedInOneLine() throws {
        try requireRoot()
        for read in [false, true] {
            let (disk, root) = try libraryToFill(read: read)
            XCTAssertEqual(truncate(root + "/.reserve", 0), 0, "the reserve was given back already")
            try fill(disk)
            let refused = try run(["craving", "5"], root)
            assertOneLineError(refused, containing: "not logged", "read: \(read): a craving on a full disk")
            XCTAssertTrue(refused.stderr.hasPrefix("cravey: Not logged: the disk is full ("), refused.stderr)
            XCTAssertTrue(refused.stderr.hasSuffix("; free some space and log again\n"), refused.stderr)
            XCTAssertFalse(refused.stdout.contains("logged"), refused.stdout)
            unfill(disk)
            XCTAssertEqual(try listedLogs(root).count, 1, "read: \(read): nothing was logged")
            Self.cases += 1
        }
    }

    func listedLogs(_ root: String) throws -> [[String: Any]] {
        let result = try run(["log", "--json"], root)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    // MARK: - Exports and refusals

    func testCSVGuardsFreeTextButNotTheValuesCraveyFormats() throws {
        let environment = ["TZ": "America/New_York"]
        XCTAssertEqual(
            try run(["craving", "4", "--at", "2026-01-15 10:00", "--notes", "=1+1"], root, environment: environment)
                .status, 0)
        XCTAssertEqual(
            try run(
                ["use", "vape", "2", "--at", "2026-07-15 10:00", "--notes", "-2 pulls"], root, environment: environment
            ).status, 0)
        let rows = parseCSV(
            try run(["export", "--format", "csv", "--output", "-"], root, environment: environment).stdout)
        let header = try XCTUnwrap(rows.first)
        let offset = try XCTUnwrap(header.firstIndex(of: "utcOffset")),
            notes = try XCTUnwrap(header.firstIndex(of: "notes"))
        XCTAssertEqual(Set(rows.dropFirst().map { $0[offset] }), ["-05:00", "-04:00"], "offsets as they are: \(rows)")
        XCTAssertEqual(
            Set(rows.dropFirst().map { $0[notes] }), ["'=1+1", "'-2 pulls"], "free text keeps its guard: \(rows)")
    }

    func testProgressRefusalsNameTheOptionProgressTakes() throws {
        XCTAssertEqual(try run(["craving", "4"], root).status, 0)
        let existing = base + "/page.html"
        XCTAssertTrue(FileManager.default.createFile(atPath: existing, contents: Data("mine".utf8)))
        for (file, what) in [
            (existing, "already exists; choose another with --html or replace it with --force"),
            (base, "is not a regular file (a directory); choose another with --html"),
        ] {
            let refused = try run(["progress", "--html", file], root)
            assertOneLineError(refused, containing: what, "progress --html \(file)")
            XCTAssertFalse(refused.stderr.contains("--output"), refused.stderr)
        }
        XCTAssertEqual(try String(contentsOfFile: existing, encoding: .utf8), "mine")
        assertOneLineError(
            try run(["export", "--format", "csv", "--output", existing], root),
            containing: "already exists; choose another with --output or replace it with --force", "export")
    }

    func jsonObject(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }
}
