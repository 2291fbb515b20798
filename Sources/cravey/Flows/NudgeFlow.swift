import CraveyDesktop
import CraveyLibrary
import CraveyMedia
import CraveyTracker
import Foundation
import TerminalKit

/// The nudge before the hard hour: what the timer's run does (find the hour, move the timer to it,
/// show one notification whose buttons open the ride or play the top message), what `status`
/// reads without changing anything, and the answer any other command gives a nudge by running.
enum NudgeFlow {
    /// What the logs and the nudge's files say at a moment; nothing is changed to read it.
    struct Reading {
        let finding: HardHour.Finding
        /// The state as kept, and as it is once what became of the last nudge is known.
        let kept: Nudge.State
        let state: Nudge.State
        /// Whether the last nudge is still marked (no command answered it).
        let stillMarked: Bool
        /// The cravings and uses of the last 28 days.
        let cravings: [Craving]
        let uses: [Usage]
    }

    /// Reads the library at `root` (nil: there is none yet, and so no hour) at `now`.
    static func read(_ library: Library?, root: String, now: Date) throws -> Reading {
        let files = NudgeFiles(root: root)
        let kept = library == nil ? Nudge.State() : files.state()
        let marked = library != nil && files.isMarked
        let since = now.addingTimeInterval(-Double(HardHour.days) * 86_400)
        let tracker = library.map(Tracker.init(library:))
        let cravings = try tracker?.cravings(since: since) ?? []
        return Reading(
            finding: HardHour.find(in: cravings.map(\.time), now: now), kept: kept,
            state: Nudge.settled(kept, stillMarked: marked, now: now, in: .current), stillMarked: marked,
            cravings: cravings, uses: try tracker?.uses(since: since) ?? [])
    }

    /// What came of a run.
    enum Outcome {
        case shown(HardHour, answer: DesktopOffer.Answer?)
        /// Shown, then withdrawn by a stop signal before any answer (a logout): not counted unused.
        case stopped(HardHour)
        case quiet(Nudge.Quiet)
    }

    /// The timer's run on the library at `root` at `now`: what became of the last nudge is noted,
    /// the timer is moved to the hour found, and a nudge is shown when the rules allow one. A
    /// button chosen opens the ride (with the activation token the server sent) or plays the top
    /// message; the answer is waited for `LaunchFlow.offerSeconds` at most, and a stop signal
    /// withdraws it.
    static func run(
        _ library: Library?, root: String, units: NudgeUnits, discreet: Bool, now: Date,
        environment: [String: String]
    ) throws -> Outcome {
        let reading = try read(library, root: root, now: now)
        let files = NudgeFiles(root: root)
        if reading.state != reading.kept {
            if !reading.state.awaiting && reading.stillMarked { files.unmark() }
            try files.save(reading.state)
        }
        if let hard = reading.finding.hardHour {
            let at = Nudge.time(before: hard.hour)
            _ = try unitFailureSaid { try units.move(hour: at.hour, minute: at.minute) }
        }
        let decision = Nudge.decide(
            reading.finding, state: reading.state, cravings: reading.cravings, uses: reading.uses, now: now,
            in: .current)
        let hard: HardHour
        switch decision {
        case let .quiet(why): return .quiet(why)
        case let .show(found): hard = found
        }
        // SIGTERM, SIGINT or SIGHUP from here on end the wait (and withdraw the offer).
        let stop = StopSignals()
        defer { stop.cancel() }
        let offer: DesktopOffer
        do {
            offer = try DesktopOffer()
            let words = Words(
                hard, discreet: discreet, actions: offer.hasActions, library: ReminderFlow.libraryArgument(root))
            try offer.show(
                app: words.app, summary: words.summary, body: offer.body(words.body), actions: words.actions)
        } catch let failure as DesktopNotification.Failure {
            throw CraveyFailure(message: failure.description)
        }
        defer { offer.close() }
        var shown = reading.state
        (shown.lastShown, shown.awaiting) = (now, true)
        do {
            try files.save(shown)
            try files.mark(shown: now)
        } catch {
            _ = offer.wait(seconds: 0)  // not kept: withdrawn, so it is not counted unused either
            throw error
        }
        guard offer.hasActions else { return .shown(hard, answer: nil) }
        let answer = offer.wait(seconds: LaunchFlow.offerSeconds) { stop.stopRequested }
        if answer == .noAnswer && stop.stopRequested {
            // Withdrawn before it had its time: not waited on, so not counted unused either.
            shown.awaiting = false
            files.unmark()
            try? files.save(shown)
            return .stopped(hard)
        }
        if case let .chosen(action, token) = answer {
            files.unmark()
            open(action == "play" ? nil : .ride, root: root, token: token, environment: environment)
        }
        return .shown(hard, answer: answer)
    }

