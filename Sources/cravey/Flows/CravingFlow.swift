import CraveyLibrary
import CraveyMessages
import CraveyTracker
import Foundation
import TerminalKit

/// Logging a craving, in the order that helps: the log first (kept whatever follows), then the
/// offer of three messages (its plan's first, then one made for its trigger, then the most
/// played) or a ride, the message played, and last the note that it was played during the
/// craving. What `cravey craving` and home's `c` both run.
enum CravingFlow {
    /// A craving logged, and the message played after it (nil: none) or its ride's closing
    /// words (nil: not ridden).
    struct Logged {
        var craving: Craving
        var played: Recording?
        var rode: [String]? = nil
    }

    /// On a terminal with nothing typed: the form, the log, then the offer to play one of three
    /// messages or ride it out. nil when the form was closed and nothing was logged.
    static func interactively(in session: Session) throws -> Logged? {
        guard let draft = try LogForm.craving() else { return nil }
        return try log(draft, in: session, rank: nil, json: false)
    }

    /// Logs `draft` and says so; then plays message `rank` of the three offered (the first in
    /// `Tracker.offerOrder` for its triggers), or on a terminal (not for JSON) offers them and
    /// a ride, and keeps that it was played during the craving.
    @discardableResult
    static func log(_ draft: Tracker.CravingDraft, in session: Session, rank: Int?, json: Bool) throws -> Logged {
        let tracker = Tracker(library: session.library)
        let now = session.now()
        let craving = try tracker.logCraving(draft, now: now)
        // A plan for its trigger heads the offer, its message offered first.
        let (plan, order) = try tracker.offer(for: craving, now: now)
        if json {
            try JSONOutput.print(CravingOffered(craving: craving, plan: plan))
        } else {
            print(LogWords.saved(.craving(craving), now: now))
            print(LogWords.encouragement)
        }
        noteIfOld(craving.time)
        if let plan, !json { print(PlanWords.heading(plan)) }
        let top = Array(order.prefix(3))
        let choice: Recording?
        if let rank {
            guard top.count >= rank else {
                throw CraveyFailure(
                    message: top.isEmpty
                        ? "the craving is logged; there are no messages to play yet"
                        : "the craving is logged; there are only \(top.count) messages to play")
            }
            choice = top[rank - 1]
        } else if Terminal.stdinIsTerminal && !json {  // logged on a terminal: the hard-moment offer
            switch LogForm.offerToPlay(top, ride: Tracker.canRide(craving.time, now: now)) {
            case let .play(recording): choice = recording
            case .ride: return Logged(craving: craving, played: nil, rode: try ride(craving, in: session))
            case nil: choice = nil
            }
        } else {
            choice = nil
        }
        if let choice {
            let played: MessagePlay.Played
            do {
                played = try PlayFlow.play(choice, in: session)
            } catch let failure as CraveyFailure {
                // The craving is kept whatever the speaker does: a script hears that it is, a
                // person at the offer has read the message's words instead.
                guard rank == nil else {
                    throw CraveyFailure(message: "the craving is logged; " + failure.message, code: failure.code)
                }
                Terminal.printNote(failure.message)
                return Logged(craving: craving, played: nil)
            }
            // Only a message heard or read is kept as played during the craving.
            guard played.reached else { return Logged(craving: craving, played: nil) }
            try tracker.notePlayed(choice.id, during: craving.id)
        }
        return Logged(craving: craving, played: choice)
    }

    /// The ride after the offer, on the craving just logged (not a second one), on a screen of
    /// its own; its closing words are printed once the screen is left.
    private static func ride(_ craving: Craving, in session: Session) throws -> [String]? {
        let pace = RidePace(session.configuration)
        let started = Date()
        guard let outcome = try RideScreen.ride(craving, in: session, pace: pace) else { return nil }
        let words = RideScreen.closing(
            outcome.ratings, rideSeconds: pace.rideSeconds(since: started), in: session.library)
        words.forEach { print($0) }
        return words
    }
}

/// `craving --json`: the craving logged, and the plan its offer was headed by (null: none).
struct CravingOffered: Encodable {
    var craving: Craving
    var plan: Plan?

    private enum Key: String, CodingKey { case plan }

    func encode(to encoder: Encoder) throws {
        try craving.encode(to: encoder)
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(plan, forKey: .plan)
    }
}
