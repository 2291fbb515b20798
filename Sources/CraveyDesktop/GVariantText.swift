/// GVariant values as `gsettings` prints and reads them, for the two types a shortcut needs: a
/// string (`'text'`) and an array of strings (`['a', 'b']`, `@as []` when empty). Strings read
/// keep the text they were printed as, so a list written back holds the person's entries
/// exactly as they were.
enum GVariantText {
    /// One string of a printed array: its text as printed (quotes and escapes) and its value.
    struct Entry: Equatable {
        let printed: String
        let value: String
    }

    /// The strings of an array of strings as `gsettings get` prints it; nil when it is not one.
    static func strings(_ text: String) -> [Entry]? {
        var reader = Reader(text)
        reader.skipSpaces()
        if reader.take("@as") { reader.skipSpaces() }
        guard reader.take("[") else { return nil }
        var entries: [Entry] = []
        reader.skipSpaces()
        if reader.take("]") { return reader.atEnd ? entries : nil }
        while true {
            reader.skipSpaces()
            guard let entry = reader.string() else { return nil }
            entries.append(entry)
            reader.skipSpaces()
            if reader.take("]") { return reader.atEnd ? entries : nil }
            guard reader.take(",") else { return nil }
        }
    }

    /// The value of one string as `gsettings get` prints it; nil when it is not one.
    static func string(_ text: String) -> String? {
        var reader = Reader(text)
        reader.skipSpaces()
        guard let entry = reader.string(), reader.atEnd else { return nil }
        return entry.value
    }

    /// `value` written as a GVariant string: in single quotes, with `\`, `'` and every control
    /// character escaped.
    static func literal(_ value: String) -> String {
        var text = "'"
        for c in value.unicodeScalars {
            switch c {
            case "\\": text += "\\\\"
            case "'": text += "\\'"
            case _ where c.value < 0x20 || c.value == 0x7f:
                let hex = String(c.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(c)
            }
        }
        return text + "'"
    }

    /// An array of strings written from entries (each as it was printed, or a literal).
    static func array(_ printed: [String]) -> String { "[" + printed.joined(separator: ", ") + "]" }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(_ text: String) { scalars = Array(text.unicodeScalars) }

        var atEnd: Bool {
            scalars[index...].allSatisfy { $0 == " " || $0 == "\n" || $0 == "\t" }
        }

        mutating func skipSpaces() {
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\n" || scalars[index] == "\t" {
                index += 1
            }
        }

        mutating func take(_ word: String) -> Bool {
            let wanted = Array(word.unicodeScalars)
            guard scalars.count - index >= wanted.count, Array(scalars[index..<index + wanted.count]) == wanted
            else { return false }
            index += wanted.count
            return true
        }

        /// A quoted string (single or double quotes, backslash escapes as GLib prints them).
        mutating func string() -> Entry? {
            guard index < scalars.count, scalars[index] == "'" || scalars[index] == "\"" else { return nil }
            let start = index, quote = scalars[index]
            index += 1
            var value = String.UnicodeScalarView()
            while index < scalars.count {
                let c = scalars[index]
                index += 1
                if c == quote {
                    var printed = String.UnicodeScalarView()
                    printed.append(contentsOf: scalars[start..<index])
                    return Entry(printed: String(printed), value: String(value))
                }
                guard c == "\\" else {
                    value.append(c)
                    continue
                }
                guard index < scalars.count else { return nil }
                let escaped = scalars[index]
                index += 1
                switch escaped {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "r": value.append("\r")
                case "a": value.append("\u{07}")
                case "b": value.append("\u{08}")
                case "f": value.append("\u{0C}")
                case "v": value.append("\u{0B}")
                case "u", "U":
                    let digits = escaped == "u" ? 4 : 8
                    guard scalars.count - index >= digits else { return nil }
                    var hex = String.UnicodeScalarView()
                    hex.append(contentsOf: scalars[index..<index + digits])
                    guard let number = UInt32(String(hex), radix: 16), let scalar = Unicode.Scalar(number) else {
                        return nil
                    }
                    value.append(scalar)
                    index += digits
                default: value.append(escaped)
                }
            }
            return nil
        }
    }
}
