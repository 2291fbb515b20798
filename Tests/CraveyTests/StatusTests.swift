import CraveyLibrary
import CraveyTestSupport
import CraveyTracker
import Foundation
import XCTest

@testable import cravey

/// `cravey status` end to end (its line, --json as waybar reads it, --format, --discreet's words,
/// no library), and milestones through the commands: home shows each once, progress lists them,
/// check notes one the logs no longer reach. The clock is at 2026-10-12 12:00 in Berlin.
final class StatusTests: CommandTestCase {
    let environment = [
        "NO_COLOR": "1", "TZ": "Europe/Berlin", "CRAVEY_TRANSCRIBE": "later", "CRAVEY_NOW": "2026-10-12T12:00:00",
    ]
    /// The moment CRAVEY_NOW names.
    let now = Date(timeIntervalSince1970: 1_791_799_200)

    @discardableResult
    func run(_ arguments: [String], status: Int32? = 0, file: StaticString = #filePath, line: UInt = #line) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let result = try runProcess(cravey, arguments + ["--library", root], environment: environment)
        if let status {
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)", file: file, line: line)
        }
        return result
    }

    /// Day 1 on Oct 1 (a craving resisted), a use on Oct 5, two cravings today (09:00, 11:30).
    func logTwelveDays() throws {
        try run(["craving", "6", "--at", "2026-10-01 10:00"])
        try run(["use", "--at", "2026-10-05 20:00"])
        try run(["craving", "5", "--at", "2026-10-12 09:00"])
        try run(["craving", "4", "--at", "2026-10-12 11:30"])
    }

    /// One JSON object on one line, as waybar's `return-type: json` reads it.
    func module(_ arguments: [String]) throws -> [String: String] {
        let out = try run(["status", "--json"] + arguments).stdout
        XCTAssertEqual(out.split(separator: "\n").count, 1, out)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["text", "tooltip", "class", "alt"])
        return try object.mapValues { try XCTUnwrap($0 as? String, "\($0) is a string") }
    }

    /// Nothing that names cannabis, cravings or use.
    func assertDiscreet(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        for word in ["cannabis", "weed", "crav", "use", "resist", "smok", "joint", "high", "sober", "🌿", "💪"] {
            XCTAssertFalse(text.lowercased().contains(word), "'\(word)' in \(text)", file: file, line: line)
        }
    }

    func testNoLibraryIsAQuietLineAndMakesNone() throws {
        XCTAssertEqual(try run(["status"]).stdout, "🌱 cravey\n")
        XCTAssertEqual(try run(["status", "--discreet"]).stdout, "🌱\n")
        XCTAssertEqual(try run(["status", "--format", "[{days}|{since}|{milestone}]"]).stdout, "[||]\n")
        XCTAssertEqual(try module([])["text"], "🌱 cravey")
        XCTAssertEqual(try module([])["class"], "none")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "no library made")
    }

    func testTheLineJSONFormatAndDiscreetWords() throws {
        try logTwelveDays()
        // Day 12 since Oct 1; 7 days since Oct 5; today's 09:00 craving resisted (its 2 hours have
        // passed), the 11:30 one still open; 7 days since the last use reached today, worked out
        // read-only (nothing has stored it yet).
        let line = "🌱 Day 12 · 7 days since use · 1 resisted today, 1 still open · 🏅 7 days since your last use"
        XCTAssertEqual(try run(["status"]).stdout, line + "\n")
        let json = try module([])
        XCTAssertEqual(json["text"], line)
        XCTAssertEqual(json["class"], "milestone")
        XCTAssertEqual(
            json["tooltip"],
            "Day 12 in progress\n7 days since your last use\n2 cravings today: 1 resisted, 1 still open\n🌿 7 days since your last use"
        )
        XCTAssertEqual(
            try run(["status", "--format", "{days}d {since} {resisted}/{cravings} {{ok}} {milestone}"]).stdout,
            "12d 7 1/2 {ok} 🏅 7 days since your last use\n")

        // Discreet: the same figures, no word naming what they count.
        let discreet = try run(["status", "--discreet"]).stdout
        XCTAssertEqual(discreet, "Day 12 · 7 · 1 ✓ · 🏅 7 days\n")
        let discreetJSON = try module(["--discreet"])
        for text in [discreet, discreetJSON["text"]!, discreetJSON["tooltip"]!] { assertDiscreet(text) }
        assertDiscreet(try run(["status", "--discreet", "--format", "{milestone} {text}"]).stdout)
        for kind in Milestone.Kind.allCases {
            for count in [1, 30] {
                let milestone = Milestone(kind: kind, count: count, reachedOn: LocalDay(number: 0))
                assertDiscreet(StatusLine(glance: nil, discreet: true).quiet + milestone.discreetWords)
            }
        }

        // Bad --format: one line on stderr, nothing on stdout.
        for (format, said) in [("{weed}", "no field '{weed}'"), ("{days", "is not closed"), ("a}", "without its '{'")] {
            let refused = try run(["status", "--format", format], status: 64)
            XCTAssertEqual(refused.stdout, "")
            XCTAssertTrue(refused.stderr.contains(said), refused.stderr)
            XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        }
    }

    /// Home shows each new milestone once (the newest first), and status shows the next one home
    /// has not shown; progress lists every one; after a deleted log, check notes the ones the logs
    /// no longer reach and keeps them.
    func testHomeShowsEachOnceProgressListsThemAndCheckKeepsThem() throws {
        try logTwelveDays()
        let progress = try jsonObject(try run(["progress", "--json"]).stdout)
        let listed = try XCTUnwrap(progress["milestones"] as? [[String: Any]]).map {
            "\($0["kind"]!) \($0["count"]!) \($0["reachedOn"]!)"
        }
        XCTAssertEqual(
            listed,
            [
                "cravingsResisted 1 2026-10-01", "daysInProgress 1 2026-10-01", "daysInProgress 3 2026-10-03",
                "daysSinceUse 1 2026-10-06", "daysInProgress 7 2026-10-07", "daysSinceUse 3 2026-10-08",
                "daysSinceUse 7 2026-10-12",
            ])
        let text = try run(["progress"]).stdout
        XCTAssertTrue(
            text.contains(
                "🏅 Milestones\n  🌿 7 days since your last use  Oct 12\n  🌿 3 days since your last use  Oct 8\n"),
            text)
        let page = base + "/progress.html"
        try run(["progress", "--html", page])
        XCTAssertTrue(
            try String(contentsOfFile: page, encoding: .utf8).contains(
                "<li>7 days since your last use <span class=\"day\">Oct 12</span></li>"))

        // Home, as its loop asks: each stored one once, the newest first, with its day when that
        // was not today; then none. Today's 7 days since the last use is stored once today has
        // ended without a use: status shows it today, home tomorrow.
        let lib = try Library(root: root)
        XCTAssertEqual(Home.newMilestone(lib, now: now), "🌿 3 days since your last use — reached Oct 8")
        let today = "🌱 Day 12 · 7 days since use · 1 resisted today, 1 still open · 🏅 7 days since your last use\n"
        XCTAssertEqual(try run(["status"]).stdout, today)
        XCTAssertEqual(Home.newMilestone(lib, now: now), "🌱 7 days in progress — reached Oct 7")
        XCTAssertEqual(Home.newMilestone(lib, now: now), "💪 1 craving resisted — reached Oct 1")
        XCTAssertNil(Home.newMilestone(lib, now: now))
        XCTAssertEqual(try run(["status"]).stdout, today)
        XCTAssertEqual(
            Home.newMilestone(lib, now: now + 86_400), "🌿 7 days since your last use — reached Oct 12")
        XCTAssertNil(Home.newMilestone(lib, now: now + 86_400))
        XCTAssertEqual(try run(["status"]).stdout, "🌱 Day 12 · 7 days since use · 1 resisted today, 1 still open\n")
        XCTAssertEqual(try module([])["class"], "progress")

        // The use deleted: no stretch since a use is left, yet its milestones stay; check notes them.
        let logs = try XCTUnwrap(try json(try run(["log", "--json"]).stdout) as? [[String: Any]])
        let use = try XCTUnwrap(logs.first { $0["kind"] as? String == "use" }?["id"] as? String)
        try run(["log", "delete", use, "--yes"])
        let check = try run(["check"]).stdout
        XCTAssertTrue(
            check.contains("milestone '7 days since your last use' kept: reached on 2026-10-12; the logs now count 0"),
            check)
        XCTAssertTrue(check.contains("Library OK"), check)
        let notes = try XCTUnwrap(try jsonObject(try run(["check", "--json"]).stdout)["notes"] as? [String])
        XCTAssertEqual(notes.count, 3, "\(notes)")
        let after = try XCTUnwrap(try jsonObject(try run(["progress", "--json"]).stdout)["milestones"] as? [Any])
        XCTAssertEqual(after.count, listed.count, "none removed")
    }
}
