import CraveyLibrary
import Foundation

/// A milestone: a count that only grows reaching one of its thresholds, kept with the local day it
/// got there. Milestones that were true never break: once stored, a later use, a deleted log or a
/// deleted message leaves it as it is (`check` says when the logs no longer reach it). One the
/// logs contradict — days since a use with a use logged on one of those days — was never
/// reached: it is not shown, and `check --repair` removes it; where the logs reach it on a later
/// day (a use from another machine, or told late, began the stretch), it moves to that day.
///
/// The thresholds: for days (Days in Progress, days since last use) 1, 3, 7, 14, 30, 60, 90, 180,
/// 365, then every 365 days; for counts (cravings resisted, messages recorded, check-ins) 1, 5,
/// 10, 25, 50, 100, then every 100.
///
/// The day each was reached:
/// - **Days in Progress** N: the first day of tracking + N − 1 (day 1 is the first day).
/// - **Days since last use** N: the first calendar day that ends N whole calendar days with no
///   use after a use — the day N days after a use, with no use on it or the days between (a day
///   with a use never reaches one; today counts while it has none, as streaks count it); over
///   every stretch between uses and the one since the last use.
/// - **Cravings resisted** N: the day of the N-th craving resisted (the resisted rule of
///   progress), counted once its 2 hours have passed without a use.
/// - **Messages recorded** N: the day the N-th message was added; **check-ins** N: the N-th
///   check-in's day.
public struct Milestone: Sendable, Equatable, Encodable {
    public enum Kind: String, CaseIterable, Sendable, Encodable {
        case daysInProgress, cravingsResisted, messagesRecorded, checkIns, daysSinceUse

        /// Whether it counts days (else things done).
        public var countsDays: Bool { self == .daysInProgress || self == .daysSinceUse }

        public var emoji: String {
            switch self {
            case .daysInProgress: "🌱"
            case .cravingsResisted: "💪"
            case .messagesRecorded: "🎙️"
            case .checkIns: "☀️"
            case .daysSinceUse: "🌿"
            }
        }
    }

    public var kind: Kind
    public var count: Int
    public var reachedOn: LocalDay
    /// Whether home has shown it.
    public var shown = false

    public init(kind: Kind, count: Int, reachedOn: LocalDay, shown: Bool = false) {
        (self.kind, self.count, self.reachedOn, self.shown) = (kind, count, reachedOn, shown)
    }

