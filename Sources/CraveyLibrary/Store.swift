import Foundation
import GRDB

/// The SQLite side of the library: a private migrator with string-defined tables, queries, and
/// write methods named after what they do. It knows nothing of files; `Library` combines both.
struct Store: Sendable {
    let writer: DatabasePool
    let faults: Faults

    /// Opens (creating) the database in WAL mode and brings its schema up to date.
    init(path: String, faults: Faults) throws {
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.label = "cravey"
        self.writer = try DatabasePool(path: path, configuration: config)
        self.faults = faults
        try Self.migrator.migrate(writer)
    }

    /// Migrations are written as SQL strings and never change once shipped; add new ones below.
    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: recordings") { db in
            try db.execute(sql: """
                CREATE TABLE recording (
                  id TEXT PRIMARY KEY NOT NULL,
                  createdAt TEXT NOT NULL,
                  kind TEXT NOT NULL CHECK (kind IN ('audio', 'video')),
                  title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 400),
                  notes TEXT,
                  purpose TEXT CHECK (purpose IN ('motivational', 'milestone', 'reflection', 'craving')),
                  duration REAL NOT NULL CHECK (duration > 0 AND duration <= 120),
                  filePath TEXT NOT NULL UNIQUE,
                  thumbnailPath TEXT,
                  playCount INTEGER NOT NULL DEFAULT 0 CHECK (playCount >= 0),
                  lastPlayedAt TEXT,
                  modifiedAt TEXT NOT NULL,
                  sizeBytes INTEGER NOT NULL DEFAULT 0,
                  width INTEGER,
                  height INTEGER,
                  fps REAL,
                  sampleRate INTEGER,
                  channels INTEGER,
                  waveform BLOB,
                  avOffset REAL
                );
                CREATE INDEX recording_newest ON recording(createdAt DESC, id DESC);
                CREATE INDEX recording_kind_newest ON recording(kind, createdAt DESC, id DESC);
                CREATE INDEX recording_purpose_newest ON recording(purpose, createdAt DESC, id DESC);
                CREATE INDEX recording_top ON recording(playCount DESC, lastPlayedAt DESC, createdAt DESC, id DESC);

                -- Intent journal of saves: a file renamed into Recordings/ whose row is not
                -- committed yet. The row's commit deletes the entry in the same transaction.
                CREATE TABLE pendingSave (
                  path TEXT PRIMARY KEY NOT NULL,
                  createdAt TEXT NOT NULL
                );
                """)
        }
        return migrator
    }

    // MARK: - Reading

    /// Every column but the waveform, for listings, in the order `Recording(row:)` reads them.
    private static let listColumns = """
        id, createdAt, kind, title, notes, purpose, duration, filePath, thumbnailPath, playCount,
        lastPlayedAt, modifiedAt, sizeBytes, width, height, fps, sampleRate, channels, avOffset
        """
    /// Every column, the waveform last.
    private static let allColumns = listColumns + ", waveform"

    func recordings(kind: Recording.Kind? = nil, purpose: Recording.Purpose? = nil) throws -> [Recording] {
        try writer.read { db in
            var clauses: [String] = []
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
            try Row.fetchAll(db, sql: """
                SELECT \(Self.allColumns) FROM recording
                ORDER BY playCount DESC, lastPlayedAt DESC, createdAt DESC, id DESC LIMIT ?
                """, arguments: [limit]).map(Recording.init(row:))
        }
    }

    func recording(id: UUID) throws -> Recording? {
        try writer.read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.allColumns) FROM recording WHERE id = ?", arguments: [id.uuidString])
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
                db, sql: "SELECT \(Self.listColumns) FROM recording WHERE title LIKE ? ESCAPE '\\' ORDER BY createdAt DESC LIMIT 50",
                arguments: [escaped + "%"]
            ).map(Recording.init(row:))
        }
    }

    func count() throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM recording") ?? 0 }
    }

    /// File and thumbnail paths of every row.
    func allPaths() throws -> [(id: String, file: String, thumbnail: String?)] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT id, filePath, thumbnailPath FROM recording").map {
                (id: $0["id"], file: $0["filePath"], thumbnail: $0["thumbnailPath"])
            }
        }
    }

    func rowExists(forPath path: String) throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM recording WHERE filePath = ? OR thumbnailPath = ?)",
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
                try db.execute(sql: "INSERT OR REPLACE INTO pendingSave (path, createdAt) VALUES (?, ?)",
                               arguments: [path, StoredDate.text(Date())])
            }
            try faults.hit("save.commit.pending")
        }
    }

    /// Commits a new recording's row and clears its save intents in the same transaction.
    func insertRecording(_ recording: Recording) throws {
        try writer.write { db in
            try recording.insert(into: db)
            try db.execute(sql: "DELETE FROM pendingSave WHERE path IN (?, ?)",
                           arguments: [recording.filePath, recording.thumbnailPath])
            try faults.hit("save.commit.row")
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

    func deleteRecordings(ids: [String]) throws {
        try writer.write { db in
            for id in ids { try db.execute(sql: "DELETE FROM recording WHERE id = ?", arguments: [id]) }
        }
    }

    func deleteAllRecordings() throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM recording; DELETE FROM pendingSave;")
            try faults.hit("purge.commit")
        }
    }

    /// playCount + 1 and lastPlayedAt = `date`, in one statement so concurrent plays all count.
    func recordPlay(id: UUID, at date: Date) throws -> Bool {
        try writer.write { db in
            try db.execute(sql: "UPDATE recording SET playCount = playCount + 1, lastPlayedAt = ? WHERE id = ?",
                           arguments: [StoredDate.text(date), id.uuidString])
            try faults.hit("play.commit")
            return db.changesCount == 1
        }
    }

    func updateDetails(id: UUID, title: String, notes: String?, purpose: Recording.Purpose?, at date: Date) throws {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE recording SET title = ?, notes = ?, purpose = ?, modifiedAt = ? WHERE id = ?",
                arguments: [title, notes, purpose?.rawValue, StoredDate.text(date), id.uuidString])
            try faults.hit("edit.commit")
        }
    }

    func clearThumbnail(id: String) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE recording SET thumbnailPath = NULL WHERE id = ?", arguments: [id])
        }
    }
}

