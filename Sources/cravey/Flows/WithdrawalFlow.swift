import CraveyLibrary
import CraveyTracker
import Foundation

/// The withdrawal check: six scores kept for today, what `cravey withdrawal` and home's `w` both
/// run, each saying what was kept in the same words.
enum WithdrawalFlow {
    /// Keeps today's check (see `Tracker.keepWithdrawalCheck`: refused in one line, nothing
    /// written, outside days 1–14 or for another goal unless `anyGoal`).
    static func keep(_ scores: WithdrawalScores, anyGoal: Bool, in lib: Library, now: Date) throws -> WithdrawalKept {
        try Tracker(library: lib).keepWithdrawalCheck(scores, anyGoal: anyGoal, now: now)
    }

    /// "Withdrawal check kept for day 3 ✓ — sleep 3 · irritability 5 · …", and, when it replaced
    /// the day's earlier check, one more sentence that says so.
    static func said(_ kept: WithdrawalKept) -> String {
        let words = "Withdrawal check kept for day \(kept.check.windowDay) ✓ — \(kept.check.scores.text)"
        guard let replaced = kept.replaced else { return words }
        return words + ". It replaces today's earlier check (\(replaced.text))."
    }

    /// Home's note after the check's screen, short enough to leave home's first keys in view in
    /// a small window (the scores were on the screen a moment before): "Withdrawal check kept for
    /// day 3 ✓", and "(it replaces today's earlier one)" when it did.
    static func note(_ kept: WithdrawalKept) -> String {
        "Withdrawal check kept for day \(kept.check.windowDay) ✓"
            + (kept.replaced == nil ? "" : " (it replaces today's earlier one)")
    }

    /// Home's note for the key while the window is open: "day 3 · not yet today" or "✓ today".
    static func homeState(_ window: WithdrawalWindow, checkedToday: Bool) -> String {
        "day \(window.day ?? 0) · " + (checkedToday ? "✓ done today" : "not yet today")
    }
}
