import CraveyLibrary
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The nudge before the hard hour: one notification 15 minutes before the hour that is often
/// hard, and the rules that keep it rare. Never more than one a day; none when a use or a ride was
/// logged in the last hour; a nudge no cravey command followed within 60 minutes went by unused,
/// and after two of those in a row it rests for the 7 days that follow, then tries again.
public enum Nudge {
    /// How long before the hour the nudge comes.
    public static let leadMinutes = 15
    /// A run this close before the hour (or closer) shows it: a timer that runs a little late
    /// still does.
    public static let windowMinutes = 30
    /// A command within this time after a nudge answers it.
    public static let answerSeconds: TimeInterval = 3_600
    /// A use or a ride this recent keeps the nudge back.
    public static let recentSeconds: TimeInterval = 3_600
    /// Unused nudges in a row after which it rests, and the days it rests.
    public static let unusedInARow = 2
    public static let restDays = 7
    /// When the timer runs while no hour is found: once a day, to look again.
    public static let lookingTime = (hour: 12, minute: 0)

    /// What the nudge keeps between runs (in the library, see `NudgeFiles`).
    public struct State: Codable, Equatable, Sendable {
        /// When the last nudge was shown.
        public var lastShown: Date?
        /// Whether the last nudge shown is still to be found answered or unused.
        public var awaiting = false
        /// Nudges in a row that went by unused.
        public var unused = 0
        /// The first day it tries again after a rest.
        public var restingUntil: LocalDay?

        public init(lastShown: Date? = nil, awaiting: Bool = false, unused: Int = 0, restingUntil: LocalDay? = nil) {
            (self.lastShown, self.awaiting, self.unused, self.restingUntil) =
                (lastShown, awaiting, unused, restingUntil)
        }
    }

    /// The state as far as it can be true at `now`: a last nudge more than a year from now
    /// (a torn or hand-made file) is forgotten, a count of unused ones is kept within 0 and 1,
    /// and a rest that ends later than a rest begun today would (a clock that went back, or a
    /// hand-made day) is over.
    static let believableSeconds: TimeInterval = 366 * 86_400

    /// The time of day the nudge for `hour` comes: 15 minutes before it (23:45 for midnight).
    /// On the day the clocks go forward that time may not exist: the nudge itself comes at
    /// `moment(before:on:in:)`.
    public static func time(before hour: Int) -> (hour: Int, minute: Int) {
        let minutes = ((hour * 60 - leadMinutes) % 1_440 + 1_440) % 1_440
        return (minutes / 60, minutes % 60)
    }

    /// The moment `hour` begins on `day` in `timeZone`, as the clock really runs: on the day the
    /// clocks go forward past it, the moment they do; on the day it comes twice, the first time.
    public static func start(of hour: Int, on day: LocalDay, in timeZone: TimeZone) -> Date {
        let wall = Double(day.number * 86_400 + hour * 3_600)
        func offset(_ seconds: Double) -> Double {
            Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
        }
        // The offsets in force half a day either side: the moment is one of these two readings.
        let before = wall - offset(wall - 43_200), after = wall - offset(wall + 43_200)
        let real = [before, after].filter { $0 + offset($0) == wall }
        return Date(timeIntervalSince1970: real.min() ?? before)
    }

    /// The moment the nudge for `hour` comes on `day`: 15 minutes of real time before the hour
    /// begins (on the day the clocks go forward at 1 AM, 12:45 AM for 2 AM, not 1:45, which
    /// that day has not).
    public static func moment(before hour: Int, on day: LocalDay, in timeZone: TimeZone) -> Date {
        start(of: hour, on: day, in: timeZone).addingTimeInterval(-Double(leadMinutes * 60))
    }

    /// `state` once what became of the last nudge is known, at `now`: answered when its mark is
    /// gone (`stillMarked` false: a command took it away), unused when it is still there an hour
    /// after; the second unused in a row starts the rest, for the 7 days after that nudge's day.
    public static func settled(_ kept: State, stillMarked: Bool, now: Date, in timeZone: TimeZone) -> State {
        let state = kept.believable(now: now, in: timeZone)
        guard state.awaiting, let shown = state.lastShown else { return state }
        var settled = state
        if !stillMarked {
            (settled.awaiting, settled.unused) = (false, 0)
        } else if now.timeIntervalSince(shown) >= answerSeconds {
            (settled.awaiting, settled.unused) = (false, state.unused + 1)
            if settled.unused >= unusedInARow {
                settled.unused = 0
                settled.restingUntil = LocalDay(shown, in: timeZone) + (restDays + 1)
            }
        }
        return settled
    }

    /// Why no nudge is shown.
    public enum Quiet: Equatable, Sendable {
        /// Too few cravings to find an hour, or none holding enough of them (how many the 28 days hold).
        case noHour(cravings: Int)
        /// The run is not in the minutes before the hour.
        case notTheTime(HardHour)
        /// Today's nudge came already.
        case shownToday
        /// Resting after unused nudges, until this day.
        case resting(until: LocalDay)
        /// A use was logged in the last hour.
        case recentUse
        /// A ride was on in the last hour.
        case recentRide
    }

    public enum Decision: Equatable, Sendable {
        case show(HardHour)
        case quiet(Quiet)
    }

