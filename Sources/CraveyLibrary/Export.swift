import Foundation

/// Metadata of recordings as JSON (for `--json` and export) and CSV (for export).
/// Media stays in the library; only the rows are written.
public enum RecordingExport {
    /// Column order of CSV exports (and key order of JSON objects).
    public static let columns = [
        "id", "createdAt", "kind", "title", "notes", "purpose", "duration", "filePath", "thumbnailPath",
        "playCount", "lastPlayedAt", "modifiedAt", "sizeBytes", "width", "height", "fps", "sampleRate",
        "channels", "avOffset",
    ]

    /// JSON for one row; the waveform (peaks 0–255) only when asked, as it is long.
    public static func jsonObject(_ recording: Recording, includeWaveform: Bool) -> String {
        var fields = values(recording).map { "\"\($0.key)\":\(json($0.value))" }
        if includeWaveform {
            fields.append("\"waveform\":[" + recording.media.waveform.map(String.init).joined(separator: ",") + "]")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A JSON array of rows, one per line.
    public static func jsonArray(_ recordings: [Recording], includeWaveform: Bool = false) -> String {
        if recordings.isEmpty { return "[]" }
        return "[\n" + recordings.map { "  " + jsonObject($0, includeWaveform: includeWaveform) }
            .joined(separator: ",\n") + "\n]"
    }

    /// RFC 4180 CSV with a header line; fields with commas, quotes or line breaks are quoted.
    public static func csv(_ recordings: [Recording]) -> String {
        var out = columns.joined(separator: ",") + "\r\n"
        for recording in recordings {
            out += values(recording).map { csvField($0.value) }.joined(separator: ",") + "\r\n"
        }
        return out
    }

    /// Parses RFC 4180 CSV (used by tests and by anyone checking an export).
    public static func parseCSV(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var iterator = Array(text).makeIterator()
        var pending: Character? = nil
        while let c = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
                    } else { quoted = false }
                } else { field.append(c) }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(field); field = ""
            } else if c == "\r\n" || c == "\n" {
                row.append(field); rows.append(row); row = []; field = ""
            } else {
                field.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }

    enum Value {
        case string(String), number(Double), integer(Int64), null
    }

    static func values(_ r: Recording) -> [(key: String, value: Value)] {
        func opt(_ s: String?) -> Value { s.map(Value.string) ?? .null }
        func optInt(_ i: Int?) -> Value { i.map { .integer(Int64($0)) } ?? .null }
        func optNum(_ d: Double?) -> Value { d.map(Value.number) ?? .null }
        return [
            ("id", .string(r.id.uuidString)),
            ("createdAt", .string(isoDate(r.createdAt))),
            ("kind", .string(r.kind.rawValue)),
            ("title", .string(r.title)),
            ("notes", opt(r.notes)),
            ("purpose", opt(r.purpose?.rawValue)),
            ("duration", .number(r.duration)),
            ("filePath", .string(r.filePath)),
            ("thumbnailPath", opt(r.thumbnailPath)),
            ("playCount", .integer(Int64(r.playCount))),
            ("lastPlayedAt", opt(r.lastPlayedAt.map(isoDate))),
            ("modifiedAt", .string(isoDate(r.modifiedAt))),
            ("sizeBytes", .integer(r.media.sizeBytes)),
            ("width", optInt(r.media.width)),
            ("height", optInt(r.media.height)),
            ("fps", optNum(r.media.fps)),
            ("sampleRate", optInt(r.media.sampleRate)),
            ("channels", optInt(r.media.channels)),
            ("avOffset", optNum(r.media.avOffset)),
        ]
    }

    /// `2025-10-25T15:42:07.123Z` (UTC, milliseconds).
    public static func isoDate(_ date: Date) -> String {
        var seconds = time_t(floor(date.timeIntervalSince1970))
        let millis = Int(((date.timeIntervalSince1970 - Double(seconds)) * 1000).rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ v: Int32, _ n: Int = 2) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, n - s.count)) + s
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T"
            + "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec)).\(pad(Int32(millis), 3))Z"
    }

    private static func json(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case let .integer(i): return String(i)
        case let .number(d): return d.isFinite ? String(d) : "null"
        case let .string(s): return jsonString(s)
        }
    }

    /// A JSON string literal for `s`.
    public static func jsonString(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static func csvField(_ value: Value) -> String {
        let text: String
        switch value {
        case .null: return ""
        case let .integer(i): return String(i)
        case let .number(d): return String(d)
        case let .string(s): text = s
        }
        if text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return text
    }
}
