import ArgumentParser
import CraveyTracker
import Foundation
import TerminalKit

/// What cravings and uses share on the command line: triggers, location, time and notes. Values
/// are read in `run` (not by the parser), so a bad one is one line naming the field.
struct LogDetails: ParsableArguments {
    @Option(
        name: .customLong("trigger"),
        help: ArgumentHelp(
            "What set it off (repeat or separate with commas): \(Trigger.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "trigger"))
    var triggers: [String] = []

    @Option(
        help: ArgumentHelp(
            "Where: \(Location.allCases.map(\.rawValue).joined(separator: ", ")) (a named place; cravey never detects one).",
            valueName: "place"))
    var location: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "When: now (default), HH:MM, 'yesterday HH:MM', 'YYYY-MM-DD HH:MM', or -90m / -2h / -3d; local time.",
            valueName: "when"))
    var at: String?

    /// Free text: the next argument whatever it starts with (`--notes "- a rough day"`).
    @Option(parsing: .unconditional, help: ArgumentHelp("Notes (at most 500 characters).", valueName: "text"))
    var notes: String?

    /// Whether any of these was given.
    var isEmpty: Bool { triggers.isEmpty && location == nil && at == nil && notes == nil }

    /// The triggers given ('none' for none).
    func triggerSet() throws -> Set<Trigger> { try LogInput.triggers(triggers) }

    /// The location given (nil for none or 'none').
    func place() throws -> Location? { try LogInput.location(location) }

    /// The time given (now when none).
    func time() throws -> LogTime { try LogInput.time(at, now: LocalClock.now()) }
}

/// `read`'s refusal of a value given with `flag`, worded with the flag's name (the tracker names
/// the log's fields; only the command line knows its flags).
func given<Value>(as flag: String, _ read: () throws -> Value) throws -> Value {
    do {
        return try read()
    } catch let TrackerError.invalid(_, reason) {
        throw TrackerError.invalid(field: flag, reason: reason)
    }
}

/// Says, calmly and after what was saved, that a log was saved more than 7 days after it
/// happened: a note on standard error without the `cravey:` of a refusal (standard output stays
/// what was saved, or its JSON).
func noteIfOld(_ time: LogTime) {
    if let note = LogWords.note(time, now: LocalClock.now()) {
        FileHandle.standardError.show(Data((note + "\n").utf8))
    }
}
