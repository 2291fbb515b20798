import CraveyLibrary
import CraveyTracker
import Foundation

/// Answering for a day: no use, or not remembered (a use is the use form). What `cravey today`,
/// home's `n` and the back-fill screen all run, each saying what was kept in the same words.
enum DayMarkFlow {
    /// Keeps `answer` for `day` (see `Tracker.mark`: a future day, a day before tracking began or
    /// a day with a use are refused in one line, with nothing written).
    static func mark(_ day: LocalDay, _ answer: DayAnswer, in lib: Library, now: Date) throws -> DayMarked {
        try Tracker(library: lib).mark(day, answer, now: now)
    }

    /// What a kept answer says: "No use today ✓", "Nov 20: not remembered ✓", with what it
    /// replaced when that was another answer.
    static func said(_ marked: DayMarked, now: Date) -> String {
        let today = LocalDay(now, in: .current)
        let name = marked.day == today ? "today" : marked.day == today - 1 ? "yesterday" : marked.day.short
        let words =
            switch marked.answer {
            case .noUse: "No use \(marked.day == today || marked.day == today - 1 ? name : "on " + name) ✓"
            case .unknown:
                "\(name.prefix(1).uppercased() + name.dropFirst()): not remembered ✓ — kept as its own answer, so it is not asked again"
            }
        guard let before = marked.before, before != marked.answer else { return words }
        return words + " (it was " + (before == .noUse ? "no use" : "not remembered") + ")"
    }

    /// The note a day answered for more than 7 days later has (the logs' own words), or nil. Not
    /// for "I don't remember": that answer already says what memory left.
    static func note(_ marked: DayMarked, now: Date) -> String? {
        marked.answer == .noUse && LocalDay(now, in: .current) - marked.day > 7 ? LogTime.oldWarning : nil
    }

    /// The use form for `day` (its time set to that day's noon, today's now), then the log; the
    /// use logged, or nil when the form was closed.
    static func use(on day: LocalDay, in session: Session) throws -> Usage? {
        let today = LocalDay(session.now(), in: .current)
        guard let draft = try LogForm.use(time: day == today ? "" : day.text + " 12:00") else { return nil }
        return try UseFlow.log(draft, in: session.library, afterCraving: nil, offeringLink: true, now: session.now())
    }

    /// The one line said when a use just logged (or moved to another day) withdrew that day's
    /// answer (no use, or not remembered); nil when it withdrew none. A line that cannot be read now is left out:
    /// the use is kept whatever it says.
    static func withdrawn(by use: Usage, in lib: Library, now: Date) -> String? {
        try? Tracker(library: lib).markWithdrawn(by: use, now: now)
    }
}

/// Says on standard error, after what was saved, that a use withdrew a day's answer
/// (as `noteIfOld` says a log's age: standard output stays what was saved, or its JSON).
func noteIfWithdrawn(_ use: Usage, in lib: Library) {
    if let line = DayMarkFlow.withdrawn(by: use, in: lib, now: LocalClock.now()) {
        FileHandle.standardError.show(Data((line + "\n").utf8))
    }
}
