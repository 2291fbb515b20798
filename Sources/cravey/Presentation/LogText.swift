import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

/// How logs read in the terminal.
enum LogText {
    /// "2026-11-23 19:30  craving  7 strong       anxious, bored  home  first words…  1a2b3c4d"; a use
    /// names its method after the amount where the unit does not ("3 pulls vape", "2 dabs").
    /// Cut to `width` columns on a terminal; whole otherwise.
    static func line(_ entry: LogEntry, width: Int? = nil) -> String {
        let (kind, what, triggers, location): (String, String, [Trigger], Location?) =
            switch entry {
            case let .craving(c): ("craving", "\(c.intensity) \(c.band.rawValue)", c.triggers, c.location)
            case let .use(u):
                (
                    "use", u.amountText + (u.method == .bowls || u.method == .dab ? "" : " \(u.method.rawValue)"),
                    u.triggers, u.location
                )
            }
        var parts = [
            entry.time.localText, kind.padding(toLength: 7, withPad: " ", startingAt: 0),
            what.padding(toLength: 18, withPad: " ", startingAt: 0),
        ]
        parts.append(triggers.isEmpty ? "—" : triggers.map(\.rawValue).joined(separator: ", "))
        if let location { parts.append("@" + location.rawValue) }
        if let notes = entry.notes {
            parts.append(
                "“" + Terminal.safe(String(notes.split(separator: " ").prefix(6).joined(separator: " ")))
                    + (notes.split(separator: " ").count > 6 ? "…”" : "”"))
        }
        parts.append(String(entry.id.uuidString.prefix(8)))
        let text = parts.joined(separator: "  ")
        guard let width, Terminal.width(text) > width else { return text }
        return Terminal.fit(text, max(40, width - 1)).trimmingCharacters(in: .whitespaces)
    }

    /// Every field of a log, one a line.
    static func details(_ entry: LogEntry, _ lib: Library) throws -> [String] {
        var lines: [String] = []
        func add(_ label: String, _ value: String?) {
            if let value { lines.append(label.padding(toLength: 12, withPad: " ", startingAt: 0) + value) }
        }
        switch entry {
        case let .craving(c):
            add("Craving", c.id.uuidString)
            add("Time", "\(c.time.localText) (UTC\(c.time.offsetText))")
            add("Intensity", "\(c.intensity) of 10, \(c.band.rawValue)")
            add("Triggers", c.triggers.isEmpty ? "—" : c.triggers.map(\.label).joined(separator: ", "))
            add("Location", c.location?.label ?? "—")
            add(
                "Played",
                c.recordingId.map { id in
                    (try? lib.recording(matching: id.uuidString)).map { "'\(Terminal.safe($0.shownTitle))'" }
                        ?? id.uuidString
                })
            add("Notes", c.notes.map(Terminal.safe))
        case let .use(u):
            add("Use", u.id.uuidString)
            add("Time", "\(u.time.localText) (UTC\(u.time.offsetText))")
            add("Method", u.method.label)
            add("Amount", u.amountText)
            add("Triggers", u.triggers.isEmpty ? "—" : u.triggers.map(\.label).joined(separator: ", "))
            add("Location", u.location?.label ?? "—")
            add("Mood after", u.moodAfter.map { "\($0) of 10" })
            add("Followed", u.cravingId.map { "craving \($0.uuidString.prefix(8))" })
            add("Notes", u.notes.map(Terminal.safe))
        }
        return lines
    }
}
