import CraveyLibrary
import Foundation

/// A daily window not to use, from `start` to `end` in minutes after midnight on the wall clock
/// (the end not counted). An end before the start crosses midnight: 22:00–06:00 holds 23:30 and
/// 05:59, not 06:00. Nothing here refuses a use: a window only asks.
public struct BreakWindow: Sendable, Hashable, Comparable, Encodable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) { (self.start, self.end) = (start, end) }

    /// "21:00-23:00" (or "21-23", "9:30-10"; "24:00" ends at midnight). Refused in one line: a
    /// time that is not one, or a window that starts where it ends.
    public init(parsing text: String) throws {
        let parts = text.trimmingCharacters(in: .whitespaces).split(
            separator: "-", omittingEmptySubsequences: false)
        let reason = "give the window as HH:MM-HH:MM, for example 21:00-23:00 (it may cross midnight: 22:00-06:00)"
        guard parts.count == 2, let start = Self.minute(String(parts[0]), end: false),
            let end = Self.minute(String(parts[1]), end: true)
        else { throw TrackerError.invalid(field: "break", reason: reason) }
        guard start != end else {
            throw TrackerError.invalid(field: "break", reason: "a window starts and ends at different times; \(reason)")
        }
        (self.start, self.end) = (start, end)
    }

    /// "21:30" (or "21") as minutes after midnight; "24:00" as an end is midnight (0).
    static func minute(_ text: String, end: Bool) -> Int? {
        let pieces = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(pieces.count),
            pieces.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) }),
            let hour = Int(pieces[0]), let minute = pieces.count == 2 ? Int(pieces[1]) : 0,
            (0...59).contains(minute)
        else { return nil }
        if end, hour == 24, minute == 0 { return 0 }
        guard (0...23).contains(hour) else { return nil }
        return hour * 60 + minute
    }

    /// "21:00".
    public static func clock(_ minute: Int) -> String {
        let (h, m) = (minute / 60 % 24, minute % 60)
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }

    /// "21:00–23:00".
    public var text: String { Self.clock(start) + "–" + Self.clock(end) }

    /// The window crosses midnight (its end is the next day's).
    public var crossesMidnight: Bool { end < start }

    /// Whether `minute` (after midnight, 0–1439) is in the window.
    public func contains(minute: Int) -> Bool {
        start < end ? (start..<end).contains(minute) : minute >= start || minute < end
    }

    /// Whether `date` is in the window, read on the wall clock of `timeZone`: on a day the clocks
    /// change, a time that is skipped is in no window, and a time that comes twice is in the
    /// window both times.
    public func contains(_ date: Date, in timeZone: TimeZone) -> Bool {
        contains(minute: Self.minute(of: date, in: timeZone))
    }

    /// The minute of the day of `date` on the wall clock of `timeZone` (0–1439).
    public static func minute(of date: Date, in timeZone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }

    /// The minute of the day of a log kept with its own offset from UTC (seconds).
    static func minute(millisecondsSince1970 ms: Int64, utcOffset: Int) -> Int {
        let local = ms / 1000 + Int64(utcOffset)
        return Int(((local % 86_400) + 86_400) % 86_400) / 60
    }

    public static func < (a: BreakWindow, b: BreakWindow) -> Bool { (a.start, a.end) < (b.start, b.end) }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(Self.clock(start) + "-" + Self.clock(end))
    }
}

/// A weekly target: at most so many days of use a week, or at most an amount of each method
/// named (in the method's unit, as the use form counts it).
public enum WeeklyTarget: Sendable, Equatable {
    case days(Int)
    case amounts([Method: Double])

    /// "at most 3 days of use a week", "at most 20 pulls of vape and 2 bowls/joints a week".
    public var text: String {
        switch self {
        case .days(let n): return "at most \(n == 1 ? "1 day" : "\(n) days") of use a week"
        case .amounts(let amounts):
            let named = Method.allCases.compactMap { method in
                amounts[method].map { "\(Method.number($0)) \(method.unit(for: $0))" + Self.of(method) }
            }
            return "at most " + named.joined(separator: " and ") + " a week"
        }
    }

    /// " of vape" where the unit does not name the method ("pulls"), "" where it does.
    static func of(_ method: Method) -> String { method == .vape || method == .edible ? " (\(method.rawValue))" : "" }

    /// A number as a person types one: digits with at most one decimal point ("2", "2.5"; not
    /// "0x10", "1e3", "inf").
    static func decimal(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            trimmed.filter({ $0 == "." }).count <= 1
        else { return nil }
        return Double(trimmed).flatMap { $0.isFinite ? $0 : nil }
    }

