import CraveyTestSupport
import Foundation
import XCTest

/// The executable's rooms keep their rules: screens and words call flows, never a command; the
/// environment is read where the session is made; every "now" comes from the one clock.
final class HouseTests: XCTestCase {
    let executable = repositoryRoot + "/Sources/cravey"

    /// The Swift files under `folder` of the executable, with their text.
    func files(in folder: String) throws -> [(name: String, text: String)] {
        let root = executable + "/" + folder
        let names = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: root)).filter {
            $0.hasSuffix(".swift")
        }
        return try names.sorted().map {
            (folder + "/" + $0, try String(contentsOfFile: root + "/" + $0, encoding: .utf8))
        }
    }

    /// The command types: every `ParsableCommand` and `ParsableArguments` the executable declares.
    func commandTypes() throws -> Set<String> {
        let declaration = try NSRegularExpression(
            pattern: #"(?:struct|enum|class)\s+(\w+)\s*:\s*[^{]*\bParsable(?:Command|Arguments)\b"#)
        var names: Set<String> = ["Cravey"]
        for folder in ["Commands", "Flows", "Screens", "Presentation", "Background"] + ["."] {
            let texts = folder == "." ? try topLevelFiles() : try files(in: folder)
            for (_, text) in texts {
                let range = NSRange(text.startIndex..., in: text)
                for match in declaration.matches(in: text, range: range) {
                    names.insert(String(text[Range(match.range(at: 1), in: text)!]))
                }
            }
        }
        return names
    }

    func topLevelFiles() throws -> [(name: String, text: String)] {
        try FileManager.default.contentsOfDirectory(atPath: executable).filter { $0.hasSuffix(".swift") }.sorted()
            .map { ($0, try String(contentsOfFile: executable + "/" + $0, encoding: .utf8)) }
    }

    func testScreensAndWordsCallNoCommand() throws {
        let commands = try commandTypes()
        XCTAssertTrue(commands.isSuperset(of: ["Cravey", "HomeCommand", "Record", "LibraryOptions"]), "\(commands)")
        var found: [String] = []
        for (name, text) in try files(in: "Screens") + files(in: "Presentation") {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if line.hasPrefix("import ArgumentParser") {
                    found.append("\(name):\(number + 1): imports ArgumentParser")
                }
                let code = Self.code(of: line)
                for command in commands where Self.names(command, in: code) {
                    found.append("\(name):\(number + 1): names \(command)")
                }
            }
        }
        XCTAssertEqual(found, [], "screens and words call flows, never a command")
    }

    func testNothingInTheFloorsBelowTakesItsOwnNow() throws {
        var found: [String] = []
        let sources = repositoryRoot + "/Sources"
        for module in try FileManager.default.contentsOfDirectory(atPath: sources).sorted() {
            guard let names = FileManager.default.subpaths(atPath: sources + "/" + module) else { continue }
            for name in names.sorted() where name.hasSuffix(".swift") {
                let text = try String(contentsOfFile: sources + "/" + module + "/" + name, encoding: .utf8)
                // `now: Date = Date()`, and a moment labelled `at` (`at: Date = Date()`,
                // `at date: Date = Date()`): a play counted or a log kept at the real clock; and
                // a row stamped with the real clock (`Date().truncatedToMilliseconds`: a log's
                // `createdAt` or an edit's `modifiedAt`, which a sync's stamp follows).
                if text.contains("now: Date = Date()") || text.contains("Date().truncatedToMilliseconds")
                    || text.range(of: #"\bat( [a-z][A-Za-z]*)?: Date = Date\(\)"#, options: .regularExpression) != nil
                {
                    found.append(module + "/" + name)
                }
            }
        }
        XCTAssertEqual(found, [], "a 'now' or an 'at' defaulting to the real clock: pass the session's clock")
    }

    func testTheEnvironmentIsReadWhereTheSessionIsMade() throws {
        var places: [String] = []
        for (name, text) in try topLevelFiles() + files(in: "Commands") + files(in: "Flows") + files(in: "Screens")
            + files(in: "Presentation") + files(in: "Background") where name != "Configuration.swift"
        {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("Configuration.current") {
                places.append("\(name):\(number + 1)")
            }
        }
        XCTAssertLessThanOrEqual(places.count, 3, "Configuration.current is read at \(places)")
    }

    /// A line's code: its comment and the words inside its string literals left out (an
    /// interpolation's code is kept).
    static func code(of line: Substring) -> String {
        var code = ""
        var inString = false
        var depth = 0  // open parentheses of an interpolation
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            let next = line.index(after: index)
            if inString && depth == 0 {
                if character == "\\", next < line.endIndex, line[next] == "(" {
                    depth = 1
                    code.append(" ")
                    index = line.index(after: next)
                    continue
                }
                if character == "\\" {
                    index = next < line.endIndex ? line.index(after: next) : next
                    continue
                }
                if character == "\"" { inString = false }
            } else {
                if character == "/", next < line.endIndex, line[next] == "/" { break }
                if character == "\"" && depth == 0 {
                    inString = true
                } else {
                    if depth > 0 && character == "(" { depth += 1 }
                    if depth > 0 && character == ")" { depth -= 1 }
                    code.append(character)
                }
            }
            index = next
        }
        return code
    }

    /// Whether `line` names the type `command` as code (not as a word of a longer name).
    static func names(_ command: String, in line: String) -> Bool {
        var rest = line[...]
        while let range = rest.range(of: command) {
            let before = rest[..<range.lowerBound].last
            let after = rest[range.upperBound...].first
            let joined: (Character?) -> Bool = { $0.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
            if !joined(before) && !joined(after) && before != "." { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }
}
