import CraveyLibraryFixtures
import GRDB
import XCTest

@testable import CraveyLibrary

final class StoreTests: XCTestCase {
    func testMigratesFromEmptyAndCreatesPrivateFiles() throws {
        let temp = try TemporaryLibrary()
        let library = try temp.open()
        let tables = try library.store.writer.read { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT name FROM sqlite_master WHERE type IN ('table','index') AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        }
        XCTAssertEqual(
            tables,
            [
                "checkinDay", "craving", "craving_newest", "craving_recording", "dayMark", "grdb_migrations",
                "limitRule", "logSearch",
                "logSearch_config", "logSearch_content", "logSearch_data", "logSearch_docsize", "logSearch_idx",
                "milestone",
                "pendingJournal", "pendingReplace", "pendingSave", "pendingScrub", "pendingTags", "plan", "recording",
                "recordingPlays",
                "recordingSearch",
                "recordingSearch_config", "recordingSearch_content", "recordingSearch_data", "recordingSearch_docsize",
                "recordingSearch_idx", "recording_checkin", "recording_kind_newest", "recording_newest",
                "recording_purpose_newest", "recording_top", "selfScreen", "selfScreen_taken", "setting", "syncField",
                "syncOutbox", "syncRecordingWaiting", "syncSeen", "syncState", "transcript",
                "transcriptJob", "usage", "usage_craving", "usage_newest", "withdrawalCheck",
            ])
        let journal = try library.store.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        XCTAssertEqual(journal, "wal")
        try temp.add(library)
        for dir in ["", "/Recordings", "/Recordings/Thumbnails", "/.incoming", "/.trash"] {
            XCTAssertEqual(try mode(temp.root + dir), 0o700, dir)
        }
        for file in ["/library.sqlite", "/library.lock"] + temp.mediaFiles().map({ "/" + $0 }) {
            XCTAssertEqual(try mode(temp.root + file), 0o600, file)
        }
    }

    func testSavedRowReadsBackExactly() throws {
        let temp = try TemporaryLibrary()
        let library = try temp.open()
        let saved = try temp.add(library, title: "Remember why", kind: .video, duration: 120, purpose: .milestone)
        let read = try library.recording(matching: saved.id.uuidString)
        XCTAssertEqual(read, saved)
        XCTAssertEqual(read.media.waveform, [0, 128, 255])
        XCTAssertEqual(read.media.sizeBytes, 4096)
        XCTAssertEqual(read.filePath, "Recordings/video_\(saved.id.uuidString).mov")
        XCTAssertEqual(read.thumbnailPath, "Recordings/Thumbnails/video_\(saved.id.uuidString)_thumb.jpg")
        XCTAssertEqual(read.playCount, 0)
        XCTAssertNil(read.lastPlayedAt)
    }

    func testSaveRefusesBadInputAndLeavesNothing() throws {
        let temp = try TemporaryLibrary()
        let library = try temp.open()
        XCTAssertThrowsError(try temp.add(library, title: String(repeating: "x", count: 41)))
        XCTAssertThrowsError(try temp.add(library, duration: 120.001))
        XCTAssertThrowsError(try temp.add(library, duration: 0))
        try temp.assertConsistent()
        XCTAssertEqual(try library.count(), 0)
    }

    func testListIsNewestFirstAndFilters() throws {
        let temp = try TemporaryLibrary()
        let library = try temp.open()
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        let a = try temp.add(library, title: "a", kind: .audio, createdAt: base, purpose: .craving)
        let b = try temp.add(library, title: "b", kind: .video, createdAt: base + 60, purpose: .craving)
        let c = try temp.add(library, title: "c", kind: .audio, createdAt: base + 120, purpose: .reflection)
        XCTAssertEqual(try library.recordings().map(\.title), ["c", "b", "a"])
        XCTAssertEqual(try library.recordings(kind: .audio).map(\.id), [c.id, a.id])
        XCTAssertEqual(try library.recordings(purpose: .craving).map(\.id), [b.id, a.id])
        XCTAssertEqual(try library.recordings(kind: .video, purpose: .reflection), [])
    }

