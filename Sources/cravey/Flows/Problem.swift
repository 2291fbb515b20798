import ArgumentParser
import CraveyLibrary
import CraveyMedia
import CraveyTracker

/// What a failure says to the person: one line and an exit code, the same from a command and
/// from a screen's note.
enum Problem {
    /// A failure as one line and an exit code; nil for what is not one (--help, --version).
    static func of(_ error: Error) -> (message: String, code: Int32)? {
        switch error {
        case let error as LibraryError:
            if case .missingFile = error { return (error.description + " (run '\(Cravey.Check.repairCommand)')", 1) }
            if case let .notEmpty(root, holds) = error {
                return (
                    LibraryError.notEmpty(
                        root, holds: holds, emptyLibrary: "point --library or CRAVEY_LIBRARY at a new directory"), 1
                )
            }
            return (error.description, 1)
        case let error as MediaError: return (error.description, 1)
        case let error as TrackerError:
            if case let .notACraving(key) = error {
                return ("invalid --after-craving: \(TrackerError.reason(notACraving: key))", 1)
            }
            return (error.description, 1)
        case let error as MissingLibrary: return (error.description, 1)
        case let error as CraveyFailure: return (error.message, error.code)
        // A command that said what failed and chose its exit status: nothing more to say.
        case is ExitCode: return nil
        default:
            let code = Cravey.exitCode(for: error)
            if code == .success || error is CleanExit { return nil }
            return (
                Cravey.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)", code.rawValue
            )
        }
    }
}
