import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Metadata of recordings as JSON (for `--json` and export) and CSV (for export).
/// Media stays in the library; only the rows are written.
public enum RecordingExport {
    /// Column order of CSV exports (and key order of JSON objects).
    public static let columns = [
        "id", "createdAt", "kind", "title", "notes", "purpose", "duration", "filePath", "thumbnailPath",
        "playCount", "lastPlayedAt", "modifiedAt", "sizeBytes", "width", "height", "fps", "sampleRate",
        "channels", "avOffset", "loudness", "truePeak", "playbackGain", "checkinDay", "mood", "prompt",
        "forTriggers",
    ]
    /// Columns an export adds after `columns`: the transcript (text, null when none was made),
    /// its state, engine and model; JSON also carries its words with their times.
    public static let transcriptColumns = ["transcript", "transcriptState", "transcriptEngine", "transcriptModel"]

    /// A JSON string literal, escaped as the rows' strings are.
    static func jsonString(_ s: String) -> String {
        var out: [UInt8] = []
        appendJSONString(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A JSON array of rows, one per line, written straight into bytes: listings and exports write
    /// thousands of rows (`list --json` of 10,000 is measured against sqlite3's own JSON), where
    /// JSONEncoder is several times slower. Any other JSON goes through `JSONText`, which escapes
    /// the same characters. With `transcripts` (an export), each object also has the transcript columns.
    public static func jsonArray(
        _ recordings: [Recording], includeWaveform: Bool = false, transcripts: [UUID: Transcript]? = nil
    ) -> String {
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

    /// Appends an object of `fields` (then string arrays) to a byte buffer, written and escaped as
    /// the rows are: for other long listings (the logs).
    package static func appendObject(
        _ fields: [(String, Value)], arrays: [(String, [String])] = [], to out: inout [UInt8]
    ) {
        out.append(UInt8(ascii: "{"))
        for (i, (key, value)) in fields.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            appendJSONString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            appendValue(value, to: &out)
        }
        for (key, items) in arrays {
            if !fields.isEmpty || key != arrays.first?.0 { out.append(UInt8(ascii: ",")) }
            appendJSONString(key, to: &out)
            out.append(contentsOf: ":[".utf8)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendJSONString(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }

    package static func appendValue(_ value: Value, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case let .integer(v): out.append(contentsOf: String(v).utf8)
        case let .number(v): out.append(contentsOf: (v.isFinite ? String(v) : "null").utf8)
        case let .string(v): appendJSONString(v, to: &out)
        }
    }

    /// Appends one row as a JSON object to a byte buffer (listings write thousands of them).
    static func appendJSON(
        _ recording: Recording, includeWaveform: Bool, transcripts: [UUID: Transcript]? = nil, to out: inout [UInt8]
    ) {
        out.append(UInt8(ascii: "{"))
        for (i, field) in values(recording, transcripts: transcripts).enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            appendJSONString(field.key, to: &out)
            out.append(UInt8(ascii: ":"))
            appendValue(field.value, to: &out)
        }
        if let transcripts {
            out.append(contentsOf: ",\"transcriptWords\":".utf8)
            out.append(
                contentsOf: (transcripts[recording.id].map { $0.state == .done ? $0.wordsJSON : "null" } ?? "null").utf8
            )
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
        csv(
            header: columns + (transcripts == nil ? [] : transcriptColumns),
            rows: recordings.map {
                Dictionary(uniqueKeysWithValues: values($0, transcripts: transcripts).map { ($0.key, $0.value) })
            })
    }

    /// RFC 4180 CSV of rows given by column name under `header` (a column a row does not have is an
    /// empty cell), cells protected as every export's are.
    public static func csv(header: [String], rows: [[String: Value]]) -> String {
        var out = header.joined(separator: ",") + "\r\n"
        for row in rows { out += csvLine(header: header, row) }
        return out
    }

    /// One row of `csv`, with its line end.
    static func csvLine(header: [String], _ row: [String: Value]) -> String {
        header.map { csvField(row[$0] ?? .null, formatted: formattedColumns.contains($0)) }.joined(separator: ",")
            + "\r\n"
    }

    /// Columns whose cells cravey writes itself from its own values (ids, times, UTC offsets such
    /// as `+02:00`): never a formula, so never given the apostrophe free text gets.
    static let formattedColumns: Set<String> = [
        "id", "at", "localTime", "utcOffset", "createdAt", "modifiedAt", "lastPlayedAt", "recordingId", "cravingId",
    ]

    /// A cell of an export.
    public enum Value: Sendable, Equatable {
        case string(String), number(Double), integer(Int64), null
    }

    /// A row's cells in column order (with the transcript's when `transcripts` is given).
    public static func values(_ r: Recording, transcripts: [UUID: Transcript]? = nil) -> [(key: String, value: Value)] {
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

    private static func rowValues(
        _ r: Recording, _ opt: (String?) -> Value, _ optInt: (Int?) -> Value,
        _ optNum: (Double?) -> Value
    ) -> [(key: String, value: Value)] {
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
            ("forTriggers", .string(r.forTriggers.joined(separator: ","))),
        ]
    }

    /// `2025-10-25T15:42:07.123Z` (UTC, milliseconds).
    public static func isoDate(_ date: Date) -> String { StoredDate.text(date) }

    /// A JSON string: quotes, backslashes and control characters escaped, and so are DEL, C1
    /// controls, direction overrides and separators (as \uXXXX), so that printing the JSON can
    /// never drive a terminal.
    package static func appendJSONString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out.append(contentsOf: s.utf8)  // nothing to escape: ids, times, most words
        } else if !s.utf8.contains(where: { $0 >= 0x7F }) {
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

    fileprivate static func appendUnicodeEscape(_ value: UInt16, to out: inout [UInt8]) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        out.append(contentsOf: "\\u".utf8)
        for shift in [12, 8, 4, 0] { out.append(hex[Int((value >> UInt16(shift)) & 0xF)]) }
    }

    private static func csvField(_ value: Value, formatted: Bool) -> String {
        let text: String
        switch value {
        case .null: return ""
        case let .integer(i): return String(i)
        case let .number(d): return String(d)
        case let .string(s):
            // Text starting with = + - @ (or a tab or carriage return) is run as a formula by
            // spreadsheets: an apostrophe in front keeps it text ("CSV injection").
            text = !formatted && s.first.map { "=+-@\t\r".contains($0) } == true ? "'" + s : s
        }
        if text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return text
    }
}

/// A log the library keeps for the tracker (a craving or a use), as an export writes it beside
/// the recordings: JSON through `Encodable`, CSV through its cells.
public protocol ExportedLog: Encodable {
    /// A craving's (listed under "cravings"), or a use's ("usage").
    var isCraving: Bool { get }
    /// Its CSV cells by column, `record` among them.
    var csvRow: [String: RecordingExport.Value] { get }
    /// What its JSON holds: values, then arrays of strings (nil: only through `Encodable`).
    var exportFields: (values: [(String, RecordingExport.Value)], arrays: [(String, [String])])? { get }
}

extension ExportedLog {
    public var exportFields: (values: [(String, RecordingExport.Value)], arrays: [(String, [String])])? { nil }
}

/// The export of a library's metadata (not the media): every craving and use log and every
/// recording (check-ins too) with its transcript, as one JSON object or one CSV table, and what
/// it holds.
public struct LibraryExport: Sendable {
    public enum Format: String, CaseIterable, Sendable { case csv, json }

    public let format: Format
    public let text: String
    public let cravings: Int
    public let usageLogs: Int
    public let recordings: Int

    /// Reads the recordings, their transcripts and then `logs` (whose CSV columns are
    /// `logColumns`), and writes them as `format`.
    public init<Log: ExportedLog>(_ format: Format, of library: Library, logs: () throws -> [Log], logColumns: [String])
        throws
    {
        var data = Data()
        let all = try logs()
        let counts = try Self.write(
            format, of: library, logColumns: logColumns,
            forEachLog: { cravings, uses, body in
                for log in all where log.isCraving ? cravings : uses { try body(log) }
            }, to: { data.append($0) })
        self.format = format
        text = String(decoding: data, as: UTF8.self)
        (cravings, usageLogs, recordings) = (counts.cravings, counts.usageLogs, counts.recordings)
    }

    /// How many of each an export holds.
    public struct Counts: Sendable {
        public var cravings = 0
        public var usageLogs = 0
        public var recordings = 0
    }

    /// The logs' JSON objects in an export, each as its bytes, handed to `body` newest first: the
    /// cravings' (true) or the uses' (false). Written straight from the rows, as `forEachLog`'s
    /// logs would be written.
    public typealias LogObjects = (_ cravings: Bool, _ body: ([UInt8]) throws -> Void) throws -> Void

    /// Writes the export of `library` as `format` to `sink` a block at a time, the logs as
    /// `forEachLog` hands them (the cravings, the uses, or both; newest first), or in JSON as
    /// `logObjects` writes them when it is given: what is held is a block, however many logs
    /// there are. JSON is written as `JSONText` writes it (see `EncodedJSON`):
    /// {"cravings": [...], "usage": [...], "recordings": [...]}.
    public static func write<Log: ExportedLog>(
        _ format: Format, of library: Library, logColumns: [String],
        forEachLog: (_ cravings: Bool, _ uses: Bool, _ body: (Log) throws -> Void) throws -> Void,
        logObjects: LogObjects? = nil, to sink: (Data) throws -> Void
    ) throws -> Counts {
        // Called from within the logs' reading: a block is written as soon as it is full.
        try withoutActuallyEscaping(sink) { sink in
            let recordings = try library.recordings(includingCheckIns: true)
            let transcripts = try library.allTranscripts()
            var counts = Counts(recordings: recordings.count)
            var out: [UInt8] = []
            func flush(_ full: Bool = false) throws {
                guard full || out.count >= 1 << 16 else { return }
                try sink(Data(out))
                out.removeAll(keepingCapacity: true)
            }
            func count(_ log: Log) {
                if log.isCraving { counts.cravings += 1 } else { counts.usageLogs += 1 }
            }
            if format == .csv {
                let recordingColumns = RecordingExport.columns + RecordingExport.transcriptColumns
                let header = ["record"] + logColumns + recordingColumns.filter { !logColumns.contains($0) }
                out.append(contentsOf: (header.joined(separator: ",") + "\r\n").utf8)
                try forEachLog(true, true) { log in
                    count(log)
                    out.append(contentsOf: RecordingExport.csvLine(header: header, log.csvRow).utf8)
                    try flush()
                }
                for recording in recordings {
                    var row = Dictionary(
                        RecordingExport.values(recording, transcripts: transcripts).map { ($0.key, $0.value) },
                        uniquingKeysWith: { a, _ in a })
                    row["record"] = .string("recording")
                    out.append(contentsOf: RecordingExport.csvLine(header: header, row).utf8)
                }
                try flush(true)
                return counts
            }
            var encoded = EncodedJSON()
            out.append(contentsOf: "{\n  \"cravings\": ".utf8)
            for cravings in [true, false] {
                if !cravings { out.append(contentsOf: ",\n  \"usage\": ".utf8) }
                var first = true
                if let logObjects {
                    try logObjects(cravings) { object in
                        if cravings { counts.cravings += 1 } else { counts.usageLogs += 1 }
                        out.append(contentsOf: (first ? "[\n    " : ",\n    ").utf8)
                        first = false
                        out.append(contentsOf: object)
                        try flush()
                    }
                } else {
                    try forEachLog(cravings, !cravings) { log in
                        count(log)
                        out.append(contentsOf: (first ? "[\n    " : ",\n    ").utf8)
                        first = false
                        if let fields = log.exportFields {
                            try encoded.object(fields.values, arrays: fields.arrays, to: &out)
                        } else {
                            out.append(contentsOf: try JSONText.data(log))
                        }
                        try flush()
                    }
                }
                out.append(contentsOf: (first ? "[]" : "\n  ]").utf8)
            }
            let listed = RecordingExport.jsonArray(recordings, transcripts: transcripts).replacingOccurrences(
                of: "\n", with: "\n  ")
            out.append(contentsOf: ",\n  \"recordings\": \(listed)\n}\n".utf8)
            try flush(true)
            return counts
        }
    }

    /// Writes the export to `path` a block at a time (0600, never half-written:
    /// `RecordingExport.write`); the refusals as `write(to:…)` says them.
    public static func write<Log: ExportedLog>(
        _ format: Format, of library: Library, logColumns: [String],
        forEachLog: (_ cravings: Bool, _ uses: Bool, _ body: (Log) throws -> Void) throws -> Void,
        logObjects: LogObjects? = nil, to path: String, replacing: Bool, another: String, replace: String?
    ) throws -> Counts {
        var counts = Counts()
        try RecordingExport.write(to: path, replacing: replacing, another: another, replace: replace) { emit in
            counts = try write(
                format, of: library, logColumns: logColumns, forEachLog: forEachLog, logObjects: logObjects, to: emit)
        }
        return counts
    }

    /// Writes the export to `path` (0600, never half-written: `RecordingExport.write`), replacing
    /// a regular file there only with `replacing`; a refusal says what to do in `another` and
    /// `replace`.
    public func write(to path: String, replacing: Bool, another: String, replace: String?) throws {
        try RecordingExport.write(Data(text.utf8), to: path, replacing: replacing, another: another, replace: replace)
    }

    /// `cravey_export_YYYY-MM-DD.<format>`, today's local date; from `number` 2 on, numbered
    /// (`cravey_export_YYYY-MM-DD_2.<format>`).
    public static func fileName(_ format: Format, number: Int = 1) -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return String(format: "cravey_export_%04d-%02d-%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday)
            + (number > 1 ? "_\(number)" : "") + "." + format.rawValue
    }

    /// Today's export in `folder` ("": the current one): its name, or when something is already
    /// there, the first numbered name that is free — a second export the same day keeps both.
    public static func unusedPath(in folder: String, _ format: Format) -> String {
        func path(_ number: Int) -> String {
            let name = fileName(format, number: number)
            return folder.isEmpty ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name
        }
        var number = 1
        var info = stat()
        while lstat(path(number), &info) == 0 { number += 1 }
        return path(number)
    }
}

/// JSON of any `Encodable` value, through JSONEncoder (keys sorted), then escaped as the listings'
/// byte writer escapes strings: JSONEncoder leaves DEL, C1 controls, direction overrides and
/// separators raw, and those become \uXXXX here, so that printing JSON can never drive a terminal.
/// (Outside strings JSON is ASCII, so every such character found is inside one.)
public enum JSONText {
    public static func data<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return escapingUnsafe(try encoder.encode(value))
    }

    static func escapingUnsafe(_ data: Data) -> Data {
        guard data.contains(where: { $0 >= 0x7F }) else { return data }
        var out: [UInt8] = []
        out.reserveCapacity(data.count + 32)
        for scalar in String(decoding: data, as: UTF8.self).unicodeScalars {
            if scalar.value >= 0x7F && scalar.value <= 0xFFFF && Validation.isUnsafe(scalar) {
                RecordingExport.appendUnicodeEscape(UInt16(scalar.value), to: &out)
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return Data(out)
    }
}

/// A row as JSON through `Encodable`: the listings' keys and values (`RecordingExport.columns`).
extension Recording: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        for field in RecordingExport.values(self) { try container.encode(field.value, forKey: JSONKey(field.key)) }
    }
}

/// A row with its waveform (peaks 0–255) and its transcript (or null): what `show --json` prints.
public struct RecordingDetail: Encodable {
    public var recording: Recording
    public var transcript: Transcript?

