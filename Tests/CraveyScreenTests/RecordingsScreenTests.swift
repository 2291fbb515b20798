import CraveyTestSupport
import Foundation
import TerminalKit
import XCTest

@testable import cravey

/// `cravey recordings` (and `m` on home) end to end in a real terminal (tmux): the seed's empty
/// state, the list newest first at 80 columns, scrolling, Enter playing through ALSA's file plugin,
/// the Edit Recording form (also `cravey edit ID` alone), the delete confirmation, the record
/// choice, and the scripted forms.
final class RecordingsScreenTests: CommandTestCase {
    var speakerOut: String { base + "/speaker.raw" }

    /// `cravey ARGUMENTS` in tmux, `width` × `height`.
    func start(_ arguments: String, width: Int = 80, height: Int = 24, environment: String = "") throws
        -> TmuxSession
    {
        let command =
            "cd \(shellQuote(base)) && env \(environment) NO_COLOR=1 TZ=Europe/Berlin CRAVEY_TRANSCRIBE=later ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) "
            + "CRAVEY_ALSA_OUTFILE=\(shellQuote(speakerOut)) CRAVEY_LIBRARY=\(shellQuote(root)) \(shellQuote(cravey)) \(arguments); "
            + "echo EXIT=$?; stty -a | grep -o -- '-*icanon'; sleep 60"
        return try TmuxSession(command, width: width, height: height)
    }

