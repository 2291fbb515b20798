import Foundation

/// A calendar day where a person was: the number of days since 1970-01-01 on their wall clock.
/// Progress counts in these (streaks, Days in Progress, the range, the weekday), so a day is a
/// day however long it was: 23 or 25 hours across a change of clocks make one day each. The one
/// day cravey knows: check-ins, snapshots, reports and progress all count and read days as this.
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

    /// The day number of an instant given in milliseconds, `utcOffset` seconds east of UTC.
    package static func day(millisecondsSince1970 ms: Int64, utcOffset: Int) -> Int {
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
    /// The months' short names, January first.
    public static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

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

    /// The day of a civil date (proleptic Gregorian; `days_from_civil`). Out-of-range months
    /// and days carry over, as the arithmetic does; `init(parsing:)` takes only real dates.
    public init(year: Int, month: Int, day: Int) {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        number = era * 146_097 + doe - 719_468
    }

    /// The day a person wrote as `YYYY-MM-DD` (ASCII digits, a real date from 1970 on); nil for
    /// anything else ("2026-02-30", "2026-1-05", " 2026-01-05").
    public init?(parsing text: String) {
        let fields = text.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard text.utf8.count == 10, fields.map(\.count) == [4, 2, 2],
            fields.allSatisfy({ $0.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
            let year = Int(String(decoding: fields[0], as: UTF8.self)),
            let month = Int(String(decoding: fields[1], as: UTF8.self)),
            let day = Int(String(decoding: fields[2], as: UTF8.self)),
            year >= 1970, (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day `text` names (see `init(parsing:)`), or a one-line refusal naming `field`.
    public static func parse(_ text: String, field: String) throws -> LocalDay {
        guard let day = LocalDay(parsing: text) else {
            let shown = String(
                String.UnicodeScalarView(
                    text.unicodeScalars.prefix(40).map {
                        $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) ? "?" : $0
                    }))
            // Written as a date, but no such day (2026-02-29, 2026-13-01): said so, not its form.
            let written =
                text.unicodeScalars.count == 10
                && text.unicodeScalars.enumerated().allSatisfy { index, scalar in
                    [4, 7].contains(index) ? scalar == "-" : ("0"..."9").contains(scalar)
                } && Int(text.prefix(4)).map { $0 >= 1970 } == true
            throw LibraryError.invalid(
                field: field,
                reason: written
                    ? "there is no day \(shown) in the calendar" : "'\(shown)' is not a date written as YYYY-MM-DD")
        }
        return day
    }

    /// Days in a month of the Gregorian calendar.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The days in this day's month.
    public var daysInMonth: Int {
        let (year, month, _) = civil
        return Self.daysIn(month: month, year: year)
    }

    /// The week (Monday to Sunday) this day falls in, counted from the week of 1970-01-01.
    public var week: Int { (number + 3 - weekday) / 7 }

    /// "2026-10-10".
    public var text: String {
        let (year, month, day) = civil
        func digits(_ value: Int, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        return digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2)
    }

    /// "Oct 10".
    public var short: String {
        let (_, month, day) = civil
        return Self.monthNames[month - 1] + " " + String(day)
    }

    /// The day as said on `today`: "Nov 19"; with its year when it is more than `yearlessDays`
    /// away, which the month and day alone leave unclear ("Nov 19, 2025").
    public func said(on today: LocalDay) -> String {
        abs(today.number - number) > Self.yearlessDays ? "\(short), \(civil.year)" : short
    }

    /// How far a day may be from today and still be said without its year.
    public static let yearlessDays = 300

    /// "3 days ago (Nov 24)", "468 days ago (Nov 19, 2025)": how long before `today` the day was,
    /// and the day itself (see `said(on:)`).
    public func daysAgo(on today: LocalDay) -> String {
        let days = today.number - number
        return "\(days) day\(days == 1 ? "" : "s") ago (\(said(on: today)))"
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
        guard let day = LocalDay(parsing: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a day: \(text)"))
        }
        self = day
    }
}
