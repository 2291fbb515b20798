import CraveyTracker
import Foundation
import GRDB
import XCTest

@testable import CraveyLibrary

/// `log --json` and `export` are written as the logs are read, a block at a time, and their bytes
/// are what they were when the whole list was held: the listing's writer's in the same order, and
/// for export what today's encoder writes (JSONEncoder with its keys sorted, then the unsafe
/// characters escaped); odd text included (quotes, backslashes, control characters, emoji,
/// direction overrides, text that looks like an escape), and each string reads back as stored.
final class StreamedListingTests: XCTestCase {
    var base = ""
    let odd = [
        "she said \"not now\"", "back\\slash \\u0000 \\n", "tab\there\nnew line\r", "\u{01}\u{1F}\u{7F}\u{85}",
        "emoji 🌿🫁 and ZWJ 👩‍👩‍👧", "\u{202E}reversed\u{2028}separator", "/slashes/ </script>", "=SUM(A1)",
        "\u{FEFF}bom", "plain words",
    ]

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-streamed-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: base) }

    /// A library with a craving and a use for each odd text (as notes, stored as a restore or an
    /// older cravey could have stored them, past today's input rules), then `more` run on it.
    func oddLibrary(_ more: String) throws -> (Library, Tracker) {
        let library = try Library(root: base + "/library")
        let tracker = Tracker(library: library)
        let methods: [(Method, Double)] = [(.bowls, 1.5), (.vape, 3), (.dab, 2), (.edible, 10), (.bowls, 0.5)]
        for i in odd.indices {
            let at = Date(timeIntervalSince1970: 1_700_000_000 + Double(i) * 600)
            _ = try tracker.logCraving(
                .init(intensity: 1 + i % 10, time: LogTime(at), triggers: [.bored, .anxious], location: .home),
                now: Date())
            let (method, amount) = methods[i % methods.count]
            _ = try tracker.logUse(
                .init(method: method, amount: amount, time: LogTime(at.addingTimeInterval(60))), now: Date())
        }
        let queue = try DatabaseQueue(path: base + "/library/library.sqlite")
        try queue.write { db in
            for (table, texts) in [("craving", odd), ("usage", odd.reversed())] {
                let ids = try String.fetchAll(db, sql: "SELECT id FROM \(table) ORDER BY at")
                for (id, notes) in zip(ids, texts) {
                    try db.execute(sql: "UPDATE \(table) SET notes = ? WHERE id = ?", arguments: [notes, id])
                }
            }
            try db.execute(sql: more)
        }
        try queue.close()
        return (library, tracker)
    }

    func testTheStreamedListIsTheWholeListByteForByte() throws {
        let (_, tracker) = try oddLibrary(
            """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600)
                    INSERT INTO craving (id, at, utcOffset, intensity, triggers, location, notes, createdAt, modifiedAt)
                    SELECT printf('%08X-0000-4000-8000-%012X', i, i),
                           strftime('%Y-%m-%dT%H:%M:%f', 1600000000 + (i / 2) * 600, 'unixepoch') || 'Z', 3600,
                           1 + i % 10, 'anxious,bored', 'home', 'note ' || i,
                           '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n
            """)

        let entries = try tracker.entries()
        var whole = Data("[\n  ".utf8)
        for (i, entry) in entries.enumerated() {
            let one = LogExport.jsonArray([entry])
            if i > 0 { whole.append(contentsOf: ",\n  ".utf8) }
            whole.append(one.dropFirst(4).dropLast(2))
        }
        whole.append(contentsOf: "\n]".utf8)

        var streamed = Data()
        var blocks = 0
        var writer = LogExport.JSONArrayWriter {
            streamed.append(contentsOf: $0)
            blocks += 1
        }
        try tracker.forEachEntry { writer.append($0) }
        writer.finish()
        XCTAssertGreaterThan(blocks, 2, "written a block at a time")
        XCTAssertEqual(String(decoding: streamed, as: UTF8.self), String(decoding: whole, as: UTF8.self))
        XCTAssertEqual(streamed, LogExport.jsonArray(entries))

        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: streamed) as? [[String: Any]])
        XCTAssertEqual(parsed.count, entries.count)
        let notes = Set(parsed.compactMap { $0["notes"] as? String })
        for text in odd { XCTAssertTrue(notes.contains(text), "read back as stored: \(text.debugDescription)") }
        XCTAssertFalse(
            streamed.contains(where: { $0 < 0x20 && $0 != 0x0A }), "no control character written raw")

        // Only some kinds, since a day: the same as the whole list's.
        let since = Date(timeIntervalSince1970: 1_600_100_000)
        var cravings = Data()
        var some = LogExport.JSONArrayWriter { cravings.append(contentsOf: $0) }
        try tracker.forEachEntry(uses: false, since: since) { some.append($0) }
        some.finish()
        XCTAssertEqual(cravings, LogExport.jsonArray(try tracker.entries(uses: false, since: since)))
        var nothing = Data()
        var none = LogExport.JSONArrayWriter { nothing.append(contentsOf: $0) }
        try tracker.forEachEntry(since: Date(timeIntervalSince1970: 2_000_000_000)) { none.append($0) }
        none.finish()
        XCTAssertEqual(String(decoding: nothing, as: UTF8.self), "[]")
    }

    func testTheStreamedExportIsTheEncodersByteForByte() throws {
        let (library, tracker) = try oddLibrary(
            """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
                    INSERT INTO usage (id, at, utcOffset, method, amount, triggers, moodAfter, createdAt, modifiedAt)
                    SELECT printf('%08X-0000-4000-9000-%012X', i, i),
                           strftime('%Y-%m-%dT%H:%M:%f', 1600000000 + i * 7200, 'unixepoch') || 'Z', -18000,
                           'vape', 1 + i % 10, 'social', 1 + i % 10,
                           '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n
            """)

        let entries = try tracker.entries()
        func forEachLog(_ cravings: Bool, _ uses: Bool, _ body: (LogEntry) throws -> Void) throws {
            try tracker.forEachEntry(cravings: cravings, uses: uses, body)
        }
        var blocks = 0
        var streamed = Data()
        let counts = try LibraryExport.write(
            .json, of: library, logColumns: LogExport.columns, forEachLog: forEachLog,
            to: {
                streamed.append($0)
                blocks += 1
            })
        XCTAssertGreaterThan(blocks, 1, "written a block at a time")
        XCTAssertEqual(counts.cravings, odd.count)
        XCTAssertEqual(counts.usageLogs, odd.count + 500)

        // Today's export: each log through the encoder.
        func array(_ logs: [LogEntry]) throws -> String {
            logs.isEmpty
                ? "[]"
                : "[\n    "
                    + (try logs.map { String(decoding: try JSONText.data($0), as: UTF8.self) }).joined(
                        separator: ",\n    ") + "\n  ]"
        }
        let listed = RecordingExport.jsonArray(
            try library.recordings(includingCheckIns: true), transcripts: try library.allTranscripts()
        ).replacingOccurrences(of: "\n", with: "\n  ")
        let encoded =
            "{\n  \"cravings\": \(try array(entries.filter(\.isCraving))),\n  \"usage\": \(try array(entries.filter { !$0.isCraving })),"
            + "\n  \"recordings\": \(listed)\n}\n"
        XCTAssertEqual(String(decoding: streamed, as: UTF8.self), encoded)
        XCTAssertEqual(
            try LibraryExport(.json, of: library, logs: { entries }, logColumns: LogExport.columns).text, encoded)

        var csv = Data()
        _ = try LibraryExport.write(
            .csv, of: library, logColumns: LogExport.columns, forEachLog: forEachLog, to: { csv.append($0) })
        let header =
            ["record"] + LogExport.columns
            + (RecordingExport.columns + RecordingExport.transcriptColumns).filter { !LogExport.columns.contains($0) }
        XCTAssertEqual(
            String(decoding: csv, as: UTF8.self), RecordingExport.csv(header: header, rows: entries.map(\.csvRow)))

        // Written to a file the same way, 0600.
        let path = base + "/export.json"
        _ = try LibraryExport.write(
            .json, of: library, logColumns: LogExport.columns, forEachLog: forEachLog, to: path, replacing: false,
            another: "choose another", replace: nil)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), streamed)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int, 0o600)
    }
}