    @discardableResult
    func run(_ arguments: [String], status: Int32? = 0, file: StaticString = #filePath, line: UInt = #line) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let result = try runProcess(
            cravey, arguments + ["--library", root],
            environment: ["NO_COLOR": "1", "CRAVEY_TRANSCRIBE": "later", "TZ": "Europe/Berlin"])
        if let status {
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)", file: file, line: line)
        }
        return result
    }

    func listed() throws -> [[String: Any]] { try json(try run(["list", "--json"]).stdout) as! [[String: Any]] }

    /// Imports a one-second tone for each title, in order (the last is the newest).
    func importMessages(_ titles: [String]) throws {
        let raw = base + "/tone.raw", wav = base + "/tone.wav"
        try makeTone(raw, seconds: 1)
        XCTAssertEqual(
            try runProcess(
                "/usr/bin/sox", ["-t", "raw", "-r", "48000", "-e", "signed", "-b", "16", "-c", "1", raw, wav]
            ).status, 0)
        for title in titles { try run(["import", wav, "--title", title]) }
    }

    /// Leaves with q: the shell gets a terminal in canonical mode back.
    func quit(_ tmux: TmuxSession, file: StaticString = #filePath, line: UInt = #line) throws {
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        XCTAssertFalse(try tmux.waitFor("icanon").contains("-icanon"), "canonical mode again", file: file, line: line)
    }

    func testTheEmptyStateAndTheRecordChoice() throws {
        let tmux = try start("recordings")
        let empty = try tmux.waitFor("No recordings yet")
        XCTAssertTrue(empty.contains("Create motivational content to play during cravings"), empty)
        XCTAssertTrue(empty.contains("n  RECORD YOUR FIRST"), empty)
        // n: the seed's choice of type; Esc comes back.
        try tmux.send("n", literal: true)
        let choice = try tmux.waitFor("Choose Recording Type")
        XCTAssertTrue(choice.contains("v  🎥 RECORD VIDEO") && choice.contains("a  🎙️ RECORD AUDIO"), choice)
        try tmux.send("Escape")
        try tmux.waitFor("No recordings yet")
        try quit(tmux)
    }

    func testNRecordsANewOneAndComesBack() throws {
        let tone = base + "/mic.raw", fifo = base + "/mic.fifo"
        try makeTone(tone, seconds: 30)
        let feeder = try pacedFIFO(fifo, feeding: tone)
        defer { feeder.terminate() }
        let tmux = try start(
            "recordings --speaker cravey_capture --mic cravey_file",
            environment: "CRAVEY_ALSA_INFILE=\(shellQuote(fifo))")
        try tmux.waitFor("No recordings yet")
        // Enter in the empty state: the seed's one button, Record Your First.
        try tmux.send("Enter")
        try tmux.waitFor("Choose Recording Type")
        try tmux.send("a", literal: true)
        try tmux.waitFor("RECORD")
        try tmux.send("r", literal: true)  // RECORD starts it
        try tmux.waitFor("0:01 / 2:00", timeout: 20)
        try tmux.send("Enter")
        try tmux.waitFor("space plays it back", timeout: 20)
        try tmux.send("q", literal: true)  // the preview waits paused; q goes on
        try tmux.waitFor("Title (Enter for", timeout: 20)
        try tmux.send("Fresh start", literal: true)
        for prompt in ["Title (Enter for", "Notes", "Purpose"] {
            try tmux.waitFor(prompt)
            try tmux.send("Enter")
        }
        try tmux.waitFor("Save or discard?")
        try tmux.send("s", literal: true)
        let page = try tmux.waitFor("Recording saved ✓", timeout: 20)
        XCTAssertTrue(page.contains("▸ 🎙️ Fresh start"), page)
        XCTAssertEqual(try listed().map { $0["title"] as? String }, ["Fresh start"])
        try quit(tmux)
    }

    func testHomeOpensItWithM() throws {
        let tmux = try start("", width: 80, height: 30)
        try tmux.waitFor("Get started")
        try tmux.send("s", literal: true); try tmux.send("s", literal: true); try tmux.send("Escape")
        var home = try tmux.waitFor("LOG CRAVING")
        XCTAssertTrue(
            home.contains("💡 Tip: Record motivational content to play during cravings  →  r"),
            "the tip's arrow: \(home)")
        XCTAssertTrue(home.contains("m 🎙️ Recordings"), home)
        try tmux.send("m", literal: true)
        try tmux.waitFor("No recordings yet")
        try tmux.send("Escape")
        home = try tmux.waitFor("LOG CRAVING")
        try quit(tmux)
    }

    func testTheListPlaysEditsAndDeletes() throws {
        try importMessages(["Remember why", "Ten minutes, then decide"])
        let tmux = try start("recordings --speaker cravey_capture")
        var page = try tmux.waitFor("Ten minutes, then decide")
        let rows = page.split(separator: "\n").map(String.init)
        let first = try XCTUnwrap(rows.firstIndex { $0.contains("Ten minutes, then decide") })
        let second = try XCTUnwrap(rows.firstIndex { $0.contains("Remember why") })
        XCTAssertLessThan(first, second, "newest first")
        XCTAssertTrue(rows[first].hasPrefix("▸ 🎙️ Ten minutes"), "the chosen one is marked: \(rows[first])")
        XCTAssertTrue(rows[first + 1].contains(" • 0:01 • ▶ 0 plays"), rows[first + 1])
        XCTAssertTrue(page.contains("Enter play · e edit · d delete · n new"), page)
        // Enter plays the chosen one through the speaker and counts it.
        try tmux.send("Down")
        try tmux.waitFor("▸ 🎙️ Remember why")
        try tmux.send("Enter")
        page = try tmux.waitFor("Played 'Remember why' ✓", timeout: 20)
        XCTAssertTrue(page.contains("▶ 1 play"), page)
        XCTAssertGreaterThan(try Data(contentsOf: URL(fileURLWithPath: speakerOut)).count, 48_000)
        // e: the form, pre-filled; a new title, notes and a purpose are saved.
        try tmux.send("e", literal: true)
        try tmux.waitFor("Edit Recording")
        try tmux.waitFor("> Remember why")
        for _ in 0..<3 { try tmux.send("BSpace") }  // "why"
        try tmux.send("what matters", literal: true)
        try tmux.send("Down")
        try tmux.send("Call Sam first", literal: true)
        try tmux.send("Down")
        try tmux.send("1", literal: true)
        try tmux.waitFor("(•) Motivational")
        try tmux.send("Enter")
        page = try tmux.waitFor("Recording updated ✓")
        XCTAssertTrue(page.contains("Remember what matters"), page)
        let edited = try XCTUnwrap(try listed().first { $0["title"] as? String == "Remember what matters" })
        XCTAssertEqual(edited["notes"] as? String, "Call Sam first")
        XCTAssertEqual(edited["purpose"] as? String, "motivational")
        // Esc closes the form: nothing changes.
        try tmux.send("e", literal: true)
        try tmux.waitFor("Edit Recording")
        try tmux.send("x", literal: true)
        try tmux.send("Escape")
        try tmux.waitFor("Nothing was changed.")
        XCTAssertNotNil(try listed().first { $0["title"] as? String == "Remember what matters" })
        // d: the seed's question; Esc keeps it, d deletes it.
        try tmux.send("d", literal: true)
        page = try tmux.waitFor("Delete 'Remember what matters'?")
        XCTAssertTrue(page.contains("This recording will be permanently deleted. This cannot be undone."), page)
        try tmux.send("Escape")
        try tmux.waitFor("Nothing deleted.")
        XCTAssertEqual(try listed().count, 2)
        try tmux.send("d", literal: true)
        try tmux.waitFor("Delete 'Remember what matters'?")
        try tmux.send("d", literal: true)
        page = try tmux.waitFor("Recording deleted")
        XCTAssertFalse(page.contains("Remember what matters"), page)
        XCTAssertEqual(try listed().map { $0["title"] as? String }, ["Ten minutes, then decide"])
        // The last one deleted: the empty state.
        try tmux.send("d", literal: true)
        try tmux.waitFor("Delete 'Ten minutes, then decide'?")
        try tmux.send("d", literal: true)
        try tmux.waitFor("No recordings yet")
        try quit(tmux)
    }

    func testItScrollsAndLongTitlesNeverWrap() throws {
        let long = "A very long title about why I stop today"
        try importMessages((1...11).map { "Message \($0)" } + [long])
        // 80 × 24: nine fit; the rest scroll into view.
        var tmux = try start("recordings")
        var page = try tmux.waitFor(long)
        XCTAssertTrue(page.contains("↓ 3 more"), page)
        XCTAssertFalse(page.contains("Message 1\n"), page)
        try tmux.send("End")
        page = try tmux.waitFor("▸ 🎙️ Message 1\n")
        XCTAssertTrue(page.contains("↑ 3 more"), page)
        XCTAssertFalse(page.contains(long), page)
        try tmux.send("Home")
        try tmux.waitFor("▸ 🎙️ " + long)
        try quit(tmux)
        // 60 columns (the narrowest a page is laid out in): the longest title keeps its row one line.
        tmux = try start("recordings", width: 60, height: 24)
        page = try tmux.waitFor("Message 11")
        let rows = page.split(separator: "\n").map(String.init)
        let row = try XCTUnwrap(rows.firstIndex { $0.hasPrefix("▸ 🎙️ A very long") })
        XCTAssertTrue(rows[row].hasSuffix(long), rows[row])
        XCTAssertTrue(rows[row + 1].contains("• 0:01 •"), "the date line follows at once: \(rows[row + 1])")
        try quit(tmux)
    }

    func testEditAloneOpensTheFormOnATerminal() throws {
        try importMessages(["Remember why"])
        let id = try XCTUnwrap(try listed().first?["id"] as? String)
        let tmux = try start("edit \(id.prefix(8))")
        let form = try tmux.waitFor("Edit Recording")
        XCTAssertTrue(form.contains("> Remember why"), form)
        try tmux.send("Down"); try tmux.send("Down")
        try tmux.send("3", literal: true)
        // Made for: the third trigger and the first, ticked with space.
        try tmux.send("Down")
        try tmux.send("Right"); try tmux.send("Right")
        try tmux.send("Space")
        try tmux.send("Left"); try tmux.send("Left")
        try tmux.send("Space")
        try tmux.waitFor("[x] Hungry")
        try tmux.send("Enter")
        let done = try tmux.waitFor("EXIT=0")
        XCTAssertTrue(done.contains("Updated 'Remember why' (\(id.prefix(8)))."), done)
        XCTAssertEqual(try listed().first?["purpose"] as? String, "reflection")
        XCTAssertEqual(try listed().first?["forTriggers"] as? String, "hungry,anxious")
        // Without a terminal, edit alone still asks for what to change.
        let bare = try run(["edit", String(id.prefix(8))], status: 64)
        XCTAssertTrue(bare.stderr.contains("nothing to change"), bare.stderr)
    }

    func testTheScriptedForms() throws {
        XCTAssertEqual(try run(["recordings"]).stdout, try run(["list"]).stdout)
        try importMessages(["Remember why"])
        XCTAssertEqual(try run(["recordings", "--json"]).stdout, try run(["list", "--json"]).stdout)
        let plain = try run(["recordings"]).stdout
        XCTAssertEqual(plain, try run(["list"]).stdout)
        XCTAssertTrue(plain.contains("Remember why"), plain)
    }
}

