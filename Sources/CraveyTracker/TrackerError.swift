import Foundation

/// What the tracker refuses, each with a one-line message for the user.
public enum TrackerError: Error, Equatable, CustomStringConvertible {
    case invalid(field: String, reason: String)
    case notFound(String)
    case ambiguous(String, candidates: [String])
    /// The craving a use follows (or is asked to follow) has a linked use: deleting it needs a choice.
    case linkedUse(craving: String, uses: Int)
    /// A new log could not be kept because the disk is full (what failed, in the library's words).
    case diskFull(String)
    /// The craving a use is said to have followed is none: no craving was logged before the use
    /// (nil), or the key given names a use.
    case notACraving(String?)

    public var description: String {
        switch self {
        case let .invalid(field, reason):
            return "invalid \(field): \(reason)"
        case let .notFound(key):
            return "no craving or use log matches '\(key)'"
        case let .ambiguous(key, candidates):
            let shown = candidates.prefix(5).joined(separator: ", ")
            return
                "'\(key)' matches \(candidates.count) logs (\(shown)\(candidates.count > 5 ? ", …" : "")); give more of the id"
        case let .linkedUse(craving, uses):
            return "craving \(craving) has \(uses == 1 ? "a linked usage log" : "\(uses) linked usage logs")"
        case let .diskFull(what):
            return "Not logged: the disk is full (\(what)); free some space and log again"
        case let .notACraving(key):
            return "invalid craving followed: \(Self.reason(notACraving: key))"
        }
    }

    /// Why `notACraving` refused, for the caller to put after its own name for what was given.
    public static func reason(notACraving key: String?) -> String {
        key.map { "'\($0)' is a use, not a craving" } ?? "no craving was logged before this use"
    }
}
