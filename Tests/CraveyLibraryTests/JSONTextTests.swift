import Foundation
import XCTest

@testable import CraveyLibrary

/// Two writers of JSON, one escaping: the listings' byte writer and `JSONText` (everything else,
/// through `Encodable`) turn the same characters into \uXXXX and write the same row.
final class JSONTextTests: XCTestCase {
    func testBothWritersEscapeTheSameCharacters() throws {
        let unsafe = "a\u{1B}]0;x\u{07}\u{7F}\u{85}\u{9B}\u{200B}\u{200E}\u{202E}\u{2028}\u{2066}\u{FEFF}\n\t\"\\/é😀z"
        let bytes = RecordingExport.jsonString(unsafe)
        let encoded = String(decoding: try JSONText.data([unsafe]), as: UTF8.self)
        XCTAssertEqual(encoded, "[" + bytes + "]")
        for text in [bytes, encoded] {
            XCTAssertFalse(
                text.unicodeScalars.contains { $0.value >= 0x7F ? Validation.isUnsafe($0) : $0.value < 0x20 }, text)
            XCTAssertTrue(text.contains("é😀"), "other characters stay as they are")
        }
        XCTAssertEqual(try JSONSerialization.jsonObject(with: Data(encoded.utf8)) as? [String], [unsafe])
    }

    func testARowIsTheSameObjectThroughEitherWriter() throws {
        let lib = try TemporaryLibrary()
        let library = try lib.open()
        var saved = try lib.add(library, title: "Walk", kind: .video)
        saved.title = "Walk \u{202E}"  // as another program may have written it
        saved.media.waveform = [0, 7, 255]
        let listed = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(RecordingExport.jsonArray([saved]).utf8)) as? [[String: Any]]
        ).first
        let one = try XCTUnwrap(try JSONSerialization.jsonObject(with: try JSONText.data(saved)) as? [String: Any])
        XCTAssertEqual(Set(one.keys), Set(RecordingExport.columns))
        XCTAssertEqual(NSDictionary(dictionary: one), NSDictionary(dictionary: try XCTUnwrap(listed)))
        let detail = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: try JSONText.data(RecordingDetail(saved, transcript: nil)))
                as? [String: Any])
        XCTAssertEqual(detail["waveform"] as? [Int], [0, 7, 255])
        XCTAssertTrue(detail["transcript"] is NSNull)
    }
}
