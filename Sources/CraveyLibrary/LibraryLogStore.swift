import FoundationEssentials
import Glibc
import GRDB

// The craving and use logs' storage: every statement over the `craving`, `usage` and `logSearch`
// tables lives here, beside the schema. The tracker (a floor up) holds the rules and the words
// and deals only in the plain values below.

/// A craving's row as stored, each column read as the type it should hold (nil for NULL).
package struct CravingRow: Sendable, Equatable {
    package var id: String?
    package var at: String?
    package var utcOffset: Int?
    package var intensity: Int?
    package var triggers: String?
    package var location: String?
    package var notes: String?
    package var recordingId: String?
    package var createdAt: String?
    package var modifiedAt: String?
    /// A ride's ratings as JSON `[[seconds after `at`, 1-10], …]`; nil for a craving not ridden.
    package var ratings: String?
    /// Every recording played during the craving, in order, separated by commas ("" for none).
    package var played: String?

    package init(
        id: String?, at: String?, utcOffset: Int?, intensity: Int?, triggers: String?, location: String?,
        notes: String?, recordingId: String?, createdAt: String?, modifiedAt: String?, ratings: String? = nil,
        played: String? = nil
    ) {
        (self.id, self.at, self.utcOffset, self.intensity, self.triggers) = (id, at, utcOffset, intensity, triggers)
        (self.location, self.notes, self.recordingId, self.createdAt, self.modifiedAt) = (
            location, notes, recordingId, createdAt, modifiedAt
        )
        (self.ratings, self.played) = (ratings, played)
    }

    static let columns =
        "id, at, utcOffset, intensity, triggers, location, notes, recordingId, createdAt, modifiedAt, ratings, played"

    init(row: Row) {
        self.init(
            id: row["id"], at: row["at"], utcOffset: row["utcOffset"], intensity: row["intensity"],
            triggers: row["triggers"],
            location: row["location"], notes: row["notes"], recordingId: row["recordingId"],
            createdAt: row["createdAt"], modifiedAt: row["modifiedAt"], ratings: row["ratings"], played: row["played"])
    }
}

/// A use's row as stored, each column read as the type it should hold (nil for NULL).
package struct UseRow: Sendable, Equatable {
    package var id: String?
    package var at: String?
    package var utcOffset: Int?
    package var method: String?
    package var amount: Double?
    package var triggers: String?
    package var location: String?
    package var notes: String?
    package var moodAfter: Int?
    package var cravingId: String?
    package var createdAt: String?
    package var modifiedAt: String?

    package init(
        id: String?, at: String?, utcOffset: Int?, method: String?, amount: Double?, triggers: String?,
        location: String?,
        notes: String?, moodAfter: Int?, cravingId: String?, createdAt: String?, modifiedAt: String?
    ) {
        (self.id, self.at, self.utcOffset, self.method, self.amount, self.triggers) = (
            id, at, utcOffset, method, amount, triggers
        )
        (self.location, self.notes, self.moodAfter, self.cravingId) = (location, notes, moodAfter, cravingId)
        (self.createdAt, self.modifiedAt) = (createdAt, modifiedAt)
    }

    static let columns =
        "id, at, utcOffset, method, amount, triggers, location, notes, moodAfter, cravingId, createdAt, modifiedAt"

    init(row: Row) {
        self.init(
            id: row["id"], at: row["at"], utcOffset: row["utcOffset"], method: row["method"], amount: row["amount"],
            triggers: row["triggers"], location: row["location"], notes: row["notes"], moodAfter: row["moodAfter"],
            cravingId: row["cravingId"], createdAt: row["createdAt"], modifiedAt: row["modifiedAt"])
    }
}

/// One log's row of either kind.
package enum LogRow: Sendable, Equatable {
    case craving(CravingRow)
    case use(UseRow)
}

