import CraveyLibrary
import CraveyMessages
import CraveyRecorder
import Foundation
import TerminalKit

/// The daily check-in: at a terminal its five screens, or with a mood the scripted take. What
/// `cravey checkin` runs, and home's `k`.
enum CheckInFlow {
    /// The check-in of today (or of `day`, never a future one): the screens at a terminal, or
    /// with `mood` the scripted take (which saves the entry and returns it: the caller shows it
    /// and starts its transcript).
    static func run(
        in session: Session, mood: CheckIn.Mood? = nil, day fixedDay: String? = nil,
        maxSeconds: Double = Validation.maxDuration
    ) throws -> CheckInOutcome {
        guard let mood else {
            return try CheckInScreen(session, fixedDay: fixedDay, maxSeconds: maxSeconds).run()
        }
        // The take refuses a day that has its entry, before the microphone opens.
        let day = fixedDay ?? CheckIn.day(of: session.now())
        return .saved(
            try CheckInRecording.record(
                in: session, day: day, mood: mood, maxSeconds: maxSeconds, following: fixedDay == nil))
    }

    /// What is said of a day that has its entry.
    static func already(_ day: String) -> String {
        "\(day) has its check-in already (one a day, kept as it was saved): 'cravey checkin play \(day)' plays it"
    }
}

/// What a check-in came to.
enum CheckInOutcome {
    /// The day's entry, saved now.
    case saved(Recording)
    /// The day had its entry already: it was shown, never changed.
    case already(Recording)
    /// "Later" at the greeting: no reminder today.
    case postponed
    /// Left before recording, or the recording was discarded and not tried again.
    case notSaved
}

/// Recording a check-in without screens (`--mood`), through the check-in's take.
enum CheckInRecording {
    /// Records until the cap, the input's end or a stop signal, and saves. With `following`,
    /// the day is the one at the moment recording starts (it may have turned since the command
    /// began); a recording that crosses midnight keeps its start's day.
    static func record(
        in session: Session, day: String, mood: CheckIn.Mood, maxSeconds: Double, following: Bool
    ) throws -> Recording {
        let day = following ? CheckIn.day(of: session.now()) : day
        do {
            let take = try CheckInTake(
                library: session.library, day: day, mood: mood, mic: session.mic, maxSeconds: maxSeconds)
            let recorder = take.recorder
            let signals = StopSignals(onStop: { signo in recorder.requestStop(.signal(signo)) })
            defer { signals.cancel() }
            try take.start()
            Terminal.printNote(
                "recording the check-in of \(day) from \(recorder.deviceDescription) (Ctrl-C or SIGTERM stop and keep it)"
            )
            recorder.waitUntilStopped()
            guard case let .saved(saved) = try take.finish() else { preconditionFailure("a kept take is saved") }
            return saved
        } catch let failure as CheckInTake.Failure {
            throw CraveyFailure(failure)
        }
    }
}

extension CraveyFailure {
    /// A check-in's take that stopped short, in one line.
    init(_ failure: CheckInTake.Failure) {
        switch failure {
        case let .alreadyCheckedIn(day): self.init(message: CheckInFlow.already(day))
        case let .start(error), let .finish(error): self.init(message: "\(error)")
        case let .save(error):
            self.init(message: "could not save the check-in: \(error); the next cravey command will recover it")
        }
    }
}
