import CraveyTestSupport
import Foundation
import XCTest

/// The built binary on a clock started at Nov 20, 2026, 12:00 (UTC), without a terminal: what
/// the findings' tests share.
class FindingsTestCase: LogTestCase {
    override func env(_ extra: [String: String] = [:]) -> [String: String] {
        super.env(["TZ": "UTC", "CRAVEY_NOW": "2026-11-20T12:00:00"].merging(extra) { $1 })
    }

    /// `sql` run on the library's database by the sqlite3 shell (foreign keys and checks off, as
    /// another program has them); its output, trimmed.
    @discardableResult
    func sql(_ sql: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try runProcess("/usr/bin/sqlite3", [root + "/library.sqlite", sql])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func plans() throws -> [[String: Any]] {
        try XCTUnwrap(json(try run(["plan", "list", "--json"]).stdout) as? [[String: Any]])
    }
}

/// What outside probes found in if-then plans, each fixed where its rule belongs: `check` names
/// a plan whose message is not there and keeps the plan, clearing the link; the limit of 10
/// counts the plans a person can see; `craving --json` says which plan headed the offer; plans
/// made in the same second are listed oldest first; a sentence that is not UTF-8 is refused in
/// the words for typed text.
final class PlanFindingsTests: FindingsTestCase {
    /// Imports a tone as a message; returns its id.
    func message(_ title: String) throws -> String {
        let wav = base + "/\(UUID().uuidString.prefix(6)).wav"
        try makeToneWAV(wav, seconds: 1)
        return try XCTUnwrap(
            jsonObject(try run(["import", wav, "--title", title, "--json"]).stdout)["id"] as? String)
    }

    func testCheckNamesAPlanWhoseMessageIsNotThereAndKeepsThePlan() throws {
        let walk = try message("Walk first")
        try run(["plan", "add", "--trigger", "bored", "--instead", "walk round the block", "--message", walk])
        // The message's row and file gone from outside (foreign keys off): the link dangles.
        let file = try sql("SELECT filePath FROM recording WHERE id = '\(walk)'")
        XCTAssertEqual(try runProcess("/bin/mv", [root + "/" + file, base + "/moved-away"]).status, 0)
        try sql("DELETE FROM recording WHERE id = '\(walk)'")
        XCTAssertEqual(try plans().map { $0["instead"] as? String }, ["walk round the block"], "listed still")

        let checked = try run(["check"], status: 1)
        XCTAssertTrue(
            checked.stdout.contains("link to something deleted (run 'cravey check --repair'): plan '"), checked.stdout)
        let line = try XCTUnwrap(checked.stdout.split(separator: "\n").first { $0.contains("plan '") })
        XCTAssertTrue(line.contains("→ message \(walk.prefix(8)) that is not there (the plan is kept"), "\(line)")

        let repaired = try run(["check", "--repair"])
        XCTAssertEqual(
            repaired.stdout.split(separator: "\n").filter { $0.contains("plan '") }.count, 1, repaired.stdout)
        XCTAssertTrue(repaired.stdout.contains("cleared a link to something deleted: plan '"), repaired.stdout)
        let kept = try plans()
        XCTAssertEqual(kept.map { $0["instead"] as? String }, ["walk round the block"], "the plan is kept")
        XCTAssertTrue(kept[0]["messageId"] is NSNull, "its message link cleared: \(kept[0])")
        XCTAssertTrue(try run(["check"]).stdout.contains("Library OK"), "nothing left to repair")
        // The journal holds the change as the database does.
        XCTAssertFalse(try run(["check"]).stdout.contains("journal"))
    }