    private enum Key: String, CodingKey { case kind, count, reachedOn }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(count, forKey: .count)
        try c.encode(reachedOn, forKey: .reachedOn)
    }

    /// "30 days in progress", "1 craving resisted", "14 days since your last use".
    public var words: String {
        let one = count == 1
        return switch kind {
        case .daysInProgress: "\(count) day\(one ? "" : "s") in progress"
        case .cravingsResisted: "\(count) craving\(one ? "" : "s") resisted"
        case .messagesRecorded: "\(count) message\(one ? "" : "s") recorded"
        case .checkIns: "\(count) check-in\(one ? "" : "s")"
        case .daysSinceUse: "\(count) day\(one ? "" : "s") since your last use"
        }
    }

    /// "🌱 30 days in progress".
    public var line: String { kind.emoji + " " + words }

    /// The words for a place others can see: what was counted is not named ("30 days", "10 ✓").
    public var discreetWords: String {
        switch kind {
        case .daysInProgress, .daysSinceUse: "\(count) day\(count == 1 ? "" : "s")"
        case .cravingsResisted: "\(count) ✓"
        case .messagesRecorded: "\(count) message\(count == 1 ? "" : "s")"
        case .checkIns: "\(count) check-in\(count == 1 ? "" : "s")"
        }
    }

    /// The thresholds of `kind` up to `value`, smallest first.
    public static func thresholds(_ kind: Kind, upTo value: Int) -> [Int] {
        let first = kind.countsDays ? [1, 3, 7, 14, 30, 60, 90, 180, 365] : [1, 5, 10, 25, 50, 100]
        let step = kind.countsDays ? 365 : 100
        var result = first.filter { $0 <= value }
        var next = first[first.count - 1] + step
        while next <= value {
            result.append(next)
            next += step
        }
        return result
    }

    /// Whether the logs say it was never reached: days since a use with a use logged (`useDays`)
    /// on one of those days. Only days since use can be contradicted so; the other kinds count
    /// what happened, and a deleted log leaves them true of their day.
    public func isContradicted(byUseOn useDays: Set<Int>) -> Bool { firstUse(in: useDays) != nil }

    /// The first use (`useDays`) on one of the days a days-since milestone counts (nil for
    /// another kind).
    func firstUse(in useDays: Set<Int>) -> LocalDay? {
        guard kind == .daysSinceUse, count > 0 else { return nil }
        // Over the uses, not the days: a stored count can be as large as a hostile row makes it.
        let first = reachedOn.number.subtractingReportingOverflow(count - 1)
        let from = first.overflow ? Int.min : first.partialValue
        return useDays.filter { $0 >= from && $0 <= reachedOn.number }.min().map(LocalDay.init(number:))
    }

    /// Home's note: the line on the day it was reached; on a later day, with that day: "🌿 7 days
    /// since your last use — reached Oct 12".
    public func note(today: LocalDay) -> String {
        reachedOn == today ? line : line + " — reached " + reachedOn.short
    }

    /// The row as the library stores it.
    public var row: MilestoneRow { MilestoneRow(kind: kind.rawValue, count: count, reachedOn: reachedOn.text) }

    /// A stored row (nil for one of a kind this cravey does not know).
    public init?(_ row: MilestoneRow) {
        guard let kind = Kind(rawValue: row.kind), let day = LocalDay(text: row.reachedOn) else { return nil }
        self.init(kind: kind, count: row.count, reachedOn: day, shown: row.shownAt != nil)
    }

    /// Every milestone the facts reach by `today`, with the day each was reached; by kind, then
    /// by count.
    public static func reached(_ facts: MilestoneFacts, today: LocalDay) -> [Milestone] {
        var result: [Milestone] = []
        if let first = facts.firstDay, first <= today.number {
            for count in thresholds(.daysInProgress, upTo: today.number - first + 1) {
                result.append(
                    Milestone(kind: .daysInProgress, count: count, reachedOn: LocalDay(number: first + count - 1)))
            }
        }
        for (kind, days) in [
            (Kind.cravingsResisted, facts.resistedDays), (.messagesRecorded, facts.messageDays),
            (.checkIns, facts.checkInDays),
        ] {
            let days = days.filter { $0 <= today.number }.sorted()
            for count in thresholds(kind, upTo: days.count) {
                result.append(Milestone(kind: kind, count: count, reachedOn: LocalDay(number: days[count - 1])))
            }
        }
        // Each stretch of whole days without use after a use (to the day before the next use, or
        // to today): the first stretch to reach a count.
        let uses = Array(Set(facts.useDays.filter { $0 <= today.number })).sorted()
        var sinceUse: [Int: Int] = [:]
        for (index, day) in uses.enumerated() {
            let end = index + 1 < uses.count ? uses[index + 1] - 1 : today.number
            for count in thresholds(.daysSinceUse, upTo: end - day) where sinceUse[count] == nil {
                sinceUse[count] = day + count
            }
        }
        for (count, day) in sinceUse.sorted(by: { $0.key < $1.key }) {
            result.append(Milestone(kind: .daysSinceUse, count: count, reachedOn: LocalDay(number: day)))
        }
        return result
    }

    /// How far each kind's count gets on the logs now (days since use: the longest stretch).
    public static func counts(_ facts: MilestoneFacts, today: LocalDay) -> [Kind: Int] {
        let uses = Array(Set(facts.useDays.filter { $0 <= today.number })).sorted()
        let longest = zip(uses, uses.dropFirst().map { $0 - 1 } + [today.number]).map { $1 - $0 }.max() ?? 0
        return [
            .daysInProgress: facts.firstDay.map { max(0, today.number - $0 + 1) } ?? 0,
            .cravingsResisted: facts.resistedDays.filter { $0 <= today.number }.count,
            .messagesRecorded: facts.messageDays.filter { $0 <= today.number }.count,
            .checkIns: facts.checkInDays.filter { $0 <= today.number }.count,
            .daysSinceUse: longest,
        ]
    }
}

