import CraveyLibrary
import CraveyTestSupport
import Foundation
import XCTest

/// The screens README and the guide quote are the real screens: every block marked
/// `<!-- screen WxH (fixture: NAME): cravey ARGS; keys: K1 K2 …; until: TEXT -->` is what tmux shows
/// at that size when the command runs on the fixture's library at the fixture's moment, with
/// `NO_COLOR`, after the keys (tmux key names; one character is typed as it is) and once TEXT is
/// on screen — every line, its trailing spaces and the empty lines below the last one left out.
/// `keys:` and `until:` may be left out. What a fixture cannot fix is written as a placeholder the
/// marker names: `; library: TEXT` (the library's path), `; build: TEXT` (the commit cravey was
/// built from), `; made: TEXT` (when the fixture's messages were imported: now) and
/// `; question: TEXT` (the day's check-in question, chosen at random), `; breath: TEXT` (the
/// breathing guide's countdown, which moves each second), and for a recording `; timer: TEXT` (its
/// clock's digits) and `; wave: TEXT` (the line of its waveform). A fixture that speaks records from
/// a real microphone: its sentences, spoken by flite, reach ALSA's default capture device (the
/// `file` plugin over a FIFO fed at real-time pace, then silence), and transcripts are made at once.
final class GuideScreensTests: CommandTestCase {
    /// A library's logs and messages, as commands, the moment it is seen at, and whether it is
    /// past its first run (Skip tour).
    struct Fixture {
        var commands: [[String]] = []
        var welcomed = true
        var now = "2026-11-21T19:30:00"
        /// What is said into the microphone, a sentence a line (none: no microphone).
        var speech: [String] = []
    }

    /// The fixtures the documents name (each quote sees a fresh copy of its fixture's library).
    static let fixtures: [String: Fixture] = [
        "new": Fixture(welcomed: false),
        // Sam cuts down: a use 18 days ago, cravings since, two messages.
        "sam": Fixture(commands: samLogs),
        // The same, with three messages.
        "sam-messages": Fixture(commands: samLogs + [message("You got this")]),
        // Ben, who checks in.
        "ben": Fixture(commands: [["settings", "name", "Ben"]]),
        // Ben, who checks in and says how the day went.
        "ben-speaks": Fixture(
            commands: [["settings", "name", "Ben"]],
            speech: [
                "Today was calmer than yesterday.", "I went for a long walk after lunch.", "Then I called my sister.",
                "I cooked dinner for the first time in weeks.", "I am proud of how the day went.",
                "Tomorrow I want to rest a little more.",
            ]),
    ]

    static let samLogs: [[String]] =
        [
            ["settings", "goal", "cut-down"], ["settings", "name", "Sam"],
            ["craving", "6", "--at", "2026-10-11 20:00"], ["use", "bowls", "1", "--at", "2026-11-03 21:00"],
            ["craving", "5", "--at", "2026-11-19 09:00"], ["craving", "4", "--at", "2026-11-21 13:30"],
        ] + [message("Remember why you started"), message("Ten minutes, then decide")]

    /// Imports the tone (written beside the library as `tone.wav`) as a message titled `title`.
    static func message(_ title: String) -> [String] { ["import", "tone.wav", "--title", title] }

    struct Quote {
        var place: String
        var width: Int
        var height: Int
        var fixture: String
        var arguments: [String]
        var keys: [String] = []
        var until: String?
        /// The placeholders' names and the text each stands for in the quote.
        var placeholders: [String: String] = [:]
        var block: [String]
    }

    func testEveryQuotedScreenIsTheRealOne() throws {
        let quotes = try Self.quotes()
        XCTAssertGreaterThanOrEqual(quotes.count, 16, "the documents quote real screens")
        try makeToneWAV(base + "/tone.wav", seconds: 3)
        for quote in quotes {
            let fixture = try XCTUnwrap(Self.fixtures[quote.fixture], "\(quote.place): no fixture '\(quote.fixture)'")
            let library = base + "/quote-\(quote.place.split(separator: ":").last ?? "")"
            // Each fixture's library is made once, and each quote is seen on a copy of its own (a
            // fixture of no commands, before its first run, has none).
            let made = base + "/fixture-\(quote.fixture)"
            if !FileManager.default.fileExists(atPath: made) { try prepare(made, fixture, quote) }
            if FileManager.default.fileExists(atPath: made) {
                let copied = try runProcess("/bin/cp", ["-a", made, library])
                XCTAssertEqual(copied.status, 0, copied.stderr)
            }
            let shown = try screen(quote, library: library, fixture)
            XCTAssertTrue(
                Self.sameScreen(shown, quote.block),
                "\(quote.place) quotes another screen; the real one:\n\(shown.joined(separator: "\n"))")
        }
    }

