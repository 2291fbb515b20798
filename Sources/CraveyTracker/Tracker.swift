import CraveyLibrary
import Foundation
import GRDB

/// The craving and use logs, kept in the library's database under the library's rules: one
/// transaction a change, under the library lock, fsynced before it returns (a log reported as
/// logged survives a power cut), and a change killed at any step is wholly there or wholly absent.
public struct Tracker: Sendable {
    public let library: Library

    public init(library: Library) { self.library = library }

    /// What a new craving is made of; anything left out takes its default (a 5, now).
    public struct CravingDraft: Sendable {
        public var intensity = Intensity.standard
        public var time: LogTime
        public var triggers: Set<Trigger> = []
        public var location: Location?
        public var notes: String?
        public var recordingId: UUID?

        public init(intensity: Int = Intensity.standard, time: LogTime = LogTime(Date()), triggers: Set<Trigger> = [],
                    location: Location? = nil, notes: String? = nil, recordingId: UUID? = nil) {
            (self.intensity, self.time, self.triggers, self.location, self.notes, self.recordingId) = (intensity, time, triggers, location, notes, recordingId)
        }
    }

    /// What a new use is made of; the method defaults to the first (bowls), the amount to the
    /// method's first.
    public struct UsageDraft: Sendable {
        public var method = Method.bowls
        public var amount: Double?
        public var time: LogTime
        public var triggers: Set<Trigger> = []
        public var location: Location?
        public var notes: String?
        public var moodAfter: Int?
        public var cravingId: UUID?

        public init(method: Method = .bowls, amount: Double? = nil, time: LogTime = LogTime(Date()), triggers: Set<Trigger> = [],
                    location: Location? = nil, notes: String? = nil, moodAfter: Int? = nil, cravingId: UUID? = nil) {
            (self.method, self.amount, self.time, self.triggers, self.location) = (method, amount, time, triggers, location)
            (self.notes, self.moodAfter, self.cravingId) = (notes, moodAfter, cravingId)
        }
    }

    // MARK: - Logging

    /// Logs a craving; returns it as stored.
    public func logCraving(_ draft: CravingDraft) throws -> Craving {
        let now = Date().truncatedToMilliseconds
        let craving = Craving(id: UUID(), time: draft.time.stored, intensity: draft.intensity, triggers: Trigger.allCases.filter(draft.triggers.contains),
                              location: draft.location, notes: try LogRules.notes(draft.notes), recordingId: draft.recordingId,
                              createdAt: now, modifiedAt: now)
        try LogRules.check(craving)
        return try keepingNew {
            try library.writeLogs(step: "log.craving") { db in
                try Self.requireRecording(craving.recordingId, db)
                try craving.insert(into: db)
                return craving
            }
        }
    }

    /// Logs a use; returns it as stored.
    public func logUse(_ draft: UsageDraft) throws -> Usage {
        let now = Date().truncatedToMilliseconds
        let use = Usage(id: UUID(), time: draft.time.stored, method: draft.method, amount: draft.amount ?? draft.method.amounts[0],
                        triggers: Trigger.allCases.filter(draft.triggers.contains), location: draft.location,
                        notes: try LogRules.notes(draft.notes), moodAfter: draft.moodAfter, cravingId: draft.cravingId,
                        createdAt: now, modifiedAt: now)
        try LogRules.check(use)
        return try keepingNew {
            try library.writeLogs(step: "log.use") { db in
                try Self.requireCraving(use.cravingId, db)
                try use.insert(into: db)
                return use
            }
        }
    }

    /// The commit of a new log. What the person has just typed matters most: on a full disk the
    /// library's reserve is given back so that it can still be kept; when even that is not
    /// enough, the one thing said is that it was not logged.
    private func keepingNew<T>(_ commit: () throws -> T) throws -> T {
        do {
            return try library.withReserve(commit)
        } catch where Library.isDiskFull(error) {
            throw TrackerError.diskFull("\(error)")
        }
    }

