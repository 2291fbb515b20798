import CraveyTestSupport
import Foundation
import XCTest

/// `cravey screen`, end to end through the built binary without a terminal, on a clock started at
/// Nov 20, 2026, 12:00 (UTC): a screen kept from its scores, its JSON, the meaning only when
/// asked, the questions printed without a terminal, the refusals that change nothing, the list,
/// the 4-week reminder under CRAVEY_NOW, and the report (JSON, page and PDF) with and without
/// --with-screen.
final class ScreenCommandTests: CommandTestCase {
    func environment(_ now: String = "2026-11-20T12:00:00") -> [String: String] {
        ["NO_COLOR": "1", "TZ": "UTC", "CRAVEY_TRANSCRIBE": "later", "CRAVEY_NOW": now]
    }

    @discardableResult
    func run(
        _ arguments: [String], now: String = "2026-11-20T12:00:00", status: Int32? = 0,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try runProcess(cravey, arguments + ["--library", root], environment: environment(now))
        if let status {
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)", file: file, line: line)
        }
        return result
    }

    /// The screens as stored.
    func stored() throws -> String {
        guard FileManager.default.fileExists(atPath: root + "/library.sqlite") else { return "no library" }
        return try runProcess(
            "/usr/bin/sqlite3",
            [root + "/library.sqlite", "SELECT takenAt, answers, score FROM selfScreen ORDER BY takenAt"]
        ).stdout
    }

    func assertRefused(_ arguments: [String], saying words: String, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let before = try stored()
        let result = try run(arguments, status: nil, file: file, line: line)
        XCTAssertNotEqual(result.status, 0, "\(arguments)", file: file, line: line)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(words), "\(arguments): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stdout, "", file: file, line: line)
        XCTAssertEqual(try stored(), before, "nothing changed", file: file, line: line)
    }

    func testAScreenIsKeptFromItsScoresWithItsTrendAndTheMeaningOnlyWhenAsked() throws {
        let first = try run(["screen", "--answers", "0,1,2,0,0,1,0,2"]).stdout
        XCTAssertEqual(
            first,
            """
            Kept ✓ (only you see it)
            Your score: 6 of 32.
            The first time you took it; the next ones will show a trend.
            'cravey screen --meaning' says what the number means.

            """)
        for band in ["hazardous", "disorder", "diagnosis"] { XCTAssertFalse(first.contains(band), first) }
        let second = try jsonObject(
            try run(["screen", "--answers", "4,4,4,4,4,4,4,4", "--json"], now: "2026-12-20T12:00:00").stdout)
        let screen = second["screen"] as? [String: Any]
        XCTAssertEqual(screen?["score"] as? Int, 32)
        XCTAssertEqual(screen?["answers"] as? [Int], [4, 4, 4, 4, 4, 4, 4, 4])
        XCTAssertEqual(screen?["localTime"] as? String, "2026-12-20 12:00")
        XCTAssertEqual(second["previous"] as? [Int], [6])
        XCTAssertEqual(second["highest"] as? Int, 32)
        XCTAssertNil(second["meaning"], "the bands only when asked")
        let meaning = try run(["screen", "--meaning"], now: "2026-12-20T12:00:00").stdout
        XCTAssertTrue(meaning.contains("Your score: 32 of 32."), meaning)
        XCTAssertTrue(meaning.contains("That is 26 higher than last time (Nov 20: 6)."), meaning)
        XCTAssertTrue(meaning.contains("8 or more suggests hazardous use"), meaning)
        XCTAssertTrue(meaning.contains("12 or more, a possible cannabis use disorder"), meaning)
        XCTAssertTrue(meaning.contains("This is not a diagnosis; a clinician can tell you more."), meaning)
        let asked = try jsonObject(
            try run(["screen", "--answers", "0,0,0,0,0,0,0,0", "--meaning", "--json"], now: "2026-12-21T12:00:00")
                .stdout)
        let words = (asked["meaning"] as? [String: Any])?["words"] as? [String] ?? []
        XCTAssertEqual(words.last, "This is not a diagnosis; a clinician can tell you more.")
        XCTAssertEqual(words.dropFirst().first, "Your 0 is below 8.")
        let list = try jsonObject(try run(["screen", "list", "--json"]).stdout)
        XCTAssertEqual((list["screens"] as? [[String: Any]])?.map { $0["score"] as? Int }, [6, 32, 0])
        XCTAssertEqual(
            try run(["screen", "list"]).stdout,
            """
            2026-11-20 12:00  6 of 32
            2026-12-20 12:00  32 of 32
            2026-12-21 12:00  0 of 32
            The reminder after 4 weeks is off.

            """)
        let files = try FileManager.default.attributesOfItem(atPath: root + "/library.sqlite")
        XCTAssertEqual((files[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    /// The result is the screen just taken, whatever the clock says of the others: one taken the
    /// same moment, or one the clock puts before them.
    func testTheResultIsTheScreenJustTaken() throws {
        try run(["screen", "--answers", "0,1,2,0,0,1,0,2"])
        let same = try run(["screen", "--answers", "4,4,4,4,4,4,4,4"]).stdout
        XCTAssertTrue(same.contains("Your score: 32 of 32."), same)
        let earlier = try run(["screen", "--answers", "1,1,1,1,1,1,1,2"], now: "2026-11-01T12:00:00").stdout
        XCTAssertTrue(earlier.contains("Your score: 9 of 32."), earlier)
    }

    func testWithoutATerminalTheQuestionsAreSaidAndNothingIsKept() throws {
        let said = try run(["screen"]).stdout
        XCTAssertTrue(said.contains("1. How often do you use cannabis?"), said)
        XCTAssertTrue(
            said.contains("0 Never · 2 Yes, but not in the past 6 months · 4 Yes, during the past 6 months"), said)
        XCTAssertTrue(said.contains("--answers"), said)
        let questions = try jsonObject(try run(["screen", "--json"]).stdout)["questions"] as? [[String: Any]] ?? []
        XCTAssertEqual(questions.count, 8)
        XCTAssertEqual(
            (questions.last?["answers"] as? [[String: Any]])?.map { $0["score"] as? Int }, [0, 2, 4])
        XCTAssertEqual(try stored(), "no library", "asking nothing makes nothing")
        XCTAssertEqual(
            try run(["screen", "list"]).stdout, "No self-screen taken yet. 'cravey screen' takes one, when you like.\n")
    }

    func testBadInputIsOneLineAndChangesNothing() throws {
        try assertRefused(["screen", "--answers", "1,2"], saying: "give 8 scores")
        try assertRefused(["screen", "--answers", "0,0,0,0,0,0,0,3"], saying: "question 8's score is 0, 2 or 4")
        try assertRefused(["screen", "--answers", "0,9,0,0,0,0,0,0"], saying: "question 2's score is 0 to 4")
        try assertRefused(["screen", "--answers", "0,x\u{1B}[31m,0,0,0,0,0,0"], saying: "question 2's score")
        try assertRefused(["screen", "--meaning"], saying: "no self-screen is taken yet")
        try run(["screen", "--answers", "1,1,1,1,1,1,1,2"])
        try assertRefused(["screen", "--answers", ""], saying: "none was given")
        try assertRefused(["screen", "--answers", "0;1;2;0;0;1;0;2"], saying: "; 1 was given")
        try assertRefused(["screen", "maybe"], saying: "is not something screen does")
        try assertRefused(["screen", "--remind", "sometimes"], saying: "--remind is on or off")
        try assertRefused(
            ["screen", "list", "--answers", "0,0,0,0,0,0,0,0"], saying: "one of list, --answers or --remind")
    }

    func testTheReminderIsOffByDefaultAndDueFourWeeksAfterTheLastScreen() throws {
        try run(["screen", "--answers", "1,1,1,1,1,1,1,2"])
        func due(_ now: String) throws -> Bool {
            let list = try jsonObject(try run(["screen", "list", "--json"], now: now).stdout)
            return (list["reminder"] as? [String: Any])?["due"] as? Bool ?? true
        }
        XCTAssertFalse(try due("2027-03-01T12:00:00"), "off by default")
        XCTAssertEqual(
            try run(["screen", "--remind", "on"]).stdout,
            "The reminder is on: home says so quietly 4 weeks after your last self-screen ✓\n")
        XCTAssertFalse(try due("2026-12-17T12:00:00"))
        XCTAssertTrue(try due("2026-12-18T12:00:00"), "28 days after the last screen")
        try run(["screen", "--answers", "0,0,0,0,0,0,0,0"], now: "2026-12-18T12:00:00")
        XCTAssertFalse(try due("2026-12-19T12:00:00"), "a new screen starts the 4 weeks again")
        XCTAssertTrue(try due("2027-01-15T12:00:00"))
        try run(["screen", "--remind", "off"])
        XCTAssertFalse(try due("2027-06-01T12:00:00"))
    }

    func testTheReportShowsTheScreensOnlyWithWithScreen() throws {
        try run(["craving", "4", "--at", "2026-11-10 09:00"])
        try run(["screen", "--answers", "2,1,2,1,1,1,0,4"], now: "2026-11-12T09:30:00")
        try run(["screen", "--answers", "1,1,1,0,1,0,0,2"])
        let plain = try jsonObject(try run(["report", "--json"]).stdout)
        XCTAssertNil(plain["selfScreens"], "not on the report unless asked")
        let with = try jsonObject(try run(["report", "--json", "--with-screen"]).stdout)
        XCTAssertEqual((with["selfScreens"] as? [[String: Any]])?.map { $0["score"] as? Int }, [12, 6])
        XCTAssertEqual((with["selfScreens"] as? [[String: Any]])?.first?["localTime"] as? String, "2026-11-12 09:30")
        let before = try jsonObject(try run(["report", "--json", "--with-screen", "--to", "2026-11-11"]).stdout)
        XCTAssertEqual((before["selfScreens"] as? [Any])?.count, 0, "only the period's screens")

        try run(["report", "--html", base + "/plain.html"])
        let page = try String(contentsOfFile: base + "/plain.html", encoding: .utf8)
        XCTAssertFalse(page.contains("Self-screen"), "not on the page unless asked")
        XCTAssertFalse(page.contains("CUDIT"))
        try run(["report", "--html", base + "/with.html", "--with-screen"])
        let shown = try String(contentsOfFile: base + "/with.html", encoding: .utf8)
        XCTAssertTrue(shown.contains("<h2>Self-screen (CUDIT-R)</h2>"), shown)
        XCTAssertTrue(shown.contains("<p>2026-11-12 09:30: 12 of 32</p>"), shown)
        XCTAssertTrue(shown.contains("<p>2026-11-20 12:00: 6 of 32</p>"), shown)
        XCTAssertTrue(shown.contains("CUDIT-R (Adamson et al. 2010): 8 questions, total 0–32"), shown)

        // The PDF, as drawn: the section only when asked.
        func pdfText(_ arguments: [String], _ name: String) throws -> String {
            try run(["report", "--pdf", base + "/" + name] + arguments)
            return try runProcess("/usr/bin/pdftotext", [base + "/" + name, "-"]).stdout
        }
        let plainPDF = try pdfText([], "plain.pdf")
        XCTAssertFalse(plainPDF.contains("Self-screen"), plainPDF)
        let withPDF = try pdfText(["--with-screen"], "with.pdf")
        XCTAssertTrue(withPDF.contains("Self-screen (CUDIT-R)"), withPDF)
        XCTAssertTrue(withPDF.contains("2026-11-12 09:30: 12 of 32"), withPDF)
        XCTAssertTrue(withPDF.contains("2026-11-20 12:00: 6 of 32"), withPDF)
    }
}