    /// The environment of a command on the fixture's library, `minutesBefore` its moment (with
    /// `microphone`, one that records from it and makes its transcript at once).
    func environment(_ fixture: Fixture, library: String, minutesBefore: Int = 0, microphone: String? = nil)
        -> String
    {
        let sound =
            microphone.map {
                "CRAVEY_TRANSCRIBE=now ALSA_CONFIG_PATH=\(shellQuote(base + "/default-mic.conf")) "
                    + "CRAVEY_ALSA_INFILE=\(shellQuote($0))"
            } ?? "CRAVEY_TRANSCRIBE=later ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig))"
        return "env HOME=\(shellQuote(base)) NO_COLOR=1 TZ=UTC LANG=C.UTF-8 \(sound) "
            + "CRAVEY_NOW=\(Self.moment(fixture.now, minutesBefore: minutesBefore)) CRAVEY_LIBRARY=\(shellQuote(library))"
    }

    /// A microphone saying `sentences` (then silence) from the moment it is opened: a FIFO fed at
    /// real-time pace, ALSA's default capture device in `default-mic.conf`. The sentences are
    /// spoken once for every quote of the fixture; each quote has a FIFO of its own, whose feeder
    /// is ended with the test.
    func microphone(saying sentences: [String], fixture: String, place: String) throws -> String {
        let name = base + "/said-\(fixture)"
        if !FileManager.default.fileExists(atPath: name + ".raw") {
            try (sentences.joined(separator: "\n") + "\n").write(
                toFile: name + ".txt", atomically: true, encoding: .utf8)
            let spoken = try runProcess(
                "/usr/bin/python3", [repositoryRoot + "/Media/make-speech.py", name + ".txt", name + ".wav"])
            XCTAssertEqual(spoken.status, 0, spoken.stderr)
            let raw = try runProcess(
                "/usr/bin/sox",
                [name + ".wav", "-r", "48000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw"]
                    + [name + ".raw", "pad", "0", "60"])
            XCTAssertEqual(raw.status, 0, raw.stderr)
        }
        let fifo = base + "/microphone-\(place.split(separator: ":").last ?? "").fifo"
        try """
        <\(testALSAConfig)>
        pcm.!default {
            type plug
            slave.pcm "cravey_file"
        }

        """.write(toFile: base + "/default-mic.conf", atomically: true, encoding: .utf8)
        feeders.append(try pacedFIFO(fifo, feeding: name + ".raw"))
        return fifo
    }

    var feeders: [Process] = []

    override func tearDownWithError() throws {
        for feeder in feeders where feeder.isRunning { feeder.terminate() }
        try super.tearDownWithError()
    }

    /// `now` (`YYYY-MM-DDTHH:MM:SS`, UTC) `minutes` earlier.
    static func moment(_ now: String, minutesBefore minutes: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        guard minutes > 0, let date = formatter.date(from: now) else { return now }
        return formatter.string(from: date.addingTimeInterval(Double(-60 * minutes)))
    }

    /// Makes the fixture's library: its commands, a minute apart up to its moment (so messages
    /// imported one after another are told apart, newest last), then Skip tour if it is past its
    /// first run.
    func prepare(_ library: String, _ fixture: Fixture, _ quote: Quote) throws {
        for (index, arguments) in fixture.commands.enumerated() {
            let before = fixture.commands.count - index
            let result = try runProcess(
                "/bin/sh",
                [
                    "-c",
                    "cd \(shellQuote(base)) && \(environment(fixture, library: library, minutesBefore: before)) "
                        + ([cravey] + arguments).map(shellQuote).joined(separator: " "),
                ])
            XCTAssertEqual(result.status, 0, "\(quote.place) fixture: cravey \(arguments): \(result.stderr)")
        }
        guard fixture.welcomed else { return }
        let tmux = try TmuxSession(
            "\(environment(fixture, library: library)) \(shellQuote(cravey)); echo EXIT=$?; sleep 60", width: 100,
            height: 32)
        defer { tmux.close() }
        for (shown, key) in [("Get started", "s"), ("LOG CRAVING", "q")] {
            try tmux.waitFor(shown)
            try tmux.send(key, literal: true)
        }
        try tmux.waitFor("EXIT=0")
    }

