import CraveyLibrary
import Foundation

/// The range the charts cover: the last 7, 30 or 90 local days including today, or everything
/// since the first log, message or check-in.
public enum ProgressRange: String, CaseIterable, Sendable, Encodable {
    case week = "7d", month = "30d", quarter = "90d", all

    public var days: Int? {
        switch self {
        case .week: 7
        case .month: 30
        case .quarter: 90
        case .all: nil
        }
    }

    /// As the range line shows it: 7D, 30D, 90D, All.
    public var chip: String { self == .all ? "All" : rawValue.uppercased() }

    /// In words: "Last 7 days", "All time".
    public var name: String { days.map { "Last \($0) days" } ?? "All time" }
}

/// Every figure of the progress dashboard, worked out once here from the logs (`ProgressFacts`)
/// on local calendar days — each log's day is the one on its own wall clock when it was logged,
/// today is today's on the clock now — so a change of clocks or a midnight never splits or merges
/// a day. The definitions:
///
/// - **In the range**: logs whose day is from `from` to today. Streaks, Days in Progress and days
///   since last use are over every log (they are about the whole journey, not the range).
/// - **Current streak**: consecutive days without a logged use, ending today (today counts while
///   it has none), counted from the first day of tracking at the earliest.
/// - **Longest streak**: the longest run of days without a logged use from the first day of
///   tracking to today, with its first and last day (the later run when two are as long).
/// - **Days in Progress**: days from the first log, message or check-in to today, both counted
///   (day 1 is the first day); it never resets — only deleting all data starts it again.
/// - **Days since last use**: today minus the day of the latest use.
/// - **Intensity trend**: the mean intensity of the first quarter of the cravings in the range
///   against the last quarter (at least one each: with two cravings, the first against the last).
/// - **Resisted**: a craving in the range that no use names as the one it followed, with no use
///   logged from its moment to 2 hours after it, once those 2 hours have passed; until then it is
///   **open**, counted as neither.
/// - **Reduction**: uses in the last 7 days (today and the 6 before) against uses in the first 7
///   days of logging (the day of the first craving or use and the 6 after), once the two weeks do
///   not overlap; as a whole percent of the first week's.
/// - **Shares** (triggers, places, methods): each one's count over the count of all of its kind in
///   the range, as a whole percent; a log names any number of triggers, so triggers are shares of
///   all triggers named.
/// - **Time of day**: cravings in the range by the hour on their clock; the busiest 3-hour window
///   (it may span midnight; the earliest of overlapping equal windows; tied windows that share no
///   hour are all named). **Weekday**: cravings by their day's
///   weekday, Monday first.
public struct ProgressFigures: Sendable {
    public struct Streak: Sendable, Equatable, Encodable {
        public var days: Int
        public var from: LocalDay
        public var to: LocalDay
        public init(days: Int, from: LocalDay, to: LocalDay) { (self.days, self.from, self.to) = (days, from, to) }
    }

    public struct Share: Sendable, Equatable, Encodable {
        /// As stored ("anxious", "bowls"); `label` as shown ("Anxious", "Bowls / Joints / Blunts").
        public var name: String
        public var label: String
        public var count: Int
        public var percent: Int
        public init(name: String, label: String, count: Int, percent: Int) {
            (self.name, self.label, self.count, self.percent) = (name, label, count, percent)
        }
    }

    public struct IntensityPoint: Sendable, Equatable {
        public var time: LogTime
        public var intensity: Int
    }

    public struct AmountPoint: Sendable, Equatable, Encodable {
        public var day: LocalDay
        public var amount: Double
        public init(day: LocalDay, amount: Double) { (self.day, self.amount) = (day, amount) }
    }

    /// How many logs of each kind a breakdown counted (logs naming at least one), and whether
    /// every one of them names the first share: "Both cravings at Home".
    public struct Counted: Sendable, Equatable {
        public var cravings = 0
        public var uses = 0
        public var allShareTop = false
        public var logs: Int { cravings + uses }
    }

    public enum Reduction: Sendable, Equatable {
        /// No use was ever logged.
        case noUses
        /// The first week of logging and the last 7 days still overlap.
        case firstWeek
        /// The first week had no use to compare with.
        case noBaseline(last: Int)
        case change(percent: Int, first: Int, last: Int)

        public var percent: Int? { if case let .change(percent, _, _) = self { percent } else { nil } }
    }

    public let range: ProgressRange
    /// The goal the person chose (nil when none was): it shapes the words, never the figures.
    public let goal: Goal?
    public let today: LocalDay
    /// The range's first day.
    public let from: LocalDay
    public let currentYear: Int

