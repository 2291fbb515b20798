import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `cravey report --pdf` drawn in cravey's own process: a valid A4 PDF whose text holds the
/// figures, the calendar's days and the notes only when asked for, pages that are not blank as
/// pictures; and, as an outsider would check it, no socket in any process, nothing written into
/// an empty HOME, a temporary folder with odd bytes in its name, a stale font cache kept out of
/// sight, and a stop half-way (SIGTERM, SIGHUP, Ctrl-C) that leaves nothing behind.
final class ReportPDFTests: CommandTestCase {
    var environment: [String: String] {
        [
            "NO_COLOR": "1", "TZ": "Europe/Berlin", "CRAVEY_TRANSCRIBE": "later", "LANG": "en_GB.UTF-8",
            "CRAVEY_LIBRARY": root, "TMPDIR": temporary, "HOME": home, "XDG_CACHE_HOME": home + "/.cache",
            "XDG_CONFIG_HOME": home + "/.config", "XDG_DATA_HOME": home + "/.local/share",
        ]
    }
    var home: String { base + "/home" }
    var temporary: String { base + "/tmp" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        for folder in [home, temporary] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        for tool in ["pdfinfo", "pdftotext", "pdftoppm"]
        where !FileManager.default.isExecutableFile(atPath: "/usr/bin/" + tool) {
            throw XCTSkip("\(tool) is not installed (Tests/install-deps.sh installs poppler-utils)")
        }
        try run(["craving", "7", "--at", "-30h", "--trigger", "bored", "--notes", "quiet-evening-words"])
        try run(["use", "vape", "3", "--at", "-29h", "--notes", "after-dinner-words"])
    }