    /// Whether a nudge is shown at `now`, with `state` settled, the hour `finding` and the logs of
    /// the last hour.
    public static func decide(
        _ finding: HardHour.Finding, state: State, cravings: [Craving], uses: [Usage], now: Date,
        in timeZone: TimeZone
    ) -> Decision {
        guard let hard = finding.hardHour else { return .quiet(.noHour(cravings: finding.cravings)) }
        let today = LocalDay(now, in: timeZone)
        // The real time until the hour next begins (the clock may jump on the way).
        let begins = [today, today + 1].map { start(of: hard.hour, on: $0, in: timeZone) }.first { $0 > now }
        guard let begins, begins.timeIntervalSince(now) <= Double(windowMinutes * 60) else {
            return .quiet(.notTheTime(hard))
        }
        if let shown = state.lastShown, LocalDay(shown, in: timeZone) == today { return .quiet(.shownToday) }
        if let until = state.restingUntil, today < until { return .quiet(.resting(until: until)) }
        let since = now.addingTimeInterval(-recentSeconds)
        if uses.contains(where: { $0.time.instant > since && $0.time.instant <= now }) { return .quiet(.recentUse) }
        let rideOn = cravings.contains { craving in
            guard let last = craving.ratings.last else { return false }
            let end = craving.time.instant.addingTimeInterval(Double(last.seconds))
            return end > since && craving.time.instant <= now
        }
        return rideOn ? .quiet(.recentRide) : .show(hard)
    }

    /// When the next nudge would come, as of `now`: the timer runs next at `scheduled` (where it
    /// is written for another time, that run moves it to the hour's, and the nudge comes at the
    /// first of those after it), on the first day that is not today's shown one nor a day of rest.
    /// nil without an hour. (A use or a ride then may still keep it back.)
    public static func next(
        _ finding: HardHour.Finding, state: State, scheduled: (hour: Int, minute: Int)?, now: Date,
        in timeZone: TimeZone
    ) -> Date? {
        guard let hard = finding.hardHour else { return nil }
        let calendar = CheckIn.calendar(in: timeZone)
        let at = time(before: hard.hour)
        /// The first nudge after `date`, at its real moment (`moment(before:on:in:)`).
        func nudge(after date: Date) -> Date? {
            let day = LocalDay(date, in: timeZone)
            return (0...2).lazy.map { moment(before: hard.hour, on: day + $0, in: timeZone) }.first { $0 > date }
        }
        var run: Date?
        if let timer = scheduled, timer != at {  // the timer runs at its time once, and moves
            run = calendar.nextDate(
                after: now, matching: DateComponents(hour: timer.hour, minute: timer.minute, second: 0),
                matchingPolicy: .nextTime
            ).flatMap { nudge(after: $0) }
        } else {
            run = nudge(after: now)
        }
        for _ in 0..<(restDays + 3) {
            guard let candidate = run else { return nil }
            let day = LocalDay(candidate, in: timeZone)
            let shownThatDay = state.lastShown.map { LocalDay($0, in: timeZone) == day } ?? false
            let resting = state.restingUntil.map { day < $0 } ?? false
            if !shownThatDay && !resting { return candidate }
            run = nudge(after: candidate)
        }
        return nil
    }
}

extension Nudge.State {
    /// The state as far as it can be true at `now` (see `Nudge.believableSeconds`).
    public func believable(now: Date, in timeZone: TimeZone) -> Self {
        var state = self
        if let shown = lastShown, !(abs(shown.timeIntervalSince(now)) < Nudge.believableSeconds) {
            (state.lastShown, state.awaiting) = (nil, false)
        }
        state.unused = Swift.min(Swift.max(unused, 0), Nudge.unusedInARow - 1)
        if let until = restingUntil, until > LocalDay(now, in: timeZone) + (Nudge.restDays + 1) {
            state.restingUntil = nil
        }
        return state
    }
}

/// The nudge's two small files in the library (0600, written whole or not at all): its state
/// (`nudge.state`, JSON), and the mark of a nudge shown and not yet answered (`nudge.pending`,
/// the moment it was shown): any cravey command in the hour after takes the mark away, so a
/// command only looks (one stat) while none is shown.
public struct NudgeFiles: Sendable {
    public let root: String
    public init(root: String) { self.root = root }

    public static let stateName = "nudge.state"
    public static let markName = "nudge.pending"
    public var statePath: String { root + "/" + Self.stateName }
    public var markPath: String { root + "/" + Self.markName }

    /// The state kept (a new one where there is none, or one that cannot be read).
    public func state() -> Nudge.State {
        guard let data = FileManager.default.contents(atPath: statePath),
            let state = try? JSONDecoder().decode(Nudge.State.self, from: data)
        else { return Nudge.State() }
        return state
    }

    public func save(_ state: Nudge.State) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try write(try encoder.encode(state), to: statePath)
    }

    /// Whether a shown nudge is marked as waiting for its answer.
    public var isMarked: Bool { access(markPath, F_OK) == 0 }

    /// When the marked nudge was shown; nil when none is marked.
    public func marked() -> Date? {
        guard let data = FileManager.default.contents(atPath: markPath),
            let seconds = Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    public func mark(shown: Date) throws {
        try write(Data("\(shown.timeIntervalSince1970)\n".utf8), to: markPath)
    }

    /// Takes the mark away (answered, or found unused).
    public func unmark() { unlink(markPath) }

    /// Removes both files; false when there was neither.
    public func remove() -> Bool {
        let state = unlink(statePath) == 0
        let mark = unlink(markPath) == 0
        return state || mark
    }

    private func write(_ data: Data, to path: String) throws {
        try RecordingExport.write(
            data, to: path, replacing: true, another: "remove it, or turn the nudge off and on again", replace: nil)
    }
}
