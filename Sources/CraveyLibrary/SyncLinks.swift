import Foundation
import GRDB

/// A plan's message and a craving's message travel with them: `recordingId` is shared as any
/// field (the last writer wins), and recordings have the same id on every machine.
///
/// A line may name a recording this machine does not have yet (its line or its file still on the
/// way, or refused): the line's other fields are applied, the row is put without its message (as
/// the journal's replay puts a link to what is not there), and the link waits in `syncField`, where
/// the line's fields are kept. When the recording is taken in, the links waiting for it are set in
/// the transaction that saves it, whatever order the lines and the file came in. A recording
/// deleted (here, or a delete that came from the folder) never comes: its links end as no message,
/// as a local delete leaves them (`ON DELETE SET NULL`). A link cleared here because its recording
/// is not here is never told to the folder as a change (`keepWaitingLinks`).
extension Library {
    /// The shared kinds whose rows link to a recording, by their table.
    static let recordingLinks = ["craving": "craving", "plan": "plan"]

    /// A line's link to a recording held to the rules: none, or an id cravey makes (nil: kept).
    static func linkProblem(_ row: [String: JournalValue]) -> String? {
        guard let link = row["recordingId"], link != .null else { return nil }
        guard case .text(let id) = link, id.utf8.count == 36, UUID(uuidString: id) != nil else {
            return "its recordingId is not the id of a recording cravey makes"
        }
        return nil
    }

    /// Sets the links that waited for `recording`, now saved here: each craving and plan whose
    /// newest line names it and that has no message here yet.
    static func setWaitingLinks(to recording: String, _ db: Database) throws {
        for (kind, table) in recordingLinks.sorted(by: { $0.key < $1.key }) {
            try db.execute(
                sql: """
                    UPDATE \(table) SET recordingId = ?1 WHERE recordingId IS NULL AND id IN (
                      SELECT id FROM syncField WHERE kind = ?2 AND field = 'recordingId' AND value = ?1)
                    """,
                arguments: [recording, kind])
        }
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
