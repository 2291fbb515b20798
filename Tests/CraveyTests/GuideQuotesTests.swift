import CraveyTestSupport
import Foundation
import XCTest

/// The output README and the guides quote is the real output: every block marked
/// `<!-- output (fixture: NAME): cravey ARGS -->` is what that command prints on the fixture's
/// library at the fixture's moment and in its locale; `<!-- output, excerpt (fixture: NAME): cravey ARGS -->` is a run
/// of its lines; `<!-- output (fixture: NAME) -->` marks a session, whose `$ cravey …` lines are run
/// in turn, each followed by what it prints (a `  # comment` after a command is the reader's).
final class GuideQuotesTests: CommandTestCase {
    /// A library's logs, as commands, and the moment and place they are seen at.
    struct Fixture {
        var commands: [[String]]
        var now = "2026-11-19T18:00:00"
        var locale = "C.UTF-8"

        var environment: [String: String] {
            ["NO_COLOR": "1", "TZ": "UTC", "CRAVEY_TRANSCRIBE": "later", "CRAVEY_NOW": now, "LANG": locale]
        }
    }

    /// The fixtures the documents name (the library is made fresh for each quote).
    static let fixtures: [String: Fixture] = [
        "empty": Fixture(commands: []),
        // A first craving 29 days ago, a use 27 days ago, two cravings today more than 2 hours ago.
        "month": Fixture(commands: [
            ["craving", "6", "--at", "2026-10-21 20:00"], ["use", "bowls", "1", "--at", "2026-10-23 21:00"],
            ["craving", "5", "--at", "2026-11-19 09:00"], ["craving", "4", "--at", "2026-11-19 13:30"],
        ]),
        // Quitting: a use 12 days ago, one every evening for four days, the last one yesterday, a
        // craving half an hour ago, and a look at progress (which stores the milestones reached).
        "evenings": Fixture(commands: [
            ["settings", "goal", "quit"], ["use", "vape", "2", "--at", "2026-11-07 20:00"],
            ["use", "joints", "1", "--at", "2026-11-15 21:00"], ["use", "joints", "1", "--at", "2026-11-16 21:00"],
            ["use", "joints", "1", "--at", "2026-11-17 21:00"], ["use", "joints", "1", "--at", "2026-11-18 21:00"],
            ["craving", "7", "--at", "2026-11-19 17:30"], ["progress"],
        ]),
        // Money kept: bowls at 10 in a German locale, cutting down, 2, 1.5 and 1 bowls in the first
        // week (Nov 5–11), then 1, 0.5 and 1; seen on Nov 25. `money-quit`: the same, quitting.
        "money": Fixture(commands: moneyLogs(goal: "cut-down"), now: "2026-11-25T18:00:00", locale: "de_DE.UTF-8"),
        "money-quit": Fixture(commands: moneyLogs(goal: "quit"), now: "2026-11-25T18:00:00", locale: "de_DE.UTF-8"),
    ]

    static func moneyLogs(goal: String) -> [[String]] {
        [
            ["settings", "goal", goal], ["settings", "price", "bowls", "10"], ["settings", "price", "vape", "0.40"],
            ["settings", "price", "dab", "5"], ["settings", "price", "edible", "2,50"],
        ]
            + [("2", "05"), ("1.5", "07"), ("1", "10"), ("1", "15"), ("0.5", "20"), ("1", "23")].map {
                ["use", "bowls", $0.0, "--at", "2026-11-\($0.1) 20:00"]
            }
    }

    struct Quote {
        var file: String
        var line: Int
        var fixture: String
        var excerpt: Bool
        /// The commands (arguments after `cravey`) and what each prints, as quoted.
        var runs: [(arguments: [String], quoted: [String])]
    }

    func testEveryQuotedOutputIsTheRealOne() throws {
        let quotes = try Self.quotes()
        XCTAssertGreaterThanOrEqual(quotes.count, 8, "the documents quote real output")
        for quote in quotes {
            let fixture = try XCTUnwrap(
                Self.fixtures[quote.fixture], "\(quote.file):\(quote.line): no fixture '\(quote.fixture)'")
            let library = base + "/quote-\(quote.line)-\(UUID().uuidString.prefix(6))"
            for arguments in fixture.commands { _ = try run(arguments, library: library, fixture, quote) }
            for (arguments, quoted) in quote.runs {
                let out = try run(arguments, library: library, fixture, quote)
                var lines = out.components(separatedBy: "\n")
                if lines.last == "" { lines.removeLast() }
                let place = "\(quote.file):\(quote.line) (cravey \(arguments.joined(separator: " ")))"
                if quote.excerpt {
                    XCTAssertTrue(Self.contains(lines, quoted), "\(place) quotes lines it does not print:\n\(out)")
                } else {
                    XCTAssertEqual(quoted, lines, "\(place) quotes other output")
                }
            }
        }
    }

