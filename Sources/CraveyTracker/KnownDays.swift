import CraveyLibrary
import Foundation

/// What a person answered for a day: no use that day, or that they do not remember. A day with
/// a use logged needs no answer: the use says it.
public enum DayAnswer: String, Sendable, CaseIterable, Encodable {
    /// No use that day, confirmed.
    case noUse = "none"
    /// The person does not remember the day.
    case unknown
}

/// The five kinds of day a calendar tells apart, in the manner of the Timeline Followback (each
/// day a known answer, never an assumed one).
public enum DayKind: String, Sendable, Equatable, Encodable {
    /// A use is logged on it (the calendar shows the amounts).
    case used
    /// The person confirmed no use that day.
    case noUse
    /// Nothing logged and nothing answered.
    case notReported
    /// The person answered that they do not remember.
    case dontRemember
    /// Before the first day of tracking.
    case beforeTracking

    /// The calendar's mark for a day without amounts: "0", "?", "~", "—" (a day of use: "").
    public var symbol: String {
        switch self {
        case .used: ""
        case .noUse: "0"
        case .notReported: "?"
        case .dontRemember: "~"
        case .beforeTracking: "—"
        }
    }

    /// The kind of `day` given the days with a use, the answers standing and the first day of
    /// tracking (nil: nothing tracked yet).
    static func of(_ day: Int, useDays: Set<Int>, answers: [Int: DayAnswer], firstDay: Int?) -> DayKind {
        guard let firstDay, day >= firstDay else { return .beforeTracking }
        if useDays.contains(day) { return .used }
        switch answers[day] {
        case .noUse?: return .noUse
        case .unknown?: return .dontRemember
        case nil: return .notReported
        }
    }
}

/// How much of a period is known: its tracked days counted by kind, and which days are
/// confirmed without use. The streaks, days since use and money kept do not read it: no day is
/// taken away from anyone; it says which of their days are confirmed.
public struct KnownDays: Sendable, Equatable {
    /// The first day counted (the period's first, or tracking's when that is later).
    public var from: LocalDay?
    /// The period's tracked days, and how many of each kind.
    public var days = 0
    public var used = 0
    public var confirmed = 0
    public var dontRemember = 0
    public var notReported = 0
    /// The days confirmed without use, oldest first.
    public var confirmedDays: [LocalDay] = []

    public init() {}

    /// The days from `from` to `today` (both counted; none before `firstDay`, the first day of
    /// tracking).
    init(from: LocalDay, today: LocalDay, useDays: Set<Int>, answers: [Int: DayAnswer], firstDay: Int?) {
        guard let firstDay else { return }
        let first = max(from.number, firstDay)
        guard first <= today.number else { return }
        self.from = LocalDay(number: first)
        for day in first...today.number {
            days += 1
            switch DayKind.of(day, useDays: useDays, answers: answers, firstDay: firstDay) {
            case .used: used += 1
            case .noUse:
                confirmed += 1
                confirmedDays.append(LocalDay(number: day))
            case .dontRemember: dontRemember += 1
            case .notReported: notReported += 1
            case .beforeTracking: break
            }
        }
    }

    /// One line for the report and progress: "12 of 30 days confirmed without use · 2 not
    /// remembered · 6 not reported" (nil: no day tracked).
    public var line: String? {
        guard days > 0 else { return nil }
        var parts = ["\(confirmed) of \(ProgressFigures.days(days)) confirmed without use"]
        if used > 0 { parts.append("\(used) with use") }
        if dontRemember > 0 { parts.append("\(dontRemember) not remembered") }
        if notReported > 0 { parts.append("\(notReported) not reported") }
        return parts.joined(separator: " · ")
    }
}

/// `progress --json`'s and `report --json`'s `knownDays`.
extension KnownDays: Encodable {
    private enum Key: String, CodingKey {
        case from, days, used, confirmed, dontRemember, notReported, confirmedDays
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(from, forKey: .from)
        try c.encode(days, forKey: .days)
        try c.encode(used, forKey: .used)
        try c.encode(confirmed, forKey: .confirmed)
        try c.encode(dontRemember, forKey: .dontRemember)
        try c.encode(notReported, forKey: .notReported)
        try c.encode(confirmedDays, forKey: .confirmedDays)
    }
}

extension ProgressFacts {
    /// The first day of tracking: the first log's, message's or check-in's, or the first day
    /// answered for when that is earlier (nil: nothing yet).
    func firstTrackedDay(in timeZone: TimeZone) -> Int? {
        let days =
            [firstCravingDay, uses.map(\.day).min(), firstRecording.map { LocalDay($0, in: timeZone).number }]
            + [answers.keys.min()]
        return days.compactMap { $0 }.min()
    }

    /// The period's days known, from `from` to `today`.
    func knownDays(from: LocalDay, today: LocalDay, in timeZone: TimeZone) -> KnownDays {
        KnownDays(
            from: from, today: today, useDays: Set(uses.map(\.day)), answers: answers,
            firstDay: firstTrackedDay(in: timeZone).map { min($0, today.number) })
    }