    func testTopOrdersByPlaysThenLastPlayedThenNewest() throws {
        let temp = try TemporaryLibrary()
        let library = try temp.open()
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        let old = try temp.add(library, title: "old", createdAt: base)
        let mid = try temp.add(library, title: "mid", createdAt: base + 10)
        let new = try temp.add(library, title: "new", createdAt: base + 20)
        let newest = try temp.add(library, title: "newest", createdAt: base + 30)
        XCTAssertEqual(try library.top(3).map(\.title), ["newest", "new", "mid"], "no plays: newest first")
        try library.recordPlay(old.id, at: base + 100)
        try library.recordPlay(mid.id, at: base + 200)
        try library.recordPlay(new.id, at: base + 50)
        try library.recordPlay(new.id, at: base + 60)
        // new: 2 plays; mid and old: 1 play each, mid played more recently.
        XCTAssertEqual(try library.top(3).map(\.title), ["new", "mid", "old"])
        XCTAssertEqual(try library.top(10).map(\.id), [new.id, mid.id, old.id, newest.id])
        let played = try library.recording(matching: new.id.uuidString)
        XCTAssertEqual(played.playCount, 2)
        XCTAssertEqual(played.lastPlayedAt, (base + 60).truncatedToMilliseconds)
    }

    func testIdPrefixesAndTitles() throws {
        let temp = try TemporaryLibrary()
        let library = try temp.open()
        let ids = ["AAAA1111-0000-4000-8000-000000000001", "AAAA2222-0000-4000-8000-000000000002"].map {
            UUID(uuidString: $0)!
        }
        for (i, id) in ids.enumerated() {
            _ = try library.save(
                copying: temp.sample, kind: .audio, draft: .init(title: "Walk \(i)"),
                duration: 3, media: MediaFacts(), id: id)
        }
        XCTAssertEqual(try library.recording(matching: "aaaa1").id, ids[0])
        XCTAssertEqual(try library.recording(matching: ids[1].uuidString.lowercased()).id, ids[1])
        XCTAssertThrowsError(try library.recording(matching: "AAAA")) { error in
            guard case let .ambiguous(_, candidates)? = error as? LibraryError else { return XCTFail("\(error)") }
            XCTAssertEqual(candidates.count, 2)
        }
        XCTAssertThrowsError(try library.recording(matching: "BBBB")) {
            XCTAssertEqual($0 as? LibraryError, .notFound("BBBB"))
        }
        XCTAssertThrowsError(try library.recording(matching: "walk")) {
            XCTAssertEqual($0 as? LibraryError, .notFound("walk"))
        }
        XCTAssertEqual(try library.recording(idOrTitle: "walk 1").id, ids[1])
        XCTAssertThrowsError(try library.recording(idOrTitle: "Walk"))
    }

    func testEditKeepsLimitsAndBlankTitleBecomesAutomatic() throws {
        let temp = try TemporaryLibrary()
        let library = try temp.open()
        let r = try temp.add(library, title: "First")
        let edited = try library.edit(r, title: "Second", notes: .some("why"), purpose: .some(.reflection))
        XCTAssertEqual(try library.recording(matching: r.id.uuidString), edited)
        XCTAssertThrowsError(try library.edit(r, title: String(repeating: "x", count: 41), notes: nil, purpose: nil))
        XCTAssertEqual(
            try library.recording(matching: r.id.uuidString).title, "Second", "a refused edit changes nothing")
        let blank = try library.edit(edited, title: "", notes: .some(nil), purpose: .some(nil))
        XCTAssertEqual(blank.title, Validation.automaticTitle(for: r.createdAt))
        XCTAssertNil(blank.notes)
        XCTAssertNil(blank.purpose)
    }

