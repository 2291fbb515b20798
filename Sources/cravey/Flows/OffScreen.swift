import CraveyLibrary
import TerminalKit

/// Running a flow from a full screen: on the normal screen, off the full screen and back, as its
/// command runs it; what it says is the screen's one-line note.
enum OffScreen {
    /// Runs `body` on the normal screen, off `screen` and back; its note, or its failure in one
    /// line. A transcript a save queued is started once it is done.
    static func run(on screen: FullScreen, _ body: () throws -> String?) -> String? {
        screen.suspend {
            defer { Transcribing.afterCommand() }
            do {
                return try body()
            } catch {
                return note(failed: error)
            }
        }
    }

    /// What went wrong, as a screen's note: the words first (no program name before them), the
    /// remedy after, as the message says them; nil for what is not a failure.
    static func note(failed error: Error) -> String? {
        Problem.of(error).map { problem in
            let words = Terminal.safe(problem.message)
            return words.prefix(1).uppercased() + words.dropFirst()
        }
    }
}
