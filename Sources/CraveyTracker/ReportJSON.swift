import Foundation

/// `report --json`: the period, its figures (as `progress --json` has them) and its calendar, a
/// day each: the cravings, the strongest, the amount per method and its kind (used, noUse,
/// notReported, dontRemember, beforeTracking); the notes when asked for.
extension Report: Encodable {
    private enum Key: String, CodingKey { case from, to, figures, days, notes, plans, selfScreens, limits }

    /// A note as printed: its local time, its log and its words.
    private struct NoteJSON: Encodable {
        var localTime: String
        var what: String
        var text: String
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(from, forKey: .from)
        try c.encode(to, forKey: .to)
        try c.encode(figures, forKey: .figures)
        try c.encode(days, forKey: .days)
        try c.encode(notes.map { NoteJSON(localTime: $0.time.localText, what: $0.what, text: $0.text) }, forKey: .notes)
        try c.encode(plans, forKey: .plans)
        try c.encode(figures.limits, forKey: .limits)
        try c.encodeIfPresent(screens, forKey: .selfScreens)
    }
}