    /// "METHOD=N": an amount a week of a method, in its unit.
    public static func amount(parsing text: String) throws -> (Method, Double) {
        let parts = text.split(separator: "=", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw TrackerError.invalid(
                field: "amount", reason: "give it as METHOD=N, for example vape=20 (pulls a week)")
        }
        let method = try LogInput.method(String(parts[0]))
        guard let amount = decimal(String(parts[1])), amount > 0, amount <= Validation.maxLimitAmount
        else {
            throw TrackerError.invalid(
                field: "amount",
                reason:
                    "'\(parts[1].prefix(20))' is not an amount of \(method.unit) a week (more than 0, at most \(Int(Validation.maxLimitAmount)))"
            )
        }
        return (method, amount)
    }
}

/// The use planned for (harm reduction): which methods, at most how much of a method a day (in
/// its unit), and in which hours — from `startHour` to `endHour` (0–24; across midnight when the
/// end is before the start).
public struct PlannedUse: Sendable, Equatable {
    public var methods: [Method]
    public var perDay: Double
    public var startHour: Int
    public var endHour: Int

    public init(methods: [Method], perDay: Double, startHour: Int, endHour: Int) {
        (self.methods, self.perDay, self.startHour, self.endHour) = (methods, perDay, startHour, endHour)
    }

    /// From what is typed: "vape,edible", "3", "18-23". Refused in one line.
    public init(methods: String, perDay: String, hours: String) throws {
        var named: [Method] = []
        for name in methods.split(separator: ",") where !name.trimmingCharacters(in: .whitespaces).isEmpty {
            let method = try LogInput.method(String(name))
            if !named.contains(method) { named.append(method) }
        }
        guard !named.isEmpty else {
            throw TrackerError.invalid(field: "methods", reason: "name one or more: bowls, vape, dab, edible")
        }
        guard let amount = WeeklyTarget.decimal(perDay), amount > 0, amount <= Validation.maxLimitAmount
        else {
            throw TrackerError.invalid(
                field: "per-day",
                reason:
                    "'\(perDay.prefix(20))' is not an amount a day (more than 0, at most \(Int(Validation.maxLimitAmount)), in each method's unit)"
            )
        }
        let parts = hours.split(separator: "-", omittingEmptySubsequences: false).map {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count == 2, let start = parts[0], let end = parts[1], (0...23).contains(start),
            (1...24).contains(end), start != end
        else {
            throw TrackerError.invalid(
                field: "hours", reason: "give the hours as HH-HH, for example 18-23 (it may cross midnight: 20-2)")
        }
        self.init(
            methods: named.sorted { Method.allCases.firstIndex(of: $0)! < Method.allCases.firstIndex(of: $1)! },
            perDay: amount, startHour: start, endHour: end)
    }

    /// Whether `minute` (after midnight) is in the planned hours.
    public func inHours(minute: Int) -> Bool {
        let (start, end) = (startHour * 60, endHour * 60)
        return start < end ? (start..<end).contains(minute) : minute >= start || minute < end % 1440
    }

    /// The day whose planned hours `minute` of day `day` belongs to: hours across midnight run on
    /// to their end, so a use after midnight counts with the evening before.
    public func plannedDay(_ day: Int, minute: Int) -> Int {
        endHour < startHour && minute < endHour * 60 ? day - 1 : day
    }

    /// Whether a use fits the plan: its method is one of the plan's, it is inside the hours, and
    /// with the same method's earlier uses that day (`earlier`) it stays within the amount a day.
    public func fits(method: Method, amount: Double, minute: Int, earlier: Double) -> Bool {
        methods.contains(method) && inHours(minute: minute) && earlier + amount <= perDay + 1e-9
    }

    /// "vape or edible, up to 3 a day, 18:00–23:00".
    public var text: String {
        let names = methods.map(\.rawValue)
        let list = names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
        return "\(list), up to \(Method.number(perDay)) a day, "
            + BreakWindow.clock(startHour * 60) + "–" + (endHour == 24 ? "24:00" : BreakWindow.clock(endHour * 60))
    }
}

/// Everything `cravey limit` holds: the break windows (earliest first), the weekly target and
/// the planned use. Read from the rows as stored; a row the rules refuse is left out.
public struct Limits: Sendable, Equatable {
    public var breaks: [BreakWindow] = []
    public var week: WeeklyTarget?
    /// When a weekly target was first set (kept when it is changed): a week before it is not
    /// judged against one.
    public var weekSince: Date?
    public var planned: PlannedUse?

