import CraveyLibrary
import Foundation

/// How a ride went, by its ratings — the words after it say this and no more. "First" is the
/// intensity logged at the start, "last" the last rating.
public enum RideCourse: Sendable, Equatable {
    /// No rating after the first and under a minute on the ride: nothing to say of the craving.
    case endedAtOnce
    /// The last is at most half the first, or at most 3: it passed.
    case eased(from: Int, to: Int)
    /// Lower than the first, not yet eased.
    case cameDown(from: Int, to: Int)
    /// The same or higher: no praise for a number that rose.
    case stayed(from: Int, to: Int)

    /// The seconds below which a ride with no rating after the first ended at once.
    public static let atOnce: Double = 60

    /// The course of a ride with `ratings` (the first the logged intensity) that lasted
    /// `rideSeconds` (nil: told afterwards, so only the ratings count).
    public init(_ ratings: [Craving.Rating], rideSeconds: Double?) {
        guard let first = ratings.first?.value, let last = ratings.last?.value,
            ratings.count >= 2 || (rideSeconds ?? 0) >= Self.atOnce
        else {
            self = .endedAtOnce
            return
        }
        if last * 2 <= first || last <= 3 {
            self = .eased(from: first, to: last)
        } else if last < first {
            self = .cameDown(from: first, to: last)
        } else {
            self = .stayed(from: first, to: last)
        }
    }
}

extension Tracker {
    /// The goal the person chose (nil when none was).
    public func goal() throws -> Goal? { try library.setting(.goal).flatMap(Goal.init(rawValue:)) }

    /// The words after a ride, however it ended, following its course (`RideCourse`), a line
    /// each: what happened, then — unless it passed — what else helps now. Goal-aware: logging a
    /// use is offered without judgement, in the words of the goal chosen.
    public static func rideClosing(_ ratings: [Craving.Rating], rideSeconds: Double?, goal: Goal?) -> [String] {
        let course = RideCourse(ratings, rideSeconds: rideSeconds)
        let span = ratings.count >= 2 ? " " + Self.rideSpan(ratings) + ": " + rideTrail(ratings) : ""
        switch course {
        case .endedAtOnce:
            return ["The ride ended before a rating. " + Self.helpsNow(goal, first: true)]
        case let .eased(from, to):
            return ["It passed: you rode it out. 💪"] + (ratings.count >= 2 ? ["From \(from) to \(to)\(span)."] : [])
        case let .cameDown(from, to):
            return [
                "It's coming down: from \(from) to \(to)\(span).",
                "A few more minutes and it eases further. " + Self.helpsNow(goal, first: false),
            ]
        case let .stayed(from, to):
            let how = to == from ? "still at \(to)" : "from \(from) to \(to)"
            return [
                "You stayed with it — \(how)\(ratings.count >= 2 ? span : "").",
                "It will pass: cravings rise, peak and fall. " + Self.helpsNow(goal, first: false),
            ]
        }
    }

    /// What else helps now: a message, the breathing, and, if it comes to that, logging a use.
    static func helpsNow(_ goal: Goal?, first: Bool) -> String {
        let use =
            switch goal {
            case .quit?, .cutDown?: "and if it comes to that, logging a use — without judgement."
            default: "and if you use, logging it as it was — without judgement."
            }
        return (first ? "What can help next" : "What else helps now")
            + ": one of your messages, the ride's breathing, " + use
    }

    /// "in 6 minutes", "in under a minute": from the first rating to the last.
    static func rideSpan(_ ratings: [Craving.Rating]) -> String {
        guard let first = ratings.first, let last = ratings.last else { return "" }
        let minutes = Int((Double(last.seconds - first.seconds) / 60).rounded())
        return minutes < 1 ? "in under a minute" : minutes == 1 ? "in 1 minute" : "in \(minutes) minutes"
    }

    /// The ratings as a trail, the latest eight: `8 → 6 → 4`.
    public static func rideTrail(_ ratings: [Craving.Rating]) -> String {
        let values = ratings.map { String($0.value) }
        return (values.count > 8 ? ["…"] + values.suffix(8) : values).joined(separator: " → ")
    }
}
