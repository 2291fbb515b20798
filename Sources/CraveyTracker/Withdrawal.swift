import CraveyLibrary
import Foundation

/// The symptoms a withdrawal check scores, 0–10 each, in the order they are typed. Names only:
/// the symptoms that matter most (Allsop et al. 2011), none of any scale's items' wording.
public enum Symptom: String, Sendable, CaseIterable, Encodable {
    case sleep, irritability, anxiety, appetite, dreams, craving

    /// The name shown: "Sleep trouble", "Irritability, anger", …
    public var name: String {
        switch self {
        case .sleep: "Sleep trouble"
        case .irritability: "Irritability, anger"
        case .anxiety: "Anxiety"
        case .appetite: "Appetite change"
        case .dreams: "Strange dreams"
        case .craving: "Craving"
        }
    }
}

/// The first two weeks after the last use, where a withdrawal check is offered: day 1 is the
/// day after the last use (as "days since your last use" counts), day 14 the last.
public struct WithdrawalWindow: Sendable, Equatable {
    public static let days = 1...14

    /// The day of the last use logged up to today (nil: none).
    public var lastUse: LocalDay?
    public var today: LocalDay
    public var goal: Goal?
    /// The person asked for the check whatever their goal (`cravey withdrawal --offer any-goal`).
    public var anyGoal: Bool

    public init(lastUse: LocalDay?, today: LocalDay, goal: Goal?, anyGoal: Bool = false) {
        (self.lastUse, self.today, self.goal, self.anyGoal) = (lastUse, today, goal, anyGoal)
    }

    /// Today's day in the window (0: a use today; nil without a use).
    public var day: Int? { lastUse.map { today - $0 } }

    /// The check is offered on its own (goal quit, or any goal when asked; days 1–14).
    public var isOpen: Bool { (goal == .quit || anyGoal) && day.map(Self.days.contains) == true }

    /// The published time course, said once with the chart.
    public static let timeCourse =
        "Most withdrawal symptoms peak around days 2–6 and ease within one to two weeks (Budney et al. 2003); sleep trouble and strange dreams can last longer, sometimes a month or more (Bonnet & Preuss 2017)."
}

/// Six scores, 0–10 each, in `Symptom.allCases`' order.
public struct WithdrawalScores: Sendable, Equatable, Encodable {
    public var values: [Int]

    public init(_ values: [Int]) { self.values = values }

    /// "3,5,2,0,4,6" (commas or white space between); anything else is refused in one line.
    public init(parsing text: String) throws {
        let parts = text.split(whereSeparator: { $0 == "," || $0.isWhitespace })
        let values = parts.map { Int($0) }
        guard parts.count == Symptom.allCases.count, values.allSatisfy({ $0.map((0...10).contains) == true }) else {
            throw TrackerError.invalid(
                field: "scores",
                reason:
                    "give six scores from 0 to 10, in this order: \(Symptom.allCases.map(\.rawValue).joined(separator: ", ")) (for example 3,5,2,0,4,6)"
            )
        }
        self.values = values.compactMap { $0 }
    }

    public subscript(_ symptom: Symptom) -> Int { values[Symptom.allCases.firstIndex(of: symptom)!] }

    /// "sleep 3 · irritability 5 · …"
    public var text: String {
        Symptom.allCases.map { "\($0.rawValue) \(self[$0])" }.joined(separator: " · ")
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        for symptom in Symptom.allCases { try c.encode(self[symptom], forKey: JSONKey(symptom.rawValue)) }
    }
}

/// One check: its day, its day in the window, and its scores.
public struct WithdrawalCheck: Sendable, Equatable, Encodable {
    public var day: LocalDay
    /// Its day after the last use before it (1–14).
    public var windowDay: Int
    public var scores: WithdrawalScores
}

/// The checks of the present window (after the last use, up to day 14), and a row of 14 cells
/// per symptom for the chart: the score of each day checked, nil where no check was kept.
public struct WithdrawalChart: Sendable, Equatable {
    public var lastUse: LocalDay
    public var checks: [WithdrawalCheck]

    /// Each day's score of `symptom`, days 1–14.
    public func cells(_ symptom: Symptom) -> [Int?] {
        WithdrawalWindow.days.map { day in checks.first(where: { $0.windowDay == day }).map { $0.scores[symptom] } }
    }

    /// The figures beside a symptom's row: each day's score as checked, then its peak and its
    /// last ("2 7 4 · peak 7 on day 3 · last 4 (day 6)"); the blocks alone leave some scores
    /// looking alike.
    public func summary(_ symptom: Symptom) -> String {
        let scored = checks.map { ($0.windowDay, $0.scores[symptom]) }
        guard let last = scored.last, let peak = scored.max(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 > $1.0) })
        else { return "" }
        if scored.count == 1 { return "\(last.1) (day \(last.0))" }
        return scored.map { String($0.1) }.joined(separator: " ")
            + " · peak \(peak.1) on day \(peak.0) · last \(last.1) (day \(last.0))"
    }

    /// The blocks a row is drawn with, ▁ for the lowest scores to █ for 10.
    static let blocks = Array("▁▂▃▄▅▆▇█")

    /// The block a score (0–10) is drawn with: eight heights for eleven scores, so some share one
    /// (`scale` says which).
    static func block(_ score: Int) -> Character { blocks[min(7, max(0, score) * 8 / 11)] }

    /// A row as characters: a block per day from ▁ (0) to █ (10), · for a day not checked.
    public func spark(_ symptom: Symptom) -> String {
        String(cells(symptom).map { $0.map(Self.block) ?? "·" })
    }

    /// What each block stands for: "▁ 0–1 ▂ 2 ▃ 3–4 ▄ 5 ▅ 6 ▆ 7–8 ▇ 9 █ 10".
    public static var scale: String {
        blocks.map { glyph in
            let scores = (0...10).filter { block($0) == glyph }
            guard let low = scores.first, let high = scores.last else { return "" }
            return "\(glyph) " + (low == high ? "\(low)" : "\(low)–\(high)")
        }.joined(separator: " ")
    }

    /// The chart as plain lines, a row per symptom ("Sleep trouble    ▂▅▇▆···  peak 7 on day 3 · last 4 (day 4)").
    public var lines: [String] {
        let pad = Symptom.allCases.map(\.name.count).max() ?? 0
        return Symptom.allCases.map {
            $0.name.padding(toLength: pad, withPad: " ", startingAt: 0) + "  " + spark($0) + "  " + summary($0)
        }
    }

    /// The days under the rows, and what each block stands for.
    public var axis: String { "days 1–14 after the last use (\(lastUse.short)); · not checked; \(Self.scale)" }
}

