import Foundation
import GRDB

/// Compaction of this device's changes (see `SyncFolder` for the files, `Sync.swift` for when).
extension Library {
    /// This device's changes as they stand: each field it set that no other device has changed
    /// since (a log it deleted: the delete), one line per log and stamp, in the order of the
    /// stamps (`byLog`: each log's lines together, in the order of their stamps). Counter 0: the
    /// caller numbers them.
    static func forEachOwnLine(
        _ db: Database, device: String, byLog: Bool = false, _ body: (SyncLine) throws -> Void
    ) throws {
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT kind, id, field, value, at, tick FROM syncField WHERE device = ? ORDER BY "
                + (byLog ? "kind, id, at, tick" : "at, tick, kind, id"),
            arguments: [device])
        var current: SyncLine?
        while let row = try rows.next() {
            let kind: String = row[0], id: String = row[1], field: String = row[2]
            let clock: [Int64] = [row[4], row[5]]
            if let line = current, line.kind != kind || line.id != id || line.clock != clock {
                try body(line)
                current = nil
            }
            if current == nil {
                current = SyncLine(kind: kind, id: id, row: [:], counter: 0, clock: clock, device: device)
            }
            if field == deletedField {
                current?.row = nil
            } else if current?.row != nil {
                current?.row?[field] = JournalValue(row[3] as DatabaseValue)
            }
        }
        if let line = current { try body(line) }
    }

    /// Compacts this device's changes when asked, or when its segment is larger than
    /// `compactAfter` and a quarter of its files' lines are no longer its changes as they stand
    /// (changed again, or deleted); only once all its changes are in the folder.
    /// The snapshot is written under a temporary name, the new segment noted, then the snapshot
    /// put in place and the older files removed. Returns the counter compacted through (nil: none).
    func compactIfDue(folder: SyncFolder, asked: Bool) throws -> Int64? {
        let (loaded, waiting) = try store.writer.read { db in
            (try SyncState.load(db), try Int.fetchOne(db, sql: "SELECT count(*) FROM syncOutbox") ?? 0)
        }
        guard let state = loaded, waiting == 0, state.counter > state.segment else { return nil }
        if !asked {
            guard state.written > Self.compactAfter else { return nil }
            let lines = state.snapshotLines + state.counter - state.segment
            let standing = try store.writer.read { db in
                try Int64.fetchOne(
                    db,
                    sql: "SELECT count(*) FROM (SELECT DISTINCT kind, id, at, tick FROM syncField WHERE device = ?)",
                    arguments: [state.device]) ?? 0
            }
            guard (lines - standing) * 4 >= lines else { return nil }
        }
        try compact(state, through: state.counter, folder: folder, site: "sync.compact")
        return state.counter
    }

    /// Compacts this device's changes through counter `through`: the snapshot written under a
    /// temporary name (then the fault seam's `site`), the new segment after it noted (`site`
    /// `.noted`), then the snapshot put in place and the older files removed.
    func compact(_ state: SyncState, through: Int64, folder: SyncFolder, site: String) throws {
        var state = state
        state.segment = through
        state.snapshotLines = try writeSnapshot(state, folder: folder)
        try faults.hit(site)
        state.written = 0
        try store.writer.write { db in try state.save(db) }
        try faults.hit(site + ".noted")
        try folder.placeSnapshot(device: state.device, through: through)
    }

    /// A compaction cut short is finished: the snapshot of the segment noted is put in place
    /// (written again from the fields when its temporary file is not there: it then holds at
    /// least as much), and this device's older files removed.
    func finishCompaction(_ state: SyncState, folder: SyncFolder) throws {
        guard state.segment > 0 else { return }
        let name = SyncFolder.snapshotName(state.segment)
        if folder.size(device: state.device, name) == nil, folder.size(device: state.device, "." + name + ".new") == nil
        {
            try writeSnapshot(state, folder: folder)
        }
        try folder.placeSnapshot(device: state.device, through: state.segment)
    }

    /// Writes this device's snapshot through its segment's counter under a temporary name;
    /// returns how many lines it holds.
    @discardableResult
    private func writeSnapshot(_ state: SyncState, folder: SyncFolder) throws -> Int64 {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try folder.writeSnapshot(device: state.device, through: state.segment) { emit in
            try store.writer.read { db in
                try Self.forEachOwnLine(db, device: state.device, byLog: true) { line in
                    var line = line
                    line.counter = state.segment
                    try emit(try encoder.encode(line))
                }
                // This machine's counts of plays stand beside the fields (SyncGrow.swift): each
                // message's count as it is now, so a machine that was away sums them too.
                let counts = try Row.fetchCursor(
                    db,
                    sql:
                        "SELECT recordingId, count, lastPlayedAt FROM recordingPlays WHERE device = ? ORDER BY recordingId",
                    arguments: [state.device])
                while let count = try counts.next() {
                    try emit(
                        try encoder.encode(
                            SyncLine(
                                kind: Self.playsKind, id: count[0],
                                row: [
                                    "count": .integer(count[1]),
                                    "lastPlayedAt": JournalValue(count[2] as DatabaseValue),
                                ],
                                counter: state.segment, clock: [state.clock.milliseconds, state.clock.tick],
                                device: state.device)))
                }
            }
        }
    }
}
