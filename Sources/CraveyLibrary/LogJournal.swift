import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// The journal of what a person typed: every craving, use and setting (their name, their goal…)
/// as it stands after each change, one JSON line each in `logs.journal` beside the database,
/// fsynced before a command says "logged". A lost database is rebuilt from the newest snapshot,
/// the recordings' own tags and this journal, so no log is lost with it.
///
/// The rules:
/// - a change is noted in `pendingJournal` by triggers, in the change's own transaction; after the
///   commit, under the library lock, the noted rows are appended as they now stand (or as deleted)
///   and fsynced (the directory too when the file is new), and only then is the note removed. A
///   run killed between the two appends the same lines again: each line is a whole row, so
///   replaying the journal in order gives the same logs however often a line appears;
/// - a deleted log's earlier lines are taken out of the journal at once (deleted means deleted:
///   its notes do not wait for the next snapshot); a line marking it deleted stays, so a rebuild
///   from a snapshot that still held it does not bring it back;
/// - the day's snapshot holds everything journaled before it: the journal is emptied right
///   after the snapshot is in place (a kill in between leaves lines the snapshot has already,
///   replayed harmlessly).
extension Library {
    /// The tables journaled, with the kind a line names.
    static let journaledTables: [(kind: String, table: String, key: String)] = [
        ("craving", "craving", "id"), ("use", "usage", "id"), ("setting", "setting", "key"),
        ("milestone", "milestone", "id"),
    ]

    /// One line of the journal.
    struct JournalLine: Codable, Equatable {
        var kind: String
        var id: String
        /// The row's columns as they stand (nil: deleted).
        var row: [String: JournalValue]?
    }

    /// A column's value in a line: what SQLite stores for the logs and settings.
    enum JournalValue: Codable, Equatable {
        case null, integer(Int64), real(Double), text(String)

        /// A whole number reads back from JSON as an integer: 3 and 3.0 are the same value.
        static func == (a: JournalValue, b: JournalValue) -> Bool {
            switch (a, b) {
            case (.null, .null): true
            case let (.integer(x), .integer(y)): x == y
            case let (.real(x), .real(y)): x == y
            case let (.integer(x), .real(y)), let (.real(y), .integer(x)): Double(x) == y
            case let (.text(x), .text(y)): x == y
            default: false
            }
        }

        init(_ value: DatabaseValue) {
            switch value.storage {
            case .null, .blob: self = .null
            case .int64(let n): self = .integer(n)
            case .double(let d): self = .real(d)
            case .string(let s): self = .text(s)
            }
        }

