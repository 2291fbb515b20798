import CraveyTracker
import TerminalKit

/// Money kept and the withdrawal line, in the terminal and on the HTML page (kept apart from the
/// other sections' code): the section only once a price is set (the tracker's list says), the
/// line only while it applies.
extension ProgressView {
    /// Money kept's figure and line (nothing without a price).
    var moneyLines: [String] {
        guard let money = figures.money else { return [] }
        return (money.figure.map { [Terminal.bold($0)] } ?? []) + (money.line.map { [$0] } ?? [])
    }

    /// The withdrawal line, wrapped and indented as a section's sentence (none when it does not apply).
    var withdrawalLines: [String] {
        figures.withdrawal.map { Terminal.wrap($0, width: width - 3).map { "  " + $0 } } ?? []
    }
}

extension ProgressPage {
    /// Money kept's line as a paragraph (empty without a price or a line).
    static func moneyParagraph(_ f: ProgressFigures) -> String {
        f.money?.line.map { "<p>\(escape($0))</p>" } ?? ""
    }

    /// The withdrawal line as a paragraph (empty when it does not apply).
    static func withdrawalParagraph(_ f: ProgressFigures) -> String {
        f.withdrawal.map { "<p class=\"insight\">\(escape($0))</p>" } ?? ""
    }
}
