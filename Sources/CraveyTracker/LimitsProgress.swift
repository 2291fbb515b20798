import CraveyLibrary
import Foundation

/// One week (Monday to Sunday) against the weekly target: the days with a use, the amount of
/// each method, whether anything was logged in it (a craving, a use or a day answered for), and
/// whether it stayed within the target (a week with nothing logged is not judged: `within` is
/// false and says nothing).
public struct WeekAgainstTarget: Sendable, Equatable, Encodable {
    public var start: LocalDay
    public var daysUsed: Int
    public var amounts: [Method: Double]
    public var logged = true
    public var within: Bool

    private enum Key: String, CodingKey { case start, daysUsed, amounts, logged, within }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(start, forKey: .start)
        try c.encode(daysUsed, forKey: .daysUsed)
        var named = c.nestedContainer(keyedBy: JSONKey.self, forKey: .amounts)
        for method in Method.allCases {
            if let amount = amounts[method] { try named.encode(amount, forKey: JSONKey(method.rawValue)) }
        }
        try c.encode(logged, forKey: .logged)
        if logged { try c.encode(within, forKey: .within) } else { try c.encodeNil(forKey: .within) }
    }
}

/// The limits as progress shows them: the weeks against the target as a smoothed trend (never
/// a streak that breaks), the uses that fit the planned use, and the uses in a break window.
public struct LimitProgress: Sendable, Equatable {
    public var limits: Limits
    /// The complete weeks since tracking began and the target was set (at most the last 104),
    /// oldest first.
    public var weeks: [WeekAgainstTarget] = []
    /// This week so far (nil without a target).
    public var thisWeek: WeekAgainstTarget?
    /// The smoothed share of weeks within target after each complete week with something logged
    /// (0–1), oldest first.
    public var trend: [Double] = []
    /// The range's uses that fit the planned use, and all the range's uses (nil without a plan).
    public var asPlanned: (count: Int, of: Int)?
    /// The range's uses logged inside a break window.
    public var inBreaks = 0

    public static func == (a: LimitProgress, b: LimitProgress) -> Bool {
        a.limits == b.limits && a.weeks == b.weeks && a.thisWeek == b.thisWeek && a.trend == b.trend
            && a.asPlanned?.count == b.asPlanned?.count && a.asPlanned?.of == b.asPlanned?.of
            && a.inBreaks == b.inBreaks
    }

    /// How much each earlier week still counts, a week on: the habit strength of Loop Habit
    /// Tracker for a habit once a week. Loop keeps, each day, s = s₋₁·m + c·(1 − m) with
    /// m = 0.5^(√f / 13) for a habit f times a day; a week of such days for f = 1/7 is one step
    /// s = s₋₁·m + w·(1 − m) with m = 0.5^(√7 / 13) ≈ 0.869, where w is 1 for a week within the
    /// target and 0 for one over it, starting from s = 0. A week over the target lowers the
    /// trend by an eighth of where it stood; nothing sets it back to zero.
    public static let weekMultiplier = pow(0.5, 7.0.squareRoot() / 13)

    /// The trend after each week of `within`, oldest first (see `weekMultiplier`).
    public static func trend(_ within: [Bool]) -> [Double] {
        var strength = 0.0
        return within.map { kept in
            strength = strength * weekMultiplier + (kept ? 1 : 0) * (1 - weekMultiplier)
            return strength
        }
    }

    /// The trend now, as a whole percent (nil before a complete week).
    public var strengthPercent: Int? { trend.last.map { Int(($0 * 100).rounded()) } }

    /// Whether a week's use stays within `target`.
    static func within(_ target: WeeklyTarget, daysUsed: Int, amounts: [Method: Double]) -> Bool {
        switch target {
        case .days(let n): return daysUsed <= n
        case .amounts(let most): return most.allSatisfy { method, amount in (amounts[method] ?? 0) <= amount + 1e-9 }
        }
    }

    /// The trend as blocks, a week each, the last 12 weeks (▁ low to █ high).
    public var spark: String {
        let blocks = Array("▁▂▃▄▅▆▇█")
        return String(trend.suffix(12).map { blocks[min(7, Int($0 * 8))] })
    }

    /// "Within target: 62% (smoothed) · 5 of the last 8 weeks · 2 with nothing logged"; before a
    /// complete week with something logged, when the trend starts.
    public var trendLine: String? {
        guard limits.week != nil else { return nil }
        guard let percent = strengthPercent else {
            return weeks.isEmpty
                ? "The trend starts after your first full week."
                : "The trend starts after your first full week with something logged."
        }
        let last = weeks.suffix(8)
        let empty = last.filter { !$0.logged }.count
        return
            "Within target: \(percent)% (smoothed) · \(last.filter { $0.logged && $0.within }.count) of the last \(last.count == 1 ? "week" : "\(last.count) weeks")"
            + (empty == 0 ? "" : " · \(empty) with nothing logged")
    }

    /// "5 of 7 uses as planned".
    public var asPlannedText: String? {
        asPlanned.map { "\($0.count) of \($0.of) use\($0.of == 1 ? "" : "s") as planned" }
    }

