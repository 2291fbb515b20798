import CraveyLibrary
import Foundation

/// Which messages help: for one message, the cravings it was played in (by the craving's play
/// offer, `--play` or a ride; a message played twice in one craving counts once) and how many of
/// those passed without a use — the resisted rule of the dashboard: no use names the craving as
/// the one it followed, and no use was logged from its moment to 2 hours after it. A craving whose
/// 2 hours have not passed yet is not counted at all.
///
/// **Helped most** orders messages by the cravings that passed without a use after them, most
/// first; on a tie, fewer cravings followed by a use first (the larger share that passed); then
/// the most played (plays, then last played, then newest, as Quick Play's order).
public struct MessageHelp: Sendable, Equatable, Encodable {
    public var id: UUID
    public var title: String
    public var playedInCravings: Int
    public var resistedAfter: Int

    public init(id: UUID, title: String, playedInCravings: Int, resistedAfter: Int) {
        (self.id, self.title, self.playedInCravings, self.resistedAfter) = (id, title, playedInCravings, resistedAfter)
    }

    /// The cravings it was played in that were followed by a use.
    public var followedByUse: Int { playedInCravings - resistedAfter }

    /// Whether it comes before `other` in the helped-most order (nil when they are as helpful).
    func helpedMore(than other: MessageHelp) -> Bool? {
        if resistedAfter != other.resistedAfter { return resistedAfter > other.resistedAfter }
        if followedByUse != other.followedByUse { return followedByUse < other.followedByUse }
        return nil
    }

    /// A message is listed on the dashboard from this many cravings on: one craving says little.
    public static let listedFrom = 2

    /// Every message played in one of `cravings`, by id, figured with the resisted rule over
    /// `useTimes` (sorted) as of `nowMs`; a message that is no longer there (no title) is left out.
    static func figures(_ cravings: [PlayedFact], useTimes: [Int64], titles: [UUID: String], nowMs: Int64)
        -> [UUID: MessageHelp]
    {
        var help: [UUID: MessageHelp] = [:]
        for craving in cravings where !craving.played.isEmpty {
            let outcome = ProgressFigures.outcome(
                at: craving.ms, linked: craving.linked, useTimes: useTimes, nowMs: nowMs)
            guard outcome != .open else { continue }
            let passed = outcome == .resisted
            for id in Set(craving.played) {
                guard let title = titles[id] else { continue }
                help[id, default: MessageHelp(id: id, title: title, playedInCravings: 0, resistedAfter: 0)]
                    .playedInCravings += 1
                if passed { help[id]?.resistedAfter += 1 }
            }
        }
        return help
    }
}

/// A craving as the figures of messages and rides read it.
struct PlayedFact: Sendable {
    var ms: Int64
    var utcOffset: Int
    var linked: Bool
    /// Every message played in it, in the order played.
    var played: [UUID]
    /// Its ride's ratings, empty when not ridden.
    var ratings: [Craving.Rating]
    var day: Int { LocalDay.day(millisecondsSince1970: ms, utcOffset: utcOffset) }
}

extension ProgressFigures {
    /// The range's messages that help (listed from 2 cravings on, helped most first, then by
    /// title), how long its rides took to halve, and how many messages there are.
    static func helpFigures(_ facts: ProgressFacts, from: LocalDay, useTimes: [Int64], nowMs: Int64) -> (
        [MessageHelp], CravingLength, Int
    ) {
        let inRange = facts.played.filter { $0.day >= from.number }
        let messages = MessageHelp.figures(inRange, useTimes: useTimes, titles: facts.titles, nowMs: nowMs).values
            .filter { $0.playedInCravings >= MessageHelp.listedFrom }
            .sorted { a, b in
                a.helpedMore(than: b) ?? (a.title != b.title ? a.title < b.title : a.id.uuidString < b.id.uuidString)
            }
        return (messages, CravingLength(rides: inRange.map(\.ratings)), facts.titles.count)
    }
}

/// The order messages are offered in: Quick Play's (home's top three, `cravey top`,
/// `play --top`), as the person chose in settings.
public enum QuickPlayOrder: String, CaseIterable, Sendable {
    /// The most played first (plays, then last played, then newest): the default.
    case mostPlayed = "most-played"
    /// Those that helped most first, then the most played.
    case helpedMost = "helped-most"