    public let cravings: Int
    public let uses: Int
    public let everCraved: Bool
    public let everUsed: Bool

    /// nil before anything was ever logged or recorded.
    public let currentStreak: Int?
    public let longestStreak: Streak?
    public let daysInProgress: Int?
    public let daysSinceLastUse: Int?

    public let intensity: [IntensityPoint]
    public let intensityTrend: (first: Double, last: Double)?
    /// Daily totals per method, in the methods' order; only days with a use.
    public let amounts: [(method: Method, points: [AmountPoint])]
    public let triggers: [Share]
    public let triggerLogs: Counted
    public let locations: [Share]
    public let locationLogs: Counted
    /// Cravings by hour of the day, 0–23.
    public let hours: [Int]
    /// Cravings by weekday, Monday first.
    public let weekdays: [Int]
    public let methods: [Share]
    public let resisted: Int
    /// The range's cravings whose 2 hours have not passed yet, with no use: neither resisted nor not.
    public let openCravings: Int
    public let reduction: Reduction
    /// The messages played in at least 2 of the range's cravings, those that helped most first
    /// (see `MessageHelp`).
    public let messages: [MessageHelp]
    /// How soon the range's rides fell to half their starting strength (see `CravingLength`).
    public let cravingLength: CravingLength
    /// How many messages there are (check-ins are not messages).
    public let messageCount: Int
    /// Money kept against the first week (see `MoneyKept`); nil when no price is set.
    public let money: MoneyKept?
    /// The milestones reached, in the order reached (set by whoever noted them: see
    /// `Tracker.progressNotingMilestones`).
    public var milestones: [Milestone] = []
    /// The range's days known: confirmed without use, with use, not remembered, not reported.
    public var known = KnownDays()
    /// The withdrawal checks after the last use, days 1–14 (nil: none).
    public var withdrawalChart: WithdrawalChart?
    /// The limits against the logs (nil: none set, or not offered for the goal).
    public var limits: LimitProgress?

    static let resistWindow: Int64 = 2 * 3_600_000