/// What milestones are figured from, as local day numbers.
public struct MilestoneFacts: Sendable, Equatable {
    /// The first day of tracking (the first log's, message's or check-in's); nil before any.
    public var firstDay: Int?
    /// The day of every use.
    public var useDays: [Int]
    /// The day of every craving resisted whose 2 hours have passed, oldest first.
    public var resistedDays: [Int]
    /// The day each message was added, and each check-in's day.
    public var messageDays: [Int]
    public var checkInDays: [Int]

    public init(
        firstDay: Int? = nil, useDays: [Int] = [], resistedDays: [Int] = [], messageDays: [Int] = [],
        checkInDays: [Int] = []
    ) {
        (self.firstDay, self.useDays, self.resistedDays) = (firstDay, useDays, resistedDays)
        (self.messageDays, self.checkInDays) = (messageDays, checkInDays)
    }
}

extension LocalDay {
    /// "2026-10-10" as a day (nil for other text).
    public init?(text: String) {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, text.count == 10 else { return nil }
        self.init(year: parts[0], month: parts[1], day: parts[2])
    }
}

extension Tracker {
    /// The facts milestones are figured from, as of `now`: every log (`facts`, read whole) and
    /// when each message and check-in was added.
    public func milestoneFacts(_ facts: ProgressFacts, now: Date, timeZone: TimeZone = .current) throws
        -> MilestoneFacts
    {
        let counts = try library.milestoneCounts()
        let messageDays = counts.messagesAdded.compactMap(StoredDate.date).map { LocalDay($0, in: timeZone).number }
        let checkInDays = counts.checkInDays.compactMap { LocalDay(text: $0)?.number }
        let useDays = facts.uses.map(\.day)
        let useTimes = facts.uses.map(\.ms)
        let nowMs = ProgressFigures.milliseconds(now)
        let resisted = facts.cravings.filter {
            ProgressFigures.outcome(at: $0.ms, linked: $0.linked, useTimes: useTimes, nowMs: nowMs) == .resisted
        }.map(\.day)
        let firstDay =
            ([facts.firstCravingDay, useDays.min(), messageDays.min(), checkInDays.min()]
            + [facts.firstRecording.map { LocalDay($0, in: timeZone).number }]).compactMap { $0 }.min()
        return MilestoneFacts(
            firstDay: firstDay, useDays: useDays, resistedDays: resisted, messageDays: messageDays,
            checkInDays: checkInDays)
    }

    /// Works out the milestones reached by `now`, stores the new ones (a stored one is never
    /// changed; one of days since use once its day has ended), and returns every one reached and
    /// not contradicted by the logs, in the order reached. `facts` must hold every
    /// craving (`progressFacts()` without a day).
    @discardableResult
    public func noteMilestones(_ facts: ProgressFacts? = nil, now: Date, timeZone: TimeZone = .current)
        throws -> [Milestone]
    {
        let facts = try facts ?? progressFacts()
        let today = LocalDay(now, in: timeZone)
        let reached = Milestone.reached(try milestoneFacts(facts, now: now, timeZone: timeZone), today: today)
        let useDays = Set(facts.uses.map(\.day))
        // One of days since use reached today is stored once today has ended without a use (a
        // use this evening would mean it was never reached); it is listed all the same.
        let lasting = reached.filter { !($0.kind == .daysSinceUse && $0.reachedOn == today) }
        // A use logged since (on another machine, or told late) may say a stored one was never
        // reached where the logs reach it on a later day: it moves to that day (shown again once).
        let lastingIds = Set(lasting.map(\.row.id))
        let moved = try milestones().filter { $0.isContradicted(byUseOn: useDays) && lastingIds.contains($0.row.id) }
        if !moved.isEmpty { try? library.removeMilestones(moved.map(\.row)) }
        // Not stored now (a busy, full or read-only library): listed all the same, and stored
        // by a later run; the figures never fail for a milestone.
        _ = try? library.noteMilestonesReached(lasting.map(\.row))
        let stored = try milestones().filter { !$0.isContradicted(byUseOn: useDays) }
        let keys = Set(stored.map(\.row.id))
        return (stored + reached.filter { !keys.contains($0.row.id) }).sorted {
            ($0.reachedOn, $0.kind.rawValue, $0.count) < ($1.reachedOn, $1.kind.rawValue, $1.count)
        }
    }

