import FoundationEssentials
import Glibc
import GRDB
internal import GRDBSQLite

/// The SQLite side of the library: a private migrator with string-defined tables, queries, and
/// write methods named after what they do. It knows nothing of files; `Library` combines both.
///
/// Durability: every commit is fsynced before it returns (`synchronous = FULL` in WAL mode), so a
/// success reported to the user survives a power cut. The WAL and its index are kept between runs
/// (`SQLITE_FCNTL_PERSIST_WAL`), so opening an existing library creates no file: reading works on a
/// full or read-only disk. Opening runs the migrator only when the schema is behind.
struct Store: Sendable {
    let writer: DatabasePool
    let faults: Faults
    /// False when the database could only be opened read-only (read-only disk or file).
    let writable: Bool

    enum OpenFailure: Error {
        /// The file is an SQLite database of something else.
        case foreign
        /// The file is not a database, or is damaged.
        case corrupt(String)
    }

    /// Opens (creating) the database in WAL mode and brings its schema up to date; falls back to
    /// read-only when it cannot be written.
    ///
    /// `lockToMigrate` takes the library lock (held until opening ends) before the schema is
    /// changed, so that processes opening one library together migrate it once.
    init(path: String, faults: Faults, lockToMigrate: () throws -> Void = {}) throws {
        self.faults = faults
        do {
            (writer, writable) = try Self.openWritableElseReadOnly(path)
            try checkSchema(lockToMigrate: lockToMigrate)
        } catch let error as DatabaseError
            where [SQLITE_NOTADB, SQLITE_CORRUPT].contains(error.resultCode.primaryResultCode.rawValue)
        {
            throw OpenFailure.corrupt(error.message ?? "\(error)")
        }
    }

    private static func openWritableElseReadOnly(_ path: String) throws -> (DatabasePool, Bool) {
        do {
            let pool = try open(path, readonly: false)
            // SQLite opens a file it cannot write (a read-only disk) for reading without a word.
            if try pool.writeWithoutTransaction({ sqlite3_db_readonly($0.sqliteConnection, "main") == 1 }) {
                try pool.close()
                return (try open(path, readonly: true), false)
            }
            // Set on the writer once the pool is open: DatabasePool itself sets NORMAL while it
            // switches to WAL, after `prepareDatabase`.
            try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
            return (pool, true)
        } catch let error as DatabaseError where isReadOnly(error) {
            return (try open(path, readonly: true), false)
        }
    }