    func testTheLimitCountsThePlansAPersonCanSee() throws {
        for hour in 0..<9 {
            try run(["plan", "add", "--trigger", "bored", "--hour", String(hour), "--instead", "plan \(hour)"])
        }
        // A row no cravey would write (its id is not one): not listed, so it takes no place.
        try sql(
            "INSERT INTO plan (id, forTrigger, instead, createdAt) VALUES ('not-an-id', 'sad', 'hidden', '2026-11-20T12:00:00.000Z')"
        )
        XCTAssertEqual(try plans().count, 9)
        try run(["plan", "add", "--trigger", "sad", "--instead", "the tenth I can see"])
        XCTAssertEqual(try plans().count, 10)
        let refused = try run(["plan", "add", "--trigger", "sad", "--instead", "an eleventh"], status: 1)
        XCTAssertTrue(refused.stderr.contains("You have 10 plans already"), refused.stderr)
        XCTAssertTrue(
            try run(["check"], status: 1).stdout.contains("plan 'not-an-i' has no id cravey would make"),
            "check names the row no one can see")
    }

    func testCravingJSONSaysWhichPlanHeadedTheOffer() throws {
        let none = try jsonObject(try run(["craving", "6", "--trigger", "bored", "--json"]).stdout)
        XCTAssertTrue(none["plan"] is NSNull, "no plan: null: \(none)")
        XCTAssertEqual(none["intensity"] as? Int, 6, "the craving's own keys are as they were")
        try run(["plan", "add", "--trigger", "bored", "--hour", "12", "--instead", "walk round the block"])
        let logged = try jsonObject(try run(["craving", "6", "--trigger", "sad,bored", "--json"]).stdout)
        let plan = try XCTUnwrap(logged["plan"] as? [String: Any], "\(logged)")
        XCTAssertEqual(plan["instead"] as? String, "walk round the block")
        XCTAssertEqual(plan["trigger"] as? String, "bored")
        XCTAssertEqual(plan["hour"] as? Int, 12)
        XCTAssertEqual(plan["id"] as? String, try plans()[0]["id"] as? String)
        XCTAssertEqual(logged["triggers"] as? [String], ["sad", "bored"])
        let other = try jsonObject(try run(["craving", "6", "--trigger", "anxious", "--json"]).stdout)
        XCTAssertTrue(other["plan"] is NSNull, "\(other)")
    }

    func testPlansMadeInTheSameSecondAreNumberedOldestFirst() throws {
        // Each run's clock starts at the same moment: the first run, which makes the library,
        // takes longer to reach its plan than the second.
        try run(["plan", "add", "--trigger", "bored", "--instead", "first made"])
        try run(["plan", "add", "--trigger", "sad", "--instead", "second made"])
        try run(["plan", "add", "--trigger", "tired", "--instead", "third made"])
        XCTAssertEqual(
            try plans().map { $0["instead"] as? String }, ["first made", "second made", "third made"])
        // Milliseconds apart the wrong way in the same second: still in the order made.
        try sql("UPDATE plan SET createdAt = '2026-11-20T12:00:00.900Z' WHERE instead = 'first made'")
        try sql("UPDATE plan SET createdAt = '2026-11-20T12:00:00.100Z' WHERE instead = 'second made'")
        XCTAssertEqual(
            try run(["plan", "list"]).stdout,
            " 1  bored → first made\n 2  sad → second made\n 3  tired → third made\n")
        XCTAssertEqual(
            try run(["plan", "remove", "2"]).stdout, "Removed plan 2: if sad, then: second made\n",
            "the number removes the plan listed under it")
    }

    func testASentenceThatIsNotUTF8IsRefusedAsTypedText() throws {
        try run(["plan", "add", "--trigger", "bored", "--instead", "walk"])
        let before = try run(["plan", "list", "--json"]).stdout
        for typed in ["--instead $'caf\\xe9 walk'", "--instead=$'caf\\xe9 walk'"] {
            let result = try runProcess(
                "/bin/bash",
                [
                    "-c",
                    "\(shellQuote(cravey)) plan add --trigger bored \(typed) --library \(shellQuote(root))",
                ], environment: env())
            XCTAssertNotEqual(result.status, 0)
            XCTAssertEqual(result.stdout, "")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(
                result.stderr.contains("the text typed for --instead ('caf\\xE9 walk') is not valid UTF-8"),
                result.stderr)
            XCTAssertFalse(result.stderr.contains("convmv"), "not a file name: \(result.stderr)")
        }
        XCTAssertEqual(try run(["plan", "list", "--json"]).stdout, before, "nothing changed")
    }
}
