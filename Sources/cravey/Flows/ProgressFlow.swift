import CraveyLibrary
import CraveyTracker
import TerminalKit

/// The dashboard: on a terminal its screen, else printed once. What `cravey progress` and home's
/// `p` both run; milestones reached are noted as it opens.
enum ProgressFlow {
    /// The dashboard from `range` until it is left (its `o` and `1`–`3` help in a craving, on the
    /// session's speaker); without a terminal, printed once.
    static func show(_ range: ProgressRange = .week, in session: Session) throws {
        let tracker = Tracker(library: session.library)
        let now = session.now()
        if Terminal.stdinIsTerminal && Terminal.stdoutIsTerminal {
            let facts = try tracker.progressFacts()
            let milestones = try tracker.noteMilestones(facts, now: now)
            ProgressScreen.run(range: range, help: { try HelpNow(screen: $0, session: session)($1) }) {
                var figures = ProgressFigures(facts, range: $0, now: now)
                figures.milestones = milestones
                return figures
            }
        } else {
            print(
                plain(
                    try tracker.progressNotingMilestones(range, now: now),
                    width: Terminal.stdoutIsTerminal ? Terminal.columns : 80)
            )
        }
    }

    /// The dashboard once, as text.
    static func plain(_ figures: ProgressFigures, width: Int) -> String {
        (ProgressView.header(figures.range, width: width) + ProgressView(figures, width: width).sections).joined(
            separator: "\n")
    }
}
