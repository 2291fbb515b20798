import CraveyLibrary
import Foundation

/// A period's report, to bring to a therapist: the progress figures of the period (as of its last
/// day) and a day-by-day calendar in the manner of the Timeline Followback — each day's amount per
/// method, how many cravings and the strongest — and, only when asked for, the notes.
public struct Report: Sendable {
    public let from: LocalDay
    public let to: LocalDay
    public let figures: ProgressFigures
    /// Every day from `from` to `to`.
    public let days: [Day]
    /// The period's notes, oldest first; empty unless asked for.
    public let notes: [Note]
    /// The person's if-then plans, as they stand now.
    public var plans: [PlanShown] = []
    /// The self-screens taken in the period, oldest first; nil unless asked for.
    public var screens: [SelfScreenTaken]?

    public struct Day: Sendable, Equatable, Encodable {
        public var day: LocalDay
        /// Each method used that day and its total amount, in the methods' order.
        public var amounts: [Amount] = []
        public var cravings = 0
        /// The strongest craving's intensity (nil without one).
        public var peak: Int?
        /// Used, confirmed without use, not reported, not remembered, or before tracking.
        public var kind = DayKind.notReported
    }

    public struct Amount: Sendable, Equatable, Encodable {
        public var method: Method
        public var amount: Double
        public init(method: Method, amount: Double) { (self.method, self.amount) = (method, amount) }
    }

    public struct Note: Sendable, Equatable {
        public var time: LogTime
        /// "Craving 7/10", "Use: 2 bowls/joints".
        public var what: String
        public var text: String
    }

    /// The period's days in weeks, Monday first: each week's 7 days, nil outside the period.
    public var weeks: [[Day?]] {
        let first = from - from.weekday
        let byNumber = Dictionary(uniqueKeysWithValues: days.map { ($0.day.number, $0) })
        return stride(from: first.number, through: to.number, by: 7).map { monday in
            (monday..<(monday + 7)).map { byNumber[$0] }
        }
    }

    /// The longest period a report covers: ten years of days.
    public static let longest = 3_660

    /// The days a report of `from`–`to` covers (both counted; `to` nil: today, `from` nil: the 30
    /// days to `to`) when today is `today`, or a one-line refusal: a report is of days that have
    /// passed, so a last day after today is refused, never cut short.
    public static func period(from: LocalDay?, to: LocalDay?, today: LocalDay) throws -> ClosedRange<LocalDay> {
        let last = to ?? today
        if last > today {
            throw TrackerError.invalid(
                field: "period", reason: "its last day, \(last.text), is after today (\(today.text))")
        }
        let first = from ?? last - 29
        if first > last {
            throw TrackerError.invalid(
                field: "period", reason: "its first day, \(first.text), is after its last day, \(last.text)")
        }
        if last - first >= longest {
            throw TrackerError.invalid(
                field: "period", reason: "it covers \(last - first + 1) days; a report covers at most \(longest)")
        }
        return first...last
    }
}

extension Tracker {
    /// The report of `from`–`to` (see `Report.period`: a last day after today is refused), or of
    /// `range` up to today when they are nil, as of `now`; the notes only `withNotes`.
    public func report(
        range: ProgressRange = .month, from: LocalDay? = nil, to: LocalDay? = nil, withNotes: Bool = false,
        now: Date, timeZone: TimeZone = .current
    ) throws -> Report {
        let today = LocalDay(now, in: timeZone)
        let custom = from != nil || to != nil
        let asked = try Report.period(from: from, to: to, today: today)
        let last = custom ? asked.upperBound : today
        var facts = try progressFacts(from: custom ? asked.lowerBound : range.days.map { today - ($0 - 1) })
        if last < today {
            // The figures as of the period's last day: what came after it is left out.
            facts.cravings.removeAll { $0.day > last.number }
            facts.uses.removeAll { $0.day > last.number }
            facts.played.removeAll { $0.day > last.number }
            if let day = facts.firstCravingDay, day > last.number { facts.firstCravingDay = nil }
            if let first = facts.firstRecording, LocalDay(first, in: timeZone) > last { facts.firstRecording = nil }
        }
        let figures =
            custom
            ? ProgressFigures(
                facts, range: .all, now: last < today ? Self.noon(of: last, in: timeZone) : now, timeZone: timeZone,
                from: asked.lowerBound)
            : ProgressFigures(facts, range: range, now: now, timeZone: timeZone)
        let first = figures.from
        var days = (first.number...max(first.number, last.number)).map { Report.Day(day: LocalDay(number: $0)) }
        for craving in facts.cravings where (first.number...last.number).contains(craving.day) {
            days[craving.day - first.number].cravings += 1
            days[craving.day - first.number].peak = max(days[craving.day - first.number].peak ?? 0, craving.intensity)
        }
        for use in facts.uses where (first.number...last.number).contains(use.day) {
            var amounts = days[use.day - first.number].amounts
            if let index = amounts.firstIndex(where: { $0.method == use.method }) {
                amounts[index].amount += use.amount
            } else {
                amounts.append(Report.Amount(method: use.method, amount: use.amount))
                amounts.sort { Method.allCases.firstIndex(of: $0.method)! < Method.allCases.firstIndex(of: $1.method)! }
            }
            days[use.day - first.number].amounts = amounts
        }
        facts.kinds(of: &days, in: timeZone)
        let notes = withNotes ? try self.notes(from: first, to: last) : []
        return Report(from: first, to: last, figures: figures, days: days, notes: notes, plans: try plansShown())
    }

    /// The notes of the logs from `from` to `to`, oldest first.
    func notes(from: LocalDay, to: LocalDay) throws -> [Report.Note] {
        // A log's day is on its own clock (at most 18 hours from UTC).
        let since = Date(timeIntervalSince1970: Double(from.number) * 86_400 - 64_800)
        return try entries(since: since).reversed().compactMap { entry in
            let day = LocalDay(entry.time)
            guard day >= from, day <= to, let text = entry.notes, !text.isEmpty else { return nil }
            switch entry {
            case let .craving(craving):
                return Report.Note(time: craving.time, what: "Craving \(craving.intensity)/10", text: text)
            case let .use(use):
                return Report.Note(time: use.time, what: "Use: \(use.amountText)", text: text)
            }
        }
    }

    /// Noon of `day` in `timeZone`: a moment on that day whatever the change of clocks.
    static func noon(of day: LocalDay, in timeZone: TimeZone) -> Date {
        let guess = Date(timeIntervalSince1970: Double(day.number) * 86_400 + 43_200)
        return guess.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: guess)))
    }
}
