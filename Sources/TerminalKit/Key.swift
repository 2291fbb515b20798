/// One key pressed at the terminal, as every screen reads it: arrows, page keys, Enter, Esc,
/// Backspace, Delete, Tab, and any other character (letters, digits, space, punctuation, emoji).
/// `inputEnded` says the terminal's input is gone (closed, or the terminal hung up).
package enum Key: Equatable, Sendable {
    case enter, escape, backspace, delete, tab
    case up, down, left, right, home, end, pageUp, pageDown
    case character(Character)
    case inputEnded

    /// What a key does to a line being typed: Enter ends it (`true`), Esc or the end of input
    /// cancel it (`false`); Backspace and printable characters (while under `limit`) edit it (nil).
    package func edit(_ text: inout String, limit: Int) -> Bool? {
        switch self {
        case .enter: return true
        case .escape, .inputEnded: return false
        case .backspace: if !text.isEmpty { text.removeLast() }
        case let .character(c) where text.count < limit && !(c.asciiValue.map { $0 < 0x20 } ?? false): text.append(c)
        default: break
        }
        return nil
    }

    /// The keys in bytes read from a terminal in raw mode. Several keys can arrive in one read; an
    /// escape sequence (`ESC [ C`, `ESC O D`, `ESC [ 5 ~`) is one key; an unknown sequence is
    /// dropped whole. A lone ESC is Esc. Invalid UTF-8 is dropped.
    package static func keys(in bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case 0x1B:
                guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "O") else {
                    keys.append(.escape)
                    i += 1
                    continue
                }
                // CSI / SS3: parameters (digits and ';') then one final byte.
                var j = i + 2
                while j < bytes.count, bytes[j] >= 0x30 && bytes[j] <= 0x3F { j += 1 }
                guard j < bytes.count else { return keys }  // cut short: dropped
                let parameters = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                if let key = sequenceKey(final: bytes[j], parameters: parameters) { keys.append(key) }
                i = j + 1
            case 10, 13: keys.append(.enter); i += 1
            case 9: keys.append(.tab); i += 1
            case 8, 127: keys.append(.backspace); i += 1
            case 0..<0x20: i += 1  // other control bytes are not keys
            default:
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                let end = min(bytes.count, i + length)
                if let text = String(validating: bytes[i..<end], as: UTF8.self), let character = text.first {
                    keys.append(.character(character))
                    i = end
                } else {
                    i += 1  // not UTF-8: this byte is dropped, the next one read afresh
                }
            }
        }
        return keys
    }

    private static func sequenceKey(final: UInt8, parameters: String) -> Key? {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch parameters.split(separator: ";").first {
            case "1", "7": return .home
            case "3": return .delete
            case "4", "8": return .end
            case "5": return .pageUp
            case "6": return .pageDown
            default: return nil
            }
        default: return nil
        }
    }

    /// Whether this key leaves a screen: q, Q or Esc.
    package var isQuit: Bool { self == .escape || self == .character("q") || self == .character("Q") }

    /// The digit typed, if the key is one.
    package var digit: Int? {
        if case let .character(c) = self, let value = c.wholeNumberValue, c.isASCII { return value }
        return nil
    }

    /// The letter typed, lower-cased, if the key is one.
    package var letter: Character? {
        if case let .character(c) = self, c.isLetter { return Character(c.lowercased()) }
        return nil
    }
}
