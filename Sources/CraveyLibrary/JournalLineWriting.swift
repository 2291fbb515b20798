import Foundation

/// A journal line or a change line written byte for byte as `JSONEncoder` writes it (keys sorted
/// by their bytes, no spaces, `/` not escaped, a whole real as a whole number), without the
/// encoder: a first sync writes ten years of journal lines, and the encoder's containers and
/// boxes were most of what each cost. A value this writer does not spell exactly as the encoder
/// does (a real in exponent form or minus zero, a key that is not ASCII) sends its line through
/// `JSONEncoder` as before (`JournalLineWritingTests` holds the two equal).
struct JSONLineWriter {
    private(set) var bytes: [UInt8] = []

    /// The journal's line, or nil when the encoder must write it.
    static func journal(_ line: Library.JournalLine) -> [UInt8]? {
        var writer = JSONLineWriter()
        writer.append("{")
        return writer.closing(id: line.id, kind: line.kind, row: line.row) ? writer.bytes : nil
    }

    /// The change line, or nil when the encoder must write it.
    static func change(_ line: Library.SyncLine) -> [UInt8]? {
        var writer = JSONLineWriter()
        writer.append("{\"clock\":[")
        for (index, part) in line.clock.enumerated() {
            if index > 0 { writer.append(",") }
            writer.integer(part)
        }
        writer.append("],\"counter\":")
        writer.integer(line.counter)
        writer.append(",\"device\":")
        writer.string(line.device)
        writer.append(",")
        return writer.closing(id: line.id, kind: line.kind, row: line.row) ? writer.bytes : nil
    }

    /// The keys both lines end with, in their order, and the line's closing brace.
    private mutating func closing(id: String, kind: String, row: [String: Library.JournalValue]?) -> Bool {
        append("\"id\":")
        string(id)
        append(",\"kind\":")
        string(kind)
        if let row {
            append(",\"row\":")
            guard object(row) else { return false }
        }
        append("}")
        return true
    }

    private mutating func append(_ literal: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// The fields in the order of their names' bytes; false for a name that is not ASCII or a
    /// value the encoder spells otherwise.
    private mutating func object(_ row: [String: Library.JournalValue]) -> Bool {
        guard row.keys.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) else { return false }
        bytes.append(UInt8(ascii: "{"))
        for (index, (name, value)) in row.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
            .enumerated()
        {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(name)
            bytes.append(UInt8(ascii: ":"))
            switch value {
            case .null: append("null")
            case .integer(let n): integer(n)
            case .text(let text): string(text)
            case .real(let d):
                guard real(d) else { return false }
            }
        }
        bytes.append(UInt8(ascii: "}"))
        return true
    }

    private mutating func integer(_ n: Int64) {
        var digits: [UInt8] = []
        var rest = n.magnitude
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        if n < 0 { bytes.append(UInt8(ascii: "-")) }
        bytes.append(contentsOf: digits.reversed())
    }

    /// A whole real below 10^15 as its whole number; another in plain decimals as Swift's
    /// shortest form reads it; false otherwise (exponents, minus zero, not a number).
    private mutating func real(_ d: Double) -> Bool {
        guard d.isFinite, !(d == 0 && d.sign == .minus), d.magnitude < 1e15 else { return false }
        if d == d.rounded() {
            integer(Int64(d))
            return true
        }
        guard d.magnitude >= 1e-4 else { return false }
        let text = d.description
        guard !text.utf8.contains(UInt8(ascii: "e")) else { return false }
        bytes.append(contentsOf: text.utf8)
        return true
    }

    /// A string as the encoder escapes it: the quote, the backslash and the control characters
    /// (the short forms where JSON has them, else `\u00xx`); everything else as it is.
    private mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                append("\\u00")
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
