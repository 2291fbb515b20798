import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

/// Riding a craving out: the craving logged at once (kept however the ride ends), then the ride
/// on a full screen. What `cravey ride` on a terminal and home's `o` both run.
enum RideFlow {
    /// A ride and the craving it rode.
    struct Ridden {
        var craving: Craving
        var ratings: [Craving.Rating]
        var ending: RideEnding
        /// Why the craving was not logged (a full disk): the ride kept company all the same.
        var notLogged: TrackerError?
        /// How long the ride lasted, on its clock.
        var seconds: Double
    }

    /// On a terminal: asks how strong it is when `asking` (the intensity was not given), then
    /// logs and rides on a screen of its own. nil when the person left at the question (nothing
    /// logged).
    static func interactively(
        _ draft: Tracker.CravingDraft, asking: Bool, minutes: Int, in session: Session
    ) throws -> Ridden? {
        guard let screen = FullScreen() else { return nil }
        var draft = draft
        if asking {
            guard let asked = RideScreen.askIntensity(on: screen) else { return nil }
            draft.intensity = asked
        }
        return try ride(draft, in: session, minutes: minutes, on: screen)
    }

    /// Logs `draft` at once, then rides it out on `screen` (home's, or the one the command
    /// opened). On a full disk the ride keeps company all the same, unsaved (`notLogged`).
    static func ride(
        _ draft: Tracker.CravingDraft, in session: Session, minutes: Int = 15, on screen: FullScreen
    ) throws -> Ridden {
        let tracker = Tracker(library: session.library)
        var craving: Craving?
        var notLogged: TrackerError?
        do {
            craving = try tracker.logCraving(draft, now: session.now())
        } catch TrackerError.diskFull(let what) {
            notLogged = .diskFull(what.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let ride =
            try craving.map { try Tracker.Ride($0, tracker: tracker) }
            ?? Tracker.Ride(unsaved: draft, tracker: tracker)
        let pace = RidePace(session.configuration, minutes: minutes)
        let started = Date()
        let outcome = try RideScreen.ride(ride, in: session, pace: pace, on: screen)
        return Ridden(
            craving: ride.craving, ratings: outcome?.ratings ?? [], ending: outcome?.ending ?? .stopped,
            notLogged: notLogged, seconds: pace.rideSeconds(since: started))
    }
}
