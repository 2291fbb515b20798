import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The library's limits, checked in one place (PRODUCT.md "The library").
public enum Validation {
    public static let maxTitleLength = 40
    public static let maxNotesLength = 200
    public static let maxDuration: Double = 120

    /// A title as it will be stored: trimmed; blank becomes the automatic title for `date`.
    /// Lengths count user-perceived characters (an emoji with modifiers or a letter with
    /// combining marks is one).
    public static func title(_ raw: String?, createdAt date: Date) throws -> String {
        let trimmed = (raw ?? "").trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return automaticTitle(for: date) }
        if let bad = trimmed.unicodeScalars.first(where: isControl) {
            throw LibraryError.invalid(
                field: "title", reason: "control character U+\(String(bad.value, radix: 16, uppercase: true)) is not allowed")
        }
        guard trimmed.count <= maxTitleLength else {
            throw LibraryError.invalid(
                field: "title", reason: "\(trimmed.count) characters; at most \(maxTitleLength) are allowed")
        }
        return trimmed
    }

    /// Notes as stored: nil when blank; at most 200 characters; newlines and tabs allowed.
    public static func notes(_ raw: String?) throws -> String? {
        guard let raw, !raw.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        if let bad = raw.unicodeScalars.first(where: { isControl($0) && $0 != "\n" && $0 != "\t" }) {
            throw LibraryError.invalid(
                field: "notes", reason: "control character U+\(String(bad.value, radix: 16, uppercase: true)) is not allowed")
        }
        guard raw.count <= maxNotesLength else {
            throw LibraryError.invalid(
                field: "notes", reason: "\(raw.count) characters; at most \(maxNotesLength) are allowed")
        }
        return raw
    }

    /// A purpose name, or nil for none; unknown names are refused with the list of known ones.
    public static func purpose(_ raw: String?) throws -> Recording.Purpose? {
        guard let raw, !raw.isEmpty else { return nil }
        guard let purpose = Recording.Purpose(rawValue: raw.lowercased()) else {
            let known = Recording.Purpose.allCases.map(\.rawValue).joined(separator: ", ")
            throw LibraryError.invalid(field: "purpose", reason: "'\(raw)' is not one of \(known)")
        }
        return purpose
    }

    public static func kind(_ raw: String) throws -> Recording.Kind {
        guard let kind = Recording.Kind(rawValue: raw.lowercased()) else {
            throw LibraryError.invalid(field: "kind", reason: "'\(raw)' is not audio or video")
        }
        return kind
    }

    /// Duration in seconds: 0 < d ≤ 120.
    public static func duration(_ seconds: Double) throws -> Double {
        guard seconds.isFinite, seconds > 0, seconds <= maxDuration else {
            throw LibraryError.invalid(
                field: "duration", reason: "\(seconds) s; a recording lasts more than 0 and at most 120 seconds")
        }
        return seconds
    }

    /// A path stored in a row: relative, without `..`, `.` or empty components, under `Recordings/`.
    /// A row that fails this is never opened or deleted.
    public static func libraryRelativePath(_ path: String) throws -> String {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"), components.first == "Recordings", components.count >= 2,
              !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
              !path.unicodeScalars.contains(where: isControl)
        else {
            throw LibraryError.unsafePath(path)
        }
        return path
    }

    /// `Recording Oct 25, 2025 3:42 PM`, in local time.
    public static func automaticTitle(for date: Date, prefix: String = "Recording", timeZone: TimeZone? = nil) -> String {
        "\(prefix) \(displayDate(date, timeZone: timeZone))"
    }

    /// `Oct 25, 2025 3:42 PM`: how dates appear in titles and listings (local time unless
    /// `timeZone` is given). Built from localtime_r, as listings format thousands of them.
    public static func displayDate(_ date: Date, timeZone: TimeZone? = nil) -> String {
        var seconds = time_t(date.millisecondsSince1970 >= 0 ? date.millisecondsSince1970 / 1000
                                                            : (date.millisecondsSince1970 - 999) / 1000)
        if let timeZone { seconds += time_t(timeZone.secondsFromGMT(for: date)) }
        var parts = tm()
        if timeZone == nil { localtime_r(&seconds, &parts) } else { gmtime_r(&seconds, &parts) }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let hour12 = parts.tm_hour % 12 == 0 ? 12 : parts.tm_hour % 12
        let minute = parts.tm_min < 10 ? "0\(parts.tm_min)" : "\(parts.tm_min)"
        return "\(months[Int(parts.tm_mon)]) \(parts.tm_mday), \(parts.tm_year + 1900) \(hour12):\(minute) \(parts.tm_hour < 12 ? "AM" : "PM")"
    }

    /// Validates every field of a row before it is written.
    public static func check(_ recording: Recording) throws {
        _ = try title(recording.title, createdAt: recording.createdAt)
        if recording.title != recording.title.trimmingCharacters(in: .whitespaces) || recording.title.isEmpty {
            throw LibraryError.invalid(field: "title", reason: "must not be blank or padded")
        }
        _ = try notes(recording.notes)
        _ = try duration(recording.duration)
        _ = try libraryRelativePath(recording.filePath)
        if let thumb = recording.thumbnailPath { _ = try libraryRelativePath(thumb) }
        guard recording.playCount >= 0 else {
            throw LibraryError.invalid(field: "playCount", reason: "must not be negative")
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }
}
