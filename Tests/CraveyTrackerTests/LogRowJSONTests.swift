import Foundation
import GRDB
import XCTest

@testable import CraveyLibrary
@testable import CraveyTracker

/// `log --json` and `export` write each log's JSON straight from its row; the bytes are those the
/// model gives (each row read into a log, its dates parsed and written again): the same over a
/// library with every kind of log, every trigger, place, method and intensity, rides and plays,
/// links, edits and deletes, odd text in the notes, and rows another program stored past the
/// rules (bad ids, times, values and types, odd bytes), which go through the model as before.
final class LogRowJSONTests: XCTestCase {
    var base = ""
    var library: Library!
    var tracker: Tracker!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-rowjson-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        library = try Library(root: base + "/library")
        tracker = Tracker(library: library)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: base) }

    func sql(_ statements: String) throws {
        let queue = try DatabaseQueue(path: base + "/library/library.sqlite")
        try queue.writeWithoutTransaction { try $0.execute(sql: statements) }
        try queue.close()
    }

    /// Every kind of log as cravey writes them, then edited and deleted, then rows past the rules.
    func fillEverything() throws {
        let sample = base + "/message.m4a"
        try Data(repeating: 7, count: 2048).write(to: URL(fileURLWithPath: sample))
        let message = try library.save(
            copying: sample, thumbnail: nil, kind: .audio, draft: .init(title: "to myself"), duration: 3,
            media: MediaFacts(sampleRate: 48_000, channels: 1))
        let odd = [
            "she said \"not now\"", "back\\slash \\u0000 \\n", "tab\there\nnew line\r", "\u{01}\u{1F}\u{7F}\u{85}",
            "emoji 🌿🫁 and ZWJ 👩‍👩‍👧", "\u{202E}reversed\u{2028}separator", "/slashes/ </script>", "=SUM(A1)",
            "\u{FEFF}bom", "plain words", "Café évening",
        ]
        let now = Date()
        // Times with every millisecond's last digits, some a Double cannot keep exactly.
        var at = Date(timeIntervalSince1970: 1_600_000_000.001)
        var cravings: [Craving] = []
        for i in 0..<Trigger.allCases.count * 4 {
            at = at.addingTimeInterval(3_600 + Double(i % 1000) * 0.137)
            let triggers = Set(Trigger.allCases.enumerated().filter { (i >> ($0.offset % 4)) & 1 == 1 }.map(\.element))
            let zone = TimeZone(secondsFromGMT: [0, 3_600, -18_000, 19_800, 45 * 60, -12 * 3_600][i % 6])!
            cravings.append(
                try tracker.logCraving(
                    .init(
                        intensity: 1 + i % 10, time: LogTime(at, in: zone), triggers: triggers,
                        location: i % 6 == 5 ? nil : Location.allCases[i % 5], notes: i % 3 == 0 ? nil : "words \(i)",
                        recordingId: i % 7 == 0 ? message.id : nil), now: now))
            let method = Method.allCases[i % 4]
            _ = try tracker.logUse(
                .init(
                    method: method, amount: method.amounts[i % method.amounts.count],
                    time: LogTime(i % 5 == 0 ? at : at.addingTimeInterval(60), in: zone),
                    triggers: triggers, location: i % 4 == 0 ? nil : .car, notes: i % 2 == 0 ? nil : "use \(i)",
                    moodAfter: i % 3 == 0 ? nil : 1 + i % 10, cravingId: i % 3 == 1 ? cravings.last?.id : nil),
                now: now)
        }
        // Odd text in the notes, as a restore or an older cravey could have stored it.
        let queue = try DatabaseQueue(path: base + "/library/library.sqlite")
        try queue.write { db in
            for (table, texts) in [("craving", odd), ("usage", odd.reversed())] {
                let ids = try String.fetchAll(db, sql: "SELECT id FROM \(table) WHERE notes IS NOT NULL ORDER BY at")
                for (id, notes) in zip(ids, texts) {
                    try db.execute(sql: "UPDATE \(table) SET notes = ? WHERE id = ?", arguments: [notes, id])
                }
            }
        }
        try queue.close()
        // Edits (notes, intensity) and deletes of both kinds.
        for craving in cravings.prefix(6) {
            var edited = craving
            edited.notes = "edited: \(craving.intensity)"
            edited.intensity = 11 - craving.intensity
            _ = try tracker.edit(edited, now: now)
        }
        try tracker.deleteCraving(cravings[7].id, linked: .keep)
        for use in try tracker.uses().prefix(3) { try tracker.deleteUse(use.id) }
        // A ride and the messages played in it.
        let ridden = cravings[8].id.uuidString
        try sql(
            """
            UPDATE craving SET ratings = '[[0,8],[300,6],[-60,10],[123456789,1]]', played = '\(message.id.uuidString)'
              WHERE id = '\(ridden)';
            """)
        // Rows another program stored past the rules.
        let id = "'\(UUID().uuidString)'"
        let good = "'2025-05-05T05:05:05.555Z'"
        var hostile: [String] = []
        func insert(_ table: String, _ defaults: [(String, String)], _ column: String, _ value: String) {
            let known = defaults.contains { $0.0 == column }
            let columns = defaults.map { $0.0 == column ? ($0.0, value) : $0 } + (known ? [] : [(column, value)])
            hostile.append(
                "INSERT INTO \(table) (\(columns.map(\.0).joined(separator: ", "))) VALUES (\(columns.map(\.1).joined(separator: ", ")));"
            )
        }
        func craving(_ column: String, _ value: String) {
            insert(
                "craving",
                [
                    ("id", "'\(UUID().uuidString)'"), ("at", good), ("utcOffset", "0"), ("intensity", "5"),
                    ("createdAt", good), ("modifiedAt", good),
                ], column, value)
        }
        func use(_ column: String, _ value: String) {
            insert(
                "usage",
                [
                    ("id", "'\(UUID().uuidString)'"), ("at", good), ("utcOffset", "3600"), ("method", "'vape'"),
                    ("amount", "2"), ("createdAt", good), ("modifiedAt", good),
                ], column, value)
        }
        for (columns, values) in [
            ("notes", "CAST(X'6120620063' AS TEXT)"), ("notes", "CAST(X'FF41C3' AS TEXT)"), ("notes", "X'0102'"),
            ("notes", "42"), ("notes", "''"), ("location", "'attic'"), ("location", "'Home'"),
            ("triggers", "'bored,angry,bored'"), ("triggers", "'habit,,lonely,unknown'"), ("triggers", "7"),
            ("ratings", "'[]'"), ("ratings", "'[[0,7.0]]'"), ("ratings", "'[[0, 7]]'"), ("ratings", "'[[0,7],[300]]'"),
            ("ratings", "'[[-0,5]]'"), ("ratings", "'[[07,5]]'"), ("ratings", "'[[0,5]'"), ("ratings", "'{}'"),
            ("played", "'\(UUID().uuidString.lowercased())'"), ("played", "',\(UUID().uuidString),,'"),
            ("played", "'not-a-uuid,\(UUID().uuidString)'"), ("recordingId", "'\(UUID().uuidString.lowercased())'"),
            ("recordingId", "'nope'"), ("intensity", "'7'"), ("intensity", "7.5"), ("intensity", "12"),
            ("intensity", "-3"), ("utcOffset", "5399"), ("utcOffset", "-64801"), ("utcOffset", "'3600'"),
            ("utcOffset", "1.5"), ("createdAt", "'yesterday'"), ("modifiedAt", "'2026-02-30T10:00:00.000Z'"),
            ("createdAt", "'2026-01-01T10:00:00Z'"), ("modifiedAt", "'2026-01-01T24:00:00.000Z'"),
            ("at", "'1899-12-31T23:59:59.999Z'"), ("at", "'9999-12-31T23:59:59.999Z'"),
            ("at", "'2026-01-01t10:00:00.000Z'"),
            ("at", "20260101"), ("at", "'0000-01-01T00:00:00.000Z'"), ("id", "'not-a-uuid'"),
            ("id", "'\(UUID().uuidString.lowercased())'"),
        ] {
            craving(columns, values)
        }
        for (columns, values) in [
            ("method", "'pipe'"), ("method", "'Vape'"), ("amount", "'2'"), ("amount", "2.25"), ("amount", "1e300"),
            ("amount", "-0.0"), ("moodAfter", "'5'"), ("moodAfter", "99"), ("cravingId", "'\(UUID().uuidString)'"),
            ("cravingId", "'dangling'"), ("notes", "'\u{2028}\u{7F}'"), ("at", "'2026-13-01T00:00:00.000Z'"),
        ] {
            use(columns, values)
        }
        // A craving and a use at the same time; ids that tie on time across kinds.
        hostile.append(
            "INSERT INTO craving (id, at, utcOffset, intensity, createdAt, modifiedAt) VALUES (\(id), \(good), 0, 5, \(good), \(good));"
        )
        try sql(
            "PRAGMA ignore_check_constraints = 1; PRAGMA foreign_keys = 0;\n" + hostile.joined(separator: "\n")
                + "\nINSERT INTO usage (id, at, utcOffset, method, amount, createdAt, modifiedAt) VALUES (\(id), \(good), 0, 'dab', 1, \(good), \(good));"
        )
    }

    /// `log --json` as it was written: each log through the model.
    func listedThroughTheModel(cravings: Bool = true, uses: Bool = true, since: Date? = nil) throws -> String {
        var data = Data()
        var writer = LogExport.JSONArrayWriter { data.append(contentsOf: $0) }
        try tracker.forEachEntry(cravings: cravings, uses: uses, since: since) { writer.append($0) }
        writer.finish()
        return String(decoding: data, as: UTF8.self)
    }

    func listedFromTheRows(cravings: Bool = true, uses: Bool = true, since: Date? = nil) throws -> String {
        var data = Data()
        var writer = LogExport.JSONArrayWriter { data.append(contentsOf: $0) }
        try tracker.forEachLogJSON(.listing, cravings: cravings, uses: uses, since: since) { writer.append(object: $0) }
        writer.finish()
        return String(decoding: data, as: UTF8.self)
    }

    func exported(fromTheRows: Bool) throws -> String {
        let tracker = tracker!
        var data = Data()
        func forEachLog(_ cravings: Bool, _ uses: Bool, _ body: (LogEntry) throws -> Void) throws {
            try tracker.forEachEntry(cravings: cravings, uses: uses, body)
        }
        let straight: LibraryExport.LogObjects = { cravings, body in
            try tracker.forEachLogJSON(.export, cravings: cravings, uses: !cravings, body)
        }
        let counts = try LibraryExport.write(
            .json, of: library, logColumns: LogExport.columns, forEachLog: forEachLog,
            logObjects: fromTheRows ? straight : nil, to: { data.append($0) })
        let known = try tracker.counts()
        XCTAssertEqual(counts.cravings, known.cravings)
        XCTAssertEqual(counts.usageLogs, known.uses)
        return String(decoding: data, as: UTF8.self)
    }

    func assertSameLines(_ rows: String, _ model: String, file: StaticString = #filePath, line: UInt = #line) {
        let (a, b) = (rows.split(separator: "\n"), model.split(separator: "\n"))
        XCTAssertEqual(a.count, b.count, "as many lines", file: file, line: line)
        for (mine, theirs) in zip(a, b) where mine != theirs {
            XCTFail("from the rows:\n\(mine)\nthrough the model:\n\(theirs)", file: file, line: line)
            return
        }
        XCTAssertEqual(rows, model, file: file, line: line)
    }

    func testTheListingFromTheRowsIsTheModelsByteForByte() throws {
        try fillEverything()
        let model = try listedThroughTheModel()
        XCTAssertGreaterThan(model.count, 20_000)
        assertSameLines(try listedFromTheRows(), model)
        let since = Date(timeIntervalSince1970: 1_600_050_000)
        assertSameLines(
            try listedFromTheRows(uses: false, since: since), try listedThroughTheModel(uses: false, since: since))
        assertSameLines(try listedFromTheRows(cravings: false), try listedThroughTheModel(cravings: false))
        let late = Date(timeIntervalSince1970: 4_000_000_000)
        assertSameLines(try listedFromTheRows(since: late), try listedThroughTheModel(since: late))
        XCTAssertTrue(try listedFromTheRows(since: late).contains("\"at\":\"9999-12-31T23:59:59.999Z\""))
    }

    func testTheExportFromTheRowsIsTheModelsByteForByte() throws {
        try fillEverything()
        assertSameLines(try exported(fromTheRows: true), try exported(fromTheRows: false))
    }

    func testAnEmptyLibraryListsNothing() throws {
        XCTAssertEqual(try listedFromTheRows(), "[]")
        XCTAssertEqual(try exported(fromTheRows: true), try exported(fromTheRows: false))
    }

    /// The stored forms copied as they are, and only those.
    func testOnlyTheStoredFormsAreCopied() {
        func bytes(_ text: String, _ check: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
            Array(text.utf8).withUnsafeBufferPointer(check)
        }
        XCTAssertTrue(bytes("0F0E0D0C-0000-4000-8000-00000000000A", LogRowJSON.isUUID))
        XCTAssertFalse(bytes("0f0e0d0c-0000-4000-8000-00000000000a", LogRowJSON.isUUID))
        XCTAssertFalse(bytes("0F0E0D0C00000-4000-8000-00000000000A", LogRowJSON.isUUID))
        XCTAssertTrue(bytes("2024-02-29T23:59:59.999Z") { LogRowJSON.milliseconds($0) != nil })
        XCTAssertFalse(bytes("2023-02-29T00:00:00.000Z") { LogRowJSON.milliseconds($0) != nil })
        XCTAssertFalse(bytes("2023-01-01T00:00:60.000Z") { LogRowJSON.milliseconds($0) != nil })
        XCTAssertEqual(
            Array("[[0,8],[-60,10]]".utf8).withUnsafeBufferPointer { LogRowJSON.ratingsText($0) },
            Array("0:8 -60:10".utf8))
        for refused in ["[]", "[[0,8]", "[[0,8],]", "[[00,8]]", "[[-0,8]]", "[[0,8.0]]", "[[0,8,1]]", " [[0,8]]"] {
            XCTAssertNil(Array(refused.utf8).withUnsafeBufferPointer { LogRowJSON.ratingsText($0) }, refused)
        }
    }
}
