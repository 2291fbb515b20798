import CraveyLibrary
import Foundation

/// The dashboard's words: each section's title, its line and its sentence, encouraging and never
/// judging — no warnings, no broken streaks, nothing "failed". Every chart has a sentence from two
/// logs on, and an encouraging one when it has nothing to show. The goal the person chose shapes
/// them: only someone who set out to quit or cut down reads of abstinence and reduction; for
/// everyone else the same figures are days without use and this week beside the first.
extension ProgressFigures {
    public static let keepLogging = "Keep logging! Trends become clearer with more data. 💪"
    public static let firstCraving = "Log your first craving to see intensity trends! 📈"
    public static let firstCravingTime = "Log your first craving to see the hours cravings come. 🕐"
    public static let firstCravingWeekday = "Log your first craving to see the days cravings come. 📅"
    public static let firstCravingResisted =
        "Log your first craving: each one that passes 2 hours without a use counts here. 💪"
    /// A section's sentence with one log of its kind: each says what it waits for, so the
    /// dashboard's one "Keep logging!" stays with the intensity chart.
    public static let oneTrigger = "One log named a trigger so far: a pattern shows from two."
    public static let onePlace = "One log named a place so far: a pattern shows from two."
    public static let oneCravingTime = "One craving so far: the hours that stand out show from two."
    public static let oneCravingWeekday = "One craving so far: the days that stand out show from two."
    public static let trackUsage = "Track usage to see your reduction over time! 📉"
    public static let trackUsagePattern = "Track usage to see your pattern over time! 📊"
    public static let startLogging = "Start logging to see your patterns! 💪"

    /// Whether the person chose to quit or cut down: only then is less use called progress.
    public var aimsToReduce: Bool { goal == .quit || goal == .cutDown }

    /// Whether the words speak only of what was used, how much and when (harm reduction): no
    /// days without use, no cravings resisted as milestones.
    public var speaksOfUseOnly: Bool { goal == .harmReduction }

    /// The milestones the dashboard lists: for harm reduction none of cravings resisted.
    public var shownMilestones: [Milestone] {
        speaksOfUseOnly ? milestones.filter { $0.kind != .cravingsResisted } : milestones
    }

    /// "3 Cravings • 1 Use".
    public var summaryLine: String {
        "\(cravings) Craving\(cravings == 1 ? "" : "s") • \(uses) Use\(uses == 1 ? "" : "s")"
    }

    /// "in these 7 days" / "yet".
    private var inRange: String { range.days.map { "in these \($0) days" } ?? "yet" }

    public var summaryInsight: String {
        if cravings + uses > 0 { return "You're building awareness! 💪" }
        return everCraved || everUsed
            ? "Nothing logged \(inRange). Log a craving or a use whenever it helps. 💪" : Self.startLogging
    }

    /// "3 days".
    public static func days(_ count: Int) -> String { count == 1 ? "1 day" : "\(count) days" }

    /// The streak section's title: a fire only while the streak counts, and "Days Without Use"
    /// unless the goal is to quit or cut down.
    /// Harm reduction's headline once a use is planned for.
    public static let asPlannedTitle = "🤝 Uses as Planned"

    public var currentStreakTitle: String {
        if speaksOfUseOnly { return limits?.asPlanned == nil ? "🕐 Your Last Use" : Self.asPlannedTitle }
        guard aimsToReduce else { return "🌅 Days Without Use" }
        return (currentStreak ?? 0) > 0 ? "🔥 Current Streak" : "Current Streak"
    }

    /// "3 days"; "—" before anything was logged; nil on a day with a use (no count of zero is shown).
    public var currentStreakText: String? {
        if speaksOfUseOnly, let asPlanned = limits?.asPlannedText { return asPlanned }
        if speaksOfUseOnly {
            guard let daysSinceLastUse else { return "—" }
            return daysSinceLastUse == 0
                ? "Today" : daysSinceLastUse == 1 ? "Yesterday" : "\(daysSinceLastUse) days ago"
        }
        guard let currentStreak else { return "—" }
        return currentStreak > 0 ? Self.days(currentStreak) : nil
    }

