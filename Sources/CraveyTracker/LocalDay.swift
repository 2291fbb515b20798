import CraveyLibrary
import Foundation

/// A calendar day where a person was: the number of days since 1970-01-01 on their wall clock.
/// Progress counts in these (streaks, Days in Progress, the range, the weekday), so a day is a
/// day however long it was: 23 or 25 hours across a change of clocks make one day each.
public struct LocalDay: Sendable, Hashable, Comparable, Codable {
    public var number: Int

    public init(number: Int) { self.number = number }

    /// The day an instant falls on, `utcOffset` seconds east of UTC.
    public init(_ instant: Date, utcOffset: Int) {
        number = Self.day(
            millisecondsSince1970: Int64((instant.timeIntervalSince1970 * 1000).rounded(.down)), utcOffset: utcOffset)
    }

    /// The day an instant falls on in `timeZone` (the offset that zone had then).
    public init(_ instant: Date, in timeZone: TimeZone) {
        self.init(instant, utcOffset: timeZone.secondsFromGMT(for: instant))
    }

    /// The day of a log: where and when it was logged.
    public init(_ time: LogTime) { self.init(time.instant, utcOffset: time.utcOffset) }

    static func day(millisecondsSince1970 ms: Int64, utcOffset: Int) -> Int {
        let local = ms + Int64(utcOffset) * 1000
        return Int(local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000)
    }

    public static func < (a: LocalDay, b: LocalDay) -> Bool { a.number < b.number }

    public static func + (day: LocalDay, days: Int) -> LocalDay { LocalDay(number: day.number + days) }
    public static func - (day: LocalDay, days: Int) -> LocalDay { LocalDay(number: day.number - days) }
    public static func - (a: LocalDay, b: LocalDay) -> Int { a.number - b.number }

    /// 0 Monday … 6 Sunday (1970-01-01 was a Thursday).
    public var weekday: Int { ((number + 3) % 7 + 7) % 7 }

    public static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The civil date (proleptic Gregorian; days to date as in H. Hinnant's `civil_from_days`).
    /// Arithmetic, not Calendar: listings and progress read tens of thousands of these.
    public var civil: (year: Int, month: Int, day: Int) {
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The day of a civil date (`days_from_civil`).
    public init(year: Int, month: Int, day: Int) {
        number = LocalDate.number(year: year, month: month, day: day)
    }

    /// "2026-10-10".
    public var text: String {
        let (year, month, day) = civil
        return LogTime.digits(year, 4) + "-" + LogTime.digits(month) + "-" + LogTime.digits(day)
    }

    /// "Oct 10".
    public var short: String {
        let (_, month, day) = civil
        return Self.monthNames[month - 1] + " " + String(day)
    }

    /// From this day to `last`, as a person reads it: "Oct 10–16", "Oct 28–Nov 3", "Oct 10";
    /// with the years when the span is not all in `year`: "Dec 28, 2025–Jan 3, 2026".
    public func span(to last: LocalDay, currentYear year: Int) -> String {
        let (y1, m1, d1) = civil
        let (y2, m2, d2) = last.civil
        if y1 != year || y2 != year {
            return last == self ? "\(short), \(y1)" : "\(short), \(y1)–\(last.short), \(y2)"
        }
        if last == self { return short }
        return m1 == m2 ? "\(Self.monthNames[m1 - 1]) \(d1)–\(d2)" : "\(short)–\(last.short)"
    }

    /// The days from this one to `last` with the year said once: "Oct 27–Nov 25, 2026", or both
    /// years across a new year ("Dec 20, 2025–Jan 2, 2026").
    public func span(toWithYear last: LocalDay) -> String {
        let year = last.civil.year
        return civil.year == year
            ? span(to: last, currentYear: year) + ", \(year)" : span(to: last, currentYear: year + 1)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a day: \(text)"))
        }
        self.init(year: parts[0], month: parts[1], day: parts[2])
    }
}