    /// The screen `quote` names, as lines: trailing spaces and trailing empty lines left out. It is
    /// read again for up to 5 seconds after `until` shows while it differs from the quote (a
    /// screen is drawn in more than one write).
    func screen(_ quote: Quote, library: String, _ fixture: Fixture) throws -> [String] {
        let microphone =
            fixture.speech.isEmpty
            ? nil : try self.microphone(saying: fixture.speech, fixture: quote.fixture, place: quote.place)
        let tmux = try TmuxSession(
            "cd \(shellQuote(base)) && \(environment(fixture, library: library, microphone: microphone)) "
                + ([cravey] + quote.arguments).map(shellQuote).joined(separator: " ") + "; sleep 60",
            width: quote.width, height: quote.height)
        defer { tmux.close() }
        let first = quote.block.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
        // Each key is typed once the screen before it is drawn, and answered (it changed) before
        // the next: a busy machine does not hand a key to the screen before.
        var before = ""
        for key in quote.keys {
            let deadline = Date() + 5
            repeat {
                usleep(300_000)
                before = try tmux.screen()
            } while before.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && Date() < deadline
            try tmux.send(key, literal: key.count == 1)
            while try tmux.screen() == before, Date() < deadline + 5 { usleep(50_000) }
        }
        // A screen that never shows the text is compared all the same: the failure shows it.
        // A transcript is made with the real engine: it may take a while on a busy machine.
        _ = try? tmux.waitFor(
            quote.until ?? first.trimmingCharacters(in: .whitespaces), timeout: fixture.speech.isEmpty ? 15 : 120)
        let deadline = Date() + 5
        var lines: [String] = []
        repeat {
            lines = try tmux.screen().components(separatedBy: "\n").map {
                try placed(String($0.reversed().drop { $0 == " " }.reversed()), quote, library: library)
            }
            while lines.last == "" { lines.removeLast() }
            if Self.sameScreen(lines, quote.block) { break }
            usleep(200_000)
        } while Date() < deadline
        return lines
    }

    /// `lines` with a transcript's own lines (between "Transcript (automatic draft)" and the "…" or
    /// the note under them) put in one line of their words: the engine splits a take recorded in
    /// real time into its lines by where it heard pauses, which a busy machine or another CPU moves,
    /// while the screen around them stays the same.
    static func transcriptAsWords(_ lines: [String]) -> [String] {
        guard let heading = lines.firstIndex(of: "  Transcript (automatic draft)") else { return lines }
        let rest = lines[(heading + 1)...]
        let end =
            rest.firstIndex { $0 == "  …" || $0 == "  Transcript saved automatically" || $0.isEmpty } ?? lines.endIndex
        let words = lines[(heading + 1)..<end].flatMap { $0.split(separator: " ") }.joined(separator: " ")
        return Array(lines[...heading]) + ["  " + words] + Array(lines[end...])
    }

    /// Whether `shown` is the screen `quoted` quotes: the same lines, a transcript's compared by its
    /// words. Where the engine's lines make the screen show a few words more or fewer before its
    /// "…" (the take's pauses fall elsewhere on a busy machine), the words shown begin the same and
    /// the fewer are at least nine in ten of the more.
    static func sameScreen(_ shown: [String], _ quoted: [String]) -> Bool {
        let shown = transcriptAsWords(shown), quoted = transcriptAsWords(quoted)
        guard shown != quoted else { return true }
        guard let heading = quoted.firstIndex(of: "  Transcript (automatic draft)"), shown.count == quoted.count,
            heading + 1 < quoted.count, shown[...heading] == quoted[...heading],
            shown[(heading + 2)...] == quoted[(heading + 2)...]
        else { return false }
        let a = shown[heading + 1].split(separator: " "), b = quoted[heading + 1].split(separator: " ")
        let (fewer, more) = a.count <= b.count ? (a, b) : (b, a)
        return more.starts(with: fewer) && fewer.count * 10 >= more.count * 9
    }

    /// What `cravey --version` prints.
    var build: String?

