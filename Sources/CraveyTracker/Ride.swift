import CraveyLibrary
import Foundation

extension Tracker {
    /// A craving ridden out: how strong it is as the minutes pass, kept the moment each rating is
    /// given (journaled and fsynced), so that leaving at any point — a key, a signal, a kill, a
    /// power cut — keeps every rating given so far.
    public struct Ride: Sendable {
        public let tracker: Tracker
        /// The craving ridden (its time is where the ratings' seconds count from).
        public let craving: Craving
        /// The ratings so far, the first the craving's logged intensity at its time.
        public private(set) var ratings: [Craving.Rating]
        /// Whether the craving and its ratings are kept (false: the craving could not be logged,
        /// on a full disk, and the ride keeps company all the same, its ratings on screen only).
        public let isSaved: Bool

        /// Starts riding `craving` out: its intensity is kept as the first rating, at its time
        /// (ratings it already has are kept and carried on from).
        public init(_ craving: Craving, tracker: Tracker) throws {
            self.tracker = tracker
            self.craving = craving
            if craving.ratings.isEmpty {
                ratings = [Craving.Rating(seconds: 0, value: craving.intensity)]
                try tracker.noteRatings(ratings, of: craving.id)
            } else {
                ratings = craving.ratings
            }
            isSaved = true
        }

        /// A ride of a craving that could not be logged (the disk is full): nothing is kept, the
        /// ratings are held for the screen and its closing words.
        public init(unsaved draft: CravingDraft, tracker: Tracker) {
            self.tracker = tracker
            let now = Date()
            craving = Craving(
                id: UUID(), time: draft.time.stored, intensity: draft.intensity,
                triggers: Trigger.allCases.filter(draft.triggers.contains), location: draft.location,
                notes: draft.notes, recordingId: draft.recordingId, createdAt: now, modifiedAt: now)
            ratings = [Craving.Rating(seconds: 0, value: draft.intensity)]
            isSaved = false
        }

        /// The latest rating's value.
        public var last: Int { ratings.last?.value ?? craving.intensity }

        /// Keeps a rating of `value` (1–10) given at `time` (never before the last one kept).
        public mutating func rate(_ value: Int, at time: Date) throws {
            let seconds = Int(time.timeIntervalSince(craving.time.instant).rounded())
            let rating = Craving.Rating(seconds: max(seconds, ratings.last?.seconds ?? 0), value: value)
            if isSaved { try tracker.noteRatings(ratings + [rating], of: craving.id) }
            ratings.append(rating)
        }

        /// Keeps that `recording` was played (or its words shown) during this craving.
        public func played(_ recording: UUID) throws {
            guard isSaved else { return }
            try tracker.notePlayed(recording, during: craving.id)
        }
    }

    /// How long before now a craving may have begun for a ride to keep company with it: a ride
    /// rates how strong it is now, so its minutes count from the craving's time. One from longer
    /// ago is told afterwards, with its ratings (`logRide`).
    public static let rideWithin: TimeInterval = 30 * 60

    /// Whether a craving at `time` can be ridden out now (see `rideWithin`).
    public static func canRide(_ time: LogTime, now: Date) -> Bool {
        now.timeIntervalSince(time.instant) <= rideWithin
    }

    /// The ratings of a ride told afterwards: the craving's intensity at its time, then each of
    /// `values` `minutesApart` minutes after the one before (`8` then `6,4,2` five minutes apart:
    /// `[[0,8],[300,6],[600,4],[900,2]]`).
    public static func ratings(from intensity: Int, then values: [Int], minutesApart: Int) -> [Craving.Rating] {
        [Craving.Rating(seconds: 0, value: intensity)]
            + values.enumerated().map {
                Craving.Rating(seconds: ($0.offset + 1) * minutesApart * 60, value: $0.element)
            }
    }

    /// Logs a craving ridden out before, with its ratings as `ratings(from:then:minutesApart:)`
    /// makes them, in one commit (a failure stores neither); returns it as stored.
    public func logRide(_ draft: CravingDraft, ratings values: [Int], minutesApart: Int, now: Date) throws -> Craving {
        try logCraving(
            draft, ratings: Self.ratings(from: draft.intensity, then: values, minutesApart: minutesApart), now: now)
    }
}
