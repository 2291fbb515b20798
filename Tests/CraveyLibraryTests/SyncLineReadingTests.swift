import Foundation
import XCTest

@testable import CraveyLibrary

/// A merge reads a change line in the form cravey writes straight from its bytes; what it reads is
/// what the decoder reads (every value of the same kind: a whole number an integer, a fraction a
/// real), and a line in any other form, hostile ones among them, is the decoder's alone: refused
/// where it refuses, read as it reads.
final class SyncLineReadingTests: XCTestCase {
    typealias Line = Library.SyncLine
    typealias Value = Library.JournalValue

    func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.integer(x), .integer(y)): x == y
        case let (.real(x), .real(y)): x.bitPattern == y.bitPattern
        case let (.text(x), .text(y)): Array(x.utf8) == Array(y.utf8)
        default: false
        }
    }

    func assertReadAsTheDecoderReads(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let data = Data(text.utf8)
        let decoder = JSONDecoder()
        let theirs = try? decoder.decode(Line.self, from: data)
        let mine = SyncStream.decode(data, decoder)
        guard let theirs, let mine else {
            XCTAssertEqual(mine == nil, theirs == nil, "refused alike: \(text)", file: file, line: line)
            return
        }
        XCTAssertEqual(
            [mine.kind, mine.id, mine.device], [theirs.kind, theirs.id, theirs.device], text, file: file, line: line)
        XCTAssertEqual(mine.counter, theirs.counter, text, file: file, line: line)
        XCTAssertEqual(mine.clock, theirs.clock, text, file: file, line: line)
        XCTAssertEqual(mine.row == nil, theirs.row == nil, text, file: file, line: line)
        XCTAssertEqual(mine.row?.keys.sorted(), theirs.row?.keys.sorted(), text, file: file, line: line)
        for (name, value) in mine.row ?? [:] {
            XCTAssertTrue(
                theirs.row?[name].map { same($0, value) } == true, "\(name) in \(text)", file: file, line: line)
        }
    }

    func testLinesAsCraveyWritesThemReadAsTheDecoderReadsThem() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let values: [Value] = [
            .null, .integer(0), .integer(-64_800), .integer(1_700_000_000_123), .integer(Int64.max),
            .integer(Int64.min), .real(1.5), .real(0.25), .real(-2.75), .real(3), .real(0.1), .real(1e-7),
            .real(123_456_789.123), .real(1e300), .real(-0.0), .text(""), .text("note number 7"),
            .text("she said \"not now\""), .text("tab\there\nnew line"), .text("back\\slash /slashes/"),
            .text("Café évening 🌿 \u{202E}\u{2028}\u{7F}\u{85}"), .text("\u{01}\u{1F}"),
            .text("2026-01-01T00:00:00.000Z"),
        ]
        var written = 0
        for (n, value) in values.enumerated() {
            let rows: [[String: Value]?] = [
                ["at": .text("2026-01-01T00:00:00.000Z"), "notes": value, "intensity": .integer(5)], nil,
            ]
            for row in rows {
                let line = Line(
                    kind: n % 2 == 0 ? "craving" : "use", id: UUID().uuidString, row: row, counter: Int64(n + 1),
                    clock: [1_700_000_000_000 + Int64(n), Int64(n % 3)], device: "d\(n)")
                assertReadAsTheDecoderReads(String(decoding: try encoder.encode(line), as: UTF8.self))
                written += 1
            }
        }
        XCTAssertEqual(written, values.count * 2)
    }

    func testEveryOtherFormIsTheDecodersAlone() {
        let id = "0F0E0D0C-0000-4000-8000-00000000000A"
        let plain = "{\"clock\":[1700000000000,0],\"counter\":1,\"device\":\"d\",\"id\":\"\(id)\",\"kind\":\"craving\""
        for text in [
            plain + ",\"row\":{\"intensity\":5}}", plain + "}", plain + ",\"row\":null}", plain + ",\"row\":{}}",
            plain + " ,\"row\":{\"intensity\":5}}", plain + ",\"row\":{\"intensity\": 5}}",
            plain + ",\"row\":{\"intensity\":5}} ", plain + ",\"row\":{\"intensity\":5}}x",
            plain + ",\"row\":{\"intensity\":-0}}", plain + ",\"row\":{\"intensity\":05}}",
            plain + ",\"row\":{\"intensity\":5.0}}", plain + ",\"row\":{\"intensity\":5.000}}",
            plain + ",\"row\":{\"intensity\":5e0}}", plain + ",\"row\":{\"intensity\":-0.5}}",
            plain + ",\"row\":{\"intensity\":0.50}}", plain + ",\"row\":{\"intensity\":1.}}",
            plain + ",\"row\":{\"intensity\":.5}}", plain + ",\"row\":{\"intensity\":+5}}",
            plain + ",\"row\":{\"intensity\":99999999999999999999}}",
            plain + ",\"row\":{\"intensity\":9223372036854775807}}",
            plain + ",\"row\":{\"intensity\":5,\"intensity\":6}}", plain + ",\"row\":{\"intensity\":true}}",
            plain + ",\"row\":{\"intensity\":[5]}}", plain + ",\"row\":{\"notes\":\"a\\u0041\\n\"}}",
            plain + ",\"row\":{\"notes\":\"a\u{01}\"}}", plain + ",\"row\":{\"notes\":\"unended}}",
            plain + ",\"extra\":1,\"row\":{\"intensity\":5}}", plain + ",\"row\":{\"intensity\":nul}}",
            "{\"clock\":[1,2,3],\"counter\":1,\"device\":\"d\",\"id\":\"x\",\"kind\":\"craving\"}",
            "{\"clock\":[1],\"counter\":1,\"device\":\"d\",\"id\":\"x\",\"kind\":\"craving\"}",
            "{\"clock\":[1,2],\"counter\":-0,\"device\":\"d\",\"id\":\"x\",\"kind\":\"craving\"}",
            "{\"counter\":1,\"clock\":[1,2],\"device\":\"d\",\"id\":\"x\",\"kind\":\"craving\"}",
            "{\"clock\":[1,2],\"counter\":1,\"device\":\"d\",\"id\":\"x\"}", "", "{", "[]", "null",
        ] {
            assertReadAsTheDecoderReads(text)
        }
        // Bytes that are not UTF-8 inside a string: refused alike.
        var bad = Data((plain + ",\"row\":{\"notes\":\"").utf8)
        bad.append(contentsOf: [0xFF, 0x41])
        bad.append(contentsOf: "\"}}".utf8)
        let decoder = JSONDecoder()
        XCTAssertEqual(SyncStream.decode(bad, decoder) == nil, (try? decoder.decode(Line.self, from: bad)) == nil)
    }
}