    func testDatabaseRefusesInvalidRowsEvenFromOutside() throws {
        let temp = try TemporaryLibrary()
        let library = try temp.open()
        XCTAssertThrowsError(
            try library.store.writer.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO recording (id, createdAt, kind, title, duration, filePath, modifiedAt) VALUES ('x', '2025', 'photo', 't', 1, 'Recordings/a', '2025')"
                )
            })
        XCTAssertThrowsError(
            try library.store.writer.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO recording (id, createdAt, kind, title, duration, filePath, modifiedAt) VALUES ('x', '2025', 'audio', 't', 121, 'Recordings/a', '2025')"
                )
            })
    }

    func testQueriesUseIndexes() throws {
        let temp = try TemporaryLibrary()
        let library = try temp.open()
        func plan(_ sql: String) throws -> String {
            try library.store.writer.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }.joined(
                    separator: "; ")
            }
        }
        XCTAssertTrue(try plan("SELECT * FROM recording ORDER BY createdAt DESC, id DESC").contains("recording_newest"))
        XCTAssertTrue(
            try plan("SELECT * FROM recording WHERE kind = 'audio' ORDER BY createdAt DESC, id DESC").contains(
                "recording_kind_newest"))
        XCTAssertTrue(
            try plan("SELECT * FROM recording WHERE purpose = 'craving' ORDER BY createdAt DESC, id DESC").contains(
                "recording_purpose_newest"))
        let top = try plan(
            "SELECT * FROM recording ORDER BY playCount DESC, lastPlayedAt DESC, createdAt DESC, id DESC LIMIT 3")
        XCTAssertTrue(top.contains("recording_top"), top)
        XCTAssertFalse(top.contains("TEMP B-TREE"), top)
    }

    func testRowPointingOutsideTheLibraryIsNeverOpenedOrDeleted() throws {
        let temp = try TemporaryLibrary()
        let library = try temp.open()
        let outside = (temp.root as NSString).deletingLastPathComponent + "/precious.txt"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: outside))
        try library.store.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO recording (id, createdAt, kind, title, duration, filePath, modifiedAt)
                    VALUES ('11111111-1111-4111-8111-111111111111', '2025-01-01T00:00:00.000Z', 'audio', 'evil', 1, '../precious.txt', '2025-01-01T00:00:00.000Z')
                    """)
        }
        // A symlink inside Recordings/ pointing out is refused too.
        try FileManager.default.createSymbolicLink(
            atPath: temp.root + "/Recordings/Thumbnails/escape",
            withDestinationPath: (temp.root as NSString).deletingLastPathComponent)
        XCTAssertThrowsError(try library.files.resolve("Recordings/Thumbnails/escape/precious.txt"))
        let evil = try library.recording(matching: "11111111")
        XCTAssertThrowsError(try library.delete(evil)) {
            XCTAssertEqual($0 as? LibraryError, .unsafePath("../precious.txt"))
        }
        let report = try library.check(repair: true, now: Date())
        XCTAssertEqual(report.subjects(.invalidRow).count, 1, "a row whose path is not its own file is invalid")
        XCTAssertTrue(FileManager.default.fileExists(atPath: outside), "the outside file was touched")
        XCTAssertEqual(try library.count(), 0)
    }

    func testCheckFindsAndRepairsExternalDamage() throws {
        let temp = try TemporaryLibrary()
        let library = try temp.open()
        let kept = try temp.add(library, title: "kept", kind: .video)
        let lost = try temp.add(library, title: "lost")
        try FileManager.default.removeItem(atPath: temp.root + "/" + lost.filePath)
        // Not cravey's name: never touched, whatever repair does.
        let foreign = temp.root + "/Recordings/audio_stray.m4a"
        try Data("stray".utf8).write(to: URL(fileURLWithPath: foreign))
        // cravey's names, no row: one playable (listed again), one not (moved to Quarantine/).
        let orphan = "Recordings/" + Recording.fileName(id: UUID(), kind: .audio)
        try FileManager.default.copyItem(atPath: temp.sample, toPath: temp.root + "/" + orphan)
        let broken = "Recordings/" + Recording.fileName(id: UUID(), kind: .video)
        try Data("not media".utf8).write(to: URL(fileURLWithPath: temp.root + "/" + broken))
        chmod(temp.root + "/" + kept.filePath, 0o644)
        XCTAssertEqual(try library.recordings().map(\.id), [kept.id], "a row whose file is gone is never listed")
        let found = try library.check(repair: false, now: Date())
        XCTAssertEqual(found.subjects(.rowWithoutFile).count, 1)
        XCTAssertEqual(Set(found.subjects(.fileWithoutRow)), [orphan, broken])
        XCTAssertEqual(found.subjects(.foreignFile), ["Recordings/audio_stray.m4a"])
        XCTAssertEqual(found.subjects(.loosePermissions).count, 1)
        XCTAssertEqual(try library.count(), 2, "check without --repair changes nothing")
        let repaired = try library.check(repair: true, now: Date())
        XCTAssertTrue(repaired.repaired)
        XCTAssertEqual(repaired.subjects(.relisted).count, 1)
        XCTAssertEqual(repaired.subjects(.quarantined), [broken])
        try temp.assertConsistent()
        XCTAssertEqual(
            try String(contentsOfFile: foreign, encoding: .utf8), "stray", "a file cravey did not make was touched")
        XCTAssertEqual(
            try String(
                contentsOfFile: temp.root + "/Quarantine/" + (broken as NSString).lastPathComponent, encoding: .utf8),
            "not media", "repair never deletes a file")
        let relisted = try XCTUnwrap(try library.recordings().first { $0.filePath == orphan })
        XCTAssertTrue(relisted.title.hasPrefix("Recovered recording"), relisted.title)
        XCTAssertEqual(relisted.duration, 12.5)
        XCTAssertEqual(try mode(temp.root + "/" + kept.filePath), 0o600)
        XCTAssertFalse(try library.check(repair: false, now: Date()).hasProblems)
    }
}

func mode(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
}