    public var currentStreakInsight: String? {
        if speaksOfUseOnly, let planned = limits?.limits.planned {
            return "A use is as planned when its method, amount and hour fit your plan (\(planned.text))."
        }
        if speaksOfUseOnly {
            return daysSinceLastUse == nil
                ? nil : "What you used and how much: Amount Trends and Method Breakdown below."
        }
        guard let currentStreak else { return nil }
        if aimsToReduce { return currentStreak > 0 ? "Keep going!" : "Every day is a fresh start. 💪" }
        return currentStreak > 0
            ? "Counted from your last logged use to today."
            : "A use was logged today. Every log helps you see your pattern."
    }

    public var longestStreakTitle: String {
        aimsToReduce ? "📏 Longest Abstinence Streak" : "📏 Longest Stretch Without Use"
    }

    /// "7 days (Oct 10–16)".
    public var longestStreakText: String? {
        longestStreak.map { "\(Self.days($0.days)) (\($0.from.span(to: $0.to, currentYear: currentYear)))" }
    }

    public var daysInProgressInsight: String? {
        daysInProgress.map { "Day \($0) of your journey. This count never resets." }
    }

    /// "4 days since your last logged use": only while it counts (not on a day with a use).
    public var daysSinceLastUseText: String? {
        guard !speaksOfUseOnly, let daysSinceLastUse, daysSinceLastUse > 0 else { return nil }
        return "\(Self.days(daysSinceLastUse)) since your last logged use"
    }

    /// 6 or 6.5: the intensity as a person reads it.
    static func level(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }

    public var intensityInsight: String {
        guard cravings > 0 else { return everCraved ? "No cravings logged \(inRange)." : Self.firstCraving }
        guard let (first, last) = intensityTrend else { return Self.keepLogging }
        let firstText = Self.level(first)
        let lastText = Self.level(last)
        if lastText == firstText {
            return "Consistent intensity (\(firstText)/10). Tracking helps you spot patterns over time."
        }
        if last < first { return "Your intensity dropped from \(firstText)/10 to \(lastText)/10. That's progress! 📉" }
        // "Recovery" only for someone whose goal is to quit or cut down.
        return aimsToReduce
            ? "Intensity increased to \(lastText)/10. Recovery isn't linear — you're learning. 💪"
            : "Intensity increased to \(lastText)/10. Every log helps you understand your pattern. 💪"
    }

    public var amountsInsight: String {
        guard uses > 0 else {
            return everUsed ? "No use logged \(inRange)." : aimsToReduce ? Self.trackUsage : Self.trackUsagePattern
        }
        if aimsToReduce, case let .change(percent, _, _) = reduction, percent < 0 {
            return "You logged \(-percent)% fewer uses this week than in your first week (uses counted, not amounts). 📉"
        }
        let totals = amounts.map { entry in entry.method.amountText(entry.points.reduce(0) { $0 + $1.amount }) }
        return "In all: " + totals.joined(separator: ", ") + "."
    }

    /// A method's Amount Trends line: "Vape: total 26 pulls · busiest day 8 pulls" (each method
    /// has its own chart and scale; the busiest day is the top of its scale).
    public static func amountLabel(_ method: Method, _ points: [AmountPoint]) -> String {
        let total = points.reduce(0) { $0 + $1.amount }
        let busiest = points.map(\.amount).max() ?? 0
        return "\(method.label): total \(method.amountText(total)) · busiest day \(method.amountText(busiest))"
    }

    /// What the logs counted are called: "cravings", "uses", or "logs" when both.
    private static func noun(_ counted: Counted) -> String {
        counted.uses == 0 ? "cravings" : counted.cravings == 0 ? "uses" : "logs"
    }

    /// "Cravings", "Uses", "Logs".
    private static func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    /// The shares as many as the first, by label.
    private static func leaders(_ shares: [Share]) -> [String] {
        shares.filter { $0.count == shares.first?.count }.map(\.label)
    }