/// What a log's id (or the start of one) finds.
package enum LogRowMatch: Sendable {
    case none
    /// More than one log: each one's kind ("craving" or "use") and id (at most six).
    case several([(kind: String, id: String)])
    case one(LogRow)
}

/// A value as SQLite stores it, for rows read as they are (`check` holds them to the rules).
package enum StoredValue: Sendable, Equatable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case let .int64(number): self = .integer(number)
        case let .double(number): self = .real(number)
        case let .string(text): self = .text(text)
        case let .blob(data): self = .blob(data)
        }
    }

    /// The value as text: text, or a blob that is UTF-8 (as SQLite reads one); nil for the rest.
    package var string: String? {
        switch self {
        case let .text(text): text
        case let .blob(data): String(data: data, encoding: .utf8)
        default: nil
        }
    }

    package var isNull: Bool { self == .null }

    /// As SQLite would show it: numbers bare, text quoted, NULL.
    package var description: String {
        switch self {
        case .null: "NULL"
        case let .integer(number): String(number)
        case let .real(number): String(number)
        case let .text(text): String(reflecting: text)
        case let .blob(data): "Data(\(data.description))"
        }
    }
}

/// A row read as stored, by column name (a column it does not have reads as NULL).
package struct StoredRow: Sendable {
    var values: [String: StoredValue]

    init(_ row: Row) {
        values = Dictionary(row.map { ($0.0, StoredValue($0.1)) }, uniquingKeysWith: { first, _ in first })
    }

    package subscript(_ column: String) -> StoredValue { values[column] ?? .null }
}

/// Every log as stored and every link that points nowhere, for `check`.
package struct LogCheckRows: Sendable {
    /// Each with its `rowid` (a row need not have a usable id).
    package var cravings: [StoredRow] = []
    package var uses: [StoredRow] = []
    /// Cravings naming a recording that is not there: `id` and `target`.
    package var missingRecordings: [StoredRow] = []
    /// Uses naming a craving that is not there: `id` and `target`.
    package var missingCravings: [StoredRow] = []
    /// Notes in the search over the logs, and logs with notes.
    package var indexedNotes = 0
    package var logsWithNotes = 0
}

/// A craving as progress reads it: numbers worked out by SQLite.
package struct ProgressCravingRow {
    package var ms: Int64
    package var utcOffset: Int
    package var intensity: Int
    package var triggers: String?
    /// The index of the location in the names asked about, -1 for none or another.
    package var location: Int
    /// A use names this craving as the one it followed.
    package var linked: Bool
}

/// A use as progress reads it: numbers worked out by SQLite.
package struct ProgressUseRow {
    package var ms: Int64
    package var utcOffset: Int
    /// The index of the method in the names asked about, -1 for another.
    package var method: Int
    package var amount: Double?
    package var triggers: String?
    package var location: Int
}

/// What the logs' store refuses inside a change (nothing is written); the tracker words it.
package enum LogStoreRefusal: Error, Equatable {
    /// The recording a craving names is not there.
    case noRecording(String)
    /// The craving a use names is not there.
    case noCraving(String)
    /// No log has this id.
    case notFound(String)
    /// The craving has uses that followed it, and nothing was said of them.
    case linkedUses(craving: String, count: Int)
}

extension Library {
    // MARK: - Writing

    /// Stores a new craving (its recording, if it names one, must be there). While another
    /// process holds the library it is kept in `logs.waiting`, durably, and written later.
    package func insertCraving(_ craving: CravingRow) throws {
        try insertLog(
            "craving", table: "craving", columns: CravingRow.columns,
            [
                craving.id, craving.at, craving.utcOffset, craving.intensity, craving.triggers, craving.location,
                craving.notes, craving.recordingId, craving.createdAt, craving.modifiedAt, craving.ratings,
                craving.played ?? craving.recordingId ?? "",
            ]
        ) { db in try Self.requireRecording(craving.recordingId, db) }
    }