    /// The section's lines (plain text): the windows, the target and its trend, this week so far,
    /// the planned use and how many uses fit it.
    public var lines: [String] {
        var out: [String] = []
        if !limits.breaks.isEmpty {
            out.append(
                "Break windows: " + limits.breaks.map(\.text).joined(separator: " · ")
                    + (inBreaks > 0 ? " (\(inBreaks) use\(inBreaks == 1 ? "" : "s") logged in one)" : ""))
        }
        if let target = limits.week {
            out.append("Weekly target: " + target.text)
            if let line = trendLine { out.append(line) }
            if trend.count > 1 { out.append("The trend, a block a week: " + spark) }
            if let week = thisWeek {
                out.append("This week so far: " + (week.logged ? Self.weekText(week, target) : "nothing logged yet"))
            }
        }
        if let planned = limits.planned {
            out.append("Planned use: " + planned.text + (asPlannedText.map { " · " + $0 } ?? ""))
        }
        return out
    }

    /// "2 days of use", "12 pulls (vape)".
    static func weekText(_ week: WeekAgainstTarget, _ target: WeeklyTarget) -> String {
        switch target {
        case .days: return week.daysUsed == 1 ? "1 day of use" : "\(week.daysUsed) days of use"
        case .amounts(let most):
            return Method.allCases.filter { most[$0] != nil }.map { method in
                let amount = week.amounts[method] ?? 0
                return "\(Method.number(amount)) \(method.unit(for: amount))" + WeeklyTarget.of(method)
            }.joined(separator: " · ")
        }
    }

    /// The sentence under the section.
    public var sentence: String {
        limits.week == nil
            ? "A break window only asks, once: a use is always logged."
            : "The trend is a smoothed share of your weeks within target: a week over it nudges it down a little, never back to zero. A break window only asks, once: a use is always logged."
    }
}

extension ProgressFacts {
    /// The limits against the logs as of `today`: the complete weeks since the first day of
    /// tracking and the week the target was set, and this week so far, against the target (a week
    /// with nothing logged is said as such, not judged), and the uses from `from` to `today` that
    /// fit the planned use or fell in a break window (nil when none is set or they are not offered).
    /// Planned hours across midnight run on to their end: a use after midnight counts with the
    /// evening's amount.
    func limitProgress(from: LocalDay, today: LocalDay, timeZone: TimeZone) -> LimitProgress? {
        guard !limits.isEmpty, Tracker.limitsFit(goal: goal, anyGoal: limitsAnyGoal) else { return nil }
        var out = LimitProgress(limits: limits)
        let range = from.number...today.number
        var dayTotals: [Int: [Method: Double]] = [:]
        var plannedTotals: [Int: [Method: Double]] = [:]
        var fit = 0
        var counted = 0
        for use in uses {
            let day = use.day
            let minute = BreakWindow.minute(millisecondsSince1970: use.ms, utcOffset: use.utcOffset)
            dayTotals[day, default: [:]][use.method, default: 0] += use.amount
            let plannedDay = limits.planned?.plannedDay(day, minute: minute) ?? day
            let earlier = plannedTotals[plannedDay]?[use.method] ?? 0
            plannedTotals[plannedDay, default: [:]][use.method] = earlier + use.amount
            guard range.contains(day) else { continue }
            counted += 1
            if limits.planned?.fits(method: use.method, amount: use.amount, minute: minute, earlier: earlier) == true {
                fit += 1
            }
            if limits.window(holding: minute) != nil { out.inBreaks += 1 }
        }
        if limits.planned != nil { out.asPlanned = (fit, counted) }
        guard let target = limits.week else { return out }
        let thisMonday = today.number - today.weekday
        let first = ([firstCravingDay].compactMap { $0 } + uses.map(\.day)).min() ?? today.number
        let set = limits.weekSince.map { LocalDay($0, in: timeZone).number } ?? today.number
        let firstMonday = max(
            first - LocalDay(number: first).weekday, set - LocalDay(number: set).weekday, thisMonday - 7 * 104)
        func week(_ monday: Int) -> WeekAgainstTarget {
            var amounts: [Method: Double] = [:]
            var days = 0
            var logged = false
            for day in monday..<(monday + 7) {
                logged = logged || cravingDaysSinceTarget.contains(day) || answers[day] != nil
                guard let used = dayTotals[day] else { continue }
                days += 1
                logged = true
                for (method, amount) in used { amounts[method, default: 0] += amount }
            }
            return WeekAgainstTarget(
                start: LocalDay(number: monday), daysUsed: days, amounts: amounts, logged: logged,
                within: logged && LimitProgress.within(target, daysUsed: days, amounts: amounts))
        }
        out.weeks = stride(from: firstMonday, to: thisMonday, by: 7).map(week)
        out.thisWeek = week(thisMonday)
        out.trend = LimitProgress.trend(out.weeks.filter(\.logged).map(\.within))
        return out
    }
}

extension LimitProgress: Encodable {
    private enum Key: String, CodingKey {
        case breaks, weeklyTarget, weeks, thisWeek, trend, strengthPercent, planned, asPlanned, uses, usesInBreaks
        case text
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try limits.encodeParts(into: &c, breaks: .breaks, week: .weeklyTarget, planned: .planned)
        try c.encode(weeks, forKey: .weeks)
        try c.encode(thisWeek, forKey: .thisWeek)
        try c.encode(trend.map { ($0 * 1000).rounded() / 1000 }, forKey: .trend)
        try c.encode(strengthPercent, forKey: .strengthPercent)
        if let asPlanned {
            var a = c.nestedContainer(keyedBy: Key.self, forKey: .asPlanned)
            try a.encode(asPlanned.count, forKey: .asPlanned)
            try a.encode(asPlanned.of, forKey: .uses)
            try a.encode(asPlannedText, forKey: .text)
        } else {
            try c.encodeNil(forKey: .asPlanned)
        }
        try c.encode(inBreaks, forKey: .usesInBreaks)
    }
}