    /// The figures of `range` as of `now`; `from`, when given, is the first day instead of the range's.
    public init(
        _ facts: ProgressFacts, range: ProgressRange, now: Date, timeZone: TimeZone = .current,
        from firstDayShown: LocalDay? = nil
    ) {
        self.range = range
        goal = facts.goal
        let today = LocalDay(now, in: timeZone)
        self.today = today
        currentYear = today.civil.year

        // The first day of tracking: the first log's, message's or check-in's.
        let dayOfUse = facts.uses.map(\.day)
        var firstLogDay = facts.firstCravingDay
        for day in dayOfUse { firstLogDay = min(firstLogDay ?? day, day) }
        let recordingDay = facts.firstRecording.map { LocalDay($0, in: timeZone).number }
        let firstDay = [firstLogDay, recordingDay].compactMap { $0 }.min().map { min($0, today.number) }
        let from =
            firstDayShown ?? range.days.map { today - ($0 - 1) } ?? LocalDay(number: firstDay ?? today.number)
        self.from = from
        everCraved = facts.firstCravingDay != nil
        everUsed = !facts.uses.isEmpty

        // Streaks and counters over every use up to today.
        let useDays = Array(Set(dayOfUse.filter { $0 <= today.number })).sorted()
        if let firstDay {
            daysInProgress = today.number - firstDay + 1
            var best: Streak?
            var previous = firstDay - 1
            for day in useDays + [today.number + 1] where day > previous {
                let run = day - previous - 1
                if run > 0, run >= best?.days ?? 0 {
                    best = Streak(days: run, from: LocalDay(number: previous + 1), to: LocalDay(number: day - 1))
                }
                previous = day
            }
            longestStreak = best
            currentStreak = today.number - max(useDays.last ?? firstDay - 1, firstDay - 1)
        } else {
            daysInProgress = nil
            longestStreak = nil
            currentStreak = nil
        }
        daysSinceLastUse = dayOfUse.max().map { max(0, today.number - $0) }

        // The range's cravings.
        var points: [IntensityPoint] = []
        var hours = [Int](repeating: 0, count: 24)
        var weekdays = [Int](repeating: 0, count: 7)
        var triggerCounts = [Int](repeating: 0, count: Trigger.allCases.count)
        var locationCounts = [Int](repeating: 0, count: Location.allCases.count)
        var triggerLogs = Counted()
        var locationLogs = Counted()
        var triggerMasks: [UInt16] = []
        var locationsNamed: [Int] = []
        var resisted = 0
        var open = 0
        let useTimes = facts.uses.map(\.ms)
        let nowMs = Self.milliseconds(now)
        for craving in facts.cravings {
            let day = craving.day
            guard day >= from.number else { continue }
            points.append(
                IntensityPoint(
                    time: LogTime(
                        instant: Date(timeIntervalSince1970: Double(craving.ms) / 1000), utcOffset: craving.utcOffset),
                    intensity: craving.intensity))
            let local = craving.ms + Int64(craving.utcOffset) * 1000
            hours[Int((local % 86_400_000 + 86_400_000) % 86_400_000 / 3_600_000)] += 1
            weekdays[LocalDay(number: day).weekday] += 1
            Self.count(craving.triggers, into: &triggerCounts, &triggerLogs.cravings, &triggerMasks)
            Self.count(craving.location, into: &locationCounts, &locationLogs.cravings, &locationsNamed)
            switch Self.outcome(at: craving.ms, linked: craving.linked, useTimes: useTimes, nowMs: nowMs) {
            case .resisted: resisted += 1
            case .open: open += 1
            case .followedByUse: break
            }
        }
        cravings = points.count
        intensity = points
        if points.count >= 2 {
            let quarter = max(1, points.count / 4)
            func mean(_ slice: ArraySlice<IntensityPoint>) -> Double {
                Double(slice.reduce(0) { $0 + $1.intensity }) / Double(slice.count)
            }
            intensityTrend = (mean(points.prefix(quarter)), mean(points.suffix(quarter)))
        } else {
            intensityTrend = nil
        }
        self.hours = hours
        self.weekdays = weekdays
        self.resisted = resisted
        openCravings = open

        // The range's uses.
        var useCount = 0
        var methodCounts = [Int](repeating: 0, count: Method.allCases.count)
        var amounts = [[Int: Double]](repeating: [:], count: Method.allCases.count)
        for (use, day) in zip(facts.uses, dayOfUse) {
            guard day >= from.number else { continue }
            useCount += 1
            let method = Method.allCases.firstIndex(of: use.method) ?? 0
            methodCounts[method] += 1
            amounts[method][day, default: 0] += use.amount
            Self.count(use.triggers, into: &triggerCounts, &triggerLogs.uses, &triggerMasks)
            Self.count(use.location, into: &locationCounts, &locationLogs.uses, &locationsNamed)
        }
        uses = useCount
        self.amounts = Method.allCases.enumerated().compactMap { index, method in
            amounts[index].isEmpty
                ? nil
                : (
                    method,
                    amounts[index].sorted { $0.key < $1.key }.map {
                        AmountPoint(day: LocalDay(number: $0.key), amount: $0.value)
                    }
                )
        }
        methods = Self.shares(
            methodCounts, names: Method.allCases.map(\.rawValue), labels: Method.allCases.map(\.label))
        triggers = Self.shares(
            triggerCounts, names: Trigger.allCases.map(\.rawValue), labels: Trigger.allCases.map(\.label))
        locations = Self.shares(
            locationCounts, names: Location.allCases.map(\.rawValue), labels: Location.allCases.map(\.label))
        if let top = triggers.first, let bit = Trigger.allCases.firstIndex(where: { $0.rawValue == top.name }) {
            triggerLogs.allShareTop = triggerMasks.allSatisfy { $0 & (1 << bit) != 0 }
        }
        if let top = locations.first, let index = Location.allCases.firstIndex(where: { $0.rawValue == top.name }) {
            locationLogs.allShareTop = locationsNamed.allSatisfy { $0 == index }
        }
        self.triggerLogs = triggerLogs
        self.locationLogs = locationLogs
        (messages, cravingLength, messageCount) = Self.helpFigures(
            facts, from: from, useTimes: useTimes, nowMs: nowMs)

        // Reduction: the last 7 days against the first 7 days of logging.
        if facts.uses.isEmpty {
            reduction = .noUses
        } else if let first = firstLogDay, today.number - 6 > first + 6 {
            let baseline = dayOfUse.lazy.filter { (first...(first + 6)).contains($0) }.count
            let last = dayOfUse.lazy.filter { ((today.number - 6)...today.number).contains($0) }.count
            reduction =
                baseline == 0
                ? .noBaseline(last: last)
                : .change(
                    percent: Int((Double(last - baseline) * 100 / Double(baseline)).rounded()), first: baseline,
                    last: last)
        } else {
            reduction = .firstWeek
        }
        money = MoneyKept(
            prices: facts.prices, currency: facts.currency, goal: facts.goal,
            uses: zip(facts.uses, dayOfUse).map { ($1, $0.method, $0.amount) }, firstLogDay: firstLogDay,
            today: today.number)
        known = facts.knownDays(from: from, today: today, in: timeZone)
        withdrawalChart = facts.withdrawalChart(today: today)
        limits = facts.limitProgress(from: from, today: today, timeZone: timeZone)
    }