    func run(_ arguments: [String], library: String, _ fixture: Fixture, _ quote: Quote) throws -> String {
        let result = try runProcess(cravey, arguments + ["--library", library], environment: fixture.environment)
        XCTAssertEqual(result.status, 0, "\(quote.file):\(quote.line) cravey \(arguments): \(result.stderr)")
        return result.stdout
    }

    static func contains(_ lines: [String], _ run: [String]) -> Bool {
        guard !run.isEmpty, run.count <= lines.count else { return run.isEmpty }
        return (0...(lines.count - run.count)).contains { Array(lines[$0..<$0 + run.count]) == run }
    }

    /// Every marked block of README.md and docs/*.md.
    static func quotes() throws -> [Quote] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/docs")
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var quotes: [Quote] = []
        for file in ["README.md"] + docs {
            let lines = try String(contentsOfFile: repositoryRoot + "/" + file, encoding: .utf8)
                .components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where line.hasPrefix("<!-- output") {
                quotes.append(try quote(lines, at: index, file: file))
            }
        }
        return quotes
    }

    /// The quote marked on `lines[at]`: its fixture, its command or its session, its block.
    static func quote(_ lines: [String], at: Int, file: String) throws -> Quote {
        let marker = lines[at]
        let place = "\(file):\(at + 1)"
        guard let open = marker.range(of: "(fixture: "),
            let close = marker.range(of: ")", range: open.upperBound..<marker.endIndex),
            marker.hasSuffix(" -->"), at + 1 < lines.count, lines[at + 1].hasPrefix("```")
        else { throw QuoteError.malformed(place) }
        guard let end = lines[(at + 2)...].firstIndex(where: { $0.hasPrefix("```") }) else {
            throw QuoteError.malformed(place)
        }
        let block = Array(lines[(at + 2)..<end])
        var quote = Quote(
            file: file, line: at + 1, fixture: String(marker[open.upperBound..<close.lowerBound]),
            excerpt: marker.hasPrefix("<!-- output, excerpt"), runs: [])
        let rest = marker[close.upperBound...].dropLast(" -->".count)
        if rest.hasPrefix(": cravey ") {
            quote.runs = [(try words(String(rest.dropFirst(": cravey ".count)), place), block)]
            return quote
        }
        guard rest.isEmpty else { throw QuoteError.malformed(place) }
        for line in block {
            if line.hasPrefix("$ cravey ") {
                var command = String(line.dropFirst("$ cravey ".count))
                if let comment = command.range(of: "  #") { command = String(command[..<comment.lowerBound]) }
                quote.runs.append((try words(command.trimmingCharacters(in: .whitespaces), place), []))
            } else if !quote.runs.isEmpty {
                quote.runs[quote.runs.count - 1].quoted.append(line)
            } else {
                throw QuoteError.malformed(place)
            }
        }
        return quote
    }

    /// A command line split as the shell would split it (words, '…' and "…").
    static func words(_ line: String, _ place: String) throws -> [String] {
        var words: [String] = []
        var word: String?
        var quoteMark: Character?
        for character in line {
            if let mark = quoteMark {
                if character == mark { quoteMark = nil } else { word!.append(character) }
            } else if character == "'" || character == "\"" {
                quoteMark = character
                word = word ?? ""
            } else if character == " " {
                if let done = word { words.append(done) }
                word = nil
            } else {
                word = (word ?? "") + String(character)
            }
        }
        guard quoteMark == nil else { throw QuoteError.malformed(place) }
        if let done = word { words.append(done) }
        return words
    }

    enum QuoteError: Error, CustomStringConvertible {
        case malformed(String)
        var description: String {
            switch self {
            case let .malformed(place):
                return
                    "\(place): a quote is '<!-- output[, excerpt] (fixture: NAME)[: cravey ARGS] -->' before a fenced block"
            }
        }
    }
}
