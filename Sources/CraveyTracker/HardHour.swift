import CraveyLibrary
import Foundation

/// The hour of the day that is often hard, from the person's own logs: the clock hour (on the
/// wall clock where each craving was logged) in which most cravings began over the last 28 days,
/// once at least 10 were logged in those days and that hour holds at least 3 of them (one craving
/// in an hour is not "often"). Where two hours hold as many, the one holding the most recent
/// craving of them is the one: what is hard lately.
public struct HardHour: Equatable, Sendable {
    /// The hour, 0–23: "around 9 PM" is 21.
    public let hour: Int
    /// How many cravings in the 28 days began in that hour.
    public let inHour: Int
    /// How many cravings the 28 days hold in all.
    public let cravings: Int

    /// The days looked back over.
    public static let days = 28
    /// The fewest cravings in those days that show an hour.
    public static let fewest = 10
    /// The fewest of them the hour must hold: one craving in an hour is not "often".
    public static let fewestInHour = 3

    public init(hour: Int, inHour: Int, cravings: Int) {
        (self.hour, self.inHour, self.cravings) = (hour, inHour, cravings)
    }

    /// What the logs show: an hour, or too few cravings to tell.
    public enum Finding: Equatable, Sendable {
        case hour(HardHour)
        /// Fewer than `fewest` cravings in the days looked back over (how many there were).
        case tooFew(cravings: Int)
        /// Enough cravings, but no hour holds `fewestInHour` of them (how many there were).
        case scattered(cravings: Int)

        public var hardHour: HardHour? {
            if case let .hour(found) = self { found } else { nil }
        }

        /// How many cravings the days looked back over hold.
        public var cravings: Int {
            switch self {
            case let .hour(found): found.cravings
            case let .tooFew(count), let .scattered(count): count
            }
        }
    }

    /// The hard hour of the cravings begun at `times`, as of `now`: those of the last `days`
    /// days (after `now` minus 28 × 24 hours, not after `now`) count.
    public static func find(in times: [LogTime], now: Date) -> Finding {
        let from = now.addingTimeInterval(-Double(days) * 86_400)
        let counted = times.filter { $0.instant > from && $0.instant <= now }
        guard counted.count >= fewest else { return .tooFew(cravings: counted.count) }
        var count = [Int](repeating: 0, count: 24)
        var latest = [Date](repeating: .distantPast, count: 24)
        for time in counted {
            count[time.localHour] += 1
            latest[time.localHour] = max(latest[time.localHour], time.instant)
        }
        let hour = (0..<24).max { (count[$0], latest[$0]) < (count[$1], latest[$1]) }!
        guard count[hour] >= fewestInHour else { return .scattered(cravings: counted.count) }
        return .hour(HardHour(hour: hour, inHour: count[hour], cravings: counted.count))
    }

    /// "9 PM", "midnight", "noon".
    public var words: String { Self.name(hour) }

    /// "9 and 10 PM", "11 AM and noon", "midnight and 1 AM": the hour's start and end.
    public var span: String {
        let (a, aHalf) = ProgressFigures.hourName(hour)
        let (b, bHalf) = ProgressFigures.hourName(hour + 1)
        if hour % 12 != 11 && hour % 12 != 0 && aHalf == bHalf { return "\(a) and \(b) \(bHalf)" }
        return Self.name(hour) + " and " + Self.name(hour + 1)
    }

    /// The hour as it is said: "9 PM"; 12 is "midnight" or "noon", which "12 AM" and "12 PM" leave unclear.
    static func name(_ hour: Int) -> String {
        switch (hour % 24 + 24) % 24 {
        case 0: return "midnight"
        case 12: return "noon"
        default:
            let (number, half) = ProgressFigures.hourName(hour)
            return number + " " + half
        }
    }
}
