import CraveyLibrary
import CraveyMessages
import TerminalKit

/// What is said in place of a message whose sound cannot be heard: its own words where they can
/// be shown, and what helps without a speaker.
enum UnheardWords {
    /// The lines said in place of `recording`'s sound (indented lines are the message's own words). With `others`,
    /// when no words can be shown, what helps without a speaker: the breathing guide, and the
    /// messages in `others` whose words can be read.
    static func lines(
        _ recording: Recording, words: MessagePlay.Words, speaker: String, problem: DeviceProblem,
        others: [Recording]? = nil
    ) -> [String] {
        let title = Terminal.safe(recording.shownTitle)
        var lines: [String]
        switch words {
        case let .draft(text):
            lines = [
                "The sound can't play right now, so here are the words of '\(title)' (an automatic draft):", "",
                "  " + Terminal.safe(text.split(whereSeparator: \.isNewline).joined(separator: " ")),
            ]
        case .rough:
            lines = [
                "The sound can't play right now. '\(title)' has only a rough automatic draft of its words, so it is not shown here ('cravey show' has it)."
            ]
        case .silent:
            lines = ["The sound can't play right now. No words were heard in '\(title)'."]
        case .notYet:
            lines = [
                "The sound can't play right now, and '\(title)' has no transcript yet to read instead."
            ]
        case .unavailable:
            lines = ["The sound can't play right now. '\(title)': Transcript unavailable."]
        }
        if let notes = recording.notes?.trimmingCharacters(in: .whitespacesAndNewlines), !notes.isEmpty {
            lines += ["", "Your notes:", "  " + Terminal.safe(notes)]
        }
        if !words.shown, let others {
            // Never a dead end: what helps without a speaker.
            lines += ["", "Without a speaker: breathe with the ride's guide (o on the home screen, or 'cravey ride')."]
            lines += others.map {
                "Or read the words of '\(Terminal.safe($0.shownTitle))': 'cravey show \($0.id.uuidString.prefix(8))'."
            }
        }
        return lines + [
            "",
            "The speaker '\(Terminal.safe(speaker))' did not open (\(problem.detail)): 'cravey doctor --speaker \(Terminal.safe(speaker))' says how to fix it.",
        ]
    }
}
