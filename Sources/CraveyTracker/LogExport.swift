import CraveyLibrary
import Foundation

/// Logs as JSON (through `Encodable`, for `--json` and export) and as CSV cells (export): the same
/// keys in both.
extension Craving: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        for (key, value) in exportValues { try container.encode(value, forKey: JSONKey(key)) }
        try container.encode(triggers.map(\.rawValue), forKey: JSONKey("triggers"))
        try container.encode(played.map(\.uuidString), forKey: JSONKey("played"))
    }

    /// A ride's ratings as exported: "0:8 300:6 600:4", each the seconds after the craving's time
    /// and the rating, in order (null when not ridden).
    public var ratingsText: RecordingExport.Value {
        ratings.isEmpty ? .null : .string(ratings.map { "\($0.seconds):\($0.value)" }.joined(separator: " "))
    }

    /// The cells of a craving (triggers as their names, comma-separated; `played`, every message
    /// played in it, is an array of ids beside them).
    public var exportValues: [(String, RecordingExport.Value)] {
        LogExport.common(id: id, kind: "craving", time: time, createdAt: createdAt, modifiedAt: modifiedAt) + [
            ("intensity", .integer(Int64(intensity))),
            ("band", .string(band.rawValue)),
            ("location", LogExport.optional(location?.rawValue)),
            ("notes", LogExport.optional(notes)),
            ("recordingId", LogExport.optional(recordingId?.uuidString)),
            ("ratings", ratingsText),
        ]
    }
}

extension Usage: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        for (key, value) in exportValues { try container.encode(value, forKey: JSONKey(key)) }
        try container.encode(triggers.map(\.rawValue), forKey: JSONKey("triggers"))
    }

    public var exportValues: [(String, RecordingExport.Value)] {
        LogExport.common(id: id, kind: "use", time: time, createdAt: createdAt, modifiedAt: modifiedAt) + [
            ("method", .string(method.rawValue)),
            ("amount", .number(amount)),
            ("unit", .string(method.unit)),
            ("location", LogExport.optional(location?.rawValue)),
            ("notes", LogExport.optional(notes)),
            ("moodAfter", moodAfter.map { .integer(Int64($0)) } ?? .null),
            ("cravingId", LogExport.optional(cravingId?.uuidString)),
        ]
    }
}

extension LogEntry: Encodable {
    public func encode(to encoder: Encoder) throws {
        switch self {
        case let .craving(c): try c.encode(to: encoder)
        case let .use(u): try u.encode(to: encoder)
        }
    }
}

public enum LogExport {
    /// A JSON array of logs, one a line, written straight into bytes (as the recordings' listing
    /// is: `log --json` of 73,000 logs is measured), with the keys and escaping of `Encodable`'s.
    public static func jsonArray(_ entries: [LogEntry]) -> Data {
        var data = Data()
        var writer = JSONArrayWriter { data.append(contentsOf: $0) }
        for entry in entries { writer.append(entry) }
        writer.finish()
        return data
    }

    /// The bytes of `jsonArray`, written as the logs come, a block at a time to `sink`: what is
    /// held is a block, however many logs are listed.
    public struct JSONArrayWriter {
        private var out: [UInt8] = []
        private var count = 0
        private let sink: ([UInt8]) -> Void

        public init(_ sink: @escaping ([UInt8]) -> Void) { self.sink = sink }

        public mutating func append(_ entry: LogEntry) {
            out.append(contentsOf: count == 0 ? "[\n  ".utf8 : ",\n  ".utf8)
            count += 1
            let fields = entry.fields
            RecordingExport.appendObject(fields.values, arrays: fields.arrays, to: &out)
            flushWhenFull()
        }

        /// Appends a log's object as `Tracker.forEachLogJSON` (`.listing`) wrote it.
        public mutating func append(object: [UInt8]) {
            out.append(contentsOf: count == 0 ? "[\n  ".utf8 : ",\n  ".utf8)
            count += 1
            out.append(contentsOf: object)
            flushWhenFull()
        }

        private mutating func flushWhenFull() {
            guard out.count >= 1 << 16 else { return }
            sink(out)
            out.removeAll(keepingCapacity: true)
        }

        /// The array's end ("[]" when nothing came), written.
        public mutating func finish() {
            out.append(contentsOf: count == 0 ? "[]".utf8 : "\n]".utf8)
            sink(out)
            out.removeAll()
        }
    }

    /// The CSV columns of logs, in order, after `record`; recordings' own columns follow them in
    /// an export (`id`, `createdAt`, `modifiedAt` and `notes` are shared). A craving's `ratings`
    /// are "seconds:rating" pairs separated by spaces, its `played` the ids of every message
    /// played in it, comma-separated.
    public static let columns = [
        "id", "at", "localTime", "utcOffset", "intensity", "band", "method", "amount", "unit", "triggers", "location",
        "moodAfter", "recordingId", "cravingId", "notes", "createdAt", "modifiedAt", "ratings", "played",
    ]

    /// A log's CSV cells by column.
    public static func csvRow(_ entry: LogEntry) -> [String: RecordingExport.Value] {
        let (values, triggers): ([(String, RecordingExport.Value)], [Trigger]) =
            switch entry {
            case let .craving(c): (c.exportValues, c.triggers)
            case let .use(u): (u.exportValues, u.triggers)
            }
        var row = Dictionary(values, uniquingKeysWith: { first, _ in first })
        row["triggers"] = .string(triggers.map(\.rawValue).joined(separator: ","))
        if case let .craving(c) = entry {
            row["played"] = c.played.isEmpty ? .null : .string(c.played.map(\.uuidString).joined(separator: ","))
        }
        row["record"] = row.removeValue(forKey: "kind")
        return row
    }

    static func common(id: UUID, kind: String, time: LogTime, createdAt: Date, modifiedAt: Date) -> [(
        String, RecordingExport.Value
    )] {
        [
            ("id", .string(id.uuidString)),
            ("kind", .string(kind)),
            ("at", .string(StoredDate.text(time.instant))),
            ("localTime", .string(time.localText)),
            ("utcOffset", .string(time.offsetText)),
            ("createdAt", .string(StoredDate.text(createdAt))),
            ("modifiedAt", .string(StoredDate.text(modifiedAt))),
        ]
    }

    static func optional(_ text: String?) -> RecordingExport.Value { text.map { .string($0) } ?? .null }
}

/// The tracker's logs as the library's export writes them.
extension LogEntry: ExportedLog {
    public var isCraving: Bool { if case .craving = self { true } else { false } }
    public var csvRow: [String: RecordingExport.Value] { LogExport.csvRow(self) }
    public var exportFields: (values: [(String, RecordingExport.Value)], arrays: [(String, [String])])? { fields }

    /// Its JSON: the values, then `triggers` (and a craving's `played`).
    var fields: (values: [(String, RecordingExport.Value)], arrays: [(String, [String])]) {
        switch self {
        case let .craving(c):
            (c.exportValues, [("triggers", c.triggers.map(\.rawValue)), ("played", c.played.map(\.uuidString))])
        case let .use(u): (u.exportValues, [("triggers", u.triggers.map(\.rawValue))])
        }
    }
}