    private static func open(_ path: String, readonly: Bool) throws -> DatabasePool {
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.label = "cravey"
        config.readonly = readonly
        config.prepareDatabase { db in
            var keep: CInt = 1
            _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &keep)
        }
        return try DatabasePool(path: path, configuration: config)
    }

    static func isReadOnly(_ error: DatabaseError) -> Bool {
        [SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_IOERR].contains(
            error.resultCode.primaryResultCode.rawValue)
    }

    /// Runs the migrator if the schema is behind (under the library lock, looking again once it
    /// holds it); refuses a database that belongs to something else, and one a newer cravey
    /// migrated past what this one knows.
    private func checkSchema(lockToMigrate: () throws -> Void) throws {
        let migrator = Self.migrator
        let (current, newer) = try writer.read { db in
            (try migrator.hasCompletedMigrations(db), try migrator.hasBeenSuperseded(db))
        }
        if newer {
            throw LibraryError.unsafeLibrary(
                "this library was made by a newer cravey; update cravey to read it (nothing was changed)"
            )
        }
        if current { return }
        let tables = try writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        }
        if !tables.isEmpty && !tables.contains("grdb_migrations") { throw OpenFailure.foreign }
        try lockToMigrate()
        if try writer.read({ try migrator.hasCompletedMigrations($0) }) { return }
        try migrator.migrate(writer)
    }

    // MARK: - Reading

    /// Every column but the waveform, for listings (`Recording(row:)` reads them by name).
    static let listColumns = """
        id, createdAt, kind, title, notes, purpose, duration, filePath, thumbnailPath, playCount,
        lastPlayedAt, modifiedAt, sizeBytes, width, height, fps, sampleRate, channels, avOffset,
        loudness, truePeak, playbackGain, checkinDay, mood, prompt, forTriggers
        """
    /// `listColumns` read from a table aliased `r` (for joins).
    static let listColumnsQualified = listColumns.split(separator: ",")
        .map { "r." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")
    /// Every column, the waveform last.
    private static let allColumns = listColumns + ", waveform"

    /// Which rows a listing covers.
    enum Section {
        case messages, checkIns, all

        var clause: String? {
            switch self {
            case .messages: return "checkinDay IS NULL"
            case .checkIns: return "checkinDay IS NOT NULL"
            case .all: return nil
            }
        }
    }

    func recordings(kind: Recording.Kind? = nil, purpose: Recording.Purpose? = nil, section: Section = .messages) throws
        -> [Recording]
    {
        try writer.read { db in
            var clauses: [String] = section.clause.map { [$0] } ?? []
            var arguments: StatementArguments = []
            if let kind { clauses.append("kind = ?"); arguments += [kind.rawValue] }
            if let purpose { clauses.append("purpose = ?"); arguments += [purpose.rawValue] }
            let filter = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
            // A cursor decodes each row in place, without copying it first.
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(Self.listColumns) FROM recording \(filter) ORDER BY createdAt DESC, id DESC",
                arguments: arguments)
            var result: [Recording] = []
            while let row = try rows.next() { result.append(Recording(row: row)) }
            return result
        }
    }

    /// The most played first; ties by the most recently played, then the newest.
    func top(_ limit: Int) throws -> [Recording] {
        try writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.allColumns) FROM recording WHERE checkinDay IS NULL
                    ORDER BY playCount DESC, lastPlayedAt DESC, createdAt DESC, id DESC LIMIT ?
                    """, arguments: [limit]
            ).map(Recording.init(row:))
        }
    }

    func recording(id: UUID) throws -> Recording? {
        try writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.allColumns) FROM recording WHERE id = ?", arguments: [id.uuidString]
            )
            .map(Recording.init(row:))
        }
    }

    /// Ids that start with `prefix` (already upper-cased, hex digits and dashes only).
    func ids(prefix: String) throws -> [String] {
        try writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT id FROM recording WHERE id >= ? AND id < ? ORDER BY id LIMIT 50",
                arguments: [prefix, prefix + "\u{FFFF}"])
        }
    }

    /// Recordings whose title starts with `prefix`, ignoring case.
    func recordings(titlePrefix prefix: String) throws -> [Recording] {
        try writer.read { db in
            let escaped = prefix.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
            return try Row.fetchAll(
                db,
                sql:
                    "SELECT \(Self.listColumns) FROM recording WHERE title LIKE ? ESCAPE '\\' AND checkinDay IS NULL ORDER BY createdAt DESC LIMIT 50",
                arguments: [escaped + "%"]
            ).map(Recording.init(row:))
        }
    }

    /// Whether the table has no row (without counting them).
    func isEmpty() throws -> Bool {
        try writer.read { db in try !(Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM recording)") ?? false) }
    }

    /// Recordings and logs together: what a purge deletes.
    func storedCount() throws -> Int {
        try writer.read { db in
            try Int.fetchOne(
                db,
                sql:
                    "SELECT (SELECT count(*) FROM recording) + (SELECT count(*) FROM craving) + (SELECT count(*) FROM usage)"
            ) ?? 0
        }
    }

    func count() throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM recording") ?? 0 }
    }

    func messageCount() throws -> Int {
        try writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM recording WHERE checkinDay IS NULL") ?? 0
        }
    }

    /// File and thumbnail paths of every row.
    func allPaths() throws -> [(id: String, file: String, thumbnail: String?)] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT id, filePath, thumbnailPath FROM recording").map {
                (id: $0["id"], file: $0["filePath"], thumbnail: $0["thumbnailPath"])
            }
        }
    }

    /// One row as stored, for `check`: its rowid, the raw values and the lenient reading.
    struct RawRow {
        let rowID: Int64
        let values: [String: DatabaseValue]
        let recording: Recording
        /// The id as stored, made printable.
        var label: String {
            let id = values["id"].flatMap { String.fromDatabaseValue($0) } ?? "(rowid \(rowID))"
            return String(
                id.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) }.prefix(40))
        }
    }

    func rawRows() throws -> [RawRow] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.allColumns), rowid FROM recording").map { row in
                var values: [String: DatabaseValue] = [:]
                for (name, value) in row where name != "rowid" { values[name] = value }
                return RawRow(rowID: row["rowid"], values: values, recording: Recording(row: row))
            }
        }
    }

    func deleteRows(rowIDs: [Int64]) throws {
        guard !rowIDs.isEmpty else { return }
        try writer.write { db in
            for id in rowIDs { try db.execute(sql: "DELETE FROM recording WHERE rowid = ?", arguments: [id]) }
        }
    }

    func rowExists(forPath path: String) throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM recording WHERE filePath = ? OR thumbnailPath = ?)",
                arguments: [path, path]) ?? false
        }
    }

    func pendingSaves() throws -> [String] {
        try writer.read { db in try String.fetchAll(db, sql: "SELECT path FROM pendingSave ORDER BY path") }
    }

    // MARK: - Writing

    /// Notes that `paths` are about to be renamed into the library by a save.
    func notePendingSave(_ paths: [String]) throws {
        try writer.write { db in
            for path in paths {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO pendingSave (path, createdAt) VALUES (?, ?)",
                    arguments: [path, StoredDate.text(Date())])
            }
            try faults.hit("save.commit.pending")
        }
    }

    /// Commits a new recording's row and clears its save intents in the same transaction. When a
    /// day's check-in was begun with this recording (`beginCheckIn`), the row becomes that day's
    /// entry in the same transaction (whoever saves it: the flow, or recovery after a crash).
    /// Returns the row as stored.
    @discardableResult
    func insertRecording(_ recording: Recording) throws -> Recording {
        try writer.write { db in
            var row = recording
            if row.checkIn == nil,
                let pending = try Row.fetchOne(
                    db, sql: "SELECT day, pendingMood, prompt FROM checkinDay WHERE pendingId = ?",
                    arguments: [row.id.uuidString]),
                let mood = (pending["pendingMood"] as String?).flatMap(CheckIn.Mood.init(rawValue:)),
                try
                    !(Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM recording WHERE checkinDay = ? AND checkinFrom = '')",
                        arguments: [pending["day"]]) ?? false)
            {
                row.checkIn = CheckIn(day: pending["day"], mood: mood, prompt: pending["prompt"])
                row.title = "Check-in " + (pending["day"] as String)
            }
            try row.insert(into: db)
            if row.checkIn != nil {
                try db.execute(
                    sql: "UPDATE checkinDay SET pendingId = NULL, pendingMood = NULL WHERE pendingId = ?",
                    arguments: [row.id.uuidString])
            }
            try db.execute(
                sql: "DELETE FROM pendingSave WHERE path IN (?, ?)",
                arguments: [recording.filePath, recording.thumbnailPath])
            try faults.hit("save.commit.row")
            return row
        }
    }

    func forgetPendingSave(_ path: String) throws {
        try writer.write { db in try db.execute(sql: "DELETE FROM pendingSave WHERE path = ?", arguments: [path]) }
    }

    func deleteRecording(id: UUID) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM recording WHERE id = ?", arguments: [id.uuidString])
            try faults.hit("delete.commit")
        }
    }

    /// Delete all data: every recording, log, check-in, setting and transcript, in one transaction.
    func deleteAllData() throws {
        try writer.write { db in
            try db.execute(
                sql: """
                    DELETE FROM usage; DELETE FROM craving; DELETE FROM logSearch;
                    DELETE FROM recording; DELETE FROM pendingSave; DELETE FROM pendingReplace; DELETE FROM checkinDay;
                    DELETE FROM setting; DELETE FROM transcript; DELETE FROM transcriptJob; DELETE FROM recordingSearch;
                    DELETE FROM dayMark;
                    DELETE FROM plan;
                    DELETE FROM withdrawalCheck;
                    DELETE FROM selfScreen;
                    DELETE FROM limitRule;
                    DELETE FROM syncState; DELETE FROM syncField; DELETE FROM syncOutbox; DELETE FROM syncSeen;
                    DELETE FROM syncRecordingWaiting;
                    DELETE FROM recordingPlays;
                    """)
            try faults.hit("purge.commit")
        }
    }

    /// playCount + 1 and lastPlayedAt = `date`, in one statement so concurrent plays all count.
    func recordPlay(id: UUID, at date: Date) throws -> Bool {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE recording SET playCount = playCount + 1, lastPlayedAt = ? WHERE id = ?",
                arguments: [StoredDate.text(date), id.uuidString])
            let counted = db.changesCount == 1
            if counted { try Library.notePlay(db, recordingId: id.uuidString, wall: date) }  // per device
            try faults.hit("play.commit")
            return counted
        }
    }

    func updateDetails(
        id: UUID, title: String, notes: String?, purpose: Recording.Purpose?, forTriggers: [String], at date: Date
    ) throws {
        try writer.write { db in
            try db.execute(
                sql:
                    "UPDATE recording SET title = ?, notes = ?, purpose = ?, forTriggers = ?, modifiedAt = ? WHERE id = ?",
                arguments: [
                    title, notes, purpose?.rawValue, forTriggers.joined(separator: ","), StoredDate.text(date),
                    id.uuidString,
                ])
            try faults.hit("edit.commit")
        }
    }

    func notePendingReplace(_ id: UUID) throws {
        try writer.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO pendingReplace (id, createdAt) VALUES (?, ?)",
                arguments: [id.uuidString, StoredDate.text(Date())])
            try faults.hit("replace.commit.pending")
        }
    }

    func pendingReplaces() throws -> [String] {
        try writer.read { db in try String.fetchAll(db, sql: "SELECT id FROM pendingReplace ORDER BY id") }
    }

    func forgetPendingReplace(_ id: UUID) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM pendingReplace WHERE id = ?", arguments: [id.uuidString])
        }
    }

    /// Commits a recording's new file facts (after its file was replaced) and clears the intent,
    /// in one transaction.
    func replaceMedia(_ recording: Recording) throws {
        try writer.write { db in
            let m = recording.media
            try db.execute(
                sql: """
                    UPDATE recording SET duration = ?, thumbnailPath = ?, modifiedAt = ?, sizeBytes = ?, width = ?,
                      height = ?, fps = ?, sampleRate = ?, channels = ?, waveform = ?, loudness = ?, truePeak = ?,
                      playbackGain = ?
                    WHERE id = ?
                    """,
                arguments: [
                    recording.duration, recording.thumbnailPath, StoredDate.text(recording.modifiedAt), m.sizeBytes,
                    m.width, m.height, m.fps, m.sampleRate, m.channels, Data(m.waveform), m.loudness, m.truePeak,
                    m.playbackGain, recording.id.uuidString,
                ])
            try db.execute(sql: "DELETE FROM pendingReplace WHERE id = ?", arguments: [recording.id.uuidString])
            try faults.hit("replace.commit.row")
        }
    }

    /// Stores a recording's loudness measurement (taken later than its save).
    func setLoudness(_ recording: Recording) throws {
        let m = recording.media
        try writer.write { db in
            try db.execute(
                sql: "UPDATE recording SET loudness = ?, truePeak = ?, playbackGain = ? WHERE id = ?",
                arguments: [m.loudness, m.truePeak, m.playbackGain, recording.id.uuidString])
        }
    }

    func clearThumbnail(id: String) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE recording SET thumbnailPath = NULL WHERE id = ?", arguments: [id])
        }
    }
}
