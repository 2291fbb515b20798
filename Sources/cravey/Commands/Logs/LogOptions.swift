import ArgumentParser
import CraveyTracker
import Foundation
import TerminalKit

/// What cravings and uses share on the command line: triggers, location, time and notes. Values
/// are read in `run` (not by the parser), so a bad one is one line naming the field.
struct LogDetails: ParsableArguments {
    @Option(name: .customLong("trigger"), help: ArgumentHelp(
        "What set it off (repeat or separate with commas): \(Trigger.allCases.map(\.rawValue).joined(separator: ", ")).",
        valueName: "trigger"))
    var triggers: [String] = []

    @Option(help: ArgumentHelp("Where: \(Location.allCases.map(\.rawValue).joined(separator: ", ")) (a named place; cravey never detects one).",
                               valueName: "place"))
    var location: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("When: now (default), HH:MM, 'yesterday HH:MM', 'YYYY-MM-DD HH:MM', or -90m / -2h / -3d; local time.",
                               valueName: "when"))
    var at: String?

    /// Free text: the next argument whatever it starts with (`--notes "- a rough day"`).
    @Option(parsing: .unconditional, help: ArgumentHelp("Notes (at most 500 characters).", valueName: "text"))
    var notes: String?

    /// Whether any of these was given.
    var isEmpty: Bool { triggers.isEmpty && location == nil && at == nil && notes == nil }

    /// The triggers given ('none' for none).
    func triggerSet() throws -> Set<Trigger> {
        var set = Set<Trigger>()
        for name in triggers.flatMap({ $0.split(separator: ",") }).map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where name != "none" {
            guard let trigger = Trigger(rawValue: name) else {
                throw TrackerError.invalid(field: "trigger", reason: "'\(Terminal.safe(name))' is not one of \(Trigger.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            set.insert(trigger)
        }
        return set
    }

    /// The location given (nil for none or 'none').
    func place() throws -> Location? {
        guard let location, location.lowercased() != "none" else { return nil }
        guard let place = Location(rawValue: location.lowercased()) else {
            throw TrackerError.invalid(field: "location", reason: "'\(Terminal.safe(location))' is not one of \(Location.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return place
    }

    /// The time given (now when none).
    func time() throws -> LogTime { try at.map { try LogTime.parse($0) } ?? LogTime(Date()) }
}

/// Reads a whole number of a range given on the command line.
func wholeNumber(_ text: String, field: String, in range: ClosedRange<Int>) throws -> Int {
    guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
        throw TrackerError.invalid(field: field, reason: "'\(Terminal.safe(text))' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
}

extension CraveyTracker.Method {
    /// The method named on the command line.
    static func parse(_ text: String) throws -> Self {
        guard let method = Self(name: text.trimmingCharacters(in: .whitespaces)) else {
            throw TrackerError.invalid(field: "method", reason: "'\(Terminal.safe(text))' is not one of bowls (joints, blunts), vape, dab, edible")
        }
        return method
    }

    /// An amount of this method given on the command line.
    func parseAmount(_ text: String) throws -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, allows(value) else {
            throw TrackerError.invalid(field: "amount", reason: "'\(Terminal.safe(text))' is not an amount of \(rawValue) (\(rangeText))")
        }
        return value
    }
}

/// Says a log was saved more than 7 days after it happened.
func warnIfOld(_ time: LogTime) {
    if time.isOld() { Terminal.printNote(LogTime.oldWarning) }
}
