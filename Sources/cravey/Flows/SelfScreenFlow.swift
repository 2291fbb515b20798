import CraveyLibrary
import CraveyTracker
import Foundation

/// Taking the private self-screen and saying its result: what `cravey screen` and the screen
/// from settings both run, each in the same words.
enum SelfScreenFlow {
    /// Keeps a self-screen of `answers` (held to the published key: a refusal keeps nothing) and
    /// returns every screen taken, this one last.
    static func take(_ answers: [Int], in lib: Library, now: Date) throws -> [SelfScreenTaken] {
        let tracker = Tracker(library: lib)
        let taken = try tracker.takeSelfScreen(answers, now: now)
        // This one last whatever the clock says of the others (one taken the same moment, or
        // after it by a clock that went back).
        return try tracker.selfScreens().filter { $0.id != taken.id } + [taken]
    }

    /// The result in calm words: the score, then its trend; what the number means only `meaning`.
    static func said(_ screens: [SelfScreenTaken], meaning: Bool) -> [String] {
        guard let last = screens.last else { return [] }
        return [SelfScreenWords.score(last), SelfScreenWords.trend(screens)]
            + (meaning ? SelfScreenWords.meaning(last.score) : [])
    }

    /// Offered once, at the start: home's first note after a first run taken through the tour
    /// (a skipped tour is not asked more), when no screen is taken yet.
    static func offer(_ lib: Library) -> String? {
        (try? Tracker(library: lib).selfScreens().isEmpty) == true ? SelfScreenWords.offer : nil
    }

    /// Home's note when the 4-week reminder is due (on, and 28 days since the last screen).
    static func reminder(_ lib: Library, now: Date) -> String? {
        (try? Tracker(library: lib).selfScreenReminderDue(now: now)) == true ? SelfScreenWords.reminder : nil
    }

    /// Home's `x` on the reminder: put away for another 4 weeks, said in one line.
    static func dismiss(_ lib: Library, now: Date) -> String {
        do {
            try Tracker(library: lib).dismissSelfScreenReminder(now: now)
            return "Not now, then. The reminder comes back in 4 weeks; s, then s takes the self-screen any time."
        } catch {
            return OffScreen.note(failed: error) ?? ""
        }
    }
}
