import CraveyLibrary
import Foundation

/// When a log happened: typed as the user thinks of it, in local time, and kept as an instant with
/// the UTC offset of that moment, so a log keeps its wall-clock hour across a change of clocks
/// (DST) or of time zone.
public struct LogTime: Sendable, Equatable {
    public var instant: Date
    /// Seconds east of UTC where and when it was logged.
    public var utcOffset: Int

    public init(instant: Date, utcOffset: Int) {
        self.instant = instant
        self.utcOffset = utcOffset
    }

    /// `instant` in `timeZone` (the offset that zone had then).
    public init(_ instant: Date, in timeZone: TimeZone = .current) {
        self.init(instant: instant, utcOffset: timeZone.secondsFromGMT(for: instant))
    }

    /// As stored: to the millisecond.
    var stored: LogTime { LogTime(instant: instant.truncatedToMilliseconds, utcOffset: utcOffset) }

    /// Events older than this save with a warning: memory may be less reliable.
    public static let reliableMemory: TimeInterval = 7 * 86_400
    public static let oldWarning = "Memory may be less reliable for events more than 7 days ago"

    /// Whether the log is more than 7 days before `now` (it saves, with `oldWarning`).
    public func isOld(now: Date) -> Bool { now.timeIntervalSince(instant) > Self.reliableMemory }

    /// The wall clock where it was logged: "2026-03-29 08:15".
    public var localText: String {
        let (year, month, day, minutes) = local
        return
            "\(Self.digits(year, 4))-\(Self.digits(month))-\(Self.digits(day)) \(Self.digits(minutes / 60)):\(Self.digits(minutes % 60))"
    }

    /// "2026-03-29" where it was logged.
    public var localDay: String {
        let (year, month, day, _) = local
        return "\(Self.digits(year, 4))-\(Self.digits(month))-\(Self.digits(day))"
    }

    /// The hour of the day (0–23) where it was logged.
    public var localHour: Int { local.minutes / 60 }

    /// The minute of the day (0–1439) where it was logged.
    public var localMinuteOfDay: Int { local.minutes }

    /// "+02:00".
    public var offsetText: String {
        let sign = utcOffset < 0 ? "-" : "+"
        let minutes = abs(utcOffset) / 60
        return sign + Self.digits(minutes / 60) + ":" + Self.digits(minutes % 60)
    }

    /// `value` with leading zeros to `count` digits (String(format:) is slow in long listings).
    static func digits(_ value: Int, _ count: Int = 2) -> String {
        let text = String(value)
        return text.count >= count ? text : String(repeating: "0", count: count - text.count) + text
    }

    /// The local date and minute of the day: the instant moved by its offset.
    private var local: (year: Int, month: Int, day: Int, minutes: Int) {
        let seconds = Int((instant.timeIntervalSince1970).rounded(.down)) + utcOffset
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let (year, month, day) = LocalDay(number: days).civil
        return (year, month, day, (seconds - days * 86_400) / 60)
    }