    public init(breaks: [BreakWindow] = [], week: WeeklyTarget? = nil, planned: PlannedUse? = nil) {
        (self.breaks, self.week, self.planned) = (breaks.sorted(), week, planned)
    }

    public init(rows: [LimitRow]) {
        var amounts: [Method: Double] = [:]
        for row in rows {
            let problem = Validation.limitProblem(
                id: row.id, kind: row.kind, startMinute: row.startMinute.map(Int64.init),
                endMinute: row.endMinute.map(Int64.init), methods: row.methods, amount: row.amount,
                createdAt: row.createdAt)
            guard problem == nil else { continue }
            switch row.kind {
            case "break": breaks.append(BreakWindow(start: row.startMinute!, end: row.endMinute!))
            case "weekDays": week = .days(Int(row.amount!))
            case "weekAmount": amounts[Method(rawValue: row.methods!)!] = row.amount!
            default:
                planned = PlannedUse(
                    methods: row.methods!.split(separator: ",").compactMap { Method(rawValue: String($0)) },
                    perDay: row.amount!, startHour: row.startMinute! / 60, endHour: row.endMinute! / 60)
            }
        }
        if week == nil, !amounts.isEmpty { week = .amounts(amounts) }
        if week != nil {
            weekSince = rows.filter { $0.kind.hasPrefix("week") }.compactMap { StoredDate.date($0.createdAt) }.min()
        }
        breaks.sort()
    }

    public var isEmpty: Bool { breaks.isEmpty && week == nil && planned == nil }

    /// The first window that holds `minute` (nil: none).
    public func window(holding minute: Int) -> BreakWindow? { breaks.first { $0.contains(minute: minute) } }

    /// The window that holds `date` on the wall clock of `timeZone` (nil: none).
    public func window(holding date: Date, in timeZone: TimeZone) -> BreakWindow? {
        breaks.first { $0.contains(date, in: timeZone) }
    }

    /// The rows that store a weekly target.
    static func rows(_ target: WeeklyTarget, createdAt: String) -> [LimitRow] {
        switch target {
        case .days(let n): return [LimitRow(id: "week:days", kind: "weekDays", amount: Double(n), createdAt: createdAt)]
        case .amounts(let amounts):
            return Method.allCases.compactMap { method in
                amounts[method].map {
                    LimitRow(
                        id: "week:" + method.rawValue, kind: "weekAmount", methods: method.rawValue, amount: $0,
                        createdAt: createdAt)
                }
            }
        }
    }

    /// The row that stores the planned use.
    static func row(_ planned: PlannedUse, createdAt: String) -> LimitRow {
        LimitRow(
            id: "planned", kind: "planned", startMinute: planned.startHour * 60, endMinute: planned.endHour * 60,
            methods: planned.methods.map(\.rawValue).joined(separator: ","), amount: planned.perDay,
            createdAt: createdAt)
    }
}

/// What `cravey limit clear` takes away.
public enum LimitPart: String, Sendable, CaseIterable {
    case all, breaks, week, plan

    var kinds: [String] {
        switch self {
        case .all: LimitRow.kinds
        case .breaks: ["break"]
        case .week: ["weekDays", "weekAmount"]
        case .plan: ["planned"]
        }
    }
}

extension Tracker {
    /// The setting's value when limits are offered whatever the goal.
    public static let anyGoalLimits = "any-goal"

    /// The limits as stored.
    public func limits() throws -> Limits { Limits(rows: try library.limitRows()) }

    /// Whether limits are offered: for cutting down and harm reduction, or whatever the goal when
    /// the person asked (`cravey limit --offer any-goal`).
    public func limitsOffered() throws -> Bool {
        Self.limitsFit(
            goal: try library.setting(.goal).flatMap(Goal.init(rawValue:)),
            anyGoal: try library.setting(.limitOffer) == Self.anyGoalLimits)
    }

    /// Limits fit the goals of cutting down and harm reduction, and any goal when asked.
    public static func limitsFit(goal: Goal?, anyGoal: Bool) -> Bool {
        anyGoal || goal == .cutDown || goal == .harmReduction
    }

    /// Offers limits whatever the goal (`anyGoal`), or for cutting down and harm reduction only.
    public func offerLimits(anyGoal: Bool) throws {
        try library.setSetting(.limitOffer, to: anyGoal ? Self.anyGoalLimits : nil)
    }

    /// Refused in one line, nothing written, unless limits are offered.
    private func requireLimitsOffered() throws {
        guard try !limitsOffered() else { return }
        let goal = try library.setting(.goal).flatMap(Goal.init(rawValue:))
        throw TrackerError.invalid(
            field: "goal",
            reason:
                "limits are for cutting down and harm reduction, and your goal is \(goal.map { "'\($0.rawValue)'" } ?? "not set"); 'cravey limit --offer any-goal' offers them whatever your goal"
        )
    }

