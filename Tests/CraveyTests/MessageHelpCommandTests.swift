import CraveyLibrary
import CraveyTestSupport
import CraveyTracker
import Foundation
import XCTest

/// Which messages help and how long cravings last in `cravey progress` (plain, `--json`,
/// `--html`), and Quick Play's order set in settings (`cravey settings quick-play`, the settings
/// screen's row in tmux) followed by `cravey top`, `play --top` and home's top three; the
/// export's new columns. Sound goes to ALSA's file plugin.
final class MessageHelpCommandTests: CommandTestCase {
    func env(_ extra: [String: String] = [:]) -> [String: String] {
        ["ALSA_CONFIG_PATH": testALSAConfig, "NO_COLOR": "1", "TZ": "Europe/Berlin", "CRAVEY_TRANSCRIBE": "later"]
            .merging(extra) { $1 }
    }

    @discardableResult
    func run(_ arguments: [String], status: Int32? = 0, file: StaticString = #filePath, line: UInt = #line) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let result = try runProcess(cravey, arguments + ["--library", root], environment: env(), directory: base)
        if let status {
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)", file: file, line: line)
        }
        return result
    }

    func record(_ title: String) throws -> String {
        let result = try runProcess(
            cravey,
            ["record", "audio", "--mic", "cravey_file", "--max-seconds", "2", "--title", title, "--library", root],
            environment: env(["CRAVEY_ALSA_INFILE": phraseFixture]))
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// "Evening call" played 3 times; "Morning walk" played (by `craving --play 2`) in two
    /// cravings that passed without a use; Evening played (`--play 1`) in one followed by a use an
    /// hour later. Each of the three cravings rated as a ride: halved at 5, 10 and 2 minutes.
    func handWorked() throws -> (morning: String, evening: String) {
        let morning = try record("Morning walk")
        let evening = try record("Evening call")
        for _ in 0..<3 { try run(["play", "evening", "--speaker", "cravey_capture"]) }
        try run(["craving", "7", "--at", "-30h", "--play", "2", "--speaker", "cravey_capture"])
        try run(["craving", "6", "--at", "-20h", "--play", "2", "--speaker", "cravey_capture"])
        try run(["craving", "9", "--at", "-10h", "--play", "1", "--speaker", "cravey_capture"])
        try run(["use", "vape", "3", "--at", "-9h", "--after-craving", "last"])
        let logs = try json(try run(["log", "--json", "--cravings"]).stdout) as! [[String: Any]]
        let ids = logs.map { UUID(uuidString: $0["id"] as! String)! }
        XCTAssertEqual(ids.count, 3)
        let tracker = Tracker(library: try Library(root: root))
        for (id, ratings) in zip(ids, [[(0, 8), (300, 4)], [(0, 6), (600, 3)], [(0, 10), (120, 5)]]) {
            try tracker.noteRatings(ratings.map { Craving.Rating(seconds: $0.0, value: $0.1) }, of: id)
        }
        return (morning, evening)
    }

    func testProgressShowsWhichMessagesHelpAndHowLongCravingsLast() throws {
        let empty = try run(["progress"]).stdout
        XCTAssertTrue(empty.contains("🎧 Your messages that help"), empty)
        XCTAssertTrue(empty.contains("💡 Tip: Record motivational content to play during cravings"), empty)
        XCTAssertTrue(empty.contains("Not enough rides yet."), empty)

        let (morning, _) = try handWorked()
        let figures = try jsonObject(try run(["progress", "--json"]).stdout)
        let messages = figures["messages"] as! [[String: Any]]
        XCTAssertEqual(messages.count, 1, "Evening call was played in one craving only: \(messages)")
        XCTAssertEqual(messages[0]["id"] as? String, morning)
        XCTAssertEqual(messages[0]["title"] as? String, "Morning walk")
        XCTAssertEqual(messages[0]["playedInCravings"] as? Int, 2)
        XCTAssertEqual(messages[0]["resistedAfter"] as? Int, 2)
        let length = figures["cravingLength"] as! [String: Any]
        XCTAssertEqual(length["medianMinutesToHalf"] as? Double, 5)
        XCTAssertEqual(length["rides"] as? Int, 3)

        let plain = try run(["progress"]).stdout
        XCTAssertTrue(plain.contains("• Morning walk — played in 2 cravings, 2 passed without a use"), plain)
        XCTAssertTrue(plain.contains("⏳ How long your cravings last"), plain)
        XCTAssertTrue(
            plain.contains("Typically, a craving falls to half its strength in 5 minutes (from 3 rides)"), plain)

        try run(["progress", "--html", base + "/progress.html"])
        let page = try String(contentsOfFile: base + "/progress.html", encoding: .utf8)
        XCTAssertTrue(page.contains("<li>Morning walk — played in 2 cravings, 2 passed without a use</li>"), page)
        XCTAssertTrue(page.contains("in 5 minutes (from 3 rides)"))

        // The export carries every craving's ratings and the messages played in it.
        let csv = try run(["export", "--format", "csv", "--output", "-"]).stdout
        let header = csv.split(separator: "\n")[0]
        XCTAssertTrue(header.contains("ratings,played"), String(header))
        XCTAssertTrue(csv.contains("0:8 300:4"), csv)
        XCTAssertTrue(csv.contains(morning), csv)
    }

    func testTheQuickPlayOrderSetInSettingsLeadsTopPlayAndHome() throws {
        let (_, _) = try handWorked()
        func top() throws -> [String] {
            try run(["top", "2"]).stdout.split(separator: "\n").map {
                $0.contains("Morning walk") ? "Morning" : $0.contains("Evening call") ? "Evening" : String($0)
            }
        }
        XCTAssertEqual(try top(), ["Evening", "Morning"], "the most played first: 4 plays against 2")
        XCTAssertTrue(try run(["settings"]).stdout.contains("quick-play  most-played"))
        XCTAssertEqual(
            try run(["settings", "quick-play", "helped-most"]).stdout,
            "quick-play: Helped most — then the most played\n")
        XCTAssertEqual(try top(), ["Morning", "Evening"], "the one after which cravings passed first")
        XCTAssertTrue(try run(["settings"]).stdout.contains("quick-play  helped-most"))
        XCTAssertEqual(
            try run(["play", "--top", "--speaker", "cravey_capture"]).stdout, "Played 'Morning walk' (0:02)\n")
        XCTAssertEqual(
            try run(["play", "--top", "--rank", "2", "--speaker", "cravey_capture"]).stdout,
            "Played 'Evening call' (0:02)\n")
        let bad = try run(["settings", "quick-play", "sideways"], status: 1)
        XCTAssertEqual(
            bad.stderr, "cravey: no Quick Play order called 'sideways' (orders: most-played, helped-most)\n")
        XCTAssertTrue(try run(["settings"]).stdout.contains("quick-play  helped-most"), "nothing changed")
        XCTAssertEqual(try run(["settings", "quick-play", "--clear"]).stdout, "quick-play: Most played\n")
        XCTAssertEqual(try top(), ["Evening", "Morning"])

        // The settings screen's row switches it; home's top three follow.
        let command =
            "cd \(shellQuote(base)) && env NO_COLOR=1 TZ=Europe/Berlin CRAVEY_TRANSCRIBE=later "
            + "ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) CRAVEY_LIBRARY=\(shellQuote(root)) "
        var tmux = try TmuxSession(
            command + "\(shellQuote(cravey)) settings; echo EXIT=$?; sleep 60", width: 100, height: 32)
        XCTAssertTrue(try tmux.waitFor("QUICK PLAY ORDER").contains("a  Most played first"))
        try tmux.send("a", literal: true)
        let switched = try tmux.waitFor("Quick Play: Helped most ✓")
        XCTAssertTrue(switched.contains("a  Helped most first, then the most played"), switched)
        try tmux.send("Escape")
        try tmux.waitFor("EXIT=0")
        tmux.close()
        XCTAssertEqual(try top(), ["Morning", "Evening"])

        tmux = try TmuxSession(command + "\(shellQuote(cravey)); echo EXIT=$?; sleep 60", width: 100, height: 32)
        try tmux.waitFor("Get started")
        try tmux.send("s", literal: true)
        let home = try tmux.waitFor("Quick Play:")
        let morningAt = try XCTUnwrap(home.range(of: "1  🎧 Morning walk") ?? home.range(of: "Morning walk"))
        let eveningAt = try XCTUnwrap(home.range(of: "Evening call"))
        XCTAssertLessThan(morningAt.lowerBound, eveningAt.lowerBound, home)
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        tmux.close()
    }
}
