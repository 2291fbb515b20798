import CraveyTracker
import TerminalKit

/// The dashboard's sections on which messages help and how long cravings last, in the terminal
/// and on the HTML page (kept apart from the other sections' code).
extension ProgressView {
    /// Each section's title, lines and sentence.
    var helpSections: [(title: String, lines: [String], sentence: String?)] {
        let f = figures
        let messages = f.messages.flatMap { message in
            var shown = message
            shown.title = Terminal.bold(Terminal.safe(message.title))
            return Terminal.wrap(ProgressFigures.messageLine(shown), width: width - 5).enumerated().map {
                ($0.offset == 0 ? "• " : "  ") + $0.element
            }
        }
        return [
            (ProgressFigures.messagesTitle, messages, f.messagesInsight),
            (
                ProgressFigures.lengthTitle, f.cravingLengthText.map { [Terminal.bold($0)] } ?? [],
                f.cravingLengthInsight
            ),
        ]
    }
}

extension ProgressPage {
    /// Each card's title, figure, HTML beneath it and sentence.
    static func helpCards(_ f: ProgressFigures) -> [(title: String, figure: String?, html: String, sentence: String)] {
        let list =
            f.messages.isEmpty
            ? ""
            : "<ul class=\"messages\">"
                + f.messages.map { "<li>\(escape(plain(ProgressFigures.messageLine($0))))</li>" }.joined() + "</ul>"
        return [
            (ProgressFigures.messagesTitle, nil, list, f.messagesInsight),
            (ProgressFigures.lengthTitle, f.cravingLengthText, "", f.cravingLengthInsight),
        ]
    }
}