    /// Stores a new use (its craving, if it names one, must be there). While another process
    /// holds the library it is kept in `logs.waiting`, durably, and written later.
    package func insertUse(_ use: UseRow) throws {
        try insertLog(
            "use", table: "usage", columns: UseRow.columns,
            [
                use.id, use.at, use.utcOffset, use.method, use.amount, use.triggers, use.location, use.notes,
                use.moodAfter, use.cravingId, use.createdAt, use.modifiedAt,
            ]
        ) { db in try Self.requireCraving(use.cravingId, db) }
    }

    /// Stores a new log of `kind` ("craving" or "use") as a row of `table`, once `requiring`
    /// (what the row names must be there) holds; kept in `logs.waiting` while another process
    /// holds the library.
    private func insertLog(
        _ kind: String, table: String, columns: String, _ values: [DatabaseValueConvertible?],
        requiring: (Database) throws -> Void
    ) throws {
        try keepWaiting(WaitingLine(kind: kind, row: Self.waitingRow(columns, values)), checking: requiring) {
            try writeLogs(step: "log.\(kind)", lockWait: Self.logLockWait) { db in
                try requiring(db)
                try db.execute(
                    sql:
                        "INSERT INTO \(table) (\(columns)) VALUES (\(values.map { _ in "?" }.joined(separator: ", ")))",
                    arguments: StatementArguments(values))
            }
        }
    }

    /// Keeps which recording was played during a craving: the first one played stays its
    /// `recordingId`; every one is added once to `played`, in order. While another process holds
    /// the library it is kept in `logs.waiting` (the craving may be waiting there too).
    package func notePlayed(_ recordingId: String, duringCraving cravingId: String) throws {
        try keepWaiting(
            WaitingLine(kind: "played", recording: recordingId, craving: cravingId),
            checking: { db in try Self.requireRecording(recordingId, db) }
        ) {
            try writeLogs(step: "log.played", lockWait: Self.logLockWait) { db in
                try Self.requireRecording(recordingId, db)
                try db.execute(sql: Self.playedSQL, arguments: [recordingId, cravingId])
                guard db.changesCount == 1 else { throw LogStoreRefusal.notFound(cravingId) }
            }
        }
    }

    /// Stores a ride's ratings so far (JSON `[[seconds after the craving's time, 1-10], …]`),
    /// journaled and fsynced before it returns, so a kill or a power cut after it loses none.
    package func noteRatings(_ ratings: String, ofCraving cravingId: String) throws {
        try writeLogs(step: "log.ratings") { db in
            try db.execute(sql: "UPDATE craving SET ratings = ? WHERE id = ?", arguments: [ratings, cravingId])
            guard db.changesCount == 1 else { throw LogStoreRefusal.notFound(cravingId) }
        }
    }

    /// Stores a craving's new values (its id and creation time stay); a ride's first rating, its
    /// logged intensity, follows the intensity (the ratings after it stay as they were given).
    package func updateCraving(_ craving: CravingRow) throws {
        try writeLogs(step: "log.edit") { db in
            try Self.requireRecording(craving.recordingId, db)
            try db.execute(
                sql: """
                    UPDATE craving SET at = ?, utcOffset = ?, intensity = ?, triggers = ?, location = ?, notes = ?, recordingId = ?, modifiedAt = ?,
                      ratings = CASE WHEN ratings IS NULL THEN NULL ELSE json_replace(ratings, '$[0][1]', ?) END
                    WHERE id = ?
                    """,
                arguments: [
                    craving.at, craving.utcOffset, craving.intensity, craving.triggers, craving.location, craving.notes,
                    craving.recordingId, craving.modifiedAt, craving.intensity, craving.id,
                ])
            guard db.changesCount == 1 else { throw LogStoreRefusal.notFound(craving.id ?? "") }
        }
    }

