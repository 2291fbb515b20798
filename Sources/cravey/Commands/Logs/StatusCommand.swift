import ArgumentParser
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey status`: one short line of progress for a shell prompt, tmux or a status bar.
    struct StatusCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "One short line of progress for a prompt or a status bar: Day, days since use, resisted today.",
            discussion: """
                Reads the library without changing it (no library yet: a quiet line). --json prints one JSON object \
                as waybar's custom module reads it (text, tooltip, class, alt). --format takes fields in \
                braces: {days} Days in Progress, {since} days since last use, {resisted} cravings resisted today, \
                {cravings} cravings today, {milestone} a new milestone, {text} the whole line; {{ and }} are braces. \
                A field with nothing to say is empty. --discreet names neither cannabis, cravings nor use, for places \
                others can see.
                """)

        @OptionGroup var library: LibraryOptions

        @Flag(help: "Print one JSON object as waybar's custom module reads it (return-type json).")
        var json = false

        @Option(help: ArgumentHelp("The line with fields in braces, e.g. '{days}d {resisted}✓'.", valueName: "format"))
        var format: String?

        @Flag(help: "Words that name neither cannabis, cravings nor use (others can see a status bar).")
        var discreet = false

        func run() throws { try Self.show(root: library.root, json: json, format: format, discreet: discreet) }

        /// `cravey status` as typed, its arguments read without the argument parser (whose
        /// reflection costs more than the status itself): `--library DIR`, `--json`, `--format F`,
        /// `--discreet` (also `--option=value`). nil for anything else (`--help`, a mistake), which
        /// the parser then reads and answers as usual.
        static func quickly(_ arguments: [String]) -> (() throws -> Void)? {
            guard arguments.first == "status" else { return nil }
            var (library, format): (String?, String?) = (nil, nil)
            var (json, discreet) = (false, false)
            var rest = arguments.dropFirst()
            while let argument = rest.popFirst() {
                let (name, attached) =
                    argument.firstIndex(of: "=").map {
                        (String(argument[..<$0]), String(argument[argument.index(after: $0)...]))
                    } ?? (argument, nil)
                switch name {
                case "--json" where attached == nil: json = true
                case "--discreet" where attached == nil: discreet = true
                case "--library", "--format":
                    guard let value = attached ?? rest.popFirst(), attached != nil || !value.hasPrefix("-") else {
                        return nil
                    }
                    if name == "--library" { library = value } else { format = value }
                default: return nil
                }
            }
            return { try show(root: LibraryOptions.root(library), json: json, format: format, discreet: discreet) }
        }

        static func show(root: String, json: Bool, format: String?, discreet: Bool) throws {
            let template = try format.map(StatusLine.parse)
            let glance: Glance?
            do {
                glance = try Glance.read(root: root, now: LocalClock.now())
            } catch {
                // A prompt must not break: the quiet line, and why on stderr.
                Terminal.printNote("the library could not be read: \(Cravey.problem(error)?.message ?? "\(error)")")
                glance = nil
            }
            let line = StatusLine(glance: glance, discreet: discreet)
            if json {
                try JSONOutput.print(line.module)
            } else if let template {
                print(line.filled(template))
            } else {
                print(line.text)
            }
        }
    }
}

/// The words of `cravey status`, from a glance (nil: no library yet, or nothing in it).
struct StatusLine {
    let glance: Glance?
    let discreet: Bool

    /// Where nothing is counted yet.
    var quiet: String { discreet ? "🌱" : "🌱 cravey" }

    /// "🌱 Day 34 · 12 days since use · 2 resisted today · 🏅 30 days in progress"; discreet
    /// "Day 34 · 12 · 2 ✓ · 🏅 30 days".
    var text: String {
        guard let glance, let days = glance.daysInProgress else { return quiet }
        var parts = [(discreet ? "" : "🌱 ") + "Day \(days)"]
        if let since = glance.daysSinceLastUse, since > 0 {
            parts.append(discreet ? "\(since)" : ProgressFigures.days(since) + " since use")
        }
        if discreet {
            if glance.resistedToday > 0 { parts.append("\(glance.resistedToday) ✓") }
        } else if let today = glance.todayWords {
            parts.append(today)
        }
        if let milestone = milestoneWords { parts.append(milestone) }
        return parts.joined(separator: " · ")
    }

    /// "🏅 30 days in progress" (discreet "🏅 30 days"); nil without a new one.
    var milestoneWords: String? {
        glance?.milestone.map { "🏅 " + (discreet ? $0.discreetWords : $0.words) }
    }

    /// The longer words of a status bar's tooltip, a line each.
    var tooltip: String {
        guard let glance, let days = glance.daysInProgress else {
            return discreet ? "Nothing yet" : "Nothing logged in cravey yet"
        }
        var lines = ["Day \(days)" + (discreet ? "" : " in progress")]
        if let since = glance.daysSinceLastUse, since > 0 {
            lines.append(ProgressFigures.days(since) + (discreet ? "" : " since your last use"))
        }
        if !discreet {
            lines.append(glance.todaySentence)
        } else if glance.resistedToday > 0 {
            lines.append("\(glance.resistedToday) ✓ today")
        }
        if let milestone = glance.milestone {
            lines.append(discreet ? "🏅 " + milestone.discreetWords : milestone.line)
        }
        return lines.joined(separator: "\n")
    }

    /// The state, as a status bar's class and alt: "milestone" (a new one to celebrate),
    /// "progress", or "none" (nothing counted yet).
    var state: String { glance?.daysInProgress == nil ? "none" : glance?.milestone != nil ? "milestone" : "progress" }

    /// waybar's custom module (`return-type: json`).
    struct Module: Encodable {
        var text: String
        var tooltip: String
        var `class`: String
        var alt: String
    }

    var module: Module { Module(text: text, tooltip: tooltip, class: state, alt: state) }

    /// The fields of `--format`, each as it is filled.
    static let fields = ["days", "since", "resisted", "cravings", "milestone", "text"]

    func field(_ name: String) -> String {
        switch name {
        case "days": glance?.daysInProgress.map(String.init) ?? ""
        case "since": glance?.daysSinceLastUse.map(String.init) ?? ""
        case "resisted": glance.map { String($0.resistedToday) } ?? ""
        case "cravings": glance.map { String($0.cravingsToday) } ?? ""
        case "milestone": milestoneWords ?? ""
        default: text
        }
    }

    /// A `--format` template: literal text and field names, in order.
    enum Piece: Equatable {
        case literal(String)
        case field(String)
    }

    /// The pieces of a `--format` template; an unknown field or an unclosed brace is refused in
    /// one line.
    static func parse(_ template: String) throws -> [Piece] {
        var pieces: [Piece] = []
        var literal = ""
        var rest = Substring(template)
        while let first = rest.first {
            rest = rest.dropFirst()
            if first == "{" && rest.first == "{" || first == "}" && rest.first == "}" {
                literal.append(first)
                rest = rest.dropFirst()
            } else if first == "{" {
                guard let close = rest.firstIndex(of: "}") else {
                    throw CraveyFailure(
                        message: "invalid --format: a '{' is not closed (write {{ for a brace)",
                        code: ExitCode.validationFailure.rawValue)
                }
                let name = String(rest[..<close])
                guard fields.contains(name) else {
                    throw CraveyFailure(
                        message:
                            "invalid --format: no field '{\(Terminal.safe(name))}'; the fields are \(fields.map { "{\($0)}" }.joined(separator: ", "))",
                        code: ExitCode.validationFailure.rawValue)
                }
                if !literal.isEmpty { pieces.append(.literal(literal)) }
                literal = ""
                pieces.append(.field(name))
                rest = rest[rest.index(after: close)...]
            } else if first == "}" {
                throw CraveyFailure(
                    message: "invalid --format: a '}' without its '{' (write }} for a brace)",
                    code: ExitCode.validationFailure.rawValue)
            } else {
                literal.append(first)
            }
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        return pieces
    }

    func filled(_ pieces: [Piece]) -> String {
        pieces.map {
            switch $0 {
            case let .literal(text): text
            case let .field(name): field(name)
            }
        }.joined()
    }
}