    /// Each report day's kind (see `DayKind`).
    func kinds(of days: inout [Report.Day], in timeZone: TimeZone) {
        let useDays = Set(uses.map(\.day)), first = firstTrackedDay(in: timeZone)
        for index in days.indices {
            days[index].kind = DayKind.of(days[index].day.number, useDays: useDays, answers: answers, firstDay: first)
        }
    }
}

/// What marking a day did.
public struct DayMarked: Sendable, Equatable {
    public var day: LocalDay
    public var answer: DayAnswer
    /// What was said of the day before, if it stood.
    public var before: DayAnswer?
}

extension Tracker {
    /// The answers standing (not withdrawn by a use), by day number.
    public func dayAnswers() throws -> [Int: DayAnswer] {
        var answers: [Int: DayAnswer] = [:]
        for row in try library.dayMarks() where row.withdrawnBy == nil {
            if let day = LocalDay(parsing: row.day), let answer = DayAnswer(rawValue: row.answer) {
                answers[day.number] = answer
            }
        }
        return answers
    }

    /// The first day that can be answered for as of `now`: the first day of tracking (today when
    /// nothing is tracked yet).
    public func firstDayToAnswer(now: Date, timeZone: TimeZone = .current) throws -> LocalDay {
        let today = LocalDay(now, in: timeZone)
        let first = try progressFacts(from: today).firstTrackedDay(in: timeZone)
        return LocalDay(number: min(first ?? today.number, today.number))
    }

    /// Keeps `answer` for `day` as of `now`. Refused in one line, with nothing written: a day
    /// after today, a day before tracking began, a day with a use logged (a day of use needs no
    /// answer; its use says it).
    public func mark(_ day: LocalDay, _ answer: DayAnswer, now: Date, timeZone: TimeZone = .current) throws
        -> DayMarked
    {
        let today = LocalDay(now, in: timeZone)
        if day > today {
            throw TrackerError.invalid(
                field: "date", reason: "\(day.text) has not come yet; a day can be answered for once it has")
        }
        let first = try firstDayToAnswer(now: now, timeZone: timeZone)
        if day < first {
            throw TrackerError.invalid(
                field: "date",
                reason:
                    "\(day.text) is before tracking began (\(first.text)); only days from then on can be answered for")
        }
        do {
            let before = try library.markDay(day.text, answer: answer.rawValue, at: now)
            return DayMarked(day: day, answer: answer, before: before.flatMap { DayAnswer(rawValue: $0.answer) })
        } catch DayMarkRefusal.usedThatDay(let count) {
            throw TrackerError.invalid(
                field: "date",
                reason:
                    "\(count == 1 ? "a use is" : "\(count) uses are") logged on \(day.text), so it is a day of use; 'cravey log' shows, edits or deletes \(count == 1 ? "it" : "them")"
            )
        }
    }

    /// The days from `from` to `to` with neither a use nor an answer, newest first (the days a
    /// back-fill asks about), from the first day of tracking on.
    public func unreportedDays(from: LocalDay, to: LocalDay, now: Date, timeZone: TimeZone = .current) throws
        -> [LocalDay]
    {
        let today = LocalDay(now, in: timeZone)
        let facts = try progressFacts(from: today)
        let useDays = Set(facts.uses.map(\.day))
        guard let first = facts.firstTrackedDay(in: timeZone) else { return [] }
        let last = min(to.number, today.number), start = max(from.number, min(first, today.number))
        guard start <= last else { return [] }
        return (start...last).reversed().filter {
            DayKind.of($0, useDays: useDays, answers: facts.answers, firstDay: first) == .notReported
        }.map { LocalDay(number: $0) }
    }

    /// What is known of `day` as of `now` (see `DayKind`; with nothing tracked yet, today is
    /// not reported and the days before it are before tracking).
    public func kind(of day: LocalDay, now: Date, timeZone: TimeZone = .current) throws -> DayKind {
        let today = LocalDay(now, in: timeZone)
        let facts = try progressFacts(from: today)
        return DayKind.of(
            day.number, useDays: Set(facts.uses.map(\.day)), answers: facts.answers,
            firstDay: min(facts.firstTrackedDay(in: timeZone) ?? today.number, today.number))
    }

    /// The line said when `use` withdrew a day's answer ("Nov 24 was marked as a day without
    /// use; …", "Today was marked as not remembered; …" as of `now`), nil when it withdrew none.
    /// Only for a use just logged or just moved to another day: the answer it withdrew is kept
    /// with its id.
    public func markWithdrawn(by use: Usage, now: Date, timeZone: TimeZone = .current) throws -> String? {
        guard let row = try library.dayMark(withdrawnBy: use.id.uuidString),
            let answer = DayAnswer(rawValue: row.answer), let day = LocalDay(parsing: row.day),
            day == LocalDay(use.time)
        else { return nil }
        let today = LocalDay(now, in: timeZone)
        let name = day == today ? "Today" : day == today - 1 ? "Yesterday" : day.said(on: today)
        let marked = answer == .noUse ? "a day without use" : "not remembered"
        return "\(name) was marked as \(marked); that mark is withdrawn now that a use is logged on it."
    }
}
