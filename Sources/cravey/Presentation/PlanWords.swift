import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

/// The words of if-then plans, shared by `cravey plan`, the plan screen, the offer, the ride and
/// the report.
enum PlanWords {
    /// Said when an eleventh plan is asked for.
    static let full =
        "You have \(Library.maxPlans) plans already, as many as cravey keeps. Remove one first: cravey plan remove N"

    /// Said where there are no plans yet.
    static let none =
        "No plans yet. A plan says what you'll do instead when a trigger comes: cravey plan add --trigger bored --instead \"walk round the block\""

    /// A plan's line in a listing: its number, what it is for, what instead and its message.
    static func line(_ number: Int, _ shown: PlanShown, width: Int? = nil) -> String {
        let line =
            String(number).leftPadded(2) + "  " + Terminal.safe(shown.plan.when) + " → "
            + Terminal.safe(shown.plan.instead) + (shown.message.map { "  ▶ " + Terminal.safe($0) } ?? "")
        return width.map { Terminal.fit(line, max(8, $0 - 1)) } ?? line
    }

    /// The line that heads the offer and the ride (wrapped by whoever shows it).
    static func heading(_ plan: Plan) -> String { "📝 " + Terminal.safe(plan.line) }

    /// What `plan add` says once the plan is kept.
    static func added(_ shown: PlanShown, number: Int) -> String {
        "Plan \(number) kept ✓  If \(Terminal.safe(shown.plan.when)), then: \(Terminal.safe(shown.plan.instead))"
            + (shown.message.map { " — and play '\(Terminal.safe($0))'" } ?? "")
    }

    /// The report's section: a line per plan.
    static func html(_ plans: [PlanShown]) -> String {
        "<ul class=\"notes\">"
            + plans.map { "<li>\(ProgressPage.escape($0.sentence))</li>" }.joined() + "</ul>"
    }
}

extension String {
    /// The text with spaces before it, to `width` characters.
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