    public init(_ recording: Recording, transcript: Transcript?) {
        self.recording = recording
        self.transcript = transcript
    }

    public func encode(to encoder: Encoder) throws {
        try recording.encode(to: encoder)
        var container = encoder.container(keyedBy: JSONKey.self)
        try container.encode(recording.media.waveform.map(Int.init), forKey: JSONKey("waveform"))
        try container.encode(transcript, forKey: JSONKey("transcript"))
    }
}

/// {state, text, words: [[word, start, end]] (times to the millisecond), engine, model, madeAt, problem}.
extension Transcript: Encodable {
    enum CodingKeys: String, CodingKey { case state, text, words, engine, model, madeAt, problem }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state.rawValue, forKey: .state)
        try container.encode(text, forKey: .text)
        try container.encode(words, forKey: .words)
        try container.encode(engine, forKey: .engine)
        try container.encode(model, forKey: .model)
        try container.encode(StoredDate.text(madeAt), forKey: .madeAt)
        try container.encode(problem, forKey: .problem)
    }
}

extension Transcript.Word: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(text)
        try container.encode((start * 1000).rounded() / 1000)
        try container.encode((end * 1000).rounded() / 1000)
    }
}

extension RecordingExport.Value: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .integer(value): try container.encode(value)
        case let .number(value): if value.isFinite { try container.encode(value) } else { try container.encodeNil() }
        case let .string(value): try container.encode(value)
        }
    }
}

