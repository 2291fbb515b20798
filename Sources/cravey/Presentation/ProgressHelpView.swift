import CraveyTracker
import TerminalKit

/// The dashboard's section on which messages help, in the terminal and on the HTML page (kept
/// apart from the other sections' code).
extension ProgressView {
    /// A line for each message that helped, wrapped, its title bold.
    var messageLines: [String] {
        figures.messages.flatMap { message in
            var shown = message
            shown.title = Terminal.bold(Terminal.safe(message.title))
            return Terminal.wrap(ProgressFigures.messageLine(shown), width: width - 5).enumerated().map {
                ($0.offset == 0 ? "• " : "  ") + $0.element
            }
        }
    }
}

extension ProgressPage {
    /// The messages that helped as a list (nothing without any).
    static func messageList(_ f: ProgressFigures) -> String {
        f.messages.isEmpty
            ? ""
            : "<ul class=\"messages\">"
                + f.messages.map { "<li>\(escape(plain(ProgressFigures.messageLine($0))))</li>" }.joined() + "</ul>"
    }
}