    @discardableResult
    func run(
        _ arguments: [String], status: Int32? = 0, environment extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try runProcess(cravey, arguments, environment: environment.merging(extra) { $1 })
        if let status {
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)", file: file, line: line)
        }
        return result
    }

    /// Every file and folder under `folder`, relative to it.
    func contents(_ folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
    }

    func text(of pdf: String) throws -> String {
        try runProcess("/usr/bin/pdftotext", ["-layout", pdf, "-"]).stdout
    }

    func testAValidA4PDFWithTheFiguresTheCalendarAndNotesOnlyWhenAsked() throws {
        let pdf = base + "/report.pdf"
        XCTAssertEqual(try run(["report", "--pdf", pdf]).stdout, "Wrote your report to \(pdf)\n")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: pdf)[.posixPermissions] as? Int, 0o600)
        let info = try runProcess("/usr/bin/pdfinfo", [pdf])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.stdout.contains("595.28 x 841.89 pts (A4)"), info.stdout)
        XCTAssertTrue(info.stdout.contains("Creator:         cravey"), info.stdout)
        let pages = info.stdout.split(separator: "\n").first { $0.hasPrefix("Pages:") }.flatMap {
            Int($0.split(separator: " ").last ?? "")
        }
        XCTAssertTrue((2...4).contains(pages ?? 0), "pages: \(info.stdout)")

        let words = try text(of: pdf)
        for expected in [
            "Cannabis use and cravings: a report", "Period:", "Goal:", "No goal chosen", "Figures", "Cravings resisted",
            "Day by day", "Mon", "Sun", "1 craving, peak 7", "3 pulls", "Craving intensity over time", "Amounts",
            "Triggers", "Bored", "Time of day", "Weekdays", "Methods", "cravey · page 1",
        ] {
            XCTAssertTrue(words.contains(expected), "\(expected) in the PDF's text:\n\(words)")
        }
        // The calendar: 30 days; the days before the first log say no use is known of them.
        XCTAssertEqual(words.components(separatedBy: "—").count - 1 >= 27, true, words)
        XCTAssertFalse(words.contains("quiet-evening-words"), "no notes unless asked for")
        XCTAssertFalse(words.contains("after-dinner-words"))
        XCTAssertFalse(words.contains("Notes"))

        // Pictures of the pages: not blank, text on each.
        let converted = try runProcess("/usr/bin/pdftoppm", ["-r", "40", "-png", pdf, base + "/page"])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        let pictures = try FileManager.default.contentsOfDirectory(atPath: base).filter {
            $0.hasPrefix("page") && $0.hasSuffix(".png")
        }.sorted()
        XCTAssertEqual(pictures.count, pages, "\(pictures)")
        for (index, picture) in pictures.enumerated() {
            let stats = try runProcess("/usr/bin/python3", ["-c", ProgressCommandTests.pngStats, base + "/" + picture])
                .stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            XCTAssertGreaterThan(stats.first ?? 0, 10, "\(picture) is not blank")
            XCTAssertGreaterThan(stats.last ?? 0, index == 0 ? 100 : 20, "text on \(picture)")
        }

        // The notes only with --with-notes; an existing file only with --force.
        let refused = try run(["report", "--pdf", pdf, "--with-notes"], status: 1)
        XCTAssertTrue(refused.stderr.contains("already exists"), refused.stderr)
        try run(["report", "--pdf", pdf, "--with-notes", "--force"])
        let noted = try text(of: pdf)
        for expected in ["Notes", "quiet-evening-words", "after-dinner-words", "Craving 7/10", "Use: 3 pulls"] {
            XCTAssertTrue(noted.contains(expected), "\(expected) in the PDF's text:\n\(noted)")
        }
        // A period of its own: a year of days breaks the calendar over pages, its head repeated.
        let year = base + "/year.pdf"
        try run(["report", "--pdf", year, "--range", "all", "--from", day(daysAgo: 364)], status: 1)
        try run(["report", "--pdf", year, "--from", day(daysAgo: 364)])
        let long = try text(of: year)
        XCTAssertTrue(long.contains("Day by day (continued)"), long)
        XCTAssertGreaterThan(long.components(separatedBy: "Mon").count - 1, 1, "the weekdays repeated")
    }

    /// The local day `days` ago in Berlin, as YYYY-MM-DD.
    func day(daysAgo days: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Europe/Berlin")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date().addingTimeInterval(-Double(days) * 86_400))
    }

    func testNoSocketNoProcessAndNothingWrittenButTheFile() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
            throw XCTSkip("strace is not installed (Tests/install-deps.sh installs it)")
        }
        let pdf = base + "/report.pdf"
        let log = base + "/strace.log"
        let traced = try runProcess(
            "/usr/bin/strace",
            [
                "-f", "-o", log, "-e", "trace=socket,connect,execve,clone,clone3,fork,vfork", cravey, "report", "--pdf",
                pdf,
            ],
            environment: environment)
        XCTAssertEqual(traced.status, 0, traced.stderr)
        let calls = try String(contentsOfFile: log, encoding: .utf8)
        for family in ["AF_INET", "AF_INET6", "AF_NETLINK"] {
            XCTAssertFalse(calls.contains(family), "a \(family) socket:\n\(calls)")
        }
        // What the test runs cravey through (a network namespace, as root) starts before it; from
        // cravey's own start on, nothing else is.
        let ownStart = calls.range(of: "execve(\"\(productPath("cravey"))\"")
        XCTAssertNotNil(ownStart, calls)
        let afterStart = ownStart.map { String(calls[$0.upperBound...]) } ?? ""
        XCTAssertFalse(afterStart.contains("execve("), "only cravey itself is started:\n\(calls)")
        XCTAssertTrue(try Data(contentsOf: URL(fileURLWithPath: pdf)).starts(with: Data("%PDF-".utf8)))
        XCTAssertEqual(contents(home), [], "nothing written into HOME")
        XCTAssertEqual(contents(temporary), [], "nothing left in TMPDIR")
    }

    func testOddTemporaryFoldersAndAStaleFontCache() throws {
        for (index, odd) in ["/a#b", "/%41", "/with space?x=1&y<z>"].enumerated() {
            let folder = base + odd
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let pdf = base + "/report\(index).pdf"
            let result = try run(["report", "--pdf", pdf], environment: ["TMPDIR": folder])
            XCTAssertEqual(result.stdout, "Wrote your report to \(pdf)\n", odd)
            XCTAssertTrue(try text(of: pdf).contains("Cannabis use and cravings: a report"), odd)
            XCTAssertEqual(contents(folder), [], "nothing left in \(odd)")
        }
        // A folder of fonts whose cache fontconfig has never written: it writes one, into the
        // PDF's private folder (gone afterwards), not into the configuration's own cache folder
        // nor into HOME.
        let fonts = base + "/fonts"
        try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: fonts + "/Stale.ttf")
        let config = base + "/fonts.conf"
        try Data(
            """
            <?xml version="1.0"?>
            <fontconfig><include>/etc/fonts/fonts.conf</include><dir>\(fonts)</dir><cachedir>\(base)/fc-cache</cachedir></fontconfig>
            """.utf8
        ).write(to: URL(fileURLWithPath: config))
        let log = base + "/files.log"
        let pdf = base + "/stale.pdf"
        let traced = try runProcess(
            "/usr/bin/strace", ["-f", "-o", log, "-e", "trace=openat,rename,mkdir", cravey, "report", "--pdf", pdf],
            environment: environment.merging(["FONTCONFIG_FILE": config]) { $1 })
        XCTAssertEqual(traced.status, 0, traced.stderr)
        let calls = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertTrue(
            calls.split(separator: "\n").contains { $0.contains("cravey-fonts-") && $0.contains("O_CREAT") },
            "fontconfig wrote the stale folder's cache into the private folder:\n\(calls)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: base + "/fc-cache"), "the configuration's cache folder")
        XCTAssertEqual(contents(home), [])
        XCTAssertEqual(contents(temporary), [], "the private folder is gone")
    }

    /// Ctrl-C, SIGTERM or SIGHUP the moment the private folder is made: the drawing stops, the
    /// folder goes, no PDF is written and nothing is left (strace delivers the signal on the
    /// `mkdir` of the folder: a stop half-way, every time).
    func testAStopHalfWayLeavesNothing() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
            throw XCTSkip("strace is not installed (Tests/install-deps.sh installs it)")
        }
        // Which of the command's directories is the private folder (the library's come first).
        let log = base + "/mkdir.log"
        let dry = try runProcess(
            "/usr/bin/strace",
            ["-f", "-o", log, "-e", "trace=mkdir,mkdirat", cravey, "report", "--pdf", base + "/dry.pdf"],
            environment: environment)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        try FileManager.default.removeItem(atPath: base + "/dry.pdf")
        let made = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter {
            $0.contains("mkdir") && !$0.contains("resumed>")
        }
        let folder = try XCTUnwrap(made.firstIndex { $0.contains("/cravey-fonts-") }, "\(made)") + 1
        for (signal, number) in [("SIGTERM", SIGTERM), ("SIGHUP", SIGHUP), ("SIGINT", SIGINT)] {
            let pdf = base + "/stopped.pdf"
            let result = try runProcess(
                "/usr/bin/strace",
                [
                    "-f", "-o", "/dev/null", "-e", "trace=mkdir,mkdirat",
                    "-e", "inject=mkdir,mkdirat:signal=\(signal):when=\(folder)", cravey, "report", "--pdf", pdf,
                    "--with-notes",
                ], environment: environment)
            XCTAssertEqual(result.status, 128 + number, "\(signal): \(result.stderr)")
            XCTAssertEqual(result.stderr, "cravey: stopped; no report written\n", signal)
            XCTAssertFalse(FileManager.default.fileExists(atPath: pdf), signal)
            XCTAssertEqual(contents(temporary), [], "\(signal): nothing left in TMPDIR")
            XCTAssertEqual(contents(home), [], signal)
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: base).filter { $0.contains("stopped") }, [])
        }
        // Without a stop, the same command writes the report.
        try run(["report", "--pdf", base + "/whole.pdf", "--with-notes"])
    }
}
