import CraveyTestSupport
import Foundation
import XCTest

/// Trusting what is saved: a number typed in the use form is the amount meant, every save says
/// in one line what it kept, units read in the singular for one, the 7-day memory note shows
/// calmly while the old time is typed, a cancelled delete is a choice (not an error), and the
/// form's cursor is seen without colour.
final class SavedLogTests: LogTestCase {
    func form(_ command: String) throws -> TmuxSession {
        try TmuxSession(
            "env NO_COLOR=1 TZ=Europe/Berlin \(shellQuote(cravey)) \(command) --library \(shellQuote(root)); echo EXIT=$?; sleep 30"
        )
    }

    /// The use form: `100` in edible is 100 mg (not the fifth step), `3` in bowls is 3; a dab of
    /// `9` is refused in the field, in words, and nothing is saved until it is mended.
    func testATypedAmountIsTheAmountMeant() throws {
        var tmux = try form("use")
        try tmux.waitFor("◀ 0.5 ▶  (bowls/joints)   0.5–5 · ←/→ or type the number")
        try tmux.send("e", literal: true)  // edible
        try tmux.send("Down")
        try tmux.send("100", literal: true)
        try tmux.waitFor("◀ 100▏ ▶  (mg THC)")
        try tmux.send("Enter")
        var screen = try tmux.waitFor("EXIT=0")
        XCTAssertTrue(screen.contains("Usage logged ✓ — edible, 100 mg THC, "), screen)
        XCTAssertEqual(try logs(["--use"]).first?["amount"] as? Double, 100)
        tmux.close()

        tmux = try form("use")
        try tmux.waitFor("Enter: save usage")
        try tmux.send("Down")
        try tmux.send("3", literal: true)
        try tmux.send("Down")  // leaving the field: 3 is one the method offers
        try tmux.waitFor("◀ 3 ▶  (bowls/joints)")
        try tmux.send("Up"); try tmux.send("Up")
        try tmux.send("d", literal: true)  // dab
        try tmux.send("Down")
        try tmux.send("9", literal: true)
        try tmux.send("Enter")
        screen = try tmux.waitFor("invalid amount")
        XCTAssertTrue(screen.contains("◀ 9▏ ▶  (dabs)   not an amount of dab: 1–5"), "refused in the field: \(screen)")
        XCTAssertEqual(try logs().count, 1, "nothing saved")
        try tmux.send("BSpace")
        try tmux.send("5", literal: true)
        screen = try tmux.waitFor("◀ 5▏ ▶  (dabs)")
        XCTAssertFalse(screen.contains("invalid amount"), "the old refusal goes once the field reads: \(screen)")
        try tmux.send("Enter")
        screen = try tmux.waitFor("EXIT=0")
        XCTAssertTrue(screen.contains("Usage logged ✓ — 5 dabs, "), screen)
        XCTAssertEqual(try logs(["--use"]).first?["amount"] as? Double, 5)
    }

