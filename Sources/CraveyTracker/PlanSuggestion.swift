import CraveyLibrary
import Foundation

/// Where a plan would help most, from the person's own logs: the trigger and hour of the day that
/// came up most often in the last four weeks (cravings and uses alike) with no plan for them yet —
/// at least three times, so it is a pattern and not a day. Home shows it as its note on one day a
/// week at most; one key puts it away until the next week.
public struct PlanSuggestion: Sendable, Equatable {
    public var trigger: Trigger
    public var hour: Int
    /// How many logs of the last four weeks had this trigger in this hour.
    public var count: Int

    public init(trigger: Trigger, hour: Int, count: Int) {
        (self.trigger, self.hour, self.count) = (trigger, hour, count)
    }

    /// The days of logs looked at.
    public static let days = 28
    /// The fewest logs that make a pattern.
    public static let fewest = 3

    /// A log as the rule reads it: its triggers and its local hour.
    public struct Log: Sendable, Equatable {
        public var triggers: [Trigger]
        public var hour: Int
        public init(triggers: [Trigger], hour: Int) { (self.triggers, self.hour) = (triggers, hour) }
    }

    /// The trigger and hour that recur most in `logs` with no plan for them (a plan for the
    /// trigger at any hour, or at that hour, at any place), at least `fewest` times; a tie goes to
    /// the trigger first in the list, then the earlier hour. nil: nothing recurs without a plan.
    public static func spot(_ logs: [Log], plans: [Plan]) -> PlanSuggestion? {
        var counts: [Int: Int] = [:]  // trigger index * 24 + hour
        for log in logs where (0...23).contains(log.hour) {
            for trigger in Set(log.triggers) {
                let planned = plans.contains { $0.trigger == trigger && ($0.hour == nil || $0.hour == log.hour) }
                if !planned { counts[Trigger.allCases.firstIndex(of: trigger)! * 24 + log.hour, default: 0] += 1 }
            }
        }
        guard let best = counts.filter({ $0.value >= fewest }).min(by: { ($1.value, $0.key) < ($0.value, $1.key) })
        else { return nil }
        return PlanSuggestion(trigger: Trigger.allCases[best.key / 24], hour: best.key % 24, count: best.value)
    }

    /// Whether home shows the suggestion `today`, given what is stored of the last time
    /// ("YYYY-MM-DD", with " dismissed" once put away), and what to store then (nil: leave it).
    /// Shown on one day in seven at most: on the day it was last shown until put away, and again
    /// seven days after that day.
    public static func showing(_ stored: String?, today: LocalDay) -> (show: Bool, store: String?) {
        let parts = stored?.split(separator: " ") ?? []
        guard let first = parts.first, let day = LocalDay(parsing: String(first)), day <= today else {
            return (true, today.text)
        }
        if today - day >= 7 { return (true, today.text) }
        return (day == today && parts.count == 1, nil)
    }

    /// The note on home: where a plan would help, and the keys (each held to its words).
    public var note: String {
        "A plan could help: \(trigger.rawValue) came up \(count) times around \(LogTime.digits(hour)):00 in the last 4 weeks, with no plan for it yet.  "
            + "i\u{A0}make\u{A0}a\u{A0}plan   x\u{A0}not\u{A0}now"
    }
}

extension Tracker {
    /// The suggestion home shows now (nil: none this week, or nothing recurs without a plan);
    /// the day it is shown is kept, so it shows on one day a week at most.
    public func planSuggestion(now: Date, timeZone: TimeZone = .current) throws -> PlanSuggestion? {
        let since = now.addingTimeInterval(-Double(PlanSuggestion.days) * 86_400)
        let logs = try entries(since: since).map { entry -> PlanSuggestion.Log in
            switch entry {
            case let .craving(c): PlanSuggestion.Log(triggers: c.triggers, hour: c.time.localHour)
            case let .use(u): PlanSuggestion.Log(triggers: u.triggers, hour: u.time.localHour)
            }
        }
        guard let spot = PlanSuggestion.spot(logs, plans: try plans()) else { return nil }
        let (show, store) = PlanSuggestion.showing(
            try library.setting(.planSuggestion), today: LocalDay(now, in: timeZone))
        if let store { try library.setSetting(.planSuggestion, to: store) }
        return show ? spot : nil
    }

    /// Puts this week's suggestion away (one key on home): not shown again until seven days after
    /// the day it was shown.
    public func dismissPlanSuggestion(now: Date, timeZone: TimeZone = .current) throws {
        let stored = try library.setting(.planSuggestion)
        let day = stored?.split(separator: " ").first.map(String.init) ?? LocalDay(now, in: timeZone).text
        try library.setSetting(.planSuggestion, to: day + " dismissed")
    }
}
