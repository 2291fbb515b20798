import ArgumentParser
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey ride`: a craving logged at once, then ridden out with a calm companion — or, from a
    /// script, logged with the ratings it had as it passed.
    struct RideCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ride",
            abstract: "Ride a craving out: your messages, a breathing guide, and how strong it is as it passes.",
            discussion: """
                On a terminal the craving is logged at once, then for --minutes (15) your messages play in \
                turn (the one made for its trigger first) with a breathing guide between them, and every \
                few minutes it asks how strong it is now; each answer is kept at once. Keys: n next message, \
                s stop the sound, space pause, 1–9 and 0 (10) how strong, Enter keeps the last, p it has \
                passed, q or Esc ends. Every way of ending keeps the ratings. From a script, --ratings \
                6,4,2 --minutes-apart 5 stores the same as a ride rated at those minutes: the intensity at \
                the craving's time, then each rating 5 minutes after the one before. Without --at the \
                last rating is now (the craving began 15 minutes ago); with --at no rating may fall later \
                than now.
                """)

        @OptionGroup var library: LibraryOptions

        // Gathered with whatever else the parser does not know, so that a negative number is
        // refused in the number's own words (`RawArguments.number`).
        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp(
                "How strong, 1 (mild) to 10 (overwhelming); asked on a terminal, 5 from a script.",
                valueName: "intensity"))
        var intensityTyped: [String] = []

        /// The intensity typed, a negative one too.
        var intensity: String? { RawArguments.value(intensityTyped) }

        func validate() throws { _ = try RawArguments.number(intensityTyped) }

        @OptionGroup var details: LogDetails

        @Option(help: ArgumentHelp("How long the ride lasts, 1–60 minutes (15).", valueName: "minutes"))
        var minutes: String?

        @Option(
            help: ArgumentHelp(
                "The ratings after the first (each 1–10, comma-separated): store a ride without a screen.",
                valueName: "list"))
        var ratings: String?

        @Option(help: ArgumentHelp("With --ratings: the minutes between two ratings, 1–60 (3).", valueName: "minutes"))
        var minutesApart: String?

        @Option(help: ArgumentHelp("ALSA playback device for the messages.", valueName: "name"))
        var speaker: String = "default"

        @OptionGroup var output: OutputOptions

        /// Everything given, read before anything is stored (a bad value changes nothing).
        private struct Plan {
            var draft: Tracker.CravingDraft
            var given: Bool
            var minutes: Int
            var ratings: [Int]?
            var minutesApart: Int
        }

        private func plan() throws -> Plan {
            let minutes = try minutes.map { try LogInput.wholeNumber($0, field: "--minutes", in: 1...60) } ?? 15
            let values = try ratings.map { list in
                try list.split(separator: ",", omittingEmptySubsequences: false).map {
                    try LogInput.wholeNumber(String($0), field: "--ratings", in: Intensity.range)
                }
            }
            if let values, values.count > 60 {
                throw TrackerError.invalid(field: "--ratings", reason: "at most 60 ratings")
            }
            if minutesApart != nil && ratings == nil {
                throw TrackerError.invalid(field: "--minutes-apart", reason: "it goes with --ratings")
            }
            let apart = try minutesApart.map { try LogInput.wholeNumber($0, field: "--minutes-apart", in: 1...60) } ?? 3
            let now = LocalClock.now()
            let span = TimeInterval((values?.count ?? 0) * apart * 60)
            var time = try LogInput.time(details.at, now: now)
            if details.at == nil {
                // Told afterwards: the ride ends now, so the craving began its minutes ago.
                time = LogTime(now.addingTimeInterval(-span))
            } else if time.instant.addingTimeInterval(span) > now.addingTimeInterval(60) {
                let minutes = Int((time.instant.addingTimeInterval(span).timeIntervalSince(now) / 60).rounded(.up))
                throw TrackerError.invalid(
                    field: "--ratings",
                    reason:
                        "the last rating would be \(minutes) minutes from now; a rating is told once it was felt (an earlier --at, or fewer ratings)"
                )
            }
            let draft = Tracker.CravingDraft(
                intensity: try intensity.map(LogInput.intensity)
                    ?? Intensity.standard,
                time: time, triggers: try details.triggerSet(), location: try details.place(),
                notes: details.notes)
            return Plan(draft: draft, given: intensity != nil, minutes: minutes, ratings: values, minutesApart: apart)
        }

        func run() throws {
            let plan = try plan()
            let scripted = plan.ratings != nil || output.json || !Terminal.stdinIsTerminal || !Terminal.stdoutIsTerminal
            if !scripted && !Tracker.canRide(plan.draft.time, now: LocalClock.now()) {
                throw TrackerError.invalid(
                    field: "--at",
                    reason:
                        "a ride keeps company with a craving from the last 30 minutes; tell an earlier one with --ratings"
                )
            }
            try library.logging { lib in
                if scripted { return try Self.logScripted(plan, in: lib, json: output.json) }
                // The screen is left before the closing words are printed.
                guard
                    let ridden = try RideFlow.interactively(
                        plan.draft, asking: !plan.given, minutes: plan.minutes,
                        in: library.session(lib, speaker: speaker))
                else {
                    print("Nothing was logged.")
                    return
                }
                if let notLogged = ridden.notLogged {
                    RideScreen.closing(ridden.ratings, rideSeconds: ridden.seconds, in: lib).forEach { print($0) }
                    throw notLogged
                }
                print(LogWords.saved(.craving(ridden.craving), now: LocalClock.now()))
                noteIfOld(ridden.craving.time)
                RideScreen.closing(ridden.ratings, rideSeconds: ridden.seconds, in: lib).forEach { print($0) }
            }
        }

        /// The scripted form (and the plain one, without a terminal): the craving and its ratings,
        /// no screen and no sound. Without --ratings, the craving's intensity is its one rating and
        /// a line says how to ride it out.
        private static func logScripted(_ plan: Plan, in lib: Library, json: Bool) throws {
            let craving = try Tracker(library: lib).logRide(
                plan.draft, ratings: plan.ratings ?? [], minutesApart: plan.minutesApart, now: LocalClock.now())
            if json {
                try JSONOutput.print(
                    RideJSON(craving: craving, ratings: craving.ratings.map { [$0.seconds, $0.value] }))
            } else {
                print(LogWords.saved(.craving(craving), now: LocalClock.now()))
                if plan.ratings == nil {
                    print(
                        "To ride it out with your messages, run 'cravey ride' on a terminal (a script can store a ride's ratings: --ratings 6,4,2 --minutes-apart 5)."
                    )
                } else {
                    RideScreen.closing(craving.ratings, in: lib).forEach { print($0) }
                }
            }
            noteIfOld(craving.time)
        }

        /// `ride --json`: the craving as `craving --json` prints it, and the ratings stored with it.
        struct RideJSON: Encodable {
            var craving: Craving
            /// `[[seconds after the craving's time, 1–10], …]`, as stored.
            var ratings: [[Int]]
        }
    }
}
