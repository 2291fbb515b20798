import CraveyLibrary
import Foundation

/// Logs' JSON written straight from their rows: `log --json` and the export of ten years of logs,
/// without a model per log and its dates read and written again. The bytes are the model's
/// (`LogEntry.fields` as the listing or the export writes them): a value is copied from its
/// stored text only when that text is exactly what cravey stores for it, and a row with any other
/// value (an older cravey's, a restored backup's, another program's) goes through the model.
public struct LogRowJSON {
    /// Whose bytes: `log --json`'s (the model's order of fields, numbers as Swift prints them) or
    /// an export's (keys sorted and values as the encoder writes them).
    public enum Style: Sendable { case listing, export }

    private enum Field: String {
        case id, kind, at, localTime, utcOffset, createdAt, modifiedAt, intensity, band, location, notes
        case recordingId, ratings, triggers, played, method, amount, unit, moodAfter, cravingId
    }

    private let style: Style
    private var encoded = EncodedJSON()
    /// A craving's and a use's fields in the order written, each with its key as written
    /// (`"id":`); nil when the model has a field this writer does not know (its rows then all go
    /// through the model).
    private var cravingFields: [(Field, [UInt8])]?
    private var useFields: [(Field, [UInt8])]?
    /// Written before: triggers' arrays by stored text, numbers by their bits, units by method
    /// (a few of each in real logs; bounded, whatever a library holds).
    private var triggerArrays: [String: [UInt8]] = [:]
    private var numbers: [UInt64: [UInt8]] = [:]
    private var units: [Method: [UInt8]] = [:]
    private static let remembered = 1_024

    public init(_ style: Style) {
        self.style = style
        let blank = CravingRow(
            id: nil, at: nil, utcOffset: nil, intensity: nil, triggers: nil, location: nil, notes: nil,
            recordingId: nil, createdAt: nil, modifiedAt: nil)
        let blankUse = UseRow(
            id: nil, at: nil, utcOffset: nil, method: nil, amount: nil, triggers: nil, location: nil, notes: nil,
            moodAfter: nil, cravingId: nil, createdAt: nil, modifiedAt: nil)
        cravingFields = try? fields(of: .craving(Craving(row: blank)))
        useFields = try? fields(of: .use(Usage(row: blankUse)))
    }

    /// The fields of `entry`'s kind in the order this style writes them, with their keys.
    private mutating func fields(of entry: LogEntry) throws -> [(Field, [UInt8])]? {
        let model = entry.fields
        var names = model.values.map(\.0) + model.arrays.map(\.0)
        if style == .export { names = try encoded.order(names).map { names[$0] } }
        var written: [(Field, [UInt8])] = []
        for name in names {
            guard let field = Field(rawValue: name) else { return nil }
            var key: [UInt8] = []
            try string(name, to: &key)
            key.append(UInt8(ascii: ":"))
            written.append((field, key))
        }
        return written
    }

    /// Appends the JSON object of the log in `row` to `out`.
    mutating func append(_ row: LogRowInPlace, to out: inout [UInt8]) throws {
        let start = out.count
        if let fields = row.isCraving ? cravingFields : useFields, try appendStraight(row, fields, to: &out) {
            return
        }
        out.removeSubrange(start...)
        try append(LogEntry(row: row.row), to: &out)
    }

    /// Appends the JSON object of `entry` to `out`, through the model.
    mutating func append(_ entry: LogEntry, to out: inout [UInt8]) throws {
        let fields = entry.fields
        switch style {
        case .listing: RecordingExport.appendObject(fields.values, arrays: fields.arrays, to: &out)
        case .export: try encoded.object(fields.values, arrays: fields.arrays, to: &out)
        }
    }