    /// Keeps which recording was played during a craving (the hard-moment offer after logging it).
    public func notePlayed(_ recordingId: UUID, during cravingId: UUID) throws {
        try library.writeLogs(step: "log.played") { db in
            try Self.requireRecording(recordingId, db)
            try db.execute(sql: "UPDATE craving SET recordingId = ? WHERE id = ?", arguments: [recordingId.uuidString, cravingId.uuidString])
            guard db.changesCount == 1 else { throw TrackerError.notFound(cravingId.uuidString) }
        }
    }

    // MARK: - Editing and deleting

    /// Stores `craving`'s new values (its id and creation time stay).
    public func edit(_ craving: Craving) throws -> Craving {
        var updated = craving
        updated.time = craving.time.stored
        updated.notes = try LogRules.notes(craving.notes)
        updated.triggers = Trigger.allCases.filter(Set(craving.triggers).contains)
        updated.modifiedAt = Date().truncatedToMilliseconds
        try LogRules.check(updated)
        return try library.writeLogs(step: "log.edit") { db in
            try Self.requireRecording(updated.recordingId, db)
            try db.execute(sql: """
                UPDATE craving SET at = ?, utcOffset = ?, intensity = ?, triggers = ?, location = ?, notes = ?, recordingId = ?, modifiedAt = ?
                WHERE id = ?
                """, arguments: [StoredDate.text(updated.time.instant), updated.time.utcOffset, updated.intensity, Trigger.text(Set(updated.triggers)),
                                 updated.location?.rawValue, updated.notes, updated.recordingId?.uuidString, StoredDate.text(updated.modifiedAt),
                                 updated.id.uuidString])
            guard db.changesCount == 1 else { throw TrackerError.notFound(updated.id.uuidString) }
            return updated
        }
    }

    /// Stores `use`'s new values (its id and creation time stay).
    public func edit(_ use: Usage) throws -> Usage {
        var updated = use
        updated.time = use.time.stored
        updated.notes = try LogRules.notes(use.notes)
        updated.triggers = Trigger.allCases.filter(Set(use.triggers).contains)
        updated.modifiedAt = Date().truncatedToMilliseconds
        try LogRules.check(updated)
        return try library.writeLogs(step: "log.edit") { db in
            try Self.requireCraving(updated.cravingId, db)
            try db.execute(sql: """
                UPDATE usage SET at = ?, utcOffset = ?, method = ?, amount = ?, triggers = ?, location = ?, notes = ?, moodAfter = ?,
                  cravingId = ?, modifiedAt = ?
                WHERE id = ?
                """, arguments: [StoredDate.text(updated.time.instant), updated.time.utcOffset, updated.method.rawValue, updated.amount,
                                 Trigger.text(Set(updated.triggers)), updated.location?.rawValue, updated.notes, updated.moodAfter,
                                 updated.cravingId?.uuidString, StoredDate.text(updated.modifiedAt), updated.id.uuidString])
            guard db.changesCount == 1 else { throw TrackerError.notFound(updated.id.uuidString) }
            return updated
        }
    }

    /// What deleting a craving does to the uses that followed it.
    public enum LinkedUses: Sendable {
        /// They are deleted with it.
        case delete
        /// They stay, no longer linked to a craving.
        case keep
    }

    /// Deletes a craving. When uses follow it, `linked` must say what becomes of them (nil throws
    /// `TrackerError.linkedUse`, so the user can be asked); the recording played during it stays.
    /// Returns how many uses were deleted with it.
    @discardableResult
    public func deleteCraving(_ id: UUID, linked: LinkedUses?) throws -> Int {
        try library.writeLogs(step: "log.delete") { db in
            let uses = try String.fetchAll(db, sql: "SELECT id FROM usage WHERE cravingId = ?", arguments: [id.uuidString])
            if !uses.isEmpty && linked == nil { throw TrackerError.linkedUse(craving: String(id.uuidString.prefix(8)), uses: uses.count) }
            if linked == .delete { try db.execute(sql: "DELETE FROM usage WHERE cravingId = ?", arguments: [id.uuidString]) }
            // Kept uses lose the link (also by the schema's ON DELETE SET NULL, said here so it does
            // not depend on foreign keys being enforced).
            try db.execute(sql: "UPDATE usage SET cravingId = NULL WHERE cravingId = ?", arguments: [id.uuidString])
            try db.execute(sql: "DELETE FROM craving WHERE id = ?", arguments: [id.uuidString])
            guard db.changesCount == 1 else { throw TrackerError.notFound(id.uuidString) }
            return linked == .delete ? uses.count : 0
        }
    }