    /// What `body` returns; a unit that could not be written, moved or removed is the command's
    /// one line.
    static func unitFailureSaid<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let failure as UserTimer.Failure {
            throw CraveyFailure(message: failure.description)
        }
    }

    /// Opens `screen` in a terminal window, or plays the top message (nil) with no window, as
    /// `cravey launch` does, with the activation token the server sent.
    static func open(_ screen: LaunchFlow.Screen?, root: String, token: String?, environment: [String: String]) {
        guard let screen else {
            _ = try? BackgroundProcess.start(
                UserTimer.executablePath(), ["launch", "play", "--library", absolute(root)],
                environment: TerminalChoice.environment(environment, activationToken: token, inheritingToken: false))
            return
        }
        let opened = try? LaunchFlow.open(
            screen, root: root, environment: environment, activationToken: token, inheritingToken: false)
        if case let .failure(refusal)? = opened { _ = LaunchFlow.notOpened(screen, refusal, environment: environment) }
    }

    /// A cravey command the person ran on the library at `root` at `now`: a nudge shown within the
    /// hour before is answered (its mark taken away). Where none is marked, this is one look at a
    /// file that is not there.
    static func answer(root: String, now: Date) {
        let files = NudgeFiles(root: root)
        guard files.isMarked, let shown = files.marked() else { return }
        let since = now.timeIntervalSince(shown)
        if since >= 0 && since < Nudge.answerSeconds { files.unmark() }
    }

    /// The notification's words for `hard`: discreet ones name nothing (not cravey, not what the
    /// hour is hard with); without buttons the plain ones say the commands.
    struct Words {
        let app: String
        let summary: String
        let body: String
        let actions: [(key: String, label: String)]

        /// `library`: what the commands said end with (` --library PATH`, or "").
        init(_ hard: HardHour, discreet: Bool, actions: Bool, library: String = "") {
            let (ride, play): (String, String)
            if discreet {
                (app, summary, ride, play) = ("Reminder", "A moment for yourself", "Take a breath", "Listen")
                body =
                    "Around \(hard.words) can be a lot. "
                    + (actions ? "Something kind is one click away." : "Take a moment for yourself.")
            } else {
                (app, summary, ride, play) = (
                    "cravey", "Around \(hard.words) is often hard", "Ride it out", "Play my message"
                )
                body =
                    "Your messages are one key away."
                    + (actions
                        ? "" : "\n\n\(ride): cravey launch ride\(library)\n\(play): cravey launch play\(library)")
            }
            self.actions = [("default", ride), ("ride", ride), ("play", play)]
        }
    }

    /// `root` as the service names it: absolute.
    static func absolute(_ root: String) -> String {
        root.hasPrefix("/") ? root : FileManager.default.currentDirectoryPath + "/" + root
    }

    /// What `status` says: whether the nudge is on, the hour, and when the next comes or why none.
    struct Status {
        /// On for this library.
        let on: Bool
        /// The other library the nudge is on for, where it is on for another.
        let elsewhere: String?
        let discreet: Bool
        let scheduled: (hour: Int, minute: Int)?
        let reading: Reading
        let next: Date?
    }

    /// The nudge as it stands at `now`, read without changing anything.
    static func status(_ library: Library?, root: String, units: NudgeUnits, now: Date) throws -> Status {
        let reading = try read(library, root: root, now: now)
        let scheduled = units.scheduled
        let elsewhere = units.isOn ? units.library.flatMap { $0 == absolute(root) ? nil : $0 } : nil
        return Status(
            on: units.isOn && elsewhere == nil, elsewhere: elsewhere, discreet: units.isDiscreet, scheduled: scheduled,
            reading: reading,
            next: Nudge.next(reading.finding, state: reading.state, scheduled: scheduled, now: now, in: .current))
    }
}
