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
    private static let offset: TimeInterval = {
        guard let text = Configuration.current.clockStart, let start = parse(text) else { return 0 }
        return start.timeIntervalSince1970 - Date().timeIntervalSince1970
    }()

    static func now() -> Date { Date().addingTimeInterval(offset) }

    /// `YYYY-MM-DDTHH:MM:SS` in local time.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(whereSeparator: { "-T: ".contains($0) }).compactMap { Int($0) }
        guard parts.count == 6 else { return nil }
        var fields = tm()
        fields.tm_year = Int32(parts[0] - 1900)
        fields.tm_mon = Int32(parts[1] - 1)
        fields.tm_mday = Int32(parts[2])
        fields.tm_hour = Int32(parts[3])
        fields.tm_min = Int32(parts[4])
        fields.tm_sec = Int32(parts[5])
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