    /// Stores a use's new values (its id and creation time stay).
    package func updateUse(_ use: UseRow) throws {
        try writeLogs(step: "log.edit") { db in
            try Self.requireCraving(use.cravingId, db)
            try db.execute(
                sql: """
                    UPDATE usage SET at = ?, utcOffset = ?, method = ?, amount = ?, triggers = ?, location = ?, notes = ?, moodAfter = ?,
                      cravingId = ?, modifiedAt = ?
                    WHERE id = ?
                    """,
                arguments: [
                    use.at, use.utcOffset, use.method, use.amount, use.triggers, use.location, use.notes, use.moodAfter,
                    use.cravingId, use.modifiedAt, use.id,
                ])
            guard db.changesCount == 1 else { throw LogStoreRefusal.notFound(use.id ?? "") }
        }
    }

    /// Deletes a craving; the uses that followed it are deleted with it (`true`), kept unlinked
    /// (`false`), or, when nothing is said (nil) and there are some, the delete is refused.
    /// Returns how many uses were deleted with it.
    package func deleteCraving(id: String, withLinkedUses deleteUses: Bool?) throws -> Int {
        try writeLogs(step: "log.delete") { db in
            let uses = try String.fetchAll(db, sql: "SELECT id FROM usage WHERE cravingId = ?", arguments: [id])
            if !uses.isEmpty && deleteUses == nil { throw LogStoreRefusal.linkedUses(craving: id, count: uses.count) }
            if deleteUses == true { try db.execute(sql: "DELETE FROM usage WHERE cravingId = ?", arguments: [id]) }
            // Kept uses lose the link (also by the schema's ON DELETE SET NULL, said here so it does
            // not depend on foreign keys being enforced).
            try db.execute(sql: "UPDATE usage SET cravingId = NULL WHERE cravingId = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM craving WHERE id = ?", arguments: [id])
            guard db.changesCount == 1 else { throw LogStoreRefusal.notFound(id) }
            try Self.forgetWaitingLinks(of: "craving", id, db)  // SyncLinks.swift
            return deleteUses == true ? uses.count : 0
        }
    }

    /// Deletes a use; the craving it followed is not changed.
    package func deleteUse(id: String) throws {
        try writeLogs(step: "log.delete") { db in
            try db.execute(sql: "DELETE FROM usage WHERE id = ?", arguments: [id])
            guard db.changesCount == 1 else { throw LogStoreRefusal.notFound(id) }
        }
    }

