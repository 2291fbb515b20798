import CraveyLibrary
import Foundation

/// What a save says: one line naming what was kept, so a wrong number is seen at once. The
/// command, the form and the home screen's note all say it with these words.
public enum LogWords {
    /// What follows a craving's saved line: logging it was a moment of awareness, not a failure.
    public static let encouragement = "💪 Logged. Every moment of awareness counts."

    /// "Craving logged ✓ — 8 (strong), 21:52", "Usage logged ✓ — vape, 3 pulls, yesterday 21:30".
    /// The time is said as it was typed: the clock for today, "yesterday" and the clock, else the
    /// date and the clock (`now` and `timeZone` say what today is).
    public static func saved(_ entry: LogEntry, now: Date, timeZone: TimeZone = .current) -> String {
        let when = time(entry.time, now: now, timeZone: timeZone)
        switch entry {
        case let .craving(c):
            return "Craving logged ✓ — \(c.intensity) (\(c.band.rawValue)), \(when)"
        case let .use(u):
            return "Usage logged ✓ — \(amount(u.method, u.amount)), \(when)"
        }
    }

    /// A use's method and amount in a few words: "vape, 3 pulls", "edible, 10 mg THC"; where the
    /// unit names the method already, the amount alone ("2 dabs", "1.5 bowls/joints").
    public static func amount(_ method: Method, _ amount: Double) -> String {
        switch method {
        case .bowls, .dab: method.amountText(amount)
        case .vape, .edible: "\(method.rawValue), \(method.amountText(amount))"
        }
    }

    /// "21:52" today, "yesterday 21:30", else "2026-11-20 08:15": the wall clock where it was logged.
    public static func time(_ time: LogTime, now: Date, timeZone: TimeZone = .current) -> String {
        let clock = String(time.localText.suffix(5))
        switch LocalDay(now, in: timeZone) - LocalDay(time) {
        case 0: return clock
        case 1: return "yesterday " + clock
        default: return time.localText
        }
    }

    /// The note a log older than 7 days is saved with (nil for a recent one): calm, not an error.
    public static func note(_ time: LogTime, now: Date) -> String? {
        time.isOld(now: now) ? LogTime.oldWarning : nil
    }
}