    /// Every milestone stored, in the order reached.
    public func milestones() throws -> [Milestone] { try library.milestones().compactMap(Milestone.init) }

    /// The milestone home shows next, once: the newest stored and not shown yet (by day, then the
    /// larger count; days since use from the day after it was reached). It is marked shown, with the smaller ones of its kind not shown yet (one line says
    /// the furthest). nil when every one has been shown.
    public func showNextMilestone(now: Date, timeZone: TimeZone = .current) throws -> Milestone? {
        let today = LocalDay(now, in: timeZone)
        // Harm reduction speaks of what was used, not of cravings resisted.
        let resistedShown = try goal() != .harmReduction
        let unshown = try noteMilestones(now: now, timeZone: timeZone).filter {
            !$0.shown && !($0.kind == .daysSinceUse && $0.reachedOn == today)
                && (resistedShown || $0.kind != .cravingsResisted)
        }
        guard
            let next = unshown.max(by: {
                ($0.reachedOn, $0.count) < ($1.reachedOn, $1.count)
            })
        else { return nil }
        try library.markMilestoneShown(
            unshown.filter { $0.kind == next.kind && $0.count <= next.count }.map(\.row), at: now)
        return next
    }

    /// For `check`: each stored milestone the logs say was never reached (days since a use with a
    /// use logged on one of those days), with the first such use's day; with `repair`, those are
    /// removed (journaled, so a replay or a restore of the journal does not bring them back), and
    /// only those.
    public func falseMilestones(repair: Bool) throws -> [(milestone: Milestone, use: LocalDay)] {
        let useDays = Set(try progressFacts().uses.map(\.day))
        let found = try milestones().compactMap { milestone in
            milestone.firstUse(in: useDays).map { (milestone, $0) }
        }
        if repair, !found.isEmpty { try library.removeMilestones(found.map(\.0.row)) }
        return found
    }

    /// For `check`: each stored milestone the logs no longer reach (after a deleted log or
    /// message), as a note — it is kept, never removed. One the logs say was never reached is
    /// left to `falseMilestones`.
    public func milestoneNotes(now: Date, timeZone: TimeZone = .current) throws -> [String] {
        let facts = try progressFacts()
        let useDays = Set(facts.uses.map(\.day))
        let stored = try milestones().filter { !$0.isContradicted(byUseOn: useDays) }
        guard !stored.isEmpty else { return [] }
        let counts = Milestone.counts(
            try milestoneFacts(facts, now: now, timeZone: timeZone), today: LocalDay(now, in: timeZone))
        return stored.compactMap { milestone in
            let now = counts[milestone.kind] ?? 0
            guard now < milestone.count else { return nil }
            return
                "milestone '\(milestone.words)' kept: reached on \(milestone.reachedOn.text); the logs now count \(now)"
        }
    }
}

extension ProgressFigures {
    /// `progress --json`'s `milestones`: each one's kind, count and the day it was reached.
    func encodeMilestones(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encode(milestones, forKey: JSONKey("milestones"))
    }
}

extension Tracker {
    /// The figures of `range` as `progress` shows them: with the milestones, the new ones
    /// stored first. Every log is read once, for both.
    public func progressNotingMilestones(_ range: ProgressRange, now: Date, timeZone: TimeZone = .current)
        throws -> ProgressFigures
    {
        let facts = try progressFacts()
        var figures = ProgressFigures(facts, range: range, now: now, timeZone: timeZone)
        figures.milestones = try noteMilestones(facts, now: now, timeZone: timeZone)
        return figures
    }
}