    private static func requireRecording(_ id: String?, _ db: Database) throws {
        guard let id else { return }
        guard
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM recording WHERE id = ?)", arguments: [id]) == true
        else {
            throw LogStoreRefusal.noRecording(id)
        }
    }

    private static func requireCraving(_ id: String?, _ db: Database) throws {
        guard let id else { return }
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM craving WHERE id = ?)", arguments: [id]) == true
        else {
            throw LogStoreRefusal.noCraving(id)
        }
    }

    // MARK: - Reading

    /// The logs of the kinds asked for at or after `since` (stored time text; "" for all), each
    /// kind newest first, from one snapshot, with those still waiting in `logs.waiting`.
    package func logRows(cravings: Bool, uses: Bool, since: String) throws -> (cravings: [CravingRow], uses: [UseRow]) {
        var (found, waiting) = try Self.readingWaitingLogs(root: root) {
            try storedLogRows(cravings: cravings, uses: uses, since: since)
        }
        let stored = Set(found.cravings.compactMap(\.id) + found.uses.compactMap(\.id))
        for line in waiting {
            guard let row = line.row, let id = row["id"]?.text, !stored.contains(id),
                (row["at"]?.text ?? "") >= since
            else { continue }
            if line.kind == "craving", cravings { found.cravings.append(CravingRow(row: Self.row(waiting: row))) }
            if line.kind == "use", uses { found.uses.append(UseRow(row: Self.row(waiting: row))) }
        }
        if !waiting.isEmpty {
            found.cravings.sort { ($0.at ?? "", $0.id ?? "") > ($1.at ?? "", $1.id ?? "") }
            found.uses.sort { ($0.at ?? "", $0.id ?? "") > ($1.at ?? "", $1.id ?? "") }
        }
        return found
    }

    /// The logs of the kinds asked for at or after `since`, newest first (by stored time, then
    /// id), handed to `body` one at a time from one snapshot: memory stays flat in their number
    /// (`log --json` of ten years). False, with nothing handed, while logs wait in `logs.waiting`
    /// (the database was held when they were logged): `logRows` puts those among them.
    package func forEachLogRow(cravings: Bool, uses: Bool, since: String, _ body: (LogRow) throws -> Void) throws
        -> Bool
    {
        var info = stat()
        if lstat(root + "/" + FileStore.waitingLogsFile, &info) == 0, info.st_size > 0 { return false }
        try readLogs { db in
            let cravingRows =
                cravings
                ? try Row.fetchCursor(
                    db, sql: "SELECT \(CravingRow.columns) FROM craving WHERE at >= ? ORDER BY at DESC, id DESC",
                    arguments: [since]) : nil
            let useRows =
                uses
                ? try Row.fetchCursor(
                    db, sql: "SELECT \(UseRow.columns) FROM usage WHERE at >= ? ORDER BY at DESC, id DESC",
                    arguments: [since]) : nil
            var craving = try cravingRows?.next().map(CravingRow.init(row:))
            var use = try useRows?.next().map(UseRow.init(row:))
            while craving != nil || use != nil {
                if let next = craving, use.map({ (next.at ?? "", next.id ?? "") > ($0.at ?? "", $0.id ?? "") }) ?? true
                {
                    try body(.craving(next))
                    craving = try cravingRows?.next().map(CravingRow.init(row:))
                } else if let next = use {
                    try body(.use(next))
                    use = try useRows?.next().map(UseRow.init(row:))
                }
            }
        }
        return true
    }

    private func storedLogRows(cravings: Bool, uses: Bool, since: String) throws -> (
        cravings: [CravingRow], uses: [UseRow]
    ) {
        try readLogs { db in
            var found: (cravings: [CravingRow], uses: [UseRow]) = ([], [])
            if cravings {
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT \(CravingRow.columns) FROM craving WHERE at >= ? ORDER BY at DESC, id DESC",
                    arguments: [since])
                while let row = try rows.next() { found.cravings.append(CravingRow(row: row)) }
            }
            if uses {
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT \(UseRow.columns) FROM usage WHERE at >= ? ORDER BY at DESC, id DESC",
                    arguments: [since])
                while let row = try rows.next() { found.uses.append(UseRow(row: row)) }
            }
            return found
        }
    }

    /// The log whose id is `prefix` or starts with it (`prefix` in upper case, as ids are stored).
    package func logRow(idStartingWith prefix: String) throws -> LogRowMatch {
        try readLogs { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT 'craving' AS kind, id FROM craving WHERE id >= ? AND id < ? || 'Z'
                    UNION ALL SELECT 'use', id FROM usage WHERE id >= ? AND id < ? || 'Z' LIMIT 6
                    """, arguments: [prefix, prefix, prefix, prefix])
            guard rows.count <= 1 else { return .several(rows.map { (kind: $0["kind"], id: $0["id"]) }) }
            guard let row = rows.first else { return .none }
            return .one(try Self.logRow(kind: row["kind"], id: row["id"], db)!)
        }
    }

    /// The log of this kind ("craving" or "use") and id, if it is there.
    private static func logRow(kind: String, id: String, _ db: Database) throws -> LogRow? {
        kind == "craving"
            ? try Row.fetchOne(db, sql: "SELECT \(CravingRow.columns) FROM craving WHERE id = ?", arguments: [id]).map {
                .craving(CravingRow(row: $0))
            }
            : try Row.fetchOne(db, sql: "SELECT \(UseRow.columns) FROM usage WHERE id = ?", arguments: [id]).map {
                .use(UseRow(row: $0))
            }
    }

    /// The uses that name this craving as the one they followed, oldest first.
    package func useRows(followingCraving cravingId: String) throws -> [UseRow] {
        try readLogs { db in
            try Row.fetchAll(
                db, sql: "SELECT \(UseRow.columns) FROM usage WHERE cravingId = ? ORDER BY at", arguments: [cravingId]
            ).map(UseRow.init(row:))
        }
    }

    /// The latest craving at or before `time` (stored time text).
    package func lastCravingRow(atOrBefore time: String) throws -> CravingRow? {
        try readLogs { db in
            try Row.fetchOne(
                db, sql: "SELECT \(CravingRow.columns) FROM craving WHERE at <= ? ORDER BY at DESC, id DESC LIMIT 1",
                arguments: [time]
            ).map(CravingRow.init(row:))
        }
    }

    /// The latest craving from `earliest` to `latest` (stored time texts) that no use follows.
    package func unlinkedCravingRow(from earliest: String, to latest: String) throws -> CravingRow? {
        try readLogs { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT \(CravingRow.columns) FROM craving c
                    WHERE at <= ? AND at >= ? AND NOT EXISTS (SELECT 1 FROM usage u WHERE u.cravingId = c.id)
                    ORDER BY at DESC, id DESC LIMIT 1
                    """, arguments: [latest, earliest]
            ).map(CravingRow.init(row:))
        }
    }

    /// How many logs there are of each kind.
    package func logCounts() throws -> (cravings: Int, uses: Int) {
        try readLogs { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM craving") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM usage") ?? 0
            )
        }
    }

    /// The logs whose notes match `ftsQuery` (at most `limit`), each with a snippet of its notes
    /// marked by `SearchHit`'s marks.
    package func logSearch(_ ftsQuery: String, limit: Int) throws -> [(log: LogRow, marked: String?)] {
        let marks = (String(SearchHit.markStart), String(SearchHit.markEnd))
        return try readLogs { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT kind, logId, snippet(logSearch, 0, ?, ?, '…', 16) AS marked FROM logSearch WHERE logSearch MATCH ? LIMIT ?
                    """, arguments: [marks.0, marks.1, ftsQuery, limit])
            return try rows.compactMap { row in
                try Self.logRow(kind: row["kind"], id: row["logId"], db).map { (log: $0, marked: row["marked"]) }
            }
        }
    }

    /// What progress is figured from, from one snapshot: every use, oldest first, and the
    /// cravings at or after `since` (stored time text; "" for all), oldest first, each handed to
    /// `craving` and `use` as read (ten years of logs read in milliseconds), with those still
    /// waiting in `logs.waiting` among them. Places and methods come as their index in
    /// `locations` and `methods`. Returns the day (days since 1970 on the log's own clock) of the
    /// first craving and when the first recording was added.
    package func progressRows(
        cravingsSince since: String, locations: [String], methods: [String],
        craving: (ProgressCravingRow) -> Void, use: (ProgressUseRow) -> Void
    ) throws -> (firstCravingDay: Int?, firstRecording: String?) {
        // Logs waiting to be written are put in their place among the stored ones: those are
        // then gathered first (a library whose writer is busy), not handed on as read.
        var gathered = WaitingMerge()
        let merging = hasWaitingLogs
        var (firsts, waiting) = try Self.readingWaitingLogs(root: root) {
            try storedProgressRows(
                since: since, locations: locations, methods: methods,
                craving: { id, row in
                    guard merging else { return craving(row) }
                    gathered.stored.insert(id)
                    gathered.cravings.append((id, row))
                },
                use: { id, row in
                    guard merging else { return use(row) }
                    gathered.stored.insert(id)
                    gathered.uses.append(row)
                })
        }
        guard merging else { return firsts }
        waiting.removeAll { line in
            guard let id = line.row?["id"]?.text else { return true }
            return gathered.stored.contains(id)
        }
        for line in waiting {
            guard let row = line.row, let at = row["at"]?.text, let time = StoredDate.date(at) else { continue }
            let ms = Int64((time.timeIntervalSince1970 * 1000).rounded())
            let offset = row["utcOffset"]?.integer ?? 0
            let place = row["location"]?.text.flatMap { locations.firstIndex(of: $0) } ?? -1
            let triggers = row["triggers"]?.text.flatMap { $0.isEmpty ? nil : $0 }
            if line.kind == "craving" {
                let day = Int(((Double(ms) / 1000 + Double(offset)) / 86400).rounded(.down))
                firsts.firstCravingDay = min(firsts.firstCravingDay ?? day, day)
                guard at >= since else { continue }
                gathered.cravings.append(
                    (
                        row["id"]?.text,
                        ProgressCravingRow(
                            ms: ms, utcOffset: offset, intensity: row["intensity"]?.integer ?? 5, triggers: triggers,
                            location: place, linked: false)
                    ))
            } else {
                gathered.linked.formUnion([row["cravingId"]?.text].compactMap { $0 })
                gathered.uses.append(
                    ProgressUseRow(
                        ms: ms, utcOffset: offset,
                        method: row["method"]?.text.flatMap { methods.firstIndex(of: $0) } ?? -1,
                        amount: row["amount"].flatMap(\.number), triggers: triggers, location: place))
            }
        }
        for (id, var row) in gathered.cravings.sorted(by: { $0.1.ms < $1.1.ms }) {
            row.linked = row.linked || id.map(gathered.linked.contains) == true
            craving(row)
        }
        gathered.uses.sorted { $0.ms < $1.ms }.forEach(use)
        return firsts
    }

    /// The stored logs of `progressRows`, gathered when logs wait to be put among them.
    private struct WaitingMerge {
        var cravings: [(String?, ProgressCravingRow)] = []
        var uses: [ProgressUseRow] = []
        /// The cravings a use names as the one it followed.
        var linked: Set<String> = []
        /// The ids stored already: a waiting line whose log is there is not counted twice.
        var stored: Set<String> = []
    }

    private func storedProgressRows(
        since: String, locations: [String], methods: [String],
        craving: (String, ProgressCravingRow) -> Void, use: (String, ProgressUseRow) -> Void
    ) throws -> (firstCravingDay: Int?, firstRecording: String?) {
        try readLogs { db in
            let milliseconds = "CAST(round((julianday(at) - 2440587.5) * 86400000.0) AS INTEGER)"
            let linked = Set(
                try Int64.fetchAll(
                    db, sql: "SELECT craving.rowid FROM usage JOIN craving ON craving.id = usage.cravingId"))
            let cravings = try Row.fetchCursor(
                db,
                sql: """
                    SELECT rowid, \(milliseconds), utcOffset, intensity, nullif(triggers, ''), \(Self.index("location", locations)), id
                    FROM craving WHERE at >= ? ORDER BY at
                    """, arguments: [since])
            while let row = try cravings.next() {
                craving(
                    row[6],
                    ProgressCravingRow(
                        ms: row[1], utcOffset: row[2], intensity: row[3], triggers: row[4], location: row[5],
                        linked: linked.contains(row[0])))
            }
            // The first day of logging is the earliest on any log's own clock.
            let firstCravingDay = try Int.fetchOne(
                db,
                sql: """
                    SELECT min(CAST(floor(julianday(at) - 2440587.5 + utcOffset / 86400.0) AS INTEGER)) FROM craving
                    WHERE at <= (SELECT strftime('%Y-%m-%dT%H:%M:%fZ', min(at), '+36 hours') FROM craving)
                    """)
            let uses = try Row.fetchCursor(
                db,
                sql: """
                    SELECT \(milliseconds), utcOffset, \(Self.index("method", methods)), amount, nullif(triggers, ''), \(Self.index("location", locations)), id
                    FROM usage ORDER BY at
                    """)
            while let row = try uses.next() {
                use(
                    row[6],
                    ProgressUseRow(
                        ms: row[0], utcOffset: row[1], method: row[2], amount: row[3], triggers: row[4],
                        location: row[5]))
            }
            return (firstCravingDay, try String.fetchOne(db, sql: "SELECT min(createdAt) FROM recording"))
        }
    }

    /// A column's value as its index in `values` (-1 for none or another).
    private static func index(_ column: String, _ values: [String]) -> String {
        "CASE \(column) " + values.enumerated().map { "WHEN '\($0.element)' THEN \($0.offset)" }.joined(separator: " ")
            + " ELSE -1 END"
    }

    // MARK: - Check

    /// Every log as stored and every link that points nowhere; with `repair` (in one change,
    /// under the lock) the links are cleared and, when it is out of step with the notes, the
    /// search over them rebuilt. A plain check only reads, on a read-only disk too.
    package func logCheckRows(repair: Bool) throws -> LogCheckRows {
        var found = LogCheckRows()
        let inspect = { (db: Database) throws in
            (found.cravings, found.uses) = try Self.storedLogRows(db)
            let dangling = [
                (
                    "craving", "recordingId", "recording",
                    "SELECT id, recordingId AS target FROM craving WHERE recordingId IS NOT NULL AND recordingId NOT IN (SELECT id FROM recording)"
                ),
                (
                    "usage", "cravingId", "craving",
                    "SELECT id, cravingId AS target FROM usage WHERE cravingId IS NOT NULL AND cravingId NOT IN (SELECT id FROM craving)"
                ),
            ]
            for (table, column, target, sql) in dangling {
                let rows = try Row.fetchAll(db, sql: sql).map(StoredRow.init)
                if table == "craving" { found.missingRecordings = rows } else { found.missingCravings = rows }
                if repair {
                    try db.execute(
                        sql:
                            "UPDATE \(table) SET \(column) = NULL WHERE \(column) IS NOT NULL AND \(column) NOT IN (SELECT id FROM \(target))"
                    )
                }
            }
            found.indexedNotes = try Int.fetchOne(db, sql: "SELECT count(*) FROM logSearch") ?? 0
            found.logsWithNotes =
                try Int.fetchOne(
                    db,
                    sql:
                        "SELECT (SELECT count(*) FROM craving WHERE notes IS NOT NULL) + (SELECT count(*) FROM usage WHERE notes IS NOT NULL)"
                ) ?? 0
            if repair && found.indexedNotes != found.logsWithNotes {
                try db.execute(
                    sql: """
                        DELETE FROM logSearch;
                        INSERT INTO logSearch (rowid, notes, kind, logId)
                          SELECT rowid * 2, notes, 'craving', id FROM craving WHERE notes IS NOT NULL;
                        INSERT INTO logSearch (rowid, notes, kind, logId)
                          SELECT rowid * 2 + 1, notes, 'use', id FROM usage WHERE notes IS NOT NULL;
                        """)
            }
        }
        if repair { try writeLogs(step: "log.check", inspect) } else { try readLogs(inspect) }
        return found
    }

    /// The logs of another cravey database (a backup's, before it is restored), read only and as
    /// stored, each with its `rowid`.
    package static func logRows(inDatabaseAt path: String) throws -> (cravings: [StoredRow], uses: [StoredRow]) {
        var config = Configuration()
        config.readonly = true
        config.label = "cravey backup check"
        let queue = try DatabaseQueue(path: path, configuration: config)
        defer { try? queue.close() }
        return try queue.read { db in try storedLogRows(db) }
    }

    /// Every craving and use row as stored, with its `rowid`.
    private static func storedLogRows(_ db: Database) throws -> (cravings: [StoredRow], uses: [StoredRow]) {
        (
            try Row.fetchAll(db, sql: "SELECT rowid AS rowid, * FROM craving").map(StoredRow.init),
            try Row.fetchAll(db, sql: "SELECT rowid AS rowid, * FROM usage").map(StoredRow.init)
        )
    }
}
