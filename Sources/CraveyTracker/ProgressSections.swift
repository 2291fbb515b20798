import CraveyLibrary
import Foundation

/// One section of the progress dashboard: what it shows (its kind), its title and its sentence.
/// The terminal and the HTML page draw the same list, in the same order, from `sections`.
public struct ProgressSection: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case summary, currentStreak, longestStreak, daysInProgress, intensity, amounts, triggers, locations
        case timeOfDay, weekdays, methods, resisted, reduction, money, messages, cravingLength, milestones
        case withdrawal, limits
    }

    public let kind: Kind
    public let title: String
    /// The sentence beneath it (nil: none).
    public let sentence: String?
}

extension ProgressFigures {
    public static let milestonesTitle = "🏅 Milestones"
    public static let withdrawalTitle = "🌙 Withdrawal check, day by day"
    public static let limitsTitle = "🧭 Limits"

    /// The milestones' sentence: what is there to come, or that a reached one is kept.
    public var milestonesSentence: String {
        shownMilestones.isEmpty
            ? "Your first milestone comes with your first day of tracking. 🌱"
            : "Each milestone is kept with the day you reached it: nothing takes one back."
    }

    /// Every section, top to bottom: the longest streak is left out where the goal speaks of use
    /// only, Money kept until a price is set.
    public var sections: [ProgressSection] {
        var out: [ProgressSection] = []
        func add(_ kind: ProgressSection.Kind, _ title: String, _ sentence: String?) {
            out.append(ProgressSection(kind: kind, title: title, sentence: sentence))
        }
        add(.summary, "Summary", summaryInsight)
        add(.currentStreak, currentStreakTitle, currentStreakInsight ?? Self.startLogging)
        if !speaksOfUseOnly { add(.longestStreak, longestStreakTitle, nil) }
        add(.daysInProgress, "🌱 Days in Progress", daysInProgressInsight)
        if withdrawalChart != nil { add(.withdrawal, Self.withdrawalTitle, WithdrawalWindow.timeCourse) }
        add(.intensity, "📈 Craving Intensity Over Time", intensityInsight)
        add(.amounts, "📊 Amount Trends", amountsInsight)
        add(.triggers, "🧩 Trigger Breakdown", triggerInsight)
        add(.locations, "📍 Location Patterns", locationInsight)
        add(.timeOfDay, "🕐 Time of Day Patterns", timeInsight)
        add(.weekdays, "📅 Weekly Patterns", weekdayInsight)
        add(.methods, "🌿 Method Breakdown", methodInsight)
        add(.resisted, "💪 Cravings Resisted", resistedInsight)
        add(.reduction, reductionTitle, reductionInsight)
        if let limits { add(.limits, Self.limitsTitle, limits.sentence) }
        if let money { add(.money, MoneyKept.title, money.insight) }
        add(.messages, Self.messagesTitle, messagesInsight)
        add(.cravingLength, Self.lengthTitle, cravingLengthInsight)
        add(.milestones, Self.milestonesTitle, milestonesSentence)
        return out
    }

    /// The days from `from` to `today`, both counted.
    public var dayCount: Int { today - from + 1 }

    /// The day halfway along the range, shown under a chart between its first and last day.
    public var middleDay: LocalDay { from + dayCount / 2 }

    /// The intensity chart's points: the mean intensity of each of `slices` slices of time
    /// (across the range) that has a craving.
    public func intensityMeans(slices: Int) -> [(slice: Int, mean: Double)] {
        var sums = [Double](repeating: 0, count: slices)
        var counts = [Int](repeating: 0, count: slices)
        for point in intensity {
            let slice = max(0, min(slices - 1, Int(position(point.time) * Double(slices))))
            sums[slice] += Double(point.intensity)
            counts[slice] += 1
        }
        return (0..<slices).compactMap { s in counts[s] == 0 ? nil : (s, sums[s] / Double(counts[s])) }
    }

    /// A method's columns across the range: one a day, or, with more days than `most` columns,
    /// each the busiest of its days (so the scale stays "a day").
    public func amountColumns(_ points: [AmountPoint], most: Int) -> [Double] {
        let days = dayCount
        let slices = max(1, min(most, days))
        var values = [Double](repeating: 0, count: slices)
        for point in points {
            let slice = max(0, min(slices - 1, (point.day - from) * slices / days))
            values[slice] = max(values[slice], point.amount)
        }
        return values
    }
}
