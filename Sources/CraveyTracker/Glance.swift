import CraveyLibrary
import Foundation

/// A glance at progress for a prompt or a status bar (`cravey status`): a few figures worked out
/// from a read-only look at the library, cheap enough to run at every prompt. Its figures are the
/// dashboard's: Days in Progress and days since last use as `ProgressFigures` defines them,
/// today's cravings resisted by the same resisted rule.
public struct Glance: Sendable, Equatable {
    /// nil before anything was logged or recorded.
    public var daysInProgress: Int?
    /// nil before a use was logged.
    public var daysSinceLastUse: Int?
    public var cravingsToday: Int
    public var resistedToday: Int
    /// The newest milestone home has not shown yet: a stored one, or one of days reached today
    /// (Days in Progress, days since last use) that the next home or progress stores.
    public var milestone: Milestone?

    public init(
        daysInProgress: Int?, daysSinceLastUse: Int?, cravingsToday: Int, resistedToday: Int,
        milestone: Milestone?
    ) {
        (self.daysInProgress, self.daysSinceLastUse, self.cravingsToday) = (
            daysInProgress, daysSinceLastUse, cravingsToday
        )
        (self.resistedToday, self.milestone) = (resistedToday, milestone)
    }

    /// The glance at the library in `root` as of `now`; nil when there is no library there yet
    /// (none is made). Nothing is written.
    public static func read(root: String, now: Date = Date(), timeZone: TimeZone = .current) throws -> Glance? {
        let today = LocalDay(now, in: timeZone)
        // A log's day is on its own clock (at most 18 hours from UTC).
        let since = StoredDate.text(Date(timeIntervalSince1970: Double(today.number) * 86_400 - 64_800))
        guard let rows = try Library.glance(root: root, since: since) else { return nil }
        return Glance(rows, today: today, timeZone: timeZone)
    }

    init(_ rows: GlanceRows, today: LocalDay, timeZone: TimeZone) {
        let recordingDay = rows.firstRecording.flatMap(StoredDate.date).map { LocalDay($0, in: timeZone).number }
        let firstDay = [rows.firstCravingDay, rows.firstUseDay, recordingDay].compactMap { $0 }.min().map {
            min($0, today.number)
        }
        daysInProgress = firstDay.map { today.number - $0 + 1 }
        daysSinceLastUse = rows.lastUseDay.map { max(0, today.number - $0) }
        var cravings = 0
        var resisted = 0
        for craving in rows.cravings
        where LocalDay.day(millisecondsSince1970: craving.ms, utcOffset: craving.utcOffset) == today.number {
            cravings += 1
            if ProgressFigures.passedWithoutUse(at: craving.ms, linked: craving.linked, useTimes: rows.useTimes) {
                resisted += 1
            }
        }
        (cravingsToday, resistedToday) = (cravings, resisted)

        // The stored ones home has not shown, and the days' ones reached but not stored yet.
        let stored = Set(rows.milestones.map(\.id))
        var candidates = rows.milestones.filter { $0.shownAt == nil }.compactMap(Milestone.init)
        var reachedByDays: [Milestone] = []
        if let firstDay, let days = daysInProgress, let count = Milestone.thresholds(.daysInProgress, upTo: days).last {
            reachedByDays.append(
                Milestone(kind: .daysInProgress, count: count, reachedOn: LocalDay(number: firstDay + count - 1)))
        }
        if let last = rows.lastUseDay, let since = daysSinceLastUse,
            let count = Milestone.thresholds(.daysSinceUse, upTo: since).last
        {
            reachedByDays.append(
                Milestone(kind: .daysSinceUse, count: count, reachedOn: LocalDay(number: last + count)))
        }
        candidates += reachedByDays.filter { !stored.contains($0.row.id) }
        milestone = candidates.max { ($0.reachedOn, $0.count) < ($1.reachedOn, $1.count) }
    }
}
