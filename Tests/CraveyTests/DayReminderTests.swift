import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `cravey today remind`: the evening question. Its systemd user units (checked by
/// `systemd-analyze verify`; no user manager runs here), its status, and the timer's run under the
/// test clock on a private session bus with a small notification server that answers as a person
/// would: "No use today" marks the day (and says so in a notification), "I used" opens the use
/// form through the xdg-terminal-exec stand-in with the server's token, no answer withdraws it
/// at its deadline and a stop signal at once; a day already known is not asked about.
final class DayReminderTests: BackgroundTestCase {
    /// cravey's environment: the test's library, the evening of Nov 21, no terminal to open.
    func env(_ extra: [String: String] = [:]) -> [String: String] {
        [
            "CRAVEY_LIBRARY": root, "CRAVEY_NOW": "2026-11-21T21:00:00", "CRAVEY_TRANSCRIBE": "later",
            "CRAVEY_LOCK_WAIT": "3", "DISPLAY": ":0", "WAYLAND_DISPLAY": "", "TERMINAL": "",
            "XDG_ACTIVATION_TOKEN": "", "PATH": "/usr/bin:/bin",
        ].merging(extra) { $1 }
    }

    func run(_ arguments: [String], _ extra: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try runProcess(cravey, arguments, environment: env(extra))
    }

    static let noon = ["CRAVEY_NOW": "2026-11-21T12:00:00"]

    /// A private session bus with a notification server that shows buttons and answers
    /// `answer` (nil: never); the server's file, and the bus's address as cravey is given it.
    func serverWithButtons(answering answer: String? = "no-use") throws -> (served: String, bus: [String: String]) {
        let address = try startSessionBus()
        let served = try startNotificationServer(at: address, capabilities: ["actions", "body"], answer: answer)
        return (served, ["DBUS_SESSION_BUS_ADDRESS": address])
    }

    /// A library that tracks Nov 21: a craving that morning.
    func makeLibrary() throws {
        let made = try run(["craving", "4", "--at", "2026-11-21 09:00"])
        XCTAssertEqual(made.status, 0, made.stderr)
    }

    /// What `cravey today --json` says of the day.
    func kindOfToday() throws -> String? {
        try jsonObject(try run(["today", "--json"]).stdout)["kind"] as? String
    }

    var units: String { (Sentinel.folder ?? "") + "/.config/systemd/user" }

    static let asked =
        "NOTIFY cravey | Mark today? | One click, and today is known: your calendar stays true. | ['default', 'No use today', 'no-use', 'No use today', 'used', 'I used'] |"

    /// How many notifications the server at `served` was asked to show so far.
    func notifications(_ served: String) -> Int {
        ((try? String(contentsOfFile: served, encoding: .utf8)) ?? "").components(separatedBy: "NOTIFY").count - 1
    }

    /// How many notifications the server at `served` was asked to show, once it is `count` (or after 10 seconds).
    func shown(_ served: String, reaching count: Int) -> Int {
        let deadline = Date() + 10
        while notifications(served) < count && Date() < deadline { usleep(50_000) }
        return notifications(served)
    }

    func testTheUnitsVerifyAndStatusSaysWhatComes() throws {
        var out = try run(["today", "remind", "status"], Self.noon)
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(
            out.stdout,
            "The evening question is off; 'cravey today remind on' asks every evening, in a notification, whether today had no use.\n"
        )
        out = try run(["today", "remind", "on"], Self.noon)
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertTrue(
            out.stdout.hasSuffix(
                ": every day at 21:00, \"Mark today?\", only on a day not marked yet and with no use logged.\n"),
            out.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "no library is made")
        var service = try String(contentsOfFile: units + "/cravey-today.service", encoding: .utf8)
        XCTAssertTrue(service.contains(" today remind run --library \"\(root)\"\n"), service)
        XCTAssertTrue(service.contains("\nType=oneshot\n"), service)
        XCTAssertTrue(service.contains("\nTimeoutStartSec=11min\n"), service)
        XCTAssertTrue(service.contains("\nKillMode=process\n"), service)
        XCTAssertTrue(
            try String(contentsOfFile: units + "/cravey-today.timer", encoding: .utf8).contains(
                "\nOnCalendar=*-*-* 21:00:00\n"))
        XCTAssertEqual(
            try FileManager.default.destinationOfSymbolicLink(
                atPath: units + "/timers.target.wants/cravey-today.timer"),
            "../cravey-today.timer")
        let verify = try runProcess(
            "/usr/bin/systemd-analyze", ["verify", units + "/cravey-today.timer", units + "/cravey-today.service"])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertEqual(verify.stderr, "", "no warning")

        // Again, with a time and words that name nothing: the same units, rewritten.
        out = try run(["today", "remind", "on", "--at", "21:30", "--discreet"], Self.noon)
        XCTAssertEqual(out.status, 0, out.stderr)
        service = try String(contentsOfFile: units + "/cravey-today.service", encoding: .utf8)
        XCTAssertTrue(service.contains(" today remind run --library \"\(root)\" --discreet\n"), service)
        XCTAssertTrue(
            try String(contentsOfFile: units + "/cravey-today.timer", encoding: .utf8).contains(
                "\nOnCalendar=*-*-* 21:30:00\n"))
        out = try run(["today", "remind", "status"], Self.noon)
        XCTAssertEqual(
            out.stdout,
            """
            The evening question is on, in words that name nothing: every day at 21:30, "Mark today?".
            Nothing is logged here yet; it asks once something is.

            """)
        try makeLibrary()
        out = try run(["today", "remind"], Self.noon)
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertTrue(out.stdout.hasSuffix("\nToday is not marked yet; it asks at 21:30.\n"), out.stdout)
        var json = try jsonObject(try run(["today", "remind", "status", "--json"], Self.noon).stdout)
        XCTAssertEqual(json["on"] as? Bool, true)
        XCTAssertEqual(json["discreet"] as? Bool, true)
        XCTAssertEqual(json["time"] as? String, "21:30")
        XCTAssertEqual(json["today"] as? String, "notReported")
        XCTAssertEqual(json["asksToday"] as? Bool, true)
        XCTAssertEqual(try run(["today", "--none"], Self.noon).status, 0)
        out = try run(["today", "remind", "status"], Self.noon)
        XCTAssertTrue(out.stdout.hasSuffix("\nToday is marked: no use ✓. No question today.\n"), out.stdout)
        json = try jsonObject(try run(["today", "remind", "status", "--json"], Self.noon).stdout)
        XCTAssertEqual(json["today"] as? String, "noUse")
        XCTAssertEqual(json["asksToday"] as? Bool, false)

        // A time that is none, or in the morning: one line, and the timer stays as it was.
        for bad in ["08:00", "24:00", "9pm", "21:5x", "", "12:00\nx"] {
            let refused = try run(["today", "remind", "on", "--at", bad], Self.noon)
            XCTAssertEqual(refused.status, 64, bad)
            XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        }
        XCTAssertTrue(
            try run(["today", "remind", "on", "--at", "08:00"], Self.noon).stderr.contains(
                "08:00 is before noon; the evening question asks about a day once most of it has gone"))
        XCTAssertTrue(
            try String(contentsOfFile: units + "/cravey-today.timer", encoding: .utf8).contains("21:30:00"))
        // A library path with a line break: one line, and nothing is written.
        let hostile = try run(["today", "remind", "on", "--library", base + "/lib\nExecStartPre=/bin/true"])
        XCTAssertEqual(hostile.status, 1, hostile.stdout)
        XCTAssertTrue(
            hostile.stderr.contains("cannot install the evening question: the library's path holds a line break"),
            hostile.stderr)
        XCTAssertFalse(
            try String(contentsOfFile: units + "/cravey-today.service", encoding: .utf8).contains("ExecStartPre"))

        out = try run(["today", "remind", "off"])
        XCTAssertEqual(out.stdout, "The evening question is off; its timer is gone.\n", out.stderr)
        XCTAssertEqual(Sentinel.contents().filter { !$0.hasSuffix("/") }, [], "no file of cravey's is left")
        XCTAssertEqual(try run(["today", "remind", "off"]).stdout, "The evening question was not on.\n")
        Sentinel.allow([".config/systemd/user/timers.target.wants"])
    }

    /// "No use today" marks the day, as `cravey today --none` does, and says so in a notification
    /// (the run has no terminal); the same evening, the marked day is not asked about again.
    func testNoUseTodayMarksTheDayAndSaysSo() throws {
        try makeLibrary()
        let (served, bus) = try serverWithButtons()
        let out = try run(["today", "remind", "run"], bus)
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stdout, "No use today ✓\n")
        XCTAssertEqual(shown(served, reaching: 2), 2)
        let said = try String(contentsOfFile: served, encoding: .utf8)
        XCTAssertTrue(said.contains(Self.asked), said)
        XCTAssertTrue(said.contains("NOTIFY cravey | No use today ✓ | A day known, not assumed. | [] |"), said)
        XCTAssertEqual(try kindOfToday(), "noUse")
        let again = try run(["today", "remind", "run"], bus)
        XCTAssertEqual(again.stdout, "Today is marked already; no question.\n", again.stderr)
        usleep(300_000)
        XCTAssertEqual(notifications(served), 2, "no question on a marked day")
    }

    /// A day with a use, one answered "don't remember", and a folder with no library: no question,
    /// and nothing is made.
    func testAKnownDayGetsNoQuestion() throws {
        let (served, bus) = try serverWithButtons()
        var out = try run(["today", "remind", "run"], bus)
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stdout, "Nothing is logged here yet; no question.\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "no library is made")
        XCTAssertEqual(try run(["use", "bowls", "1", "--at", "2026-11-21 18:00"]).status, 0)
        out = try run(["today", "remind", "run"], bus)
        XCTAssertEqual(out.stdout, "A use is logged today, so today is known; no question.\n", out.stderr)
        out = try run(["today", "remind", "run", "--discreet"], bus)
        XCTAssertEqual(out.stdout, "Nothing shown: the day is known.\n", out.stderr)
        // The next day, answered "don't remember".
        let next = bus.merging(["CRAVEY_NOW": "2026-11-22T21:00:00"]) { $1 }
        XCTAssertEqual(try run(["today", "--dont-remember"], next).status, 0)
        out = try run(["today", "remind", "run"], next)
        XCTAssertEqual(out.stdout, "Today is marked already; no question.\n", out.stderr)
        usleep(300_000)
        XCTAssertEqual(notifications(served), 0, "nothing was shown")
        // Without a session bus, a day to ask about: one line.
        let third = try run(["today", "remind", "run"], ["CRAVEY_NOW": "2026-11-23T21:00:00"])
        XCTAssertEqual(third.status, 1)
        XCTAssertEqual(third.stderr.split(separator: "\n").count, 1, third.stderr)
        XCTAssertTrue(third.stderr.contains("no session bus"), third.stderr)
    }

    /// "I used" opens the use form in a terminal window with the server's token; the day is left
    /// for the use to say.
    func testIUsedOpensTheUseFormWithTheServersToken() throws {
        try makeLibrary()
        let (served, bus) = try serverWithButtons(answering: "used")
        let out = try run(
            ["today", "remind", "run"],
            bus.merging([
                "PATH": try standInTerminalExec() + ":/usr/bin:/bin", "XDG_ACTIVATION_TOKEN": "used-by-the-timer",
            ]) { $1 })
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stdout, "I used: opened the use form in your default terminal (xdg-terminal-exec).\n")
        XCTAssertTrue(waitForFile(served, containing: "NOTIFY").contains(Self.asked))
        XCTAssertEqual(
            waitForFile(base + "/terminal.args", containing: root),
            ["--app-id=cravey", "--title=cravey", productPath("cravey"), "use", "--library", root, ""].joined(
                separator: "\n"))
        let given = waitForFile(base + "/terminal.env", containing: "PATH")
        XCTAssertTrue(given.contains("XDG_ACTIVATION_TOKEN=token-from-the-server\n"), given)
        XCTAssertFalse(given.contains("used-by-the-timer"), "not the token used already")
        XCTAssertEqual(try kindOfToday(), "notReported", "the use form says the day")
        // `cravey launch use` opens the same form.
        let launched = try run(["launch", "use"], ["PATH": try standInTerminalExec() + ":/usr/bin:/bin"])
        XCTAssertEqual(launched.stdout, "Opened the use form in your default terminal (xdg-terminal-exec).\n")
    }

    /// Unanswered, the wait ends at its deadline (a test's short one) and the question is
    /// withdrawn; a stop signal withdraws it at once; a wait longer than the service allows is refused.
    func testNoAnswerIsWithdrawnAtTheDeadlineAndAStopAtOnce() throws {
        try makeLibrary()
        let (served, bus) = try serverWithButtons(answering: nil)
        let began = Date()
        let out = try run(["today", "remind", "run", "--answer-seconds", "2"], bus)
        let took = Date().timeIntervalSince(began)
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stdout, "No answer within 2 seconds: the question was withdrawn.\n")
        XCTAssertGreaterThanOrEqual(took, 2, "waited for the answer")
        XCTAssertLessThan(took, 12, "gone by the deadline")
        XCTAssertTrue(waitForFile(served, containing: "CLOSE 7").contains("CLOSE 7"), "withdrawn")
        XCTAssertEqual(try kindOfToday(), "notReported", "nothing changed")

        let waiting = try start(
            cravey, ["today", "remind", "run"], environment: env(bus), output: base + "/waiting.out")
        XCTAssertEqual(shown(served, reaching: 2), 2)
        waiting.terminate()
        waiting.waitUntilExit()
        XCTAssertEqual(
            try String(contentsOfFile: base + "/waiting.out", encoding: .utf8), "Stopped: the question was withdrawn.\n"
        )
        XCTAssertEqual(
            (try String(contentsOfFile: served, encoding: .utf8)).components(separatedBy: "CLOSE 7").count - 1, 2,
            "withdrawn")

        for bad in ["0", "601", "soon"] {
            let refused = try run(["today", "remind", "run", "--answer-seconds", bad], bus)
            XCTAssertEqual(refused.status, 64, bad)
            XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        }
    }

    /// Discreet words name nothing: not cravey, not cannabis, not a use, with buttons or without,
    /// nor in what the run prints; plain words without buttons say the commands.
    func testDiscreetWordsNameNothingAndPlainOnesSayTheCommands() throws {
        try makeLibrary()
        let (buttons, bus) = try serverWithButtons()
        let address = bus["DBUS_SESSION_BUS_ADDRESS"]!
        let marked = try run(["today", "remind", "run", "--discreet"], bus)
        XCTAssertEqual(marked.stdout, "Noted ✓\n", marked.stderr)
        XCTAssertEqual(shown(buttons, reaching: 2), 2)
        let withButtons = try String(contentsOfFile: buttons, encoding: .utf8)
        XCTAssertTrue(
            withButtons.contains(
                "NOTIFY Reminder | How was today? | One click notes it. | ['default', 'A clear day', 'no-use', 'A clear day', 'used', 'Not a clear day'] |"
            ), withButtons)
        XCTAssertTrue(withButtons.contains("NOTIFY Reminder | Noted ✓ |  | [] |"), withButtons)
        XCTAssertEqual(try kindOfToday(), "noUse", "a clear day is marked")
        for process in processes where process.executableURL?.path == "/usr/bin/python3" {
            process.terminate()
            process.waitUntilExit()
        }
        let plain = try startNotificationServer(at: address)
        let withoutButtons = [
            (
                "2026-11-22", ["--discreet"], "Shown.\n",
                "NOTIFY Reminder | How was today? | Take a moment to note it. | [] |"
            ),
            (
                "2026-11-23", [], "Question shown; its words say the commands.\n",
                // The commands, with no --library: the library is the default one.
                "NOTIFY cravey | Mark today? | Today is not marked yet.\n\nNo use today: cravey today --none\nI used: cravey use | [] |"
            ),
        ]
        for (count, (day, discreet, printed, words)) in withoutButtons.enumerated() {
            let out = try run(
                ["today", "remind", "run"] + discreet, bus.merging(["CRAVEY_NOW": day + "T21:00:00"]) { $1 })
            XCTAssertEqual(out.stdout, printed, out.stderr)
            XCTAssertEqual(shown(plain, reaching: count + 1), count + 1)
            XCTAssertTrue(try String(contentsOfFile: plain, encoding: .utf8).contains(words), words)
        }
        let discreetWords = [withButtons, marked.stdout, withoutButtons[0].2, withoutButtons[0].3].joined(
            separator: "\n")
        for line in discreetWords.lowercased().split(separator: "\n") where !line.hasPrefix("ready") {
            let words = line.replacingOccurrences(of: "'no-use'", with: "").replacingOccurrences(of: "'used'", with: "")
            for word in ["cravey", "cannabis", "use", "weed", "mark"] {
                XCTAssertFalse(words.contains(word), "\(word) in \(line)")
            }
        }
    }
}

