import CraveyLibrary
import Foundation
import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

/// The local time the check-in goes by (the day, the greeting). A configured start
/// (`Configuration.clockStart`) starts this clock at that moment for tests, and it runs on from
/// there in real time, so a test can cross midnight during a recording.
enum LocalClock {
    /// The configured start and the real moment it was read (nil: the real clock).
    private static let start: (at: Date, real: Date)? = {
        guard let text = Configuration.current.clockStart, let start = parse(text) else { return nil }
        return (start, Date())
    }()

    /// Now: the real clock, or the configured start and the time run since (never a moment
    /// before the start, which a difference of two clocks could round to).
    static func now() -> Date {
        guard let start else { return Date() }
        return start.at.addingTimeInterval(max(0, Date().timeIntervalSince(start.real)))
    }

    /// `YYYY-MM-DDTHH:MM:SS` in local time: the day as every day is read (`LocalDay`), then the
    /// clock on it.
    static func parse(_ text: String) -> Date? {
        let halves = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2, let day = LocalDay(parsing: String(halves[0])) else { return nil }
        let clock = halves[1].split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard clock.count == 3, let hour = clock[0], let minute = clock[1], let second = clock[2],
            (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second)
        else { return nil }
        let (year, month, date) = day.civil
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month - 1)
        fields.tm_mday = Int32(date)
        fields.tm_hour = Int32(hour)
        fields.tm_min = Int32(minute)
        fields.tm_sec = Int32(second)
        fields.tm_isdst = -1
        let seconds = mktime(&fields)
        return seconds == -1 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// "Good morning" (5–12), "Good afternoon" (12–17), "Good evening" (17–21), "Good night" (21–5).
    static func greeting(at date: Date) -> String {
        let hour = CheckIn.localHour(of: date)
        switch hour {
        case 5..<12: return "Good morning"
        case 12..<17: return "Good afternoon"
        case 17..<21: return "Good evening"
        default: return "Good night"
        }
    }
}