    /// Deletes a use; the craving it followed is not changed.
    public func deleteUse(_ id: UUID) throws {
        try library.writeLogs(step: "log.delete") { db in
            try db.execute(sql: "DELETE FROM usage WHERE id = ?", arguments: [id.uuidString])
            guard db.changesCount == 1 else { throw TrackerError.notFound(id.uuidString) }
        }
    }

    // MARK: - Reading

    /// The logs of the kinds asked for since `since` (all when nil), newest first.
    public func entries(cravings: Bool = true, uses: Bool = true, since: Date? = nil) throws -> [LogEntry] {
        try library.readLogs { db in
            let bound = since.map(StoredDate.text) ?? ""
            var entries: [LogEntry] = []
            if cravings {
                let rows = try Row.fetchCursor(db, sql: "SELECT \(Craving.columns) FROM craving WHERE at >= ? ORDER BY at DESC, id DESC", arguments: [bound])
                while let row = try rows.next() { entries.append(.craving(Craving(row: row))) }
            }
            if uses {
                let rows = try Row.fetchCursor(db, sql: "SELECT \(Usage.columns) FROM usage WHERE at >= ? ORDER BY at DESC, id DESC", arguments: [bound])
                while let row = try rows.next() { entries.append(.use(Usage(row: row))) }
            }
            if cravings && uses {
                entries.sort { ($0.time.instant, $0.id.uuidString) > ($1.time.instant, $1.id.uuidString) }
            }
            return entries
        }
    }

    public func cravings(since: Date? = nil) throws -> [Craving] {
        try entries(uses: false, since: since).compactMap { if case let .craving(c) = $0 { c } else { nil } }
    }

    public func uses(since: Date? = nil) throws -> [Usage] {
        try entries(cravings: false, since: since).compactMap { if case let .use(u) = $0 { u } else { nil } }
    }