    /// Whether every log of the kinds `counted` speaks of (cravings, uses or both) is counted in
    /// it: "all 5 cravings" is said only of all the cravings in the range.
    private func namedByAll(_ counted: Counted) -> Bool {
        (counted.cravings == 0 || counted.cravings == cravings) && (counted.uses == 0 || counted.uses == uses)
    }

    /// "both cravings", "all 5 logs".
    private static func every(_ counted: Counted) -> String {
        counted.logs == 2 ? "both \(noun(counted))" : "all \(counted.logs) \(noun(counted))"
    }

    public var triggerInsight: String {
        guard let top = triggers.first else { return "Add triggers when you log to see what sets cravings off." }
        guard triggerLogs.logs >= 2 else { return Self.oneTrigger }
        let leaders = Self.leaders(triggers)
        // "Triggered both cravings" only when every craving in the range named a trigger.
        if triggerLogs.allShareTop, namedByAll(triggerLogs) {
            return leaders.count == 1
                ? "\(top.label) triggered \(Self.every(triggerLogs)). This is your main pattern right now."
                : "\(Self.list(leaders)) triggered \(Self.every(triggerLogs)). These are your main patterns right now."
        }
        return leaders.count == 1
            ? "💡 \(top.label) is your main trigger" : "💡 \(Self.list(leaders)) are your main triggers"
    }

    public var locationInsight: String {
        guard let top = locations.first else { return "Add a place when you log to see where cravings happen." }
        guard locationLogs.logs >= 2 else { return Self.onePlace }
        if locationLogs.allShareTop, namedByAll(locationLogs) {
            return "\(Self.capitalized(Self.every(locationLogs))) at \(top.label). \(Self.placesMatter)"
        }
        let leaders = Self.leaders(locations)
        if leaders.count > 1 {
            return
                "\(Self.capitalized(Self.noun(locationLogs))) at \(Self.list(leaders)), \(top.percent)% each. \(Self.placesMatter)"
        }
        return "Most \(Self.noun(locationLogs)) at \(top.label) (\(top.percent)%). \(Self.placesMatter)"
    }

    /// What a place has to do with it, in plain words.
    static let placesMatter = "Where you are can set off a craving. 🏠"

    /// "8 PM", "12 AM".
    static func hourName(_ hour: Int) -> (number: String, half: String) {
        let h = (hour % 24 + 24) % 24
        return (String(h % 12 == 0 ? 12 : h % 12), h < 12 ? "AM" : "PM")
    }

    /// "8–11 PM", "11 AM–2 PM": from the window's first hour for three hours.
    public static func window(_ start: Int) -> String {
        let (a, aHalf) = hourName(start)
        let (b, bHalf) = hourName(start + 3)
        return aHalf == bHalf ? "\(a)–\(b) \(bHalf)" : "\(a) \(aHalf)–\(b) \(bHalf)"
    }

    public var timeInsight: String {
        guard cravings > 0 else { return everCraved ? "No cravings logged \(inRange)." : Self.firstCravingTime }
        let windows = busiestWindows
        guard cravings >= 2, !windows.isEmpty else { return Self.oneCravingTime }
        if windows.count > 3 { return "Spread across the day: no one time stands out" }
        return "Most cravings: \(Self.list(windows.map(Self.window)))" + (windows.count > 1 ? ", as many in each" : "")
    }

    public var weekdayInsight: String {
        guard cravings > 0 else { return everCraved ? "No cravings logged \(inRange)." : Self.firstCravingWeekday }
        guard cravings >= 2 else { return Self.oneCravingWeekday }
        if busiestWeekdays.count == 7 { return "Spread evenly over the week" }
        return "Highest: " + busiestWeekdays.map { LocalDay.weekdayNames[$0] }.joined(separator: ", ")
    }

    public var methodInsight: String {
        guard let top = methods.first else {
            return everUsed ? "No use logged \(inRange)." : "Track usage to see which methods you use. 🌿"
        }
        if methods.count == 1 { return "All \(top.label)" }
        let leaders = Self.leaders(methods)
        return leaders.count > 1
            ? "\(Self.list(leaders)), \(top.percent)% each" : "Mostly \(top.label) (\(top.percent)%)"
    }