    /// Appends the object from the stored values themselves; false (with part of it written) as
    /// soon as a value is not exactly as cravey stores it.
    private mutating func appendStraight(
        _ row: LogRowInPlace, _ fields: [(Field, [UInt8])], to out: inout [UInt8]
    ) throws -> Bool {
        guard case let .text(at) = row[.at], let ms = Self.milliseconds(at),
            case let .integer(storedOffset) = row[.utcOffset], (-999_999_999...999_999_999).contains(storedOffset)
        else { return false }
        let offset = Int(storedOffset)
        out.append(UInt8(ascii: "{"))
        for (n, (field, key)) in fields.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: key)
            switch field {
            case .id:
                guard case let .text(id) = row[.id], Self.isUUID(id) else { return false }
                Self.quoted(id, to: &out)
            case .kind: Self.quoted((row.isCraving ? "craving" : "use").utf8, to: &out)
            case .at: Self.quoted(at, to: &out)
            case .localTime: Self.localTime(ms, offset, to: &out)
            case .utcOffset: Self.offsetText(offset, to: &out)
            case .createdAt, .modifiedAt:
                guard case let .text(time) = row[field == .createdAt ? .createdAt : .modifiedAt],
                    Self.milliseconds(time) != nil
                else { return false }
                Self.quoted(time, to: &out)
            case .intensity, .band:
                guard case let .integer(intensity) = row[.intensity] else { return false }
                if field == .intensity {
                    Self.digits(Int(intensity), 1, to: &out)
                } else {
                    Self.quoted(Intensity.band(Int(intensity)).rawValue.utf8, to: &out)
                }
            case .location:
                guard try appendName(row[.location], Location.allCases, optional: true, to: &out) else { return false }
            case .method:
                guard try appendName(row[.method], Method.allCases, optional: false, to: &out) else { return false }
            case .notes:
                switch row[.notes] {
                case .null: out.append(contentsOf: "null".utf8)
                case let .text(notes): try text(notes, to: &out)
                default: return false
                }
            case .recordingId, .cravingId:
                switch row[field == .recordingId ? .recordingId : .cravingId] {
                case .null: out.append(contentsOf: "null".utf8)
                case let .text(id) where Self.isUUID(id): Self.quoted(id, to: &out)
                default: return false
                }
            case .ratings:
                switch row[.ratings] {
                case .null: out.append(contentsOf: "null".utf8)
                case let .text(stored):
                    guard let ratings = Self.ratingsText(stored) else { return false }
                    out.append(UInt8(ascii: "\""))
                    out.append(contentsOf: ratings)
                    out.append(UInt8(ascii: "\""))
                default: return false
                }
            case .triggers:
                switch row[.triggers] {
                case .null: try appendTriggers("", to: &out)
                case let .text(stored): try appendTriggers(LogRowInPlace.string(stored), to: &out)
                default: return false
                }
            case .played:
                guard Self.appendPlayed(row[.played], to: &out) else { return false }
            case .amount:
                switch row[.amount] {
                case let .integer(amount): try number(Double(amount), to: &out)
                case let .real(amount): try number(amount, to: &out)
                default: return false
                }
            case .unit:
                guard case let .text(stored) = row[.method],
                    let method = Method.allCases.first(where: { stored.elementsEqual($0.rawValue.utf8) })
                else { return false }
                if units[method] == nil {
                    var unit: [UInt8] = []
                    try string(method.unit, to: &unit)
                    units[method] = unit
                }
                out.append(contentsOf: units[method] ?? [])
            case .moodAfter:
                switch row[.moodAfter] {
                case .null: out.append(contentsOf: "null".utf8)
                case let .integer(mood): Self.digits(Int(mood), 1, to: &out)
                default: return false
                }
            }
        }
        out.append(UInt8(ascii: "}"))
        return true
    }

    // MARK: - Values

    /// A place or a method: one of `names` exactly (null when `optional` and not given).
    private func appendName<Name: RawRepresentable<String>>(
        _ value: LogRowInPlace.Value, _ names: [Name], optional: Bool, to out: inout [UInt8]
    ) throws -> Bool {
        switch value {
        case .null where optional:
            out.append(contentsOf: "null".utf8)
            return true
        case let .text(stored):
            guard names.contains(where: { stored.elementsEqual($0.rawValue.utf8) }) else { return false }
            Self.quoted(stored, to: &out)
            return true
        default: return false
        }
    }

    /// The triggers of a stored text as the model reads them (the set's names, in its order).
    private mutating func appendTriggers(_ stored: String, to out: inout [UInt8]) throws {
        if let known = triggerArrays[stored] {
            out.append(contentsOf: known)
            return
        }
        var array: [UInt8] = [UInt8(ascii: "[")]
        for (i, trigger) in Trigger.set(stored).enumerated() {
            if i > 0 { array.append(UInt8(ascii: ",")) }
            try string(trigger.rawValue, to: &array)
        }
        array.append(UInt8(ascii: "]"))
        if triggerArrays.count < Self.remembered { triggerArrays[stored] = array }
        out.append(contentsOf: array)
    }

    /// The messages played in a craving: ids separated by commas (empty pieces passed over, as
    /// the model reads them), each exactly as stored.
    private static func appendPlayed(_ value: LogRowInPlace.Value, to out: inout [UInt8]) -> Bool {
        out.append(UInt8(ascii: "["))
        switch value {
        case .null: break
        case let .text(stored):
            var first = true
            for piece in stored.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true) {
                guard piece.count == 36, isUUID(UnsafeBufferPointer(rebasing: piece)) else { return false }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                quoted(UnsafeBufferPointer(rebasing: piece), to: &out)
            }
        default: return false
        }
        out.append(UInt8(ascii: "]"))
        return true
    }

    /// A number as this style writes it.
    private mutating func number(_ value: Double, to out: inout [UInt8]) throws {
        if let known = numbers[value.bitPattern] {
            out.append(contentsOf: known)
            return
        }
        var text: [UInt8] = []
        switch style {
        case .listing: RecordingExport.appendValue(.number(value), to: &text)
        case .export: try encoded.value(.number(value), to: &text)
        }
        if numbers.count < Self.remembered { numbers[value.bitPattern] = text }
        out.append(contentsOf: text)
    }

    /// Stored text as a JSON string: as it is when nothing in it needs escaping, else as this
    /// style escapes the string the model reads.
    private func text(_ stored: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) throws {
        if stored.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            Self.quoted(stored, to: &out)
        } else {
            try string(LogRowInPlace.string(stored), to: &out)
        }
    }

    private func string(_ text: String, to out: inout [UInt8]) throws {
        switch style {
        case .listing: RecordingExport.appendJSONString(text, to: &out)
        case .export: try encoded.string(text, to: &out)
        }
    }

    /// Text that needs no escaping, in quotes.
    private static func quoted<Bytes: Sequence<UInt8>>(_ text: Bytes, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: text)
        out.append(UInt8(ascii: "\""))
    }

    // MARK: - Stored forms

    /// An id as cravey stores one: a UUID in upper case (the model writes it back the same).
    static func isUUID(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.count == 36 else { return false }
        for (i, byte) in text.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
                else { return false }
            }
        }
        return true
    }

    /// The milliseconds of a stored time whose text is exactly what cravey stores for them
    /// (`2025-10-25T15:42:07.123Z`, a real date and time, which the model reads as this instant
    /// and writes back the same); nil for any other text.
    static func milliseconds(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard text.count == 24, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
            text[10] == UInt8(ascii: "T"), text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"),
            text[19] == UInt8(ascii: "."), text[23] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for byte in text[from..<(from + count)] {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0, 4), year >= 1900, let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), hour < 24, let minute = number(14, 2), minute < 60,
            let second = number(17, 2), second < 60, let millis = number(20, 3)
        else { return nil }
        let date = LocalDay(year: year, month: month, day: day)
        guard date.civil == (year, month, day) else { return nil }  // no 2026-02-30
        let ms = Int64(((date.number * 24 + hour) * 60 + minute) * 60 + second) * 1000 + Int64(millis)
        // The instant the model makes of them must give them back (it keeps a Double).
        guard Date(millisecondsSince1970: ms).millisecondsSince1970 == ms else { return nil }
        return ms
    }

    /// A ride's ratings as exported ("0:8 300:6"), from stored text in exactly the form cravey
    /// stores (`[[0,8],[300,6]]`: whole numbers without leading zeros); nil for any other text.
    static func ratingsText(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        var i = 0
        func take(_ byte: Character) -> Bool {
            guard i < text.count, text[i] == byte.asciiValue else { return false }
            i += 1
            return true
        }
        func integer() -> Bool {
            let start = i
            _ = take("-")
            let digits = i
            while i < text.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[i]) { i += 1 }
            let count = i - digits
            guard (1...9).contains(count), count == 1 || text[digits] != UInt8(ascii: "0"),
                digits == start || text[digits] != UInt8(ascii: "0")
            else { return false }
            out.append(contentsOf: text[start..<i])
            return true
        }
        guard take("[") else { return nil }
        repeat {
            if !out.isEmpty { out.append(UInt8(ascii: " ")) }
            guard take("["), integer() else { return nil }
            out.append(UInt8(ascii: ":"))
            guard take(","), integer(), take("]") else { return nil }
        } while take(",")
        return take("]") && i == text.count ? out : nil
    }

    // MARK: - Times, as `LogTime` writes them

    /// `LogTime.localText` of the instant and offset: "2026-03-29 08:15".
    private static func localTime(_ ms: Int64, _ offset: Int, to out: inout [UInt8]) {
        let seconds = Int(Date(millisecondsSince1970: ms).timeIntervalSince1970.rounded(.down)) + offset
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let (year, month, day) = LocalDay(number: days).civil
        let minutes = (seconds - days * 86_400) / 60
        out.append(UInt8(ascii: "\""))
        digits(year, 4, to: &out)
        out.append(UInt8(ascii: "-"))
        digits(month, 2, to: &out)
        out.append(UInt8(ascii: "-"))
        digits(day, 2, to: &out)
        out.append(UInt8(ascii: " "))
        digits(minutes / 60, 2, to: &out)
        out.append(UInt8(ascii: ":"))
        digits(minutes % 60, 2, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// `LogTime.offsetText`: "+02:00".
    private static func offsetText(_ offset: Int, to out: inout [UInt8]) {
        let minutes = abs(offset) / 60
        out.append(contentsOf: (offset < 0 ? "\"-" : "\"+").utf8)
        digits(minutes / 60, 2, to: &out)
        out.append(UInt8(ascii: ":"))
        digits(minutes % 60, 2, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// `value` in decimal with leading zeros to `count` digits, as `LogTime.digits` writes it.
    private static func digits(_ value: Int, _ count: Int, to out: inout [UInt8]) {
        guard value >= 0 else {
            let text = String(value)
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, count - text.count)))
            out.append(contentsOf: text.utf8)
            return
        }
        var width = 1
        var rest = value / 10
        while rest > 0 {
            width += 1
            rest /= 10
        }
        let end = out.count + max(width, count)
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(width, count)))
        var left = value
        var i = end - 1
        repeat {
            out[i] = UInt8(ascii: "0") + UInt8(left % 10)
            left /= 10
            i -= 1
        } while left > 0
    }
}

extension Tracker {
    /// Each log's JSON object as `style` writes it (the bytes `forEachEntry`'s logs give), of the
    /// kinds asked for since `since` (all when nil), newest first, handed to `body` one at a time
    /// and written straight from its row: ten years of logs listed without holding them.
    public func forEachLogJSON(
        _ style: LogRowJSON.Style, cravings: Bool = true, uses: Bool = true, since: Date? = nil,
        _ body: (_ object: [UInt8]) throws -> Void
    ) throws {
        var writer = LogRowJSON(style)
        var object: [UInt8] = []
        object.reserveCapacity(1_024)
        let streamed = try library.forEachLogRowInPlace(
            cravings: cravings, uses: uses, since: since.map(StoredDate.text) ?? ""
        ) { row in
            object.removeAll(keepingCapacity: true)
            try writer.append(row, to: &object)
            try body(object)
        }
        guard !streamed else { return }
        for entry in try entries(cravings: cravings, uses: uses, since: since) {
            object.removeAll(keepingCapacity: true)
            try writer.append(entry, to: &object)
            try body(object)
        }
    }
}
