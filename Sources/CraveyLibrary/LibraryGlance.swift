import FoundationEssentials
import Glibc
import GRDB

/// What a glance from the prompt (`cravey status`) is worked out from, read in one read-only
/// transaction: the first and last days on the logs' own clocks, the days with a use, the first
/// message's time, the cravings and uses from a moment on, and the milestones stored.
public struct GlanceRows: Sendable {
    public struct Craving: Sendable {
        public var ms: Int64
        public var utcOffset: Int
        /// A use names this craving as the one it followed.
        public var linked: Bool
    }

    /// Day numbers (days since 1970-01-01 on the log's own clock).
    public var firstCravingDay: Int?
    public var firstUseDay: Int?
    public var lastUseDay: Int?
    /// Every day with a use, on the use's own clock (in no set order; one may be given twice):
    /// what says the day each "days since your last use" was first reached.
    public var useDays: [Int] = []
    /// When the first message or check-in was added (stored text).
    public var firstRecording: String?
    /// The cravings from `since` on, oldest first.
    public var cravings: [Craving] = []
    /// The times of the uses from `since` on, in milliseconds, oldest first.
    public var useTimes: [Int64] = []
    /// Every milestone stored (none before the schema has them).
    public var milestones: [MilestoneRow] = []
    /// The goal chosen (its stored name), nil when none is.
    public var goal: String?
}

extension Library {
    /// The rows of a glance at the library in `root`, read through one plain read-only connection:
    /// no lock, no recovery, no migration, no file created or changed. nil when there is no
    /// library database there yet (or it is not a regular file).
    ///
    /// A change being committed is waited for (`glanceBusyWait` seconds at most), so a library that
    /// holds logs is never glanced at as empty. A database whose write-ahead log is not there (no
    /// one is writing it: the first writer makes it) is read as an immutable file, since SQLite
    /// would otherwise make the log and its index to read it; should a writer start in that
    /// moment and the read fail, it is read once more the usual way.
    public static func glance(root: String, since: String) throws -> GlanceRows? {
        let path = root + "/library.sqlite"
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return nil }
        var config = Configuration()
        config.readonly = true
        config.foreignKeysEnabled = false
        config.label = "cravey-glance"
        config.busyMode = .timeout(glanceBusyWait)
        func read(_ location: String) throws -> GlanceRows? {
            let queue = try DatabaseQueue(path: location, configuration: config)
            defer { try? queue.close() }
            return try queue.read { db in try glanceRows(db, since: since) }
        }
        var index = stat()
        let companions = ["-wal", "-shm"].allSatisfy { lstat(path + $0, &index) == 0 }
        do {
            // The logs kept while another process held the library count too.
            var (rows, waiting) = try readingWaitingLogs(root: root) { () throws -> GlanceRows? in
                if !companions, let rows = try? read(immutableURI(path)) { return rows }
                return try read(path)
            }
            rows?.add(waiting: waiting, since: since)
            return rows
        } catch let error as DatabaseError {
            throw LibraryError.database(describe(error))
        }
    }

    /// How long a glance waits for a change being committed, in seconds.
    static let glanceBusyWait: TimeInterval = 2

    /// An SQLite URI opening `path` read-only as a file no one changes (no lock, no file made).
    static func immutableURI(_ path: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/-._~".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        for byte in path.utf8 {
            if plain.contains(byte) {
                encoded.append(byte)
            } else {
                encoded += [37, hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return "file:" + String(decoding: encoded, as: UTF8.self) + "?immutable=1"
    }

    private static func glanceRows(_ db: Database, since: String) throws -> GlanceRows? {
        let tables = Set(
            try String.fetchAll(
                db,
                sql:
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('craving', 'milestone', 'setting')"
            ))
        guard tables.contains("craving") else { return nil }  // nothing logged in this schema yet
        var rows = GlanceRows()
        let day = "CAST(floor(julianday(at) - 2440587.5 + utcOffset / 86400.0) AS INTEGER)"
        // A log's day is on its own clock (at most 18 hours from UTC): the first and last days are
        // among the logs within 36 hours of the first and last moments.
        rows.firstCravingDay = try Int.fetchOne(
            db,
            sql: """
                SELECT min(\(day)) FROM craving
                WHERE at <= (SELECT strftime('%Y-%m-%dT%H:%M:%fZ', min(at), '+36 hours') FROM craving)
                """)
        rows.firstUseDay = try Int.fetchOne(
            db,
            sql: """
                SELECT min(\(day)) FROM usage
                WHERE at <= (SELECT strftime('%Y-%m-%dT%H:%M:%fZ', min(at), '+36 hours') FROM usage)
                """)
        rows.lastUseDay = try Int.fetchOne(
            db,
            sql: """
                SELECT max(\(day)) FROM usage
                WHERE at >= (SELECT strftime('%Y-%m-%dT%H:%M:%fZ', max(at), '-36 hours') FROM usage)
                """)
        // A time SQLite cannot read has no day (as min and max above leave it out).
        rows.useDays = try Int.fetchAll(
            db, sql: "SELECT DISTINCT day FROM (SELECT \(day) AS day FROM usage) WHERE day IS NOT NULL")
        rows.firstRecording = try String.fetchOne(db, sql: "SELECT min(createdAt) FROM recording")
        let milliseconds = "CAST(round((julianday(at) - 2440587.5) * 86400000.0) AS INTEGER)"
        rows.cravings = try Row.fetchAll(
            db,
            sql: """
                SELECT \(milliseconds), utcOffset, EXISTS (SELECT 1 FROM usage WHERE usage.cravingId = craving.id)
                FROM craving WHERE at >= ? ORDER BY at
                """, arguments: [since]
        ).map { GlanceRows.Craving(ms: $0[0], utcOffset: $0[1], linked: $0[2]) }
        rows.useTimes = try Int64.fetchAll(
            db, sql: "SELECT \(milliseconds) FROM usage WHERE at >= ? ORDER BY at", arguments: [since])
        if tables.contains("milestone") { rows.milestones = try milestoneRows(db, where: "") }
        if tables.contains("setting") {
            rows.goal = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'goal'")
        }
        return rows
    }
}
