import ArgumentParser
import Foundation
import TerminalKit

/// The command line as the kernel gave it, byte for byte. Swift decodes arguments that are not
/// UTF-8 by replacing their bad bytes with U+FFFD, and the name that comes out is another name:
/// a file that exists would be "not found", and a directory would be made under the other name.
/// So an argument that is not UTF-8 is refused before anything is parsed.
enum RawArguments {
    /// The one-line refusal for the first argument that is not valid UTF-8, or nil when all are.
    /// Text typed for cravey to keep (`--instead`, `--notes`, `--title`) is refused as typed text;
    /// anything else as a name.
    static func refusal() -> String? {
        var previous: String?
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
            if let shown = escapedIfInvalid(bytes) {
                return refusal(shown, after: previous)
            }
            previous = String(cString: pointer)
        }
        return nil
    }

    /// The refusal for text typed for `option` that is not UTF-8 (`shown` with its bad bytes as
    /// `\xHH`): what is typed is kept as typed, so it is typed again.
    static func typedText(_ shown: String, option: String) -> String {
        "the text typed for \(option) ('\(shown)') is not valid UTF-8, so it cannot be kept as typed; type it again in a terminal set to UTF-8"
    }

    /// The options whose value is text typed for cravey to keep.
    static let textOptions = ["--instead", "--notes", "--title"]

    /// The refusal for the argument `shown` (its bad bytes as `\xHH`), given after `previous`.
    static func refusal(_ shown: String, after previous: String?) -> String {
        if let option = textOptions.first(where: { shown.hasPrefix($0 + "=") }) {
            return typedText(String(shown.dropFirst(option.count + 1)), option: option)
        }
        if let previous, textOptions.contains(previous) { return typedText(shown, option: previous) }
        return "the argument '\(shown)' is not valid UTF-8; cravey takes names in UTF-8 (rename it, e.g. with convmv)"
    }

    /// The one-line refusal for the first of the variables `names` (in that order) that is set and
    /// not valid UTF-8, or nil when none is: Swift would read it with U+FFFD in place of its bad
    /// bytes, and the library would be made in another directory.
    static func refusal(ofVariables names: [String]) -> String? {
        for name in names {
            guard let pointer = getenv(name) else { continue }
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
            if let shown = escapedIfInvalid(bytes) {
                return
                    "\(name) ('\(shown)') is not valid UTF-8; cravey takes the library's directory in UTF-8 (rename it, e.g. with convmv, or give --library)"
            }
        }
        return nil
    }

    /// `bytes` with each byte that is not part of valid UTF-8 written as `\xHH` (the rest as it
    /// is), or nil when all of it is valid UTF-8.
    static func escapedIfInvalid(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var shown = ""
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            let length =
                lead < 0x80 ? 1 : lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 0
            if length > 0, i + length <= bytes.count,
                let scalar = String(validating: UnsafeBufferPointer(rebasing: bytes[i..<i + length]), as: UTF8.self)
            {
                shown += scalar
                i += length
            } else {
                shown += "\\x" + (lead < 0x10 ? "0" : "") + String(lead, radix: 16, uppercase: true)
                i += 1
            }
        }
        return shown
    }
}

extension RawArguments {
    /// A number typed negative where a command takes a number (`cravey use vape -3`) would reach
    /// the parser as an option it does not know. Such a number is gathered with everything the
    /// parser does not know (`@Argument(parsing: .allUnrecognized)`), and read here: the number
    /// typed (nil: none), a negative one too, to be refused in the number's own words; anything
    /// else is refused as the parser would.
    static func number(_ typed: [String]) throws -> String? {
        let typed = typed.filter { $0 != "--" }  // what follows "--" is a value, never an option
        if let unknown = typed.first(where: { $0.hasPrefix("-") && !isNegativeNumber($0) }) {
            throw ValidationError("Unknown option '\(unknown)'")
        }
        if typed.count > 1 { throw ValidationError("Unexpected argument '\(typed[1])'") }
        return typed.first
    }

    /// The number typed among what was gathered (see `number`), once that is checked.
    static func value(_ typed: [String]) -> String? { typed.first { $0 != "--" } }

    /// "-3", "-0.5": a number, not an option.
    static func isNegativeNumber(_ text: String) -> Bool {
        text.hasPrefix("-") && (text.dropFirst().first.map { $0.isNumber || $0 == "." } ?? false)
    }
}