extension Recording {
    /// Reads a row of `Store.listColumns` (and the waveform, if selected), by position for speed.
    init(row: Row) {
        func date(_ index: Int) -> Date? { (row[index] as String?).flatMap(StoredDate.date) }
        let id: String = row[0]
        let kind: String = row[2]
        let purpose: String? = row[5]
        let waveform: Data? = row.count > 19 ? row[19] : nil
        self.init(
            id: UUID(uuidString: id) ?? UUID(uuid: UUID_NULL_BYTES),
            createdAt: date(1) ?? Date(millisecondsSince1970: 0),
            kind: Kind(rawValue: kind) ?? .audio,
            title: row[3],
            notes: row[4],
            purpose: purpose.flatMap(Purpose.init(rawValue:)),
            duration: row[6],
            filePath: row[7],
            thumbnailPath: row[8],
            playCount: row[9],
            lastPlayedAt: date(10),
            modifiedAt: date(11) ?? Date(millisecondsSince1970: 0),
            media: MediaFacts(
                sizeBytes: row[12], width: row[13], height: row[14], fps: row[15],
                sampleRate: row[16], channels: row[17], waveform: waveform.map { [UInt8]($0) } ?? [],
                avOffset: row[18]))
    }

    func insert(into db: Database) throws {
        try db.execute(sql: """
            INSERT INTO recording (id, createdAt, kind, title, notes, purpose, duration, filePath,
              thumbnailPath, playCount, lastPlayedAt, modifiedAt, sizeBytes, width, height, fps,
              sampleRate, channels, waveform, avOffset)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [
                id.uuidString, StoredDate.text(createdAt), kind.rawValue, title, notes, purpose?.rawValue, duration,
                filePath, thumbnailPath, playCount, lastPlayedAt.map(StoredDate.text), StoredDate.text(modifiedAt),
                media.sizeBytes, media.width, media.height,
                media.fps, media.sampleRate, media.channels, Data(media.waveform), media.avOffset,
            ])
    }
}

private let UUID_NULL_BYTES: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
