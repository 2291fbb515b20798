import CraveyLibrary
import Foundation

/// A glance at progress for a prompt or a status bar (`cravey status`): a few figures worked out
/// from a read-only look at the library, cheap enough to run at every prompt. Its figures are the
/// dashboard's: Days in Progress and days since last use as `ProgressFigures` defines them,
/// today's cravings resisted or still open by the same resisted rule.
public struct Glance: Sendable, Equatable {
    /// nil before anything was logged or recorded.
    public var daysInProgress: Int?
    /// nil before a use was logged.
    public var daysSinceLastUse: Int?
    public var cravingsToday: Int
    public var resistedToday: Int
    /// Today's cravings whose 2 hours have not passed yet, with no use: neither resisted nor not.
    public var openToday: Int
    /// The newest milestone reached today that home has not shown yet: a stored one, or one of
    /// days (Days in Progress, days since last use) that the next home or progress stores. One
    /// first reached on an earlier day is not new, stored or not.
    public var milestone: Milestone?

    public init(
        daysInProgress: Int?, daysSinceLastUse: Int?, cravingsToday: Int, resistedToday: Int, openToday: Int = 0,
        milestone: Milestone?
    ) {
        (self.daysInProgress, self.daysSinceLastUse, self.cravingsToday) = (
            daysInProgress, daysSinceLastUse, cravingsToday
        )
        (self.resistedToday, self.openToday, self.milestone) = (resistedToday, openToday, milestone)
    }

    /// The glance at the library in `root` as of `now`; nil when there is no library there yet
    /// (none is made). Nothing is written.
    public static func read(root: String, now: Date, timeZone: TimeZone = .current) throws -> Glance? {
        let today = LocalDay(now, in: timeZone)
        // A log's day is on its own clock (at most 18 hours from UTC).
        let since = StoredDate.text(Date(timeIntervalSince1970: Double(today.number) * 86_400 - 64_800))
        guard let rows = try Library.glance(root: root, since: since) else { return nil }
        return Glance(rows, now: now, timeZone: timeZone)
    }

    init(_ rows: GlanceRows, now: Date, timeZone: TimeZone) {
        let today = LocalDay(now, in: timeZone)
        let nowMs = ProgressFigures.milliseconds(now)
        let recordingDay = rows.firstRecording.flatMap(StoredDate.date).map { LocalDay($0, in: timeZone).number }
        let firstDay = [rows.firstCravingDay, rows.firstUseDay, recordingDay].compactMap { $0 }.min().map {
            min($0, today.number)
        }
        daysInProgress = firstDay.map { today.number - $0 + 1 }
        daysSinceLastUse = rows.lastUseDay.map { max(0, today.number - $0) }
        var cravings = 0
        var resisted = 0
        var open = 0
        for craving in rows.cravings
        where LocalDay.day(millisecondsSince1970: craving.ms, utcOffset: craving.utcOffset) == today.number {
            cravings += 1
            switch ProgressFigures.outcome(
                at: craving.ms, linked: craving.linked, useTimes: rows.useTimes, nowMs: nowMs)
            {
            case .resisted: resisted += 1
            case .open: open += 1
            case .followedByUse: break
            }
        }
        (cravingsToday, resistedToday, openToday) = (cravings, resisted, open)

        // Only one reached today and not shown by home yet: stored ones of counts, and the days'
        // ones worked out here from the logs by the rule progress stores them by (one of days
        // since use is reached today only when no earlier stretch without use reached it). One
        // stored for another day, or already shown, was not reached today; one stored that the
        // logs contradict was never reached, so it does not hide today's.
        let useDays = Set(rows.useDays)
        let kept = rows.milestones.compactMap(Milestone.init).filter { !$0.isContradicted(byUseOn: useDays) }
        let stored = Dictionary(kept.map { ($0.row.id, $0) }, uniquingKeysWith: { a, _ in a })
        // Harm reduction speaks of what was used, not of cravings resisted.
        let resistedShown = rows.goal.flatMap(Goal.init(rawValue:)) != .harmReduction
        var candidates = kept.filter {
            !$0.kind.countsDays && !$0.shown && $0.reachedOn == today
                && (resistedShown || $0.kind != .cravingsResisted)
        }
        if let firstDay, let days = daysInProgress, Milestone.thresholds(.daysInProgress, upTo: days).last == days {
            candidates.append(
                Milestone(kind: .daysInProgress, count: days, reachedOn: LocalDay(number: firstDay + days - 1)))
        }
        candidates += Milestone.reached(MilestoneFacts(useDays: rows.useDays), today: today).filter {
            $0.kind == .daysSinceUse && $0.reachedOn == today
        }
        candidates.removeAll { milestone in
            stored[milestone.row.id].map { $0.shown || $0.reachedOn != today } ?? false
        }
        milestone = candidates.max { ($0.reachedOn, $0.count) < ($1.reachedOn, $1.count) }
    }

    /// Today's cravings in words, as the status line says them (nil with none, or none resisted
    /// nor open): "2 resisted today", "1 craving today, still open", "1 resisted today, 1 still
    /// open". A craving is never called resisted before its 2 hours have passed.
    public var todayWords: String? {
        let resisted = resistedToday > 0 ? "\(resistedToday) resisted today" : nil
        guard openToday > 0 else { return resisted }
        if let resisted { return resisted + ", \(openToday) still open" }
        return openToday == cravingsToday
            ? "\(Self.cravings(cravingsToday)) today, still open"
            : "\(openToday) of \(Self.cravings(cravingsToday)) today still open"
    }

    /// Today's cravings in full, for a tooltip: "No cravings logged today", "1 of 2 cravings
    /// resisted today", "1 craving today" (followed by a use), "1 craving today, still open",
    /// "2 cravings today: 1 resisted, 1 still open".
    public var todaySentence: String {
        guard cravingsToday > 0 else { return "No cravings logged today" }
        let closed = cravingsToday - openToday
        if openToday == 0 {
            return resistedToday > 0
                ? "\(resistedToday) of \(Self.cravings(closed)) resisted today"
                : "\(Self.cravings(cravingsToday)) today"
        }
        if closed == 0 { return "\(Self.cravings(cravingsToday)) today, still open" }
        return resistedToday > 0
            ? "\(Self.cravings(cravingsToday)) today: \(resistedToday) resisted, \(openToday) still open"
            : "\(Self.cravings(cravingsToday)) today, \(openToday) still open"
    }

    static func cravings(_ count: Int) -> String { "\(count) craving\(count == 1 ? "" : "s")" }
}
