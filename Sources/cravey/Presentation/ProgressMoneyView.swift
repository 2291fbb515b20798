import CraveyTracker
import TerminalKit

/// Money kept and the withdrawal line, in the terminal and on the HTML page (kept apart from the
/// other sections' code): the section only once a price is set, the line only while it applies.
extension ProgressView {
    /// Money kept's title, lines and sentence; nil without a price.
    var moneySection: (title: String, lines: [String], sentence: String)? {
        figures.money.map { money in
            (
                MoneyKept.title, (money.figure.map { [Terminal.bold($0)] } ?? []) + (money.line.map { [$0] } ?? []),
                money.insight
            )
        }
    }

    /// The withdrawal line, wrapped and indented as a section's sentence (none when it does not apply).
    var withdrawalLines: [String] {
        figures.withdrawal.map { Terminal.wrap($0, width: width - 3).map { "  " + $0 } } ?? []
    }
}

extension ProgressPage {
    /// Money kept's card: title, figure, HTML beneath it and sentence; nil without a price.
    static func moneyCard(_ f: ProgressFigures) -> (title: String, figure: String?, html: String, sentence: String)? {
        f.money.map { money in
            (MoneyKept.title, money.figure, money.line.map { "<p>\(escape($0))</p>" } ?? "", money.insight)
        }
    }

    /// The withdrawal line as a paragraph (empty when it does not apply).
    static func withdrawalParagraph(_ f: ProgressFigures) -> String {
        f.withdrawal.map { "<p class=\"insight\">\(escape($0))</p>" } ?? ""
    }
}
