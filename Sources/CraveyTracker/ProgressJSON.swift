import CraveyLibrary
import Foundation

/// `progress --json`: every figure under a stable key, null where there is nothing to figure.
extension ProgressFigures: Encodable {
    private enum Key: String, CodingKey {
        case range, from, to, summary, currentStreak, longestStreak, daysInProgress, daysSinceLastUse, intensity,
            amounts
        case triggers, locations, timeOfDay, weekdays, methods, resisted, reduction, insights
        case messages, cravingLength, medianMinutesToHalf, rides, knownDays, withdrawalChecks, limits
        case cravings, uses, days, points, at, localTime, insight, insightText = "text", hours, count, percent,
            firstWeek, lastWeek, open
    }

    private struct Point: Encodable {
        var point: IntensityPoint
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(StoredDate.text(point.time.instant), forKey: .at)
            try c.encode(point.time.localText, forKey: .localTime)
            try c.encode(point.intensity, forKey: .intensity)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(range, forKey: .range)
        try c.encode(from, forKey: .from)
        try c.encode(today, forKey: .to)
        var summary = c.nestedContainer(keyedBy: Key.self, forKey: .summary)
        try summary.encode(cravings, forKey: .cravings)
        try summary.encode(uses, forKey: .uses)
        try summary.encode(summaryLine, forKey: .insightText)
        try summary.encode(summaryInsight, forKey: .insight)
        if let currentStreak {
            var streak = c.nestedContainer(keyedBy: Key.self, forKey: .currentStreak)
            try streak.encode(currentStreak, forKey: .days)
            try streak.encodeIfPresent(currentStreakInsight, forKey: .insight)
        } else {
            try c.encodeNil(forKey: .currentStreak)
        }
        try c.encode(longestStreak, forKey: .longestStreak)
        try c.encode(daysInProgress, forKey: .daysInProgress)
        try c.encode(daysSinceLastUse, forKey: .daysSinceLastUse)
        var intensity = c.nestedContainer(keyedBy: Key.self, forKey: .intensity)
        try intensity.encode(self.intensity.map(Point.init), forKey: .points)
        try intensity.encode(intensityInsight, forKey: .insight)
        var amounts = c.nestedContainer(keyedBy: JSONKey.self, forKey: .amounts)
        for (method, points) in self.amounts { try amounts.encode(points, forKey: JSONKey(method.rawValue)) }
        try c.encode(triggers, forKey: .triggers)
        try c.encode(locations, forKey: .locations)
        var time = c.nestedContainer(keyedBy: Key.self, forKey: .timeOfDay)
        try time.encode(hours, forKey: .hours)
        try time.encode(timeInsight, forKey: .insight)
        var week = c.nestedContainer(keyedBy: Key.self, forKey: .weekdays)
        try week.encode(weekdays, forKey: .days)
        try week.encode(weekdayInsight, forKey: .insight)
        try c.encode(methods, forKey: .methods)
        var resisted = c.nestedContainer(keyedBy: Key.self, forKey: .resisted)
        try resisted.encode(self.resisted, forKey: .count)
        try resisted.encode(openCravings, forKey: .open)
        try resisted.encode(resistedPercent, forKey: .percent)
        try resisted.encode(resistedInsight, forKey: .insight)
        var reduction = c.nestedContainer(keyedBy: Key.self, forKey: .reduction)
        try reduction.encode(self.reduction.percent, forKey: .percent)
        if case let .change(_, first, last) = self.reduction {
            try reduction.encode(first, forKey: .firstWeek)
            try reduction.encode(last, forKey: .lastWeek)
        }
        try reduction.encode(reductionInsight, forKey: .insight)
        try c.encode(insights, forKey: .insights)
        try encodeHelp(&c)
        try encodeMoney(to: encoder)
        try encodeMilestones(to: encoder)
        try c.encode(known, forKey: .knownDays)
        try c.encode(withdrawalChart, forKey: .withdrawalChecks)
        try c.encode(limits, forKey: .limits)
    }

    /// Which messages help and how long cravings last.
    private func encodeHelp(_ c: inout KeyedEncodingContainer<Key>) throws {
        try c.encode(messages, forKey: .messages)
        var length = c.nestedContainer(keyedBy: Key.self, forKey: .cravingLength)
        try length.encode(cravingLength.medianMinutesToHalf, forKey: .medianMinutesToHalf)
        try length.encode(cravingLength.rides, forKey: .rides)
        try length.encode(cravingLengthText ?? cravingLengthInsight, forKey: .insight)
    }
}