    /// "2 cravings resisted — each one counts"; a craving whose 2 hours have not passed is said to
    /// be open, never resisted: "1 craving still open — it counts as resisted once 2 hours pass
    /// without a use".
    public var resistedText: String {
        let open = "\(Glance.cravings(openCravings)) still open"
        if openCravings > 0, resisted == 0 {
            return open
                + " — \(openCravings == 1 ? "it counts" : "each counts") as resisted once 2 hours pass without a use"
        }
        let text =
            resisted == 1 ? "1 craving resisted — each one counts" : "\(resisted) cravings resisted — each one counts"
        return openCravings > 0 ? text + "; \(openCravings) still open" : text
    }

    public var resistedInsight: String {
        guard cravings > 0 else { return everCraved ? "No cravings logged \(inRange)." : Self.firstCravingResisted }
        guard resisted > 0 else { return "Every craving you log builds awareness. 💪" }
        let percent = resistedPercent ?? 0
        if percent == 100 { return "Every craving you logged passed without a use. Each one counts. 💪" }
        return
            "\(percent)% of your cravings passed without a use. Every craving you log, whatever came after, builds awareness. 💪"
    }

    /// "Usage Reduction" only when use fell for someone who set out to quit or cut down; a
    /// neutral heading when it rose, stayed or cannot be compared yet, and for other goals.
    public var reductionTitle: String {
        if aimsToReduce, case let .change(percent, _, _) = reduction, percent < 0 { return "📉 Usage Reduction" }
        return "📊 This week and your first"
    }

    /// "−23% vs. your first week" when use fell and the goal is to reduce it; otherwise the two
    /// weeks side by side ("Last 7 days: 7 uses · first week: 1 use"), never a rise as a percent.
    public var reductionText: String? {
        guard case let .change(percent, first, last) = reduction else { return nil }
        if aimsToReduce, percent < 0 { return "−\(-percent)% vs. your first week" }
        return "Last 7 days: \(Self.usesText(last)) · first week: \(Self.usesText(first))"
    }

    /// "1 use", "3 uses".
    static func usesText(_ count: Int) -> String { count == 1 ? "1 use" : "\(count) uses" }

    public var reductionInsight: String {
        switch reduction {
        case .noUses: aimsToReduce ? Self.trackUsage : "Track usage to see this week beside your first. 📊"
        case .firstWeek:
            aimsToReduce
                ? "Keep logging! After two weeks you'll see this week against your first. 📉"
                : "Keep logging! After two weeks you'll see this week beside your first. 📊"
        case let .noBaseline(last):
            last == 0
                ? "No use logged in your first week or in the last 7 days." + (aimsToReduce ? " 💪" : "")
                : "Your first week had no use to compare with. Tracking still shows your pattern."
        case let .change(percent, _, _):
            percent < 0
                ? (aimsToReduce
                    ? "You're making real progress!" : "Fewer than in your first week. Tracking shows your pattern.")
                : percent == 0
                    ? "About the same as your first week. Awareness is where change starts."
                    : aimsToReduce
                        ? "More than your first week. Progress isn't a straight line — every log helps you understand your pattern. 💪"
                        : "More than your first week. Every log helps you understand your pattern."
        }
    }

    /// Every section's sentence, in the dashboard's order.
    public var insights: [String] {
        [
            summaryInsight, currentStreakInsight, daysInProgressInsight, intensityInsight, amountsInsight,
            triggerInsight,
            locationInsight, timeInsight, weekdayInsight, methodInsight, resistedInsight, reductionInsight,
        ].compactMap { $0 }
    }

    /// Every word the dashboard shows for these figures: titles, lines and sentences.
    public var allWords: [String] {
        [
            summaryLine, currentStreakTitle, currentStreakText,
            speaksOfUseOnly ? nil : longestStreakTitle, speaksOfUseOnly ? nil : longestStreakText,
            daysSinceLastUseText,
            resistedText, reductionTitle, reductionText,
        ].compactMap { $0 } + insights
    }

    /// "Anxious and Bored", "Anxious, Bored and Tired".
    static func list(_ names: [String]) -> String {
        names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }
}