/// The recordings screen's keys and its scrolling list, without a terminal.
final class RecordingsKeysTests: XCTestCase {
    func testEveryKeyIsItsAction() {
        XCTAssertEqual(Home.action(for: .character("m"), top: 0), .recordings)
        XCTAssertEqual(RecordingsScreen.action(for: .enter), .play)
        XCTAssertEqual(RecordingsScreen.action(for: .character("e")), .edit)
        XCTAssertEqual(RecordingsScreen.action(for: .character("D")), .delete)
        XCTAssertEqual(RecordingsScreen.action(for: .character("n")), .record)
        XCTAssertEqual(RecordingsScreen.action(for: .escape), .quit)
        XCTAssertNil(RecordingsScreen.action(for: .character("x")))
    }

    func testTheListKeepsTheChoiceInView() {
        var list = ScrollingList(count: 12)
        XCTAssertEqual(list.shown(visible: 9), 0..<9)
        XCTAssertTrue(list.move(.end, visible: 9))
        XCTAssertEqual(list.shown(visible: 9), 3..<12)
        XCTAssertTrue(list.move(.pageUp, visible: 9))
        XCTAssertEqual(list.selected, 2)
        XCTAssertEqual(list.shown(visible: 9), 2..<11)
        XCTAssertFalse(list.move(.character("e"), visible: 9))
        list.resize(to: 1)
        XCTAssertEqual(list.selected, 0)
        XCTAssertEqual(list.shown(visible: 9), 0..<1)
        var empty = ScrollingList(count: 0)
        XCTAssertFalse(empty.move(.down, visible: 9))
        XCTAssertEqual(empty.shown(visible: 9), 0..<0)
    }
}