/// A key named at run time (the rows' columns).
public struct JSONKey: CodingKey {
    public var stringValue: String
    public var intValue: Int? { nil }
    public init(_ name: String) { stringValue = name }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}

/// Objects written as `JSONText.data` writes them (JSONEncoder, keys sorted, then escaped): a
/// string of plain printable ASCII and a whole number straight into bytes, and anything else (a
/// fraction, text to escape) through the encoder itself, the keys in the order it sorts them; so
/// the bytes are the encoder's, and ten years of logs are exported without an encoder call each.
package struct EncodedJSON {
    private var orders: [[String]: [Int]] = [:]
    private var numbers: [UInt64: [UInt8]] = [:]

    package init() {}

    package mutating func object(
        _ values: [(String, RecordingExport.Value)], arrays: [(String, [String])], to out: inout [UInt8]
    ) throws {
        let names = values.map(\.0) + arrays.map(\.0)
        let order = try self.order(names)
        out.append(UInt8(ascii: "{"))
        for (n, index) in order.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            try string(names[index], to: &out)
            out.append(UInt8(ascii: ":"))
            guard index >= values.count else {
                try value(values[index].1, to: &out)
                continue
            }
            out.append(UInt8(ascii: "["))
            for (i, item) in arrays[index - values.count].1.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                try string(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }

    /// The order the encoder writes these keys in: indices into `names`.
    package mutating func order(_ names: [String]) throws -> [Int] {
        if let known = orders[names] { return known }
        let probe = String(
            decoding: try JSONText.data(Dictionary(names.map { ($0, 0) }, uniquingKeysWith: { a, _ in a })),
            as: UTF8.self)
        let place = names.map {
            probe.range(of: "\"\($0)\":").map { probe.distance(from: probe.startIndex, to: $0.lowerBound) } ?? 0
        }
        let order = names.indices.sorted { place[$0] < place[$1] }
        orders[names] = order
        return order
    }

    package mutating func value(_ value: RecordingExport.Value, to out: inout [UInt8]) throws {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .integer(let n): out.append(contentsOf: String(n).utf8)
        case .number(let d) where !d.isFinite: out.append(contentsOf: "null".utf8)
        case .number(let d):
            if let known = numbers[d.bitPattern] {
                out.append(contentsOf: known)
            } else {
                let encoded = Array(try JSONText.data([d]).dropFirst().dropLast())
                numbers[d.bitPattern] = encoded
                out.append(contentsOf: encoded)
            }
        case .string(let s): try string(s, to: &out)
        }
    }

    package func string(_ s: String, to out: inout [UInt8]) throws {
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: s.utf8)
            out.append(UInt8(ascii: "\""))
        } else {
            out.append(contentsOf: try JSONText.data([s]).dropFirst().dropLast())
        }
    }
}
