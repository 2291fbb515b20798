import XCTest

@testable import CraveyLibrary

final class ValidationTests: XCTestCase {
    let date = Date(timeIntervalSince1970: 1_761_406_920)  // Oct 25, 2025 15:42 UTC

    func testTitleCountsUserPerceivedCharacters() throws {
        let family = "👨‍👩‍👧‍👦"  // one character, seven scalars
        let accented = "e\u{301}"  // é as e + combining acute
        XCTAssertEqual(try Validation.title(String(repeating: family, count: 40), createdAt: date).count, 40)
        XCTAssertEqual(try Validation.title(String(repeating: accented, count: 40), createdAt: date).count, 40)
        XCTAssertEqual(try Validation.title(String(repeating: "a", count: 40), createdAt: date).count, 40)
        for tooLong in [
            String(repeating: family, count: 41), String(repeating: accented, count: 41),
            String(repeating: "a", count: 41), "👍🏽" + String(repeating: "x", count: 40),
        ] {
            XCTAssertThrowsError(try Validation.title(tooLong, createdAt: date)) { error in
                XCTAssertEqual(
                    error as? LibraryError,
                    .invalid(field: "title", reason: "41 characters; at most 40 are allowed"))
            }
        }
    }

    func testTitleRejectsControlCharacters() {
        for bad in ["line\nbreak", "tab\there", "bell\u{7}", "esc\u{1B}[31m", "del\u{7F}"] {
            XCTAssertThrowsError(try Validation.title(bad, createdAt: date), bad.debugDescription)
        }
    }

    func testBlankTitleBecomesAutomaticTitleInLocalTime() throws {
        let newYork = TimeZone(identifier: "America/New_York")!
        XCTAssertEqual(Validation.automaticTitle(for: date, timeZone: newYork), "Recording Oct 25, 2025 11:42 AM")
        XCTAssertEqual(
            Validation.automaticTitle(for: date, timeZone: TimeZone(identifier: "UTC")!),
            "Recording Oct 25, 2025 3:42 PM")
        XCTAssertEqual(try Validation.title("   ", createdAt: date), Validation.automaticTitle(for: date))
        XCTAssertEqual(try Validation.title(nil, createdAt: date), Validation.automaticTitle(for: date))
        XCTAssertEqual(try Validation.title("  Why I started ", createdAt: date), "Why I started")
    }

    func testNotesLimit() throws {
        XCTAssertEqual(try Validation.notes(String(repeating: "n", count: 200))?.count, 200)
        XCTAssertEqual(try Validation.notes("two\nlines\tok"), "two\nlines\tok")
        XCTAssertNil(try Validation.notes("  "))
        XCTAssertThrowsError(try Validation.notes(String(repeating: "n", count: 201)))
        XCTAssertThrowsError(try Validation.notes("nul\u{0}"))
    }

    func testPurpose() throws {
        XCTAssertEqual(try Validation.purpose("craving"), .craving)
        XCTAssertEqual(try Validation.purpose("Milestone"), .milestone)
        XCTAssertNil(try Validation.purpose(nil))
        XCTAssertThrowsError(try Validation.purpose("bored")) { error in
            XCTAssertTrue("\(error)".contains("motivational, milestone, reflection, craving"))
        }
    }

    func testDuration() throws {
        XCTAssertEqual(try Validation.duration(120), 120)
        XCTAssertEqual(try Validation.duration(0.001), 0.001)
        for bad in [0, -1, 120.001, .nan, .infinity] as [Double] {
            XCTAssertThrowsError(try Validation.duration(bad), "\(bad)")
        }
    }

    func testKind() throws {
        XCTAssertEqual(try Validation.kind("audio"), .audio)
        XCTAssertThrowsError(try Validation.kind("photo"))
    }

    func testPathsMustStayInsideTheLibrary() throws {
        XCTAssertNoThrow(try Validation.libraryRelativePath("Recordings/audio_X.m4a"))
        XCTAssertNoThrow(try Validation.libraryRelativePath("Recordings/Thumbnails/video_X_thumb.jpg"))
        for bad in [
            "/etc/passwd", "../outside.m4a", "Recordings/../../etc/passwd", "Recordings/./x",
            "Recordings//x", "library.sqlite", "", "Recordings", "Recordings/x\n",
        ] {
            XCTAssertThrowsError(try Validation.libraryRelativePath(bad), bad) { error in
                XCTAssertEqual(error as? LibraryError, .unsafePath(bad))
            }
        }
    }
}