        var databaseValue: DatabaseValue {
            switch self {
            case .null: .null
            case .integer(let n): n.databaseValue
            case .real(let d): d.databaseValue
            case .text(let s): s.databaseValue
            }
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null; return }
            if let n = try? container.decode(Int64.self) { self = .integer(n); return }
            if let d = try? container.decode(Double.self) { self = .real(d); return }
            self = .text(try container.decode(String.self))
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .integer(let n): try container.encode(n)
            case .real(let d): try container.encode(d)
            case .text(let s): try container.encode(s)
            }
        }
    }

    // MARK: - Writing

    /// Appends what changed, after a change was committed and reported as kept in the database:
    /// a journal that cannot be written now does not undo that, but it is said (`journalProblem`),
    /// and the next command appends what is still noted.
    func flushJournalAfterCommit() {
        do {
            try flushJournal()
        } catch {
            journalProblem =
                "the journal of logs (\(FileStore.journalFile)) could not be written (\(Self.describe(error))); the next cravey command writes it"
        }
    }

    /// Appends what changed since the last append (see the type's rules). Called with the library
    /// lock held, after a change's commit and before the command reports it.
    func flushJournal() throws {
        guard isWritable else { return }
        let (noted, lines) = try store.writer.read { db -> (Int64, [JournalLine]) in
            let pending = try Row.fetchAll(db, sql: "SELECT seq, kind, id FROM pendingJournal ORDER BY seq")
            guard let last = pending.last?["seq"] as Int64? else { return (0, []) }
            var seen = Set<String>(), lines: [JournalLine] = []
            for note in pending.reversed() {  // the newest note of a row decides; lines in order
                let kind: String = note["kind"], id: String = note["id"]
                guard seen.insert(kind + "\u{0}" + id).inserted else { continue }
                lines.insert(JournalLine(kind: kind, id: id, row: try Self.journaledRow(db, kind: kind, id: id)), at: 0)
            }
            return (last, lines)
        }
        guard !lines.isEmpty else { return }
        let deleted = Set(lines.filter { $0.row == nil }.map { $0.kind + "\u{0}" + $0.id })
        try files.withReserve {
            if deleted.isEmpty {
                try appendToJournal(lines)
            } else {
                // The deleted rows' earlier lines go with them: the journal is written again
                // without them, the new lines at its end.
                let kept = try readJournal().filter { !deleted.contains($0.kind + "\u{0}" + $0.id) || $0.row == nil }
                try rewriteJournal(kept + lines)
            }
        }
        try faults.hit("journal.forget")
        try store.writer.write { db in
            try db.execute(sql: "DELETE FROM pendingJournal WHERE seq <= ?", arguments: [noted])
        }
    }

    /// A journaled row as it stands now (nil: not there).
    static func journaledRow(_ db: Database, kind: String, id: String) throws -> [String: JournalValue]? {
        guard let (_, table, key) = journaledTables.first(where: { $0.kind == kind }),
            let row = try Row.fetchOne(db, sql: "SELECT * FROM \(table) WHERE \(key) = ?", arguments: [id])
        else { return nil }
        var values: [String: JournalValue] = [:]
        for (column, value) in row { values[column] = JournalValue(value) }
        return values
    }

    private var journalPath: String { files.path(FileStore.journalFile) }

    private static func encode(_ lines: [JournalLine]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = Data()
        for line in lines {
            data.append(try encoder.encode(line))
            data.append(0x0A)
        }
        return data
    }

    /// Appends whole lines and fsyncs them (and the directory, when the journal is new).
    /// A write cut short (a full disk) is taken back to the journal's last whole line, so a retry
    /// does not leave a line that cannot be read.
    private func appendToJournal(_ lines: [JournalLine]) throws {
        let data = try Self.encode(lines)
        let fd = open(journalPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw systemError("open", journalPath) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw systemError("stat", journalPath) }
        do {
            try faults.hit("journal.append")
            try Self.writeAll(data, to: fd, path: journalPath)
            try faults.hit("journal.fsync")
            guard retryingEINTR({ fsync(fd) }) == 0 else { throw systemError("fsync", journalPath) }
        } catch {
            _ = ftruncate(fd, info.st_size)
            throw error
        }
        // A new (or emptied) journal's name is made durable with its first lines.
        if info.st_size == 0 { try files.sync(root, site: "journal.fsync.root") }
    }

    /// Replaces the journal with `lines`: a new file, fsynced, renamed over the old one.
    func rewriteJournal(_ lines: [JournalLine]) throws {
        let data = try Self.encode(lines)
        let temporary = journalPath + ".new"
        _ = unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw systemError("create", temporary) }
        do {
            try Self.writeAll(data, to: fd, path: temporary)
            try faults.hit("journal.rewrite.fsync")
            guard retryingEINTR({ fsync(fd) }) == 0 else { throw systemError("fsync", temporary) }
            close(fd)
        } catch {
            close(fd)
            _ = unlink(temporary)
            throw error
        }
        try files.rename(temporary, journalPath, site: "journal.rewrite.rename")
        try files.sync(root, site: "journal.fsync.root")
    }

    private static func writeAll(_ data: Data, to fd: Int32, path: String) throws {
        try data.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                let n = retryingEINTR { write(fd, bytes.baseAddress! + written, bytes.count - written) }
                guard n > 0 else { throw systemError("write", path) }
                written += n
            }
        }
    }

    /// Empties the journal once the day's snapshot holds all it said (see the type's rules).
    func trimJournal() throws {
        guard files.exists(journalPath) else { return }
        let fd = open(journalPath, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw systemError("open", journalPath) }
        defer { close(fd) }
        try faults.hit("journal.trim")
        guard ftruncate(fd, 0) == 0, retryingEINTR({ fsync(fd) }) == 0 else { throw systemError("trim", journalPath) }
    }

    // MARK: - Reading and replaying

    /// The journal's whole lines, in order (a line cut short by a crash, or not one of cravey's,
    /// is passed over; no journal, no lines). A journal that is there but cannot be read throws:
    /// taken for empty, it would be written over.
    func readJournal() throws -> [JournalLine] {
        let fd = open(journalPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ENOENT { return [] }
            throw systemError("open", journalPath)
        }
        let data = FileHandle(fileDescriptor: fd, closeOnDealloc: true).readDataToEndOfFile()
        let decoder = JSONDecoder()
        return data.split(separator: 0x0A).compactMap { line in
            guard let parsed = try? decoder.decode(JournalLine.self, from: Data(line)),
                Self.journaledTables.contains(where: { $0.kind == parsed.kind })
            else { return nil }
            return parsed
        }
    }

    /// Brings the database's logs and settings up to the journal (a rebuild's last step): each
    /// line, in order, puts its row as it stood or removes it. Links to a recording or craving that
    /// is not there are cleared. Returns how many rows the journal changed.
    func replayJournal() throws -> Int {
        let lines = try readJournal()
        guard !lines.isEmpty else { return 0 }
        return try store.writer.write { db in
            var changed = 0
            for line in lines {
                // A line the database refuses (hand-edited, or from a newer cravey) is passed
                // over: one bad line never keeps the library from opening.
                do {
                    guard let (_, table, key) = Self.journaledTables.first(where: { $0.kind == line.kind }) else {
                        continue
                    }
                    let current = try Self.journaledRow(db, kind: line.kind, id: line.id)
                    guard current != line.row else { continue }
                    changed += 1
                    guard var row = line.row else {
                        try db.execute(sql: "DELETE FROM \(table) WHERE \(key) = ?", arguments: [line.id])
                        continue
                    }
                    let columns = Set(try db.columns(in: table).map(\.name))
                    row = row.filter { columns.contains($0.key) }
                    for (column, target) in [("recordingId", "recording"), ("cravingId", "craving")] {
                        if case .text(let id)? = row[column],
                            try !Bool.fetchOne(
                                db, sql: "SELECT EXISTS (SELECT 1 FROM \(target) WHERE id = ?)", arguments: [id])!
                        {
                            row[column] = .null
                        }
                    }
                    let names = row.keys.sorted()
                    let updates = names.filter { $0 != key }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
                    try db.execute(
                        sql:
                            "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
                            + " ON CONFLICT(\(key)) DO " + (updates.isEmpty ? "NOTHING" : "UPDATE SET \(updates)"),
                        arguments: StatementArguments(names.map { row[$0]!.databaseValue }))
                } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_CONSTRAINT {
                    changed -= 1
                }
            }
            // What the replay and the rebuild changed stays noted: the next append says it as it
            // now stands (a cleared link included), so the journal agrees with the database.
            try faults.hit("journal.replay.commit")
            return changed
        }
    }

    // MARK: - Checking

    /// The logs and settings where the database and what the newest snapshot and the journal
    /// give differ (empty: they agree). Flushes what is noted first.
    func journalDifferences() throws -> [String] {
        try flushJournal()
        var expected: [String: [String: JournalValue]] = [:]
        if let snapshot = snapshots().first(where: isGoodSnapshot) {
            var config = Configuration()
            config.readonly = true
            let queue = try DatabaseQueue(path: snapshot.path, configuration: config)
            try queue.read { db in expected = try Self.journaledRows(db) }
            try queue.close()
        }
        for line in try readJournal() { expected[line.kind + " " + line.id] = line.row }
        let actual = try store.writer.read { db in try Self.journaledRows(db) }
        return Set(expected.keys).union(actual.keys).sorted().filter { expected[$0] != actual[$0] }
    }

    static func journaledRows(_ db: Database) throws -> [String: [String: JournalValue]] {
        var rows: [String: [String: JournalValue]] = [:]
        for (kind, table, key) in journaledTables where try db.tableExists(table) {
            for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table)") {
                var values: [String: JournalValue] = [:]
                for (column, value) in row { values[column] = JournalValue(value) }
                rows[kind + " " + (row[key] as String? ?? "")] = values
            }
        }
        return rows
    }

    /// Writes the journal again from the database: every log and setting as it stands.
    func rebuildJournal() throws {
        let lines = try store.writer.read { db in
            try Self.journaledRows(db).sorted { $0.key < $1.key }.map { entry in
                JournalLine(
                    kind: String(entry.key.prefix { $0 != " " }), id: String(entry.key.drop { $0 != " " }.dropFirst()),
                    row: entry.value)
            }
        }
        try rewriteJournal(lines)
        try store.writer.write { db in try db.execute(sql: "DELETE FROM pendingJournal") }
    }
}
