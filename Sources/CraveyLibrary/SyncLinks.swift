import Foundation
import GRDB

/// A plan's message and a craving's message travel with them: `recordingId` is shared as any
/// field (the last writer wins), and recordings have the same id on every machine.
///
/// A line may name a recording this machine does not have yet (its line or its file still on the
/// way, or refused): the line's other fields are applied, the row is put without its message (as
/// the journal's replay puts a link to what is not there), and the link waits in `syncField`, where
/// the line's fields are kept, noted by the recording it waits for (`noteWaitingLink`). When the
/// recording is taken in, the links waiting for it are set in the transaction that saves it,
/// whatever order the lines and the file came in. A recording
/// deleted (here, or a delete that came from the folder) never comes: its links end as no message,
/// as a local delete leaves them (`ON DELETE SET NULL`). A craving or plan deleted while its link
/// waits forgets it. A link cleared here because its recording is not here is never told to the
/// folder as a change (`keepWaitingLinks`).
extension Library {
    /// The shared kinds whose rows link to a recording, by their table.
    static let recordingLinks = ["craving": "craving", "plan": "plan"]

    /// A line's link to a recording held to the rules: none, or an id as cravey writes it (nil:
    /// kept). The same id in small letters names no recording here, and its link would wait for
    /// ever for a recording that comes under its own name.
    static func linkProblem(_ row: [String: JournalValue]) -> String? {
        guard let link = row["recordingId"], link != .null else { return nil }
        guard case .text(let id) = link, isCraveyId(id) else {
            return "its recordingId is not the id of a recording cravey makes"
        }
        return nil
    }

    /// Notes a row put from the folder whose link names a recording that is not here (yet): it
    /// waits for it (`link <recording> <kind> <id>` in `syncState`), so taking the recording in
    /// finds its links without reading every row's fields.
    /// A link to a check-in is not kept (a check-in is an entry, never a message played in a hard
    /// moment; typed, it is refused): the row stays without a message, as when its message is
    /// deleted.
    static func noteWaitingLink(
        _ db: Database, _ kind: String, _ id: String, _ known: [String: (value: JournalValue, stamp: SyncStamp)]
    ) throws {
        guard let table = recordingLinks[kind], case .text(let recording)? = known["recordingId"]?.value else {
            return
        }
        if try Bool.fetchOne(db.cachedStatement(sql: isCheckIn), arguments: [recording]) == true {
            try db.execute(
                sql: "UPDATE \(table) SET recordingId = NULL WHERE id = ? AND recordingId = ?",
                arguments: [id, recording])
            return
        }
        // A recording deleted (its delete taken in here) never comes: nothing waits for it.
        guard
            try !Bool.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM recording WHERE id = ?1)
                          OR EXISTS (SELECT 1 FROM syncField WHERE kind = ?2 AND id = ?1 AND field = ?3)
                        """), arguments: [recording, recordingKind, deletedField])!
        else { return }
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO syncState (key, value) VALUES (?, '')").execute(
            arguments: ["link \(recording) \(kind) \(id)"])
    }

    /// Sets the links that waited for `recording`, now saved here: each craving and plan noted as
    /// waiting for it whose newest line still names it and that has no message here yet. The
    /// notes are forgotten. A check-in is no message: what waited for it stays without one.
    static func setWaitingLinks(to recording: String, _ db: Database) throws {
        let range = waitingFor(recording)
        if try Bool.fetchOne(db.cachedStatement(sql: isCheckIn), arguments: [recording]) == true {
            return try forgetWaitingLinks(to: recording, db)
        }
        for key in try String.fetchAll(db, sql: "SELECT key FROM syncState WHERE key > ? AND key < ?", arguments: range)
        {
            let parts = key.split(separator: " ")
            guard parts.count == 4, let table = recordingLinks[String(parts[2])] else { continue }
            try db.execute(
                sql: """
                    UPDATE \(table) SET recordingId = ?1 WHERE id = ?2 AND recordingId IS NULL AND EXISTS (
                      SELECT 1 FROM syncField WHERE kind = ?3 AND id = ?2 AND field = 'recordingId' AND value = ?1)
                    """,
                arguments: [recording, String(parts[3]), String(parts[2])])
        }
        try forgetWaitingLinks(to: recording, db)
    }

    /// Forgets the links that waited for `recording`: set (above), or never to be set, its delete
    /// taken in here (the rows keep no message, as a local delete leaves them).
    static func forgetWaitingLinks(to recording: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM syncState WHERE key > ? AND key < ?", arguments: waitingFor(recording))
    }

    /// Forgets what the craving or plan `id` waited for, the row deleted (here, or a delete that
    /// came from the folder): its message, should it come, has no row to go to.
    static func forgetWaitingLinks(of kind: String, _ id: String, _ db: Database) throws {
        guard recordingLinks[kind] != nil else { return }
        try db.cachedStatement(
            sql: "DELETE FROM syncState WHERE key > 'link ' AND key < 'link!' AND substr(key, -length(?1)) = ?1"
        ).execute(arguments: [" \(kind) \(id)"])
    }

    /// Whether a recording here is a check-in.
    private static let isCheckIn = "SELECT EXISTS (SELECT 1 FROM recording WHERE id = ? AND checkinDay IS NOT NULL)"

    /// The keys of the links noted as waiting for `recording` lie between these two.
    private static func waitingFor(_ recording: String) -> StatementArguments {
        ["link \(recording) ", "link \(recording)!"]
    }

    /// Leaves out of a change this machine tells the folder the links it did not change: a link
    /// to a craving or a recording the folder names that is not here (on its way, or deleted) is
    /// empty in the row, and waits; it was not cleared by the person.
    static func keepWaitingLinks(
        _ fields: inout [String: JournalValue], _ known: [String: (value: JournalValue, stamp: SyncStamp)],
        _ db: Database
    ) throws {
        for (field, table) in [("cravingId", "craving"), ("recordingId", "recording")] {
            guard case .null? = fields[field], case .text(let linked)? = known[field]?.value else { continue }
            let here = try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)"), arguments: [linked])
            if here != true { fields[field] = nil }
        }
    }
}

extension Library {
    /// Once a library: its cravings' and plans' messages told to the folder, for a folder chosen
    /// when a message stayed on the machine that linked it (a `--folder` writes every row anyway;
    /// a row whose link the folder has already changes nothing).
    func shareLinksOnce() throws {
        let done = "SELECT EXISTS (SELECT 1 FROM syncState WHERE key = 'links shared')"
        guard try !store.writer.read({ db in try Bool.fetchOne(db, sql: done)! }) else { return }  // no write
        try store.writer.write { db in
            let linked = Self.recordingLinks.sorted(by: { $0.key < $1.key }).map { kind, table in
                "SELECT '\(kind)', id FROM \(table) WHERE recordingId IS NOT NULL"
            }
            try noteSyncChanges(
                db,
                try Row.fetchAll(db, sql: linked.joined(separator: " UNION ALL ")).map {
                    (kind: $0[0] as String, id: $0[1] as String)
                })
            try db.execute(sql: "INSERT OR REPLACE INTO syncState (key, value) VALUES ('links shared', '1')")
        }
    }
}
