import CraveyTracker
import TerminalKit

/// The dashboard's milestones: every one reached, the newest first, with its day.
extension ProgressView {
    /// "🌱 30 days in progress  Oct 10" a line each, the newest first.
    var milestoneLines: [String] {
        figures.shownMilestones.reversed().map {
            $0.line + "  " + Terminal.dim($0.reachedOn.span(to: $0.reachedOn, currentYear: figures.currentYear))
        }
    }
}

extension ProgressPage {
    /// The milestones as a list, the newest first (nothing without any).
    static func milestoneList(_ f: ProgressFigures) -> String {
        guard !f.shownMilestones.isEmpty else { return "" }
        return "<ul class=\"milestones\">"
            + f.shownMilestones.reversed().map {
                "<li>\(escape($0.words)) <span class=\"day\">\(escape($0.reachedOn.span(to: $0.reachedOn, currentYear: f.currentYear)))</span></li>"
            }.joined() + "</ul>"
    }
}