    /// `line` with what the quote's placeholders stand for written as they are.
    func placed(_ line: String, _ quote: Quote, library: String) throws -> String {
        var line = line
        for (name, text) in quote.placeholders {
            switch name {
            case "library": line = line.replacingOccurrences(of: library, with: text)
            case "question": line = CheckIn.prompts.reduce(line) { $0.replacingOccurrences(of: $1, with: text) }
            case "build":
                if build == nil { build = try runProcess(cravey, ["--version"]).stdout }
                let version = build ?? ""
                if let open = version.range(of: "(build "),
                    let close = version.range(of: ")", range: open.upperBound..<version.endIndex)
                {
                    line = line.replacingOccurrences(of: version[open.upperBound..<close.lowerBound], with: text)
                }
            case "timer":
                line = line.replacingOccurrences(
                    of: "(?<=● )[0-9]+:[0-9]{2}", with: text, options: .regularExpression)
            case "wave":
                line = line.replacingOccurrences(
                    of: "^  [ ▁▂▃▄▅▆▇█]*[▁▂▃▄▅▆▇█][ ▁▂▃▄▅▆▇█]*$", with: "  " + text, options: .regularExpression)
            case "breath":
                line = line.replacingOccurrences(
                    of: "Breathe (in|out)… [0-9]+", with: text, options: .regularExpression)
            default:  // made
                line = line.replacingOccurrences(
                    of: #"[A-Z][a-z]{2} [0-9]{1,2}, [0-9]{4} [0-9]{1,2}:[0-9]{2} [AP]M"#, with: text,
                    options: .regularExpression)
            }
        }
        return line
    }

    /// Every marked block of README.md and docs/*.md.
    static func quotes() throws -> [Quote] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/docs")
        return try (["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }).flatMap {
            file in
            let lines = try String(contentsOfFile: repositoryRoot + "/" + file, encoding: .utf8)
                .components(separatedBy: "\n")
            return try lines.indices.filter { lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("<!-- screen ") }
                .map { try quote(lines, at: $0, place: "\(file):\($0 + 1)") }
        }
    }

    /// The quote marked on `lines[at]`: its size, fixture, command, keys and block (a block in a
    /// list item keeps its lines without the fence's indent).
    static func quote(_ lines: [String], at: Int, place: String) throws -> Quote {
        let marker = lines[at].trimmingCharacters(in: .whitespaces)
        let indent = lines[at].prefix { $0 == " " }.count
        guard marker.hasSuffix(" -->"), let open = marker.range(of: " (fixture: "),
            let close = marker.range(of: "): cravey", range: open.upperBound..<marker.endIndex),
            case let size = marker[marker.index(marker.startIndex, offsetBy: "<!-- screen ".count)..<open.lowerBound]
                .split(separator: "x").compactMap({ Int($0) }), size.count == 2,
            at + 1 < lines.count, lines[at + 1].trimmingCharacters(in: .whitespaces).hasPrefix("```"),
            let end = lines[(at + 2)...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("```") })
        else { throw malformed(place) }
        var parts = marker[close.upperBound..<marker.index(marker.endIndex, offsetBy: -" -->".count)]
            .components(separatedBy: "; ")
        var quote = Quote(
            place: place, width: size[0], height: size[1],
            fixture: String(marker[open.upperBound..<close.lowerBound]),
            arguments: parts.removeFirst().split(separator: " ").map(String.init),
            block: lines[(at + 2)..<end].map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) })
        for part in parts {
            if part.hasPrefix("keys: ") {
                quote.keys = part.dropFirst("keys: ".count).split(separator: " ").map(String.init)
            } else if part.hasPrefix("until: ") {
                quote.until = String(part.dropFirst("until: ".count))
            } else if let colon = part.range(of: ": "),
                case let name = String(part[..<colon.lowerBound]),
                ["library", "build", "made", "question", "breath", "timer", "wave"].contains(name)
            {
                quote.placeholders[name] = String(part[colon.upperBound...])
            } else {
                throw malformed(place)
            }
        }
        return quote
    }

    /// Why a marker is not read.
    static func malformed(_ place: String) -> NSError {
        NSError(
            domain: "guide", code: 1,
            userInfo: [
                NSLocalizedDescriptionKey: "\(place): a screen is '<!-- screen WxH (fixture: NAME): cravey ARGS"
                    + "[; keys: K…][; until: TEXT][; library|build|made|question|breath|timer|wave: TEXT] -->' before a fenced block"
            ])
    }
}
