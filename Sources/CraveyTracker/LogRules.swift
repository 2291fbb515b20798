import CraveyLibrary
import Foundation

/// The rules every log obeys, checked before anything is written (the schema's CHECKs say the
/// same, so a log that passes here is one the database takes).
enum LogRules {
    static let maxNotes = 500
    /// Combining marks can make a short text huge: a bound on code points too.
    static let maxNotesScalars = 2_000

    /// Notes as stored: trimmed, nil when empty; at most 500 characters, and none of the
    /// characters a title may not hold (control, direction and invisible ones).
    static func notes(_ raw: String?) throws -> String? {
        guard let trimmed = raw?.trimmingCharacters(in: .whitespaces), !trimmed.isEmpty else { return nil }
        if let bad = trimmed.unicodeScalars.first(where: Validation.isUnsafe) {
            throw TrackerError.invalid(
                field: "notes",
                reason: String(format: "U+%04X (a control, direction or invisible character) is not allowed", bad.value)
            )
        }
        guard trimmed.count <= maxNotes else {
            throw TrackerError.invalid(
                field: "notes", reason: "\(trimmed.count) characters; at most \(maxNotes) are allowed")
        }
        guard trimmed.unicodeScalars.count <= maxNotesScalars else {
            throw TrackerError.invalid(
                field: "notes", reason: "too many combining marks (\(trimmed.unicodeScalars.count) code points)")
        }
        return trimmed
    }

    static func check(_ craving: Craving, now: Date) throws {
        guard Intensity.range.contains(craving.intensity) else {
            throw TrackerError.invalid(field: "intensity", reason: "\(craving.intensity) is not from 1 to 10")
        }
        try check(craving.time, now: now)
    }

    static func check(_ use: Usage, now: Date) throws {
        guard use.method.allows(use.amount) else {
            throw TrackerError.invalid(
                field: "amount",
                reason:
                    "\(Method.number(use.amount)) is not an amount of \(use.method.rawValue) (\(use.method.rangeText))")
        }
        if let mood = use.moodAfter, !MoodAfter.range.contains(mood) {
            throw TrackerError.invalid(field: "mood after", reason: "\(mood) is not from 1 to 10")
        }
        try check(use.time, now: now)
    }

    static func check(_ time: LogTime, now: Date) throws {
        guard time.instant <= now.addingTimeInterval(1) else {
            throw TrackerError.invalid(
                field: "time", reason: "it is later than now; a log is of something that has happened")
        }
        guard abs(time.utcOffset) <= 18 * 3_600 else {
            throw TrackerError.invalid(field: "time", reason: "its UTC offset is out of range")
        }
    }
}