    /// The log with this id (full or a unique prefix, any case).
    public func entry(matching key: String) throws -> LogEntry {
        let prefix = key.trimmingCharacters(in: .whitespaces).uppercased()
        guard !prefix.isEmpty, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { throw TrackerError.notFound(key) }
        return try library.readLogs { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT 'craving' AS kind, id FROM craving WHERE id >= ? AND id < ? || 'Z'
                UNION ALL SELECT 'use', id FROM usage WHERE id >= ? AND id < ? || 'Z' LIMIT 6
                """, arguments: [prefix, prefix, prefix, prefix])
            guard rows.count <= 1 else {
                throw TrackerError.ambiguous(key, candidates: rows.map { "\($0["kind"] as String) \(($0["id"] as String).prefix(8))" })
            }
            guard let row = rows.first else { throw TrackerError.notFound(key) }
            let id: String = row["id"]
            if row["kind"] as String == "craving" {
                return .craving(Craving(row: try Row.fetchOne(db, sql: "SELECT \(Craving.columns) FROM craving WHERE id = ?", arguments: [id])!))
            }
            return .use(Usage(row: try Row.fetchOne(db, sql: "SELECT \(Usage.columns) FROM usage WHERE id = ?", arguments: [id])!))
        }
    }

    /// The uses that followed a craving.
    public func uses(following cravingId: UUID) throws -> [Usage] {
        try library.readLogs { db in
            try Row.fetchAll(db, sql: "SELECT \(Usage.columns) FROM usage WHERE cravingId = ? ORDER BY at", arguments: [cravingId.uuidString]).map(Usage.init(row:))
        }
    }

    /// The craving a use names as the one it followed: `last` (the latest at or before `time`) or
    /// an id or unique start of one.
    public func craving(named key: String, before time: Date) throws -> Craving {
        if key.lowercased() == "last" {
            guard let last = try lastCraving(before: time) else {
                throw TrackerError.invalid(field: "--after-craving", reason: "no craving was logged before this use")
            }
            return last
        }
        guard case let .craving(found) = try entry(matching: key) else {
            throw TrackerError.invalid(field: "--after-craving", reason: "'\(key)' is a use, not a craving")
        }
        return found
    }

    /// The latest craving at or before `time` (for `--after-craving last`).
    public func lastCraving(before time: Date) throws -> Craving? {
        try library.readLogs { db in
            try Row.fetchOne(db, sql: "SELECT \(Craving.columns) FROM craving WHERE at <= ? ORDER BY at DESC, id DESC LIMIT 1",
                             arguments: [StoredDate.text(time)]).map(Craving.init(row:))
        }
    }

    /// The latest craving in the `window` before `time` that no use follows yet: the one a use
    /// logged now probably followed (the form offers the link).
    public func unlinkedCraving(before time: Date, within window: TimeInterval = 2 * 3_600) throws -> Craving? {
        try library.readLogs { db in
            try Row.fetchOne(db, sql: """
                SELECT \(Craving.columns) FROM craving c
                WHERE at <= ? AND at >= ? AND NOT EXISTS (SELECT 1 FROM usage u WHERE u.cravingId = c.id)
                ORDER BY at DESC, id DESC LIMIT 1
                """, arguments: [StoredDate.text(time), StoredDate.text(time.addingTimeInterval(-window))]).map(Craving.init(row:))
        }
    }

    /// How many logs there are of each kind.
    public func counts() throws -> (cravings: Int, uses: Int) {
        try library.readLogs { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM craving") ?? 0, try Int.fetchOne(db, sql: "SELECT count(*) FROM usage") ?? 0)
        }
    }

    // MARK: - Helpers

    static func requireRecording(_ id: UUID?, _ db: Database) throws {
        guard let id else { return }
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM recording WHERE id = ?)", arguments: [id.uuidString]) == true else {
            throw TrackerError.invalid(field: "recording", reason: "no recording has the id \(id.uuidString)")
        }
    }

    static func requireCraving(_ id: UUID?, _ db: Database) throws {
        guard let id else { return }
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM craving WHERE id = ?)", arguments: [id.uuidString]) == true else {
            throw TrackerError.invalid(field: "craving", reason: "no craving has the id \(id.uuidString)")
        }
    }
}

extension Tracker {
    /// A log whose notes hold the words searched for: a snippet of the notes and where in it.
    public struct Hit: Sendable {
        public var entry: LogEntry
        public var snippet: String
        public var matches: [Range<String.Index>]
    }

    /// Logs whose notes hold every word of `query` (words found as in recordings' search: by
    /// their start, stemmed, any case and accents), newest first.
    public func search(_ query: String, limit: Int = 50) throws -> [Hit] {
        let terms = SearchTerms.words(query)
        guard !terms.isEmpty else { throw TrackerError.invalid(field: "search", reason: "give at least one word to look for") }
        let marks = (String(SearchHit.markStart), String(SearchHit.markEnd))
        return try library.readLogs { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT kind, logId, snippet(logSearch, 0, ?, ?, '…', 16) AS marked FROM logSearch WHERE logSearch MATCH ? LIMIT ?
                """, arguments: [marks.0, marks.1, SearchTerms.ftsQuery(terms), limit])
            var hits: [Hit] = []
            for row in rows {
                let id: String = row["logId"]
                let entry: LogEntry? = row["kind"] as String == "craving"
                    ? try Row.fetchOne(db, sql: "SELECT \(Craving.columns) FROM craving WHERE id = ?", arguments: [id]).map { .craving(Craving(row: $0)) }
                    : try Row.fetchOne(db, sql: "SELECT \(Usage.columns) FROM usage WHERE id = ?", arguments: [id]).map { .use(Usage(row: $0)) }
                guard let entry else { continue }
                let (snippet, matches) = SearchHit.unmarked(row["marked"] as String? ?? "")
                hits.append(Hit(entry: entry, snippet: snippet, matches: matches))
            }
            return hits.sorted { $0.entry.time.instant > $1.entry.time.instant }
        }
    }
}