    /// Every save says what it kept, in one line: the command and the form; a time later than now
    /// suggests yesterday's, and the refusal stays until the time reads.
    func testEverySaveSaysWhatWasSaved() throws {
        XCTAssertEqual(
            try run(["use", "vape", "3", "--at", "yesterday 21:30"]).stdout,
            "Usage logged ✓ — vape, 3 pulls, yesterday 21:30\n")
        XCTAssertEqual(
            try run(["use", "joints", "1.5", "--at", "2026-01-10 08:15"]).stdout,
            "Usage logged ✓ — 1.5 joints, 2026-01-10 08:15\n", "the method as typed")
        let craving = try run(["craving", "8"]).stdout
        XCTAssertNotNil(
            craving.range(
                of: #"^Craving logged ✓ — 8 \(strong\), \d\d:\d\d\n💪 Logged\. Every moment of awareness counts\.\n$"#,
                options: .regularExpression), craving)

        let tmux = try form("craving")
        try tmux.waitFor("Enter: save craving")
        try tmux.send("8", literal: true)
        try tmux.send("Down")
        try tmux.send("99:99", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("invalid time: '99:99' is not a time")
        try tmux.send("BSpace")
        try tmux.waitFor("Time  99:9")
        XCTAssertTrue(try tmux.screen().contains("invalid time"), "still shown while the time does not read")
        for _ in 0..<4 { try tmux.send("BSpace") }
        try tmux.send("yesterday 21:00", literal: true)
        let mended = try tmux.waitFor("Time  yesterday 21:00")
        XCTAssertFalse(mended.contains("invalid time"), "cleared once the field is fixed: \(mended)")
        try tmux.send("Enter")
        let screen = try tmux.waitFor("EXIT=0")
        XCTAssertTrue(screen.contains("Craving logged ✓ — 8 (strong), yesterday 21:00"), screen)
    }

    /// One pull, one dab, one bowl/joint: in the list, the full log and progress; the export keeps
    /// the unit as a column's name.
    func testUnitsAreSingularForOne() throws {
        try run(["use", "vape", "1"])
        try run(["use", "dab", "1", "--at", "-1h"])
        let bowl = try jsonObject(try run(["use", "bowls", "1", "--at", "-2h", "--json"]).stdout)
        let listed = try run(["log"]).stdout
        XCTAssertTrue(
            listed.contains("1 pull vape") && listed.contains("1 dab  ") && listed.contains("1 bowl/joint "), listed)
        XCTAssertFalse(listed.contains("1 pulls") || listed.contains("1 dabs") || listed.contains("1 bowls"), listed)
        let shown = try run(["log", "show", bowl["id"] as! String]).stdout
        XCTAssertTrue(shown.contains("Amount      1 bowl/joint\n"), shown)
        let progress = try run(["progress"]).stdout
        XCTAssertTrue(progress.contains("1 pull") && !progress.contains("1 pulls"), progress)
        XCTAssertEqual(bowl["unit"] as? String, "bowls/joints", "the export's unit stays the column's name")
    }

    /// An old time typed in the form shows the seed's memory note at once, calmly; the command
    /// says it after what was saved, without the `cravey:` of a refusal.
    func testTheMemoryNoteShowsWhileTheOldTimeIsTyped() throws {
        let old = try run(["craving", "4", "--at", "-10d"])
        XCTAssertEqual(old.stderr, "Memory may be less reliable for events more than 7 days ago\n")
        XCTAssertTrue(old.stdout.hasPrefix("Craving logged ✓ — 4 (moderate), "), old.stdout)

        let tmux = try form("use")
        try tmux.waitFor("Enter: save usage")
        try tmux.send("Down"); try tmux.send("Down")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Europe/Berlin")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let nineDaysAgo = formatter.string(from: Date().addingTimeInterval(-9 * 86_400))
        try tmux.send(nineDaysAgo, literal: true)
        let screen = try tmux.waitFor("Memory may be less reliable for events more than 7 days ago")
        XCTAssertFalse(screen.contains("cravey:"), screen)
        for _ in 0..<nineDaysAgo.count { try tmux.send("BSpace") }
        try tmux.send("yesterday 10:00", literal: true)
        try tmux.waitFor("Time  yesterday 10:00")
        XCTAssertFalse(try tmux.screen().contains("Memory may be"), "gone for a recent time")
    }

    /// Saying no to a delete is a choice: "Nothing deleted.", exit 0 (a log, a linked craving, a
    /// recording).
    func testCancellingADeleteIsNotAnError() throws {
        let use = try jsonObject(try run(["use", "--json"]).stdout)["id"] as! String
        var tmux = try TmuxSession(
            "env NO_COLOR=1 \(shellQuote(cravey)) log delete \(use) --library \(shellQuote(root)); echo EXIT=$?; sleep 30"
        )
        try tmux.waitFor("[y/N]")
        try tmux.send("n", literal: true)
        var screen = try tmux.waitFor("EXIT=")
        XCTAssertTrue(screen.contains("Nothing deleted.\nEXIT=0"), screen)
        tmux.close()

        let craving = try jsonObject(try run(["craving", "--json"]).stdout)["id"] as! String
        try run(["use", "--after-craving", craving])
        tmux = try TmuxSession(
            "env NO_COLOR=1 \(shellQuote(cravey)) log delete \(craving) --library \(shellQuote(root)); echo EXIT=$?; sleep 30"
        )
        try tmux.waitFor("[c]ancel")
        try tmux.send("c", literal: true)
        screen = try tmux.waitFor("EXIT=")
        XCTAssertTrue(screen.contains("Nothing deleted.\nEXIT=0"), screen)
        tmux.close()
        XCTAssertEqual(try logs().count, 3)

        let recorded = try runProcess(
            cravey,
            ["record", "audio", "--mic", "cravey_file", "--max-seconds", "1", "--title", "Breathe", "--library", root],
            environment: env(["CRAVEY_ALSA_INFILE": phraseFixture]))
        XCTAssertEqual(recorded.status, 0, recorded.stderr)
        let id = recorded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        tmux = try TmuxSession(
            "env NO_COLOR=1 \(shellQuote(cravey)) delete \(id) --library \(shellQuote(root)); echo EXIT=$?; sleep 30")
        try tmux.waitFor("This cannot be undone. [y/N]")
        try tmux.send("Enter")
        screen = try tmux.waitFor("EXIT=")
        XCTAssertTrue(screen.contains("Nothing deleted.\nEXIT=0"), screen)
        XCTAssertEqual(try run(["show", id, "--json"]).status, 0, "kept")
    }

    /// With NO_COLOR the chip under the cursor is marked, as is the field in focus.
    func testTheCursorIsSeenWithoutColour() throws {
        let tmux = try form("craving")
        var screen = try tmux.waitFor("Enter: save craving")
        XCTAssertTrue(screen.contains("▸ Intensity"), screen)
        try tmux.send("Down"); try tmux.send("Down")
        try tmux.send("Right"); try tmux.send("Right")
        screen = try tmux.waitFor("▸[ ] Anxious")
        XCTAssertTrue(screen.contains("▸ Trigger (optional)"), screen)
        try tmux.send("Space")
        try tmux.waitFor("▸[x] Anxious")
        try tmux.send("Down"); try tmux.send("Right")
        screen = try tmux.waitFor("▸( ) Work")
        XCTAssertFalse(screen.contains("▸[x] Anxious"), "one cursor at a time: \(screen)")
        XCTAssertTrue(screen.contains(" [x] Anxious"), screen)
    }
}
