import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Everything that can go wrong in the library, each with a one-line message for the user.
public enum LibraryError: Error, Equatable, CustomStringConvertible {
    case invalid(field: String, reason: String)
    case notFound(String)
    case ambiguous(String, candidates: [String])
    case unsafePath(String)
    case missingFile(String)
    case system(operation: String, path: String, errno: Int32)
    case injectedFault(String)
    case database(String)
    /// The library directory is not one cravey can use safely (not the user's, open to others, links).
    case unsafeLibrary(String)
    /// Another cravey process held the library for longer than cravey waits.
    case busy(String)
    /// The library could only be opened read-only, and this needs to change it.
    case readOnly(String)
    /// An export's output cannot be written as asked.
    case output(String)
    /// A backup folder (untrusted input: others may write there) holds what cravey does not read
    /// or write through; nothing was changed.
    case untrustedBackup(String)
    /// A backup folder that cannot take this backup now (another library's backup is there, another
    /// backup is writing to it, it is full); nothing of this backup was left in it.
    case backupFolder(String)
    /// A restore refused: the library at `root` holds `holds` recordings, or logs, check-ins or
    /// settings (restore goes only into an empty library).
    case notEmpty(root: String, holds: Int)

    public var description: String {
        switch self {
        case let .invalid(field, reason):
            return "invalid \(field): \(reason)"
        case let .notFound(key):
            return "no recording matches '\(key)'"
        case let .ambiguous(key, candidates):
            let shown = candidates.prefix(5).joined(separator: ", ")
            let more = candidates.count > 5 ? ", …" : ""
            return "'\(key)' matches \(candidates.count) recordings (\(shown)\(more)); give more of the id"
        case let .unsafePath(path):
            return "refusing to touch '\(path)': it is not inside the library"
        case let .missingFile(path):
            return "the file of this recording is missing: \(path)"
        case let .system(operation, path, code):
            return "\(operation) \(path): \(String(cString: strerror(code)))"
        case let .injectedFault(site):
            return "injected fault at \(site)"
        case let .database(message):
            return "library database: \(message)"
        case let .unsafeLibrary(message), let .busy(message), let .readOnly(message), let .output(message),
            let .untrustedBackup(message), let .backupFolder(message):
            return message
        case let .notEmpty(root, holds):
            return Self.notEmpty(root, holds: holds, emptyLibrary: nil)
        }
    }

    /// The words of `notEmpty`, with how to name an empty library in the caller's own words.
    public static func notEmpty(_ root: String, holds: Int, emptyLibrary: String?) -> String {
        "invalid library: the library at \(root) is not empty (\(holds) recordings, or logs, check-ins or settings); restore goes "
            + "only into an empty library\(emptyLibrary.map { ": " + $0 } ?? ""); nothing was restored"
    }
}