    private static func count(_ mask: UInt16, into counts: inout [Int], _ logs: inout Int, _ masks: inout [UInt16]) {
        guard mask != 0 else { return }
        logs += 1
        masks.append(mask)
        for bit in counts.indices where mask & (1 << bit) != 0 { counts[bit] += 1 }
    }

    private static func count(_ index: Int, into counts: inout [Int], _ logs: inout Int, _ named: inout [Int]) {
        guard index >= 0 else { return }
        logs += 1
        named.append(index)
        counts[index] += 1
    }

    /// The counts above zero as shares of their sum, the largest first (equal counts in the
    /// values' own order).
    static func shares(_ counts: [Int], names: [String], labels: [String]) -> [Share] {
        let total = counts.reduce(0, +)
        guard total > 0 else { return [] }
        return counts.enumerated().filter { $0.element > 0 }
            .sorted { $0.element != $1.element ? $0.element > $1.element : $0.offset < $1.offset }
            .map {
                Share(
                    name: names[$0.offset], label: labels[$0.offset], count: $0.element,
                    percent: Int((Double($0.element) * 100 / Double(total)).rounded()))
            }
    }

    /// What became of a craving, by the one resisted rule every figure uses.
    public enum CravingOutcome: Sendable, Equatable {
        /// Its 2 hours have passed with no use: resisted.
        case resisted
        /// A use names it as the one it followed, or came within its 2 hours.
        case followedByUse
        /// Its 2 hours have not passed yet and no use came: neither resisted nor not.
        case open
    }

    /// The resisted rule: a craving at `ms` is resisted once its 2 hours have passed (by
    /// `nowMs`) with no use names it as the one it followed (`linked`) and no use (`useTimes`,
    /// sorted) from its moment to 2 hours after it; until then, with no use, it is open.
    static func outcome(at ms: Int64, linked: Bool, useTimes: [Int64], nowMs: Int64) -> CravingOutcome {
        guard !linked else { return .followedByUse }
        let next = firstIndex(in: useTimes, notBefore: ms)
        if next < useTimes.count, useTimes[next] <= ms + resistWindow { return .followedByUse }
        return ms + resistWindow <= nowMs ? .resisted : .open
    }

    /// `now` as the rule's milliseconds.
    static func milliseconds(_ now: Date) -> Int64 { Int64((now.timeIntervalSince1970 * 1000).rounded()) }

    /// The index of the first time not before `ms` in `times` (sorted).
    static func firstIndex(in times: [Int64], notBefore ms: Int64) -> Int {
        var low = 0
        var high = times.count
        while low < high {
            let mid = (low + high) / 2
            if times[mid] < ms { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The busiest 3-hour window of cravings: its first hour (nil without cravings).
    public var busiestWindow: Int? { busiestWindows.first }

    /// The 3-hour windows with the most cravings that share no hour, by their first hour (the
    /// earliest of overlapping equal windows): one, or several when the busiest times are tied.
    public var busiestWindows: [Int] {
        guard cravings > 0 else { return [] }
        let counts = (0..<24).map { (start: Int) -> Int in
            hours[start] + hours[(start + 1) % 24] + hours[(start + 2) % 24]
        }
        let most = counts.max() ?? 0
        var starts: [Int] = []
        for start in 0..<24 where counts[start] == most {
            let apart = starts.allSatisfy { other -> Bool in
                let distance = (start - other + 24) % 24
                return min(distance, 24 - distance) >= 3
            }
            if apart { starts.append(start) }
        }
        return starts
    }

    /// The weekdays with the most cravings (0 Monday), in week order.
    public var busiestWeekdays: [Int] {
        guard let most = weekdays.max(), most > 0 else { return [] }
        return weekdays.indices.filter { weekdays[$0] == most }
    }

    /// Where a moment falls across the range: 0 at its first midnight, 1 at tonight's (the charts'
    /// time axis).
    public func position(_ time: LogTime) -> Double {
        (Double(LocalDay(time) - from) + Double(time.localMinuteOfDay) / 1_440) / Double(today - from + 1)
    }

    /// The range's cravings whose 2 hours have passed (resisted or followed by a use).
    public var closedCravings: Int { cravings - openCravings }

    /// Resisted cravings as a whole percent of the range's cravings whose 2 hours have passed.
    public var resistedPercent: Int? {
        closedCravings == 0 ? nil : Int((Double(resisted) * 100 / Double(closedCravings)).rounded())
    }
}