    /// Reads `--at`: `now`, `HH:MM` (today), `yesterday HH:MM`, `YYYY-MM-DD HH:MM`, or a time ago
    /// as `-90m`, `-2h`, `-3d`; local time in `timeZone`. A time later than `now` is refused, and
    /// so is a local time the clocks skipped (a DST change); a time the clocks went through twice
    /// is the first of the two.
    public static func parse(_ raw: String, now: Date, timeZone: TimeZone = .current) throws -> LogTime {
        let text = raw.trimmingCharacters(in: .whitespaces).lowercased()
        func bad(_ reason: String) -> TrackerError { .invalid(field: "time", reason: reason) }
        let usage = "use now, HH:MM, yesterday HH:MM, YYYY-MM-DD HH:MM, or -90m / -2h / -3d"
        let calendar = CheckIn.calendar(in: timeZone)
        let instant: Date
        /// A clock time read as today's ("23:30", "today 23:30"): when it has not come yet,
        /// yesterday's is the likely one.
        var todaysClock: String?
        if text == "now" || text.isEmpty {
            instant = now
        } else if text.hasPrefix("-") {
            guard let unit = text.last, let count = Int(text.dropFirst().dropLast()), count >= 0, count <= 100_000
            else {
                throw bad("'\(raw)' is not a time (\(usage))")
            }
            let seconds: Double
            switch unit {
            case "m": seconds = 60
            case "h": seconds = 3_600
            case "d": seconds = 86_400
            default: throw bad("'\(raw)' is not a time (\(usage))")
            }
            instant = now.addingTimeInterval(-Double(count) * seconds)
        } else {
            var words = text.split(separator: " ").map(String.init)
            if words.count == 1, words[0].count == 16, Array(words[0])[10] == "t" {  // 2026-11-01T07:05
                words = [String(words[0].prefix(10)), String(words[0].suffix(5))]
            }
            let day: DateComponents
            let clock: String
            switch words.count {
            case 1:
                day = calendar.dateComponents([.year, .month, .day], from: now)
                clock = words[0]
            case 2 where words[0] == "yesterday" || words[0] == "today":
                let base = words[0] == "yesterday" ? calendar.date(byAdding: .day, value: -1, to: now) ?? now : now
                day = calendar.dateComponents([.year, .month, .day], from: base)
                clock = words[1]
            case 2:
                let parts = words[0].split(separator: "-").compactMap { Int($0) }
                guard parts.count == 3, words[0].count == 10 else { throw bad("'\(raw)' is not a time (\(usage))") }
                day = DateComponents(year: parts[0], month: parts[1], day: parts[2])
                clock = words[1]
            default:
                throw bad("'\(raw)' is not a time (\(usage))")
            }
            let hm = clock.split(separator: ":").map { Int($0) }
            guard hm.count == 2, let hour = hm[0], let minute = hm[1], (0...23).contains(hour),
                (0...59).contains(minute),
                clock.count == 5 || clock.count == 4
            else {
                throw bad("'\(raw)' is not a time (\(usage))")
            }
            if words.count == 1 || words[0] == "today" { todaysClock = String(format: "%02d:%02d", hour, minute) }
            var wanted = day
            wanted.hour = hour
            wanted.minute = minute
            guard let year = wanted.year, let month = wanted.month, let dayOfMonth = wanted.day,
                (1...12).contains(month), (1...31).contains(dayOfMonth),
                var found = calendar.date(from: wanted)
            else {
                throw bad("'\(raw)' is not a date")
            }
            let back = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: found)
            guard back.year == year, back.month == month, back.day == dayOfMonth else {
                throw bad("'\(raw)' is not a date")
            }
            guard back.hour == hour, back.minute == minute else {
                throw bad(
                    String(
                        format: "%02d:%02d did not happen on %04d-%02d-%02d here (the clocks went forward)", hour,
                        minute, year, month, dayOfMonth))
            }
            // The clocks went back: the same wall-clock time an hour earlier is the first of the two.
            let earlier = found.addingTimeInterval(-3_600)
            if calendar.dateComponents([.hour, .minute], from: earlier) == DateComponents(hour: hour, minute: minute) {
                found = earlier
            }
            instant = found
        }
        guard instant <= now.addingTimeInterval(0.999) else {
            if let todaysClock { throw bad("'\(raw)' is later than now; did you mean yesterday \(todaysClock)?") }
            throw bad("'\(raw)' is later than now; a log is of something that has happened")
        }
        guard instant >= Date(timeIntervalSince1970: 946_684_800) else { throw bad("'\(raw)' is before 2000") }
        return LogTime(instant.truncatedToMilliseconds, in: timeZone)
    }
}

extension LocalDay {
    /// The day of a log: where and when it was logged.
    public init(_ time: LogTime) { self.init(time.instant, utcOffset: time.utcOffset) }
}