/// The evening question answered in dunst: a click on it (its default action) marks the day.
extension DunstTests {
    func testAClickOnMarkTodayMarksTheDay() throws {
        let environment = ["CRAVEY_LIBRARY": root, "CRAVEY_NOW": "2026-11-21T21:00:00", "CRAVEY_TRANSCRIBE": "later"]
        XCTAssertEqual(
            try runProcess(cravey, ["craving", "4", "--at", "2026-11-21 09:00"], environment: environment).status, 0)
        let (question, out) = try background(["today", "remind", "run", "--answer-seconds", "60"], environment)
        let log = waitUntilShown(containing: "actions:")
        for text in ["summary: 'Mark today?'", "\"default\": \"No use today\"", "\"used\": \"I used\""] {
            XCTAssertTrue(log.contains(text), "\(text) in \(log)")
        }
        XCTAssertEqual(dunstctl(["action", "0"]).status, 0)
        question.waitUntilExit()
        XCTAssertEqual(question.terminationStatus, 0)
        XCTAssertEqual(
            String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "No use today ✓\n")
        // The note that the day is marked (dunst's log is read as Latin-1: the ✓ is left out).
        let said = waitForFile(shown, containing: "body: 'A day known, not assumed.'")
        XCTAssertTrue(said.contains("summary: 'No use today "), said)
        XCTAssertTrue(said.contains("body: 'A day known, not assumed.'"), said)
        let today = try runProcess(cravey, ["today", "--json"], environment: environment)
        XCTAssertEqual(try jsonObject(today.stdout)["kind"] as? String, "noUse")
    }
}
