import Foundation

/// The dashboard's words: each section's line and its sentence, encouraging and never judging —
/// no warnings, no broken streaks, nothing "failed". Every chart has a sentence from two logs on,
/// and an encouraging one when it has nothing to show.
extension ProgressFigures {
    public static let keepLogging = "Keep logging! Trends become clearer with more data. 💪"
    public static let firstCraving = "Log your first craving to see intensity trends! 📈"
    public static let trackUsage = "Track usage to see your reduction over time! 📉"
    public static let startLogging = "Start logging to see your patterns! 💪"

    /// "3 Cravings • 1 Usage Event".
    public var summaryLine: String {
        "\(cravings) Craving\(cravings == 1 ? "" : "s") • \(uses) Usage Event\(uses == 1 ? "" : "s")"
    }

    /// "in these 7 days" / "yet".
    private var inRange: String { range.days.map { "in these \($0) days" } ?? "yet" }

    public var summaryInsight: String {
        if cravings + uses > 0 { return "You're building awareness! 💪" }
        return everCraved || everUsed ? "Nothing logged \(inRange). Log a craving or a use whenever it helps. 💪" : Self.startLogging
    }

    /// "3 days".
    public static func days(_ count: Int) -> String { count == 1 ? "1 day" : "\(count) days" }

    public var currentStreakInsight: String? {
        guard let currentStreak else { return nil }
        return currentStreak > 0 ? "Keep going!" : "Every day is a fresh start. 💪"
    }

    /// "7 days (Oct 10–16)".
    public var longestStreakText: String? {
        longestStreak.map { "\(Self.days($0.days)) (\($0.from.span(to: $0.to, currentYear: currentYear)))" }
    }

    public var daysInProgressInsight: String? {
        daysInProgress.map { "Day \($0) of your journey. This count never resets." }
    }

    public var daysSinceLastUseText: String? {
        daysSinceLastUse.map { $0 == 0 ? "Last use logged today" : "\(Self.days($0)) since your last logged use" }
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
        if lastText == firstText { return "Consistent intensity (\(firstText)/10). Tracking helps you spot patterns over time." }
        if last < first { return "Your intensity dropped from \(firstText)/10 to \(lastText)/10. That's progress! 📉" }
        return "Intensity increased to \(lastText)/10. Recovery isn't linear - you're learning. 💪"
    }

    public var amountsInsight: String {
        guard uses > 0 else { return everUsed ? "No use logged \(inRange)." : Self.trackUsage }
        if case let .change(percent, _, _) = reduction, percent < 0 {
            return "You used \(-percent)% less this week compared to your first week. 📉"
        }
        let totals = amounts.map { entry in entry.method.amountText(entry.points.reduce(0) { $0 + $1.amount }) }
        return "In all: " + totals.joined(separator: ", ") + "."
    }

    /// What the logs counted are called: "cravings", "usage events", or "logs" when both.
    private static func noun(_ counted: Counted) -> String {
        counted.uses == 0 ? "cravings" : counted.cravings == 0 ? "usage events" : "logs"
    }

    /// "both cravings", "all 5 logs".
    private static func every(_ counted: Counted) -> String {
        counted.logs == 2 ? "both \(noun(counted))" : "all \(counted.logs) \(noun(counted))"
    }

    public var triggerInsight: String {
        guard let top = triggers.first else { return "Add triggers when you log to see what sets cravings off." }
        guard triggerLogs.logs >= 2 else { return Self.keepLogging }
        if triggerLogs.allShareTop { return "\(top.label) triggered \(Self.every(triggerLogs)). This is your main pattern right now." }
        let leaders = triggers.filter { $0.count == top.count }.map(\.label)
        return leaders.count == 1 ? "💡 \(top.label) is your main trigger" : "💡 \(Self.list(leaders)) are your main triggers"
    }

    public var locationInsight: String {
        guard let top = locations.first else { return "Add a place when you log to see where cravings happen." }
        guard locationLogs.logs >= 2 else { return Self.keepLogging }
        if locationLogs.allShareTop {
            return "\(Self.every(locationLogs).prefix(1).uppercased() + Self.every(locationLogs).dropFirst()) at \(top.label). Environmental cues matter! 🏠"
        }
        return "Most \(Self.noun(locationLogs)) at \(top.label) (\(top.percent)%). Environmental cues matter! 🏠"
    }

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
        guard cravings > 0 else { return everCraved ? "No cravings logged \(inRange)." : Self.firstCraving }
        guard cravings >= 2, let start = busiestWindow else { return Self.keepLogging }
        return "Most cravings: \(Self.window(start))"
    }

    public var weekdayInsight: String {
        guard cravings > 0 else { return everCraved ? "No cravings logged \(inRange)." : Self.firstCraving }
        guard cravings >= 2 else { return Self.keepLogging }
        return "Highest: " + busiestWeekdays.map { LocalDay.weekdayNames[$0] }.joined(separator: ", ")
    }

    public var methodInsight: String {
        guard let top = methods.first else { return everUsed ? "No use logged \(inRange)." : "Track usage to see which methods you use. 🌿" }
        return methods.count == 1 ? "All \(top.label)" : "Mostly \(top.label) (\(top.percent)%)"
    }

    public var resistedText: String {
        resisted == 1 ? "1 craving resisted — each one counts" : "\(resisted) cravings resisted — each one counts"
    }

    public var resistedInsight: String {
        guard cravings > 0 else { return everCraved ? "No cravings logged \(inRange)." : Self.firstCraving }
        guard resisted > 0 else { return "Every craving you log builds awareness. 💪" }
        return "\(resistedPercent ?? 0)% of your cravings passed without a use. That's strength! 💪"
    }

    /// "−23% vs. your first week".
    public var reductionText: String? {
        guard case let .change(percent, _, _) = reduction else { return nil }
        return (percent < 0 ? "−\(-percent)%" : percent > 0 ? "+\(percent)%" : "0%") + " vs. your first week"
    }

    public var reductionInsight: String {
        switch reduction {
        case .noUses: Self.trackUsage
        case .firstWeek: "Keep logging! After two weeks you'll see this week against your first. 📉"
        case let .noBaseline(last): last == 0 ? "No use logged in your first week or in the last 7 days. 💪"
            : "Your first week had no use to compare with. Tracking still shows your pattern."
        case let .change(percent, _, _):
            percent < 0 ? "You're making real progress!"
                : percent == 0 ? "About the same as your first week. Awareness is where change starts."
                : "ProgressFigures isn't a straight line - every log helps you understand your pattern. 💪"
        }
    }

    /// Every section's sentence, in the dashboard's order.
    public var insights: [String] {
        [summaryInsight, currentStreakInsight, daysInProgressInsight, intensityInsight, amountsInsight, triggerInsight,
         locationInsight, timeInsight, weekdayInsight, methodInsight, resistedInsight, reductionInsight].compactMap { $0 }
    }

    /// "Anxious and Bored", "Anxious, Bored and Tired".
    static func list(_ names: [String]) -> String {
        names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }
}
