import CraveyTracker
import TerminalKit

/// The dashboard's milestones: every one reached, the newest first, with its day.
extension ProgressView {
    static let milestonesTitle = "🏅 Milestones"

    /// "🌱 30 days in progress  Oct 10" a line each, the newest first.
    var milestoneLines: [String] {
        figures.shownMilestones.reversed().map {
            $0.line + "  " + Terminal.dim($0.reachedOn.span(to: $0.reachedOn, currentYear: figures.currentYear))
        }
    }

    var milestonesSentence: String { Self.milestonesSentence(figures) }

    static func milestonesSentence(_ f: ProgressFigures) -> String {
        f.shownMilestones.isEmpty
            ? "Your first milestone comes with your first day of tracking. 🌱"
            : "Each milestone is kept with the day you reached it: nothing takes one back."
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
