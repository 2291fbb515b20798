import CraveyLibrary
import Foundation
import TerminalKit

/// `--json` output through `Encodable`: one JSON document on stdout, escaped so that it cannot
/// drive a terminal (`JSONText`). The listings of recordings write their rows with the library's
/// byte writer instead (measured: thousands of rows), which escapes the same characters.
enum JSONOutput {
    static func print<T: Encodable>(_ value: T) throws {
        StandardOutput.write(try JSONText.data(value) + Data("\n".utf8))
    }
}