    /// Adds a break window; false when the same window is kept already (nothing written).
    public func addBreak(_ window: BreakWindow, now: Date) throws -> Bool {
        try requireLimitsOffered()
        let before = try limits().breaks
        if before.contains(window) { return false }
        guard before.count < Library.maxBreaks else {
            throw TrackerError.invalid(
                field: "break", reason: "at most \(Library.maxBreaks) break windows are kept; remove one first")
        }
        try library.changeLimits(adding: [
            LimitRow(
                id: Validation.breakId(start: window.start, end: window.end), kind: "break",
                startMinute: window.start, endMinute: window.end, createdAt: StoredDate.text(now))
        ])
        return true
    }

    /// Removes break window `number` (as `limits().breaks` numbers them from 1).
    public func removeBreak(_ number: Int) throws -> BreakWindow {
        let breaks = try limits().breaks
        guard (1...max(1, breaks.count)).contains(number), number <= breaks.count else {
            throw TrackerError.invalid(
                field: "break",
                reason: breaks.isEmpty
                    ? "no break window is set"
                    : "there is no window \(number); 'cravey limit' numbers them 1–\(breaks.count)")
        }
        let window = breaks[number - 1]
        try library.changeLimits(ids: [Validation.breakId(start: window.start, end: window.end)], adding: [])
        return window
    }

    /// Sets the weekly target, in place of the one before (a target was set since the first one:
    /// the weeks since then are judged against the new one).
    public func setWeeklyTarget(_ target: WeeklyTarget, now: Date) throws {
        try requireLimitsOffered()
        let since = try limits().weekSince.map { min($0, now) } ?? now
        try library.changeLimits(
            removingKinds: LimitPart.week.kinds, adding: Limits.rows(target, createdAt: StoredDate.text(since)))
    }

    /// Sets the planned use, in place of the one before.
    public func setPlannedUse(_ planned: PlannedUse, now: Date) throws {
        try requireLimitsOffered()
        try library.changeLimits(
            removingKinds: LimitPart.plan.kinds, adding: [Limits.row(planned, createdAt: StoredDate.text(now))])
    }

    /// Takes `part` away; how many rows went (0: there was nothing to clear).
    public func clearLimits(_ part: LimitPart) throws -> Int {
        try library.changeLimits(removingKinds: part.kinds, adding: [])
    }

    /// The break window that holds `date` when limits are offered (nil: none, or not offered).
    public func breakWindow(at date: Date, timeZone: TimeZone = .current) throws -> BreakWindow? {
        guard try limitsOffered() else { return nil }
        return try limits().window(holding: date, in: timeZone)
    }
}

extension Limits: Encodable {
    private enum Key: String, CodingKey { case breaks, weeklyTarget, planned }
    private enum Inner: String, CodingKey { case days, amounts, methods, perDay, hours, text }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try encodeParts(into: &c, breaks: .breaks, week: .weeklyTarget, planned: .planned)
    }

    /// The windows ("21:00-23:00"), the weekly target (days, or amounts by method, and its words)
    /// and the planned use (methods, amount a day, hours "18-23", words), under the keys given.
    public func encodeParts<K: CodingKey>(
        into c: inout KeyedEncodingContainer<K>, breaks: K, week: K, planned: K
    ) throws {
        try c.encode(self.breaks, forKey: breaks)
        if let target = self.week {
            var t = c.nestedContainer(keyedBy: Inner.self, forKey: week)
            switch target {
            case .days(let n): try t.encode(n, forKey: .days)
            case .amounts(let most):
                var named = t.nestedContainer(keyedBy: JSONKey.self, forKey: .amounts)
                for method in Method.allCases {
                    if let amount = most[method] { try named.encode(amount, forKey: JSONKey(method.rawValue)) }
                }
            }
            try t.encode(target.text, forKey: .text)
        } else {
            try c.encodeNil(forKey: week)
        }
        if let plan = self.planned {
            var p = c.nestedContainer(keyedBy: Inner.self, forKey: planned)
            try p.encode(plan.methods.map(\.rawValue), forKey: .methods)
            try p.encode(plan.perDay, forKey: .perDay)
            try p.encode("\(plan.startHour)-\(plan.endHour)", forKey: .hours)
            try p.encode(plan.text, forKey: .text)
        } else {
            try c.encodeNil(forKey: planned)
        }
    }
}