extension WithdrawalChart: Encodable {
    private enum Key: String, CodingKey { case lastUse, checks, line }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(lastUse, forKey: .lastUse)
        try c.encode(checks, forKey: .checks)
        try c.encode(WithdrawalWindow.timeCourse, forKey: .line)
    }
}

extension ProgressFacts {
    /// The chart as of `today`: the checks after the last use up to today, at most day 14 (nil
    /// without a use or without a check since it).
    func withdrawalChart(today: LocalDay) -> WithdrawalChart? {
        guard let last = uses.map(\.day).filter({ $0 <= today.number }).max() else { return nil }
        let checks = withdrawalChecks.keys.sorted().compactMap { day -> WithdrawalCheck? in
            let windowDay = day - last
            guard WithdrawalWindow.days.contains(windowDay), day <= today.number, let scores = withdrawalChecks[day]
            else { return nil }
            return WithdrawalCheck(day: LocalDay(number: day), windowDay: windowDay, scores: scores)
        }
        return checks.isEmpty ? nil : WithdrawalChart(lastUse: LocalDay(number: last), checks: checks)
    }
}

/// What keeping a check did.
public struct WithdrawalKept: Sendable, Equatable {
    public var check: WithdrawalCheck
    /// The check kept for the same day before, which this one replaced.
    public var replaced: WithdrawalScores?
}

extension Tracker {
    /// Every check stored, by day number (rows another program stored wrong are left out).
    func withdrawalScores() throws -> [Int: WithdrawalScores] {
        var out: [Int: WithdrawalScores] = [:]
        for row in try library.withdrawalChecks() where row.scores.allSatisfy((0...10).contains) {
            if let day = LocalDay(parsing: row.day) { out[day.number] = WithdrawalScores(row.scores) }
        }
        return out
    }

    /// Where today stands in the window as of `now`.
    public func withdrawalWindow(now: Date, timeZone: TimeZone = .current) throws -> WithdrawalWindow {
        let today = LocalDay(now, in: timeZone)
        let facts = try progressFacts(from: today)
        let last = facts.uses.map(\.day).filter { $0 <= today.number }.max()
        return WithdrawalWindow(
            lastUse: last.map { LocalDay(number: $0) }, today: today, goal: facts.goal,
            anyGoal: try library.setting(.withdrawalOffer) == Self.anyGoalOffer)
    }

    /// The setting's value when the check is offered whatever the goal.
    public static let anyGoalOffer = "any-goal"

    /// Offers the check whatever the goal (`anyGoal`), or for the goal to quit only.
    public func offerWithdrawalCheck(anyGoal: Bool) throws {
        try library.setSetting(.withdrawalOffer, to: anyGoal ? Self.anyGoalOffer : nil)
    }

    /// The checks of the present window as of `now` (nil: none).
    public func withdrawalChart(now: Date, timeZone: TimeZone = .current) throws -> WithdrawalChart? {
        let today = LocalDay(now, in: timeZone)
        return try progressFacts(from: today).withdrawalChart(today: today)
    }

    /// Keeps today's check. Refused in one line, with nothing written: a goal other than quit
    /// unless `anyGoal` (or the setting), no use logged (no day 1 to count from), a use today, or a day past 14.
    public func keepWithdrawalCheck(
        _ scores: WithdrawalScores, anyGoal: Bool, now: Date, timeZone: TimeZone = .current
    ) throws -> WithdrawalKept {
        let window = try withdrawalWindow(now: now, timeZone: timeZone)
        if window.goal != .quit && !anyGoal && !window.anyGoal {
            throw TrackerError.invalid(
                field: "goal",
                reason:
                    "the withdrawal check is for the first two weeks after quitting, and your goal is \(window.goal.map { "'\($0.rawValue)'" } ?? "not set"); add --any-goal to keep one anyway ('cravey withdrawal --offer any-goal' offers it always)"
            )
        }
        guard let lastUse = window.lastUse, let day = window.day else {
            throw TrackerError.invalid(
                field: "day",
                reason: "no use is logged, so there is no day 1 to count from; day 1 is the day after your last use")
        }
        if day == 0 {
            throw TrackerError.invalid(
                field: "day", reason: "a use is logged today; the check starts tomorrow, day 1 after it")
        }
        guard WithdrawalWindow.days.contains(day) else {
            throw TrackerError.invalid(
                field: "day",
                reason:
                    "your last logged use was \(lastUse.daysAgo(on: window.today)); the check is for days 1–14 after it"
            )
        }
        let before = try library.keepWithdrawalCheck(window.today.text, scores: scores.values, at: now)
        return WithdrawalKept(
            check: WithdrawalCheck(day: window.today, windowDay: day, scores: scores),
            replaced: before.flatMap { $0.scores.allSatisfy((0...10).contains) ? WithdrawalScores($0.scores) : nil })
    }
}
