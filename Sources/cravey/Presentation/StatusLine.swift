import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

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
                        code: CraveyFailure.refusedCode)
                }
                let name = String(rest[..<close])
                guard fields.contains(name) else {
                    throw CraveyFailure(
                        message:
                            "invalid --format: no field '{\(Terminal.safe(name))}'; the fields are \(fields.map { "{\($0)}" }.joined(separator: ", "))",
                        code: CraveyFailure.refusedCode)
                }
                if !literal.isEmpty { pieces.append(.literal(literal)) }
                literal = ""
                pieces.append(.field(name))
                rest = rest[rest.index(after: close)...]
            } else if first == "}" {
                throw CraveyFailure(
                    message: "invalid --format: a '}' without its '{' (write }} for a brace)",
                    code: CraveyFailure.refusedCode)
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
