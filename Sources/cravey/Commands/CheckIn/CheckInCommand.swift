import ArgumentParser
import CraveyLibrary
import CraveyMedia
import CraveyMessages
import CraveyRecorder
import Dispatch
import Foundation
import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

extension Cravey {
    /// `cravey checkin`: the daily voice check-in, and its list, entries, calendar and reminder.
    struct CheckInCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "checkin",
            abstract: "A calm spoken check-in, once a day: a mood, one question, a short voice entry.",
            discussion: """
                'cravey checkin' at a terminal walks through five steps: a greeting (Enter starts, l \
                is for later), the day's mood (←/→ or 1–5, Enter confirms), one question for the day \
                (Enter when ready, b goes back), the recording (Enter, q, Ctrl-C stop and keep it; d \
                discards, after asking) and the close (p listens back, Enter is done). One entry a \
                day; an entry is kept as it was saved. Check-ins are kept apart from the messages: \
                'list', 'top' and 'play --top' never show them.
                """,
            subcommands: [Today.self, List.self, Show.self, Play.self, Calendar.self, Remind.self, Notify.self],
            defaultSubcommand: Today.self)
    }
}

extension Cravey.CheckInCommand {
    /// Today's check-in (or a past day's, with --date): the flow at a terminal, or a scripted entry with --mood.
    struct Today: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "today",
            abstract: "Check in for today (the default).",
            discussion: """
                With --mood (needed without a terminal) nothing is asked: it records until --max-seconds, \
                the 2-minute cap, the input's end, or Ctrl-C/SIGTERM/SIGHUP (which keep it), saves the \
                entry and prints it.
                """)

        @OptionGroup var library: LibraryOptions

        @Option(help: "How the day feels: low, down, okay, happy or amazing (1–5). Records without asking.")
        var mood: String?

        @Option(help: ArgumentHelp("Check in for a past day (YYYY-MM-DD; never a future one).", valueName: "date"))
        var date: String?

        @Option(help: ArgumentHelp("ALSA capture device (see 'cravey devices').", valueName: "name"))
        var mic: String = "default"

        @Option(help: ArgumentHelp("ALSA playback device, for listening back.", valueName: "name"))
        var speaker: String = "default"

        @Option(help: ArgumentHelp("Stop after this many seconds (more than 0, at most 120).", valueName: "seconds"))
        var maxSeconds: Double = 120

        @Flag(help: "Print the saved entry as JSON.")
        var json = false

        func validate() throws {
            guard maxSeconds.isFinite, maxSeconds > 0, maxSeconds <= Validation.maxDuration else {
                throw ValidationError("--max-seconds must be more than 0 and at most 120 (got \(maxSeconds))")
            }
        }

        func run() throws {
            // Bad input is refused before anything is opened or recorded.
            let chosenMood = try mood.map(Validation.mood)
            let today = CheckIn.day(of: LocalClock.now())
            let fixedDay = try date.map { try Validation.checkInDay($0, today: today) }
            guard chosenMood != nil || (Terminal.stdinIsTerminal && Terminal.stderrIsTerminal) else {
                throw CraveyFailure(
                    message: "without a terminal, say how the day feels: --mood low|down|okay|happy|amazing")
            }
            let session = try library.session(mic: mic, speaker: speaker)
            let lib = session.library
            // The folder's news comes in once the entry is saved (or not), never before it.
            defer { lib.syncBringInAfterAHardMoment() }
            let outcome = try CheckInFlow.run(
                in: session, mood: chosenMood, day: fixedDay, maxSeconds: maxSeconds)
            guard let chosenMood, case let .saved(saved) = outcome else { return }
            if json {
                try JSONOutput.print(saved)
            } else {
                let checkIn = saved.checkIn
                let day = fixedDay ?? CheckIn.day(of: LocalClock.now())
                print(
                    "Saved for \(checkIn?.day == today ? "today" : CheckIn.displayDay(checkIn?.day ?? day)): "
                        + "\(checkIn?.mood.label ?? chosenMood.label), \(Format.duration(saved.duration)) (\(saved.id.uuidString))"
                )
            }
            Transcribing.afterSave(lib, saved: saved, quiet: json)
        }
    }
}
