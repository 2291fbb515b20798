import Foundation

/// Metadata of recordings as JSON (for `--json` and export) and CSV (for export).
/// Media stays in the library; only the rows are written.
public enum RecordingExport {
    /// Column order of CSV exports (and key order of JSON objects).
    public static let columns = [
        "id", "createdAt", "kind", "title", "notes", "purpose", "duration", "filePath", "thumbnailPath",
        "playCount", "lastPlayedAt", "modifiedAt", "sizeBytes", "width", "height", "fps", "sampleRate",
        "channels", "avOffset", "loudness", "truePeak", "playbackGain", "checkinDay", "mood", "prompt",
    ]
    /// Columns an export adds after `columns`: the transcript (text, null when none was made),
    /// its state, engine and model; JSON also carries its words with their times.
    public static let transcriptColumns = ["transcript", "transcriptState", "transcriptEngine", "transcriptModel"]

    /// A JSON string literal, escaped as the rows' strings are (for other outputs about recordings).
    public static func jsonString(_ s: String) -> String {
        var out: [UInt8] = []
        appendJSONString(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// JSON for one row; the waveform (peaks 0–255) only when asked, as it is long.
    public static func jsonObject(_ recording: Recording, includeWaveform: Bool) -> String {
        var out: [UInt8] = []
        appendJSON(recording, includeWaveform: includeWaveform, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A JSON array of rows, one per line.
    /// With `transcripts` (an export), each object also has the transcript columns.
    public static func jsonArray(_ recordings: [Recording], includeWaveform: Bool = false, transcripts: [UUID: Transcript]? = nil) -> String {
        if recordings.isEmpty { return "[]" }
        var out: [UInt8] = []
        out.reserveCapacity(recordings.count * 600)
        out.append(contentsOf: "[\n".utf8)
        for (i, recording) in recordings.enumerated() {
            out.append(contentsOf: i == 0 ? "  ".utf8 : ",\n  ".utf8)
            appendJSON(recording, includeWaveform: includeWaveform, transcripts: transcripts, to: &out)
        }
        out.append(contentsOf: "\n]".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends one row as a JSON object to a byte buffer (listings write thousands of them).
    static func appendJSON(_ recording: Recording, includeWaveform: Bool, transcripts: [UUID: Transcript]? = nil, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        for (i, field) in values(recording, transcripts: transcripts).enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            appendJSONString(field.key, to: &out)
            out.append(UInt8(ascii: ":"))
            switch field.value {
            case .null: out.append(contentsOf: "null".utf8)
            case let .integer(v): out.append(contentsOf: String(v).utf8)
            case let .number(v): out.append(contentsOf: (v.isFinite ? String(v) : "null").utf8)
            case let .string(v): appendJSONString(v, to: &out)
            }
        }
        if let transcripts {
            out.append(contentsOf: ",\"transcriptWords\":".utf8)
            out.append(contentsOf: (transcripts[recording.id].map { $0.state == .done ? $0.wordsJSON : "null" } ?? "null").utf8)
        }
        if includeWaveform {
            out.append(contentsOf: ",\"waveform\":[".utf8)
            for (i, peak) in recording.media.waveform.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: String(peak).utf8)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }

    /// RFC 4180 CSV with a header line; fields with commas, quotes or line breaks are quoted.
    /// With `transcripts` (an export), the transcript columns follow.
    public static func csv(_ recordings: [Recording], transcripts: [UUID: Transcript]? = nil) -> String {
        var out = (columns + (transcripts == nil ? [] : transcriptColumns)).joined(separator: ",") + "\r\n"
        for recording in recordings {
            out += values(recording, transcripts: transcripts).map { csvField($0.value) }.joined(separator: ",") + "\r\n"
        }
        return out
    }

    enum Value {
        case string(String), number(Double), integer(Int64), null
    }

    static func values(_ r: Recording, transcripts: [UUID: Transcript]? = nil) -> [(key: String, value: Value)] {
        func opt(_ s: String?) -> Value { s.map(Value.string) ?? .null }
        func optInt(_ i: Int?) -> Value { i.map { .integer(Int64($0)) } ?? .null }
        func optNum(_ d: Double?) -> Value { d.map(Value.number) ?? .null }
        var transcriptValues: [(key: String, value: Value)] = []
        if let transcripts {
            let t = transcripts[r.id]
            transcriptValues = [
                ("transcript", opt(t?.state == .done ? t?.text : nil)),
                ("transcriptState", .string(t?.state.rawValue ?? "none")),
                ("transcriptEngine", opt(t?.engine)),
                ("transcriptModel", opt(t?.model)),
            ]
        }
        return rowValues(r, opt, optInt, optNum) + transcriptValues
    }

    private static func rowValues(_ r: Recording, _ opt: (String?) -> Value, _ optInt: (Int?) -> Value,
                                  _ optNum: (Double?) -> Value) -> [(key: String, value: Value)] {
        [
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
            ("loudness", optNum(r.media.loudness)),
            ("truePeak", optNum(r.media.truePeak)),
            ("playbackGain", optNum(r.media.playbackGain)),
            ("checkinDay", opt(r.checkIn?.day)),
            ("mood", opt(r.checkIn?.mood.rawValue)),
            ("prompt", opt(r.checkIn?.prompt)),
        ]
    }

    /// `2025-10-25T15:42:07.123Z` (UTC, milliseconds).
    public static func isoDate(_ date: Date) -> String { StoredDate.text(date) }

    /// A JSON string: quotes, backslashes and control characters escaped, and so are DEL, C1
    /// controls, direction overrides and separators (as \uXXXX), so that printing the JSON can
    /// never drive a terminal.
    static func appendJSONString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if !s.utf8.contains(where: { $0 >= 0x7F }) {
            for byte in s.utf8 { appendJSONASCII(byte, to: &out) }  // nearly every title and path
        } else {
            for scalar in s.unicodeScalars {
                if scalar.value < 0x7F {
                    appendJSONASCII(UInt8(scalar.value), to: &out)
                } else if scalar.value <= 0xFFFF && Validation.isUnsafe(scalar) {
                    appendUnicodeEscape(UInt16(scalar.value), to: &out)
                } else {
                    out.append(contentsOf: String(scalar).utf8)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// One ASCII character of a JSON string, escaped as it must be.
    @inline(__always)
    private static func appendJSONASCII(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case UInt8(ascii: "\n"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case UInt8(ascii: "\r"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case UInt8(ascii: "\t"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0..<0x20: appendUnicodeEscape(UInt16(byte), to: &out)
        default: out.append(byte)
        }
    }

    private static func appendUnicodeEscape(_ value: UInt16, to out: inout [UInt8]) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        out.append(contentsOf: "\\u".utf8)
        for shift in [12, 8, 4, 0] { out.append(hex[Int((value >> UInt16(shift)) & 0xF)]) }
    }

    private static func csvField(_ value: Value) -> String {
        let text: String
        switch value {
        case .null: return ""
        case let .integer(i): return String(i)
        case let .number(d): return String(d)
        case let .string(s):
            // A cell starting with = + - @ (or a tab or carriage return) is run as a formula by
            // spreadsheets: an apostrophe in front keeps it text ("CSV injection").
            text = s.first.map { "=+-@\t\r".contains($0) } == true ? "'" + s : s
        }
        if text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return text
    }
}
