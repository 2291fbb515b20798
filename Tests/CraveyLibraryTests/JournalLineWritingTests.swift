import Foundation
import XCTest

@testable import CraveyLibrary

/// The journal's lines and the change lines are written without `JSONEncoder`, byte for byte as it
/// writes them: keys in the order of their bytes, the escapes it makes, whole reals as whole
/// numbers, decimals in its form; a value it spells otherwise is left to it (the line is nil).
final class JournalLineWritingTests: XCTestCase {
    typealias Value = Library.JournalValue

    let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    func assertWrittenAsTheEncoderWrites(_ row: [String: Value]?, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let journal = Library.JournalLine(kind: "craving", id: "0A1B-\u{1}/é", row: row)
        if let mine = JSONLineWriter.journal(journal) {
            XCTAssertEqual(
                String(decoding: mine, as: UTF8.self), String(decoding: try encoder.encode(journal), as: UTF8.self),
                file: file, line: line)
        }
        let change = Library.SyncLine(
            kind: "use", id: "x\"y\\z", row: row, counter: 42, clock: [1_790_000_000_123, -3], device: "D-1")
        if let mine = JSONLineWriter.change(change) {
            XCTAssertEqual(
                String(decoding: mine, as: UTF8.self), String(decoding: try encoder.encode(change), as: UTF8.self),
                file: file, line: line)
        }
    }

    func testEveryKindOfRowIsWrittenAsTheEncoderWritesIt() throws {
        try assertWrittenAsTheEncoderWrites(nil)
        try assertWrittenAsTheEncoderWrites([:])
        try assertWrittenAsTheEncoderWrites([
            "id": .text("00000001-0000-4000-8000-000000000001"), "at": .text("2026-01-01T10:00:00.000Z"),
            "utcOffset": .integer(3600), "intensity": .integer(7), "triggers": .text("anxious,bored"),
            "location": .text("home"), "notes": .text("a \"long\" day / night\n\tback\\slash é 😀 \u{2028}"),
            "recordingId": .null, "amount": .real(1.5), "moodAfter": .integer(-9_223_372_036_854_775_808),
            "createdAt": .text(""), "modifiedAt": .integer(Int64.max), "A": .null, "B_": .integer(0), "a1": .null,
            "a10": .null, "a2": .null, "aB": .null, "ab": .null, "Zz": .null,
        ])
    }

    func testEveryByteOfAStringIsEscapedAsTheEncoderEscapesIt() throws {
        let everyASCII = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self)
        try assertWrittenAsTheEncoderWrites(["notes": .text(everyASCII), "other": .text("\u{7f}\u{80}\u{ffff}")])
        XCTAssertNotNil(JSONLineWriter.journal(.init(kind: "c", id: everyASCII, row: ["notes": .text(everyASCII)])))
    }

    func testRealsAreWrittenAsTheEncoderWritesThemOrLeftToIt() throws {
        var reals: [Double] = [
            0, -0.0, 3, -3, 1.5, 0.1, 0.2, 0.3, 1e-4, 1e-5, 0.000123, 123.456, 1e14, 999_999_999_999_999,
            1e15, 2.5e15, 1e16, 1e20, 1e-7, .pi, -.pi, 1 / 3, 2 / 3, .greatestFiniteMagnitude,
            .leastNonzeroMagnitude, .infinity, .nan, 10, 1.0000000000000002, 0.30000000000000004,
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            reals.append(Double(bitPattern: generator.next()))
            reals.append(Double.random(in: -1e6...1e6, using: &generator))
            reals.append((Double.random(in: 0...1000, using: &generator) * 100).rounded() / 100)
        }
        var written = 0
        for real in reals where real.isFinite {
            let row: [String: Value] = ["amount": .real(real)]
            try assertWrittenAsTheEncoderWrites(row)
            if JSONLineWriter.journal(.init(kind: "use", id: "u", row: row)) != nil { written += 1 }
        }
        // The amounts cravey stores (a few, a half, a tenth) are written here, not left to the encoder.
        for amount in [0.1, 0.5, 1.5, 3, 10, 2.25, 0.05, 999.99] {
            XCTAssertNotNil(JSONLineWriter.journal(.init(kind: "use", id: "u", row: ["amount": .real(amount)])))
        }
        XCTAssertGreaterThan(written, reals.count / 4)
        for left in [-0.0, 1e15, 1e20, 1e-7, Double.infinity, Double.nan] {
            XCTAssertNil(JSONLineWriter.journal(.init(kind: "use", id: "u", row: ["amount": .real(left)])), "\(left)")
        }
        XCTAssertNil(JSONLineWriter.journal(.init(kind: "use", id: "u", row: ["é": .null])))
    }
}
