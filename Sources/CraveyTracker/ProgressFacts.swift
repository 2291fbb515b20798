import CraveyLibrary
import Foundation

/// What progress is figured from, read in one pass over each table: per craving and per use only
/// the fields progress uses, as numbers (the time as milliseconds worked out by SQLite, triggers as
/// a bit set), so ten years of logs read in milliseconds.
public struct ProgressFacts: Sendable {
    struct CravingFact: Sendable {
        var ms: Int64
        var utcOffset: Int
        var intensity: Int
        var triggers: UInt16
        var location: Int  // index in Location.allCases, -1 for none
        var linked: Bool  // a use names this craving as the one it followed
        var day: Int { LocalDay.day(millisecondsSince1970: ms, utcOffset: utcOffset) }
    }

    struct UseFact: Sendable {
        var ms: Int64
        var utcOffset: Int
        var method: Method
        var amount: Double
        var triggers: UInt16
        var location: Int
        var day: Int { LocalDay.day(millisecondsSince1970: ms, utcOffset: utcOffset) }
    }

    /// Oldest first.
    var cravings: [CravingFact] = []
    var uses: [UseFact] = []
    /// When the first message or check-in was added (Days in Progress counts from the first
    /// log, message or check-in).
    var firstRecording: Date?
    /// The day of the first craving (all of them may not be read).
    var firstCravingDay: Int?
    /// The goal the person chose, if any: it shapes the dashboard's words.
    var goal: Goal?
    /// The cravings (as `cravings`) with a message played in them or ride ratings.
    var played: [PlayedFact] = []
    /// Every message's title by id.
    var titles: [UUID: String] = [:]
    /// The prices set and their currency (money kept is figured only when a price is set).
    var prices = Prices()
    var currency = Currency(code: nil)
    /// The days answered for (no use, or not remembered), by day number: the answers standing.
    var answers: [Int: DayAnswer] = [:]
    /// The withdrawal checks kept, by day number.
    var withdrawalChecks: [Int: WithdrawalScores] = [:]
    /// The limits set, and whether they are offered whatever the goal.
    var limits = Limits()
    var limitsAnyGoal = false
    /// The days with a craving since the weekly target's first week (a week with nothing logged
    /// is not judged against it).
    var cravingDaysSinceTarget: Set<Int> = []

    /// The facts of a library with nothing in it (or none there yet).
    public init() {}
}

extension Tracker {
    /// The figures of `range` as of `now`, from one snapshot of the database.
    public func progress(_ range: ProgressRange, now: Date, timeZone: TimeZone = .current) throws
        -> ProgressFigures
    {
        let today = LocalDay(now, in: timeZone)
        return ProgressFigures(
            try progressFacts(from: range.days.map { today - ($0 - 1) }), range: range, now: now, timeZone: timeZone)
    }

    /// The facts for `ProgressFigures`: every use (streaks and the first week need them all), and
    /// the cravings from the day `from` on (all of them without it). Every column is a number
    /// worked out by SQLite — the time in milliseconds, places and methods as
    /// their index — so the only text read is a log's triggers.
    public func progressFacts(from: LocalDay? = nil) throws -> ProgressFacts {
        var facts = ProgressFacts()
        // A log's day is on its own clock (at most 18 hours from UTC): every craving that can
        // fall on `from` or later is read, and the figures keep those whose day does.
        let since = from.map { StoredDate.text(Date(timeIntervalSince1970: Double($0.number) * 86_400 - 64_800)) } ?? ""
        let methods = Method.allCases
        let firsts = try library.progressRows(
            cravingsSince: since, locations: Location.allCases.map(\.rawValue), methods: methods.map(\.rawValue)
        ) { row in
            facts.cravings.append(
                .init(
                    ms: row.ms, utcOffset: row.utcOffset, intensity: row.intensity,
                    triggers: Self.triggerBits(row.triggers),
                    location: row.location, linked: row.linked))
        } use: { row in
            let method = methods[max(0, row.method)]
            facts.uses.append(
                .init(
                    ms: row.ms, utcOffset: row.utcOffset, method: method, amount: row.amount ?? method.amounts[0],
                    triggers: Self.triggerBits(row.triggers), location: row.location))
        }
        facts.firstCravingDay = firsts.firstCravingDay
        facts.firstRecording = firsts.firstRecording.flatMap(StoredDate.date)
        facts.goal = try library.setting(.goal).flatMap(Goal.init(rawValue:))
        (facts.played, _, facts.titles) = try playedFacts(since: since, useTimes: false)
        facts.prices = try prices()
        if !facts.prices.isEmpty { facts.currency = try currency() }
        facts.answers = try dayAnswers()
        facts.withdrawalChecks = try withdrawalScores()
        facts.limits = try limits()
        facts.limitsAnyGoal = try library.setting(.limitOffer) == Self.anyGoalLimits
        if let since = facts.limits.weekSince {
            facts.cravingDaysSinceTarget = try library.cravingDays(since: since.addingTimeInterval(-8 * 86_400))
        }
        return facts
    }

    private static let triggerIndex = Dictionary(
        uniqueKeysWithValues: Trigger.allCases.enumerated().map { (Substring($0.element.rawValue), $0.offset) })

    /// The stored trigger text ("anxious,tired") as bits in `Trigger.allCases` order; names not in
    /// the set are left out.
    static func triggerBits(_ text: String?) -> UInt16 {
        guard let text else { return 0 }
        var bits: UInt16 = 0
        for name in text.split(separator: ",") {
            if let index = triggerIndex[name] { bits |= 1 << index }
        }
        return bits
    }
}
