import CraveyLibraryFixtures
import Foundation
import GRDB
import XCTest

@testable import CraveyLibrary

/// Transcripts in the library and the search index over titles, notes and transcripts.
final class TranscriptStoreTests: XCTestCase {
    func transcript(_ recording: Recording, _ text: String) -> Transcript {
        var words: [Transcript.Word] = []
        var at = 0.5
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            words.append(.init(text: String(word), start: at, end: at + 0.3))
            at += 0.4
        }
        return Transcript(
            recordingId: recording.id, state: .done, text: text, words: words, engine: "engine", model: "model")
    }

    func testStoredWithWordsAndTimesFoundBySearchAndGoneWithItsRecording() throws {
        let t = try TemporaryLibrary()
        let lib = try t.open()
        let walk = try t.add(lib, title: "Walk")
        let call = try t.add(lib, title: "Call your sister")
        XCTAssertEqual(try lib.recordingsNeedingTranscripts().map(\.id), [walk.id, call.id], "oldest first")
        XCTAssertTrue(try lib.storeTranscript(transcript(walk, "go for a walk\nand call your sister tonight")))
        let stored = try XCTUnwrap(lib.transcript(of: walk.id))
        XCTAssertEqual(stored.words.count, 9)
        XCTAssertEqual(stored.words[3], .init(text: "walk", start: 1.7, end: 2.0))
        XCTAssertEqual(stored.text, "go for a walk\nand call your sister tonight")
        XCTAssertEqual(try lib.recordingsNeedingTranscripts().map(\.id), [call.id])

        // Both found; the title match ranks first; the transcript match has the word's time.
        let hits = try lib.search("sister")
        XCTAssertEqual(hits.map(\.recording.id), [call.id, walk.id])
        XCTAssertEqual(hits.map(\.field), [.title, .transcript])
        XCTAssertNil(hits[0].time)
        XCTAssertEqual(hits[1].time ?? 0, 3.3, accuracy: 0.001)
        XCTAssertTrue(hits[1].matchedWords.contains("sister"), hits[1].snippet)
        XCTAssertEqual(hits[1].field, .transcript)
        XCTAssertFalse(hits[1].snippet.contains("\n"))
        XCTAssertEqual(try lib.search("walking").map(\.recording.id), [walk.id], "forms of a word")
        XCTAssertEqual(try lib.search("wal").map(\.recording.id), [walk.id], "the start of a word")
        XCTAssertEqual(try lib.search("walk zebra").count, 0, "every word")
        XCTAssertEqual(try lib.search("\"walk\" * (").map(\.recording.id), [walk.id], "syntax is just words")
        XCTAssertThrowsError(try lib.search("  ** "))

        // An unavailable one is tried again; a transcript for a deleted recording is not stored.
        XCTAssertTrue(
            try lib.storeTranscript(
                Transcript(
                    recordingId: call.id, state: .unavailable, text: "", words: [],
                    engine: "engine", model: "model", problem: "no model")))
        XCTAssertEqual(try lib.recordingsNeedingTranscripts().map(\.id), [call.id])
        try lib.delete(walk)
        XCTAssertNil(try lib.transcript(of: walk.id))
        XCTAssertFalse(try lib.storeTranscript(transcript(walk, "too late")))
        XCTAssertEqual(try lib.search("sister").map(\.recording.id), [call.id])
        XCTAssertTrue(try lib.check(repair: false, now: Date()).subjects(.searchIndex).isEmpty)
        try lib.purge()
        XCTAssertEqual(try lib.allTranscripts().count, 0)
        XCTAssertEqual(try lib.search("sister").count, 0)
    }

    func testALibraryFromBeforeTranscriptsIsIndexedWhenOpened() throws {
        let t = try TemporaryLibrary()
        var lib: Library? = try t.open()
        try t.add(lib!, title: "Morning pages")
        try lib!.store.writer.write { db in
            // Back to the schema of v3: no transcripts, no index.
            try db.execute(
                sql: """
                    DROP TABLE transcript; DROP TABLE recordingSearch; DROP TRIGGER recording_search_insert;
                    DROP TRIGGER recording_search_update; DROP TRIGGER recording_search_delete;
                    DELETE FROM grdb_migrations WHERE identifier = 'v4: transcripts';
                    """)
        }
        lib = nil
        let reopened = try t.open()
        XCTAssertEqual(try reopened.search("morning").map(\.recording.title), ["Morning pages"])
        XCTAssertTrue(try reopened.check(repair: false, now: Date()).subjects(.searchIndex).isEmpty)
    }

    func testCheckFindsAndRebuildsAnIndexOutOfStep() throws {
        let t = try TemporaryLibrary()
        let lib = try t.open()
        let walk = try t.add(lib, title: "Walk")
        try lib.storeTranscript(transcript(walk, "go for a walk"))
        try lib.store.writer.write { db in
            try db.execute(sql: "UPDATE recordingSearch SET title = 'something else'")
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
        }
        try lib.store.writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(
                sql:
                    "INSERT INTO transcript (recordingId, state, engine, model, madeAt) VALUES ('00000000-0000-0000-0000-000000000000', 'done', 'e', 'm', '2026-01-01T00:00:00.000Z')"
            )
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        let found = try lib.check(repair: false, now: Date())
        XCTAssertEqual(found.subjects(.searchIndex).count, 2, "\(found.subjects(.searchIndex))")
        XCTAssertTrue(found.hasProblems)
        XCTAssertFalse(found.subjects(.searchIndex).isEmpty, "\(found.findings)")
        XCTAssertEqual(try lib.search("something").count, 1, "the index is out of step")
        let repaired = try lib.check(repair: true, now: Date())
        XCTAssertTrue(repaired.repaired && !repaired.subjects(.searchIndex).isEmpty, "\(repaired.findings)")
        XCTAssertTrue(try lib.check(repair: false, now: Date()).subjects(.searchIndex).isEmpty)
        XCTAssertEqual(try lib.search("something").count, 0)
        XCTAssertEqual(try lib.search("walk").count, 1)
        XCTAssertEqual(try lib.allTranscripts().count, 1)
    }
}
