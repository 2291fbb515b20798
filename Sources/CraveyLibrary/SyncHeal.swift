import Foundation
import GRDB

/// This machine's changes in the folder found older than what it wrote, made whole again.
///
/// A change file shorter than this machine wrote it is not always another machine writing as
/// this one: an older copy of the folder put back, a FAT stick that lost the end of a file in a
/// power cut (no journal, its directory never fsynced), a sync tool that rolled the file back. When
/// what is left is whole lines of this device's own (its id, its counters one after another from
/// the segment's start, each stamped no later than this machine's clock, and each holding what the
/// database still holds of it, as of its stamp or later), `sync` writes this machine's changes
/// again, as compaction does (`SyncCompaction.swift`): a snapshot of every field it set as they
/// stand, with their stamps, and of its counts of plays, through the last change it wrote, in
/// place of its older files; what waits to be written follows in the new segment. Another machine
/// that was away takes the snapshot (the same stamps: nothing it has changes), one that had it all
/// reads on from there.
/// A shorter file holding lines this machine did not write (another machine writing under its
/// id) stays a clone, said by `sync` and `check`.
///
/// Killed anywhere it loses nothing: before the new segment is noted, nothing changed but a
/// temporary snapshot, and the next `sync` writes it again; after, the snapshot fsynced before is
/// put in place by the next `sync` (`finishCompaction`), and what waits is still waiting.
extension Library {
    /// Writes this machine's changes in the folder again when what the folder holds of them is
    /// older than what it wrote (see above). Under the library lock. True when it did.
    func healOwnChanges(folder: SyncFolder) throws -> Bool {
        guard let state = try store.writer.read({ db in try SyncState.load(db) }),
            try ownChangesAreOlder(state, survey: folder.survey(), folder: folder)
        else { return false }
        // Through the last change written: what waits goes to the new segment after it, as
        // every change does (a grown rating waiting there is kept whole).
        let through = try store.writer.read { db in try Self.lastWritten(db, state) }
        guard through > state.segment else { return false }  // nothing written since: compaction's
        try compact(state, through: through, folder: folder, site: "sync.heal")  // SyncCompaction.swift
        return true
    }

    /// Whether this device's changes in the folder are older than what this machine wrote: the
    /// segment this machine writes to, shorter than it wrote it, and as far as it goes whole lines
    /// of this machine's own (a torn end after them is a power cut's); or a segment from before
    /// this machine's last compaction (an older copy of the folder).
    func ownChangesAreOlder(_ state: SyncState, survey: SyncFolder.Survey, folder: SyncFolder) throws -> Bool {
        guard let size = survey.devices[state.device] else { return false }
        let base = survey.bases[state.device] ?? 0
        if base < state.segment { return true }
        guard base == state.segment, Int64(size) < state.written else { return false }
        guard let reader = try folder.lines(device: state.device, base: state.segment, from: 0) else { return true }
        let decoder = JSONDecoder()
        return try store.writer.read { db in
            let written = try Self.lastWritten(db, state)
            var counter = state.segment
            while let item = try reader.next() {
                guard let data = item.line, let line = try? decoder.decode(SyncLine.self, from: data),
                    line.device == state.device, line.counter == counter + 1, line.counter <= written,
                    line.clock.count == 2, !(state.clock < line.stamp.clock), try Self.ownLineHolds(line, db)
                else { return false }
                counter = line.counter
            }
            return true
        }
    }

    /// The counter of the last change this machine wrote to the folder: the one before the first
    /// that waits.
    static func lastWritten(_ db: Database, _ state: SyncState) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT min(counter) FROM syncOutbox").map { $0 - 1 } ?? state.counter
    }

    /// Whether the database holds what one of this machine's lines says, as of its stamp or
    /// later: each field it sets kept with that stamp and value, or changed since (or its log
    /// deleted since); a count of plays no larger than this machine's count now. A line another
    /// machine wrote under this machine's id (a new log, a field set at another moment) is not.
    static func ownLineHolds(_ line: SyncLine, _ db: Database) throws -> Bool {
        let stamp = line.stamp
        if line.kind == playsKind {
            guard case .integer(let count)? = line.row?["count"] else { return false }
            let held = try Int64.fetchOne(
                db, sql: "SELECT count FROM recordingPlays WHERE recordingId = ? AND device = ?",
                arguments: [line.id, line.device])
            return held.map { $0 >= count } ?? false
        }
        let known = try fields(db, line.kind, line.id)
        if let deleted = known[deletedField] { return !(deleted.stamp < stamp) }
        guard let row = line.row else { return false }
        let growing = growOnlyFields[line.kind] ?? []
        for (field, value) in row {
            guard let kept = known[field], !(kept.stamp < stamp) else { return false }
            if kept.stamp == stamp, !growing.contains(field), kept.value != value { return false }
        }
        return true
    }

    /// What `check` says while this machine's changes in the folder are older than its own.
    static let olderWords =
        "this machine's changes in the folder are older than the ones it wrote (an older copy of the folder put back, or a file cut short by a power cut); 'cravey sync' writes them again, and nothing is lost"
}