    public var label: String { self == .mostPlayed ? "Most played" : "Helped most" }
}

extension Tracker {
    /// The messages a ride plays in a craving with these triggers, in turn: those made for one of
    /// its triggers first; then those after which at least one craving passed without a use,
    /// helped most first (over every craving logged); then the rest, most played first. Each
    /// group keeps that order within it (check-ins are never offered). Without `helpedFirst`, the
    /// middle group is left out: the trigger's messages, then the most played.
    public func messageOrder(for triggers: [Trigger], helpedFirst: Bool = true, now: Date) throws -> [Recording] {
        let names = Set(triggers.map(\.rawValue))
        let messages = try library.top(Int.max)
        let help = helpedFirst ? try messageHelp(now: now) : [:]
        func helped(_ recording: Recording) -> MessageHelp? {
            help[recording.id].flatMap { $0.resistedAfter > 0 ? $0 : nil }
        }
        let ranked = messages.enumerated().sorted { a, b in
            let (aFor, bFor) = (
                !names.isDisjoint(with: a.element.forTriggers), !names.isDisjoint(with: b.element.forTriggers)
            )
            if aFor != bFor { return aFor }
            switch (helped(a.element), helped(b.element)) {
            case let (x?, y?): if let more = x.helpedMore(than: y) { return more }
            case (_?, nil): return true
            case (nil, _?): return false
            case (nil, nil): break
            }
            return a.offset < b.offset
        }
        return ranked.map(\.element)
    }

    /// Every message played in a craving, by id, over every craving logged whose 2 hours have
    /// passed by `now`.
    public func messageHelp(now: Date) throws -> [UUID: MessageHelp] {
        let (cravings, useTimes, titles) = try playedFacts(since: "", useTimes: true)
        return MessageHelp.figures(
            cravings, useTimes: useTimes, titles: titles, nowMs: ProgressFigures.milliseconds(now))
    }

    /// The cravings from `since` (stored time text) with a message played in them or ratings,
    /// every use's time when asked for, and every message's title.
    func playedFacts(since: String, useTimes: Bool) throws -> ([PlayedFact], [Int64], [UUID: String]) {
        let rows = try library.playedCravingRows(since: since, useTimes: useTimes)
        let cravings = rows.cravings.map { row in
            PlayedFact(
                ms: row.ms, utcOffset: row.utcOffset, linked: row.linked,
                played: row.played.split(separator: ",").compactMap { UUID(uuidString: String($0)) },
                ratings: Craving.Rating.list(row.ratings))
        }
        var titles: [UUID: String] = [:]
        for (id, title) in rows.titles { if let id = UUID(uuidString: id) { titles[id] = title } }
        return (cravings, rows.useTimes, titles)
    }

    /// The messages the play offer after a craving lists: those made for one of its triggers
    /// first, then Quick Play's order as set.
    public func offerOrder(for triggers: [Trigger], now: Date) throws -> [Recording] {
        try messageOrder(for: triggers, helpedFirst: quickPlayOrder() == .helpedMost, now: now)
    }

    // MARK: - Quick Play

    /// Quick Play's order as set (most played when never set).
    public func quickPlayOrder() throws -> QuickPlayOrder {
        try library.setting(.quickPlay).flatMap(QuickPlayOrder.init(rawValue:)) ?? .mostPlayed
    }

    /// Sets Quick Play's order (a setting, journaled as every setting is).
    public func setQuickPlayOrder(_ order: QuickPlayOrder) throws {
        try library.setSetting(.quickPlay, to: order.rawValue)
    }

    /// The first `count` messages of Quick Play (home's top three, `cravey top`, `play --top`) in
    /// the order set: the most played, or those that helped most (as `messageOrder` with no
    /// trigger).
    public func quickPlay(_ count: Int, now: Date) throws -> [Recording] {
        switch try quickPlayOrder() {
        case .mostPlayed: try library.top(count)
        case .helpedMost: Array(try messageOrder(for: [], now: now).prefix(max(0, count)))
        }
    }
}
