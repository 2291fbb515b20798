import Foundation

/// Log values as the user types them (on the command line, in a form): each is read into its type
/// or refused with `TrackerError.invalid`, naming the field and quoting what was typed. The field
/// is the log's own (`intensity`, `trigger`); a caller that took the value from a flag of another
/// name says so in its own words.
public enum LogInput {
    /// A whole number of `range`, for `field`.
    public static func wholeNumber(_ text: String, field: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw TrackerError.invalid(
                field: field, reason: "'\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// A craving's intensity, 1–10.
    public static func intensity(_ text: String) throws -> Int {
        try wholeNumber(text, field: "intensity", in: Intensity.range)
    }

    /// A use's mood after, 1–10.
    public static func moodAfter(_ text: String) throws -> Int {
        try wholeNumber(text, field: "mood after", in: MoodAfter.range)
    }

    /// A change to an optional value: `none` (any case) clears it (nil), anything else is read by `read`.
    public static func clearing<Value>(_ text: String, _ read: (String) throws -> Value) rethrows -> Value? {
        text.lowercased() == "none" ? nil : try read(text)
    }

    /// The triggers named: each text one or more names separated by commas; `none` names none.
    public static func triggers(_ texts: [String]) throws -> Set<Trigger> {
        var set = Set<Trigger>()
        for name in texts.flatMap({ $0.split(separator: ",") }).map({
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }) where name != "none" {
            guard let trigger = Trigger(rawValue: name) else {
                throw TrackerError.invalid(
                    field: "trigger",
                    reason: "'\(name)' is not one of \(Trigger.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            set.insert(trigger)
        }
        return set
    }

    /// The place named (nil for none given, or `none`).
    public static func location(_ text: String?) throws -> Location? {
        guard let text, text.lowercased() != "none" else { return nil }
        guard let place = Location(rawValue: text.lowercased()) else {
            throw TrackerError.invalid(
                field: "location",
                reason: "'\(text)' is not one of \(Location.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return place
    }

    /// When it happened (`LogTime.parse`); `now` when none is given.
    public static func time(_ text: String?, now: Date) throws -> LogTime {
        try text.map { try LogTime.parse($0, now: now) } ?? LogTime(now)
    }

    /// The method named (joints and blunts are bowls).
    public static func method(_ text: String) throws -> Method {
        guard let method = Method(name: text.trimmingCharacters(in: .whitespaces)) else {
            throw TrackerError.invalid(
                field: "method", reason: "'\(text)' is not one of bowls (joints, blunts), vape, dab, edible")
        }
        return method
    }

    /// An amount of `method`: one the method offers.
    public static func amount(_ text: String, of method: Method) throws -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, method.allows(value) else {
            throw TrackerError.invalid(
                field: "amount", reason: "'\(text)' is not an amount of \(method.rawValue) (\(method.rangeText))")
        }
        return value
    }

    /// The start of a listing's time: days back from `now` (`7d`, `30d`, any number up to a
    /// century), or a past local date's midnight (`YYYY-MM-DD`).
    public static func since(_ text: String, now: Date) throws -> Date {
        let lowered = text.lowercased()
        if lowered.hasSuffix("d"), let days = Int(lowered.dropLast()), days >= 1, days <= 36_500 {
            return now.addingTimeInterval(-Double(days) * 86_400)
        }
        if let day = try? LogTime.parse(text + " 00:00", now: now) { return day.instant }
        throw TrackerError.invalid(
            field: "since", reason: "'\(text)' is not 7d, 30d, 90d (any number of days) or a past date YYYY-MM-DD")
    }
}

extension Method {
    /// The amount a use has once its method becomes this one: a new method starts at its first
    /// amount (its range and unit change with it); the same method keeps `amount`.
    public func amount(switchingFrom old: Method, amount: Double) -> Double { self == old ? amount : amounts[0] }
}
