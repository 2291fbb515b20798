import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Daily snapshots of the database inside the library, `Snapshots/library-YYYY-MM-DD.sqlite`
/// (0600): a consistent copy (`VACUUM INTO`, made a plain rollback-journal file, integrity-checked,
/// fsynced, then renamed into place) taken by the first change of a local day, before it. The
/// last 7 are kept, and the newest of each week for 8 weeks. A lost or damaged database is
/// rebuilt from the newest snapshot that passes its check (see `Library.init`); the files' own
/// tags give back the changes to recordings since, and the journal of logs (`LogJournal`) those
/// to logs and settings: only play counts since the snapshot can be lost (a rebuild says what else
/// could not come back when the journal or the newest snapshot went too).
extension Library {
    public struct Snapshot: Sendable, Equatable {
        /// The local day it was taken (its name).
        public var day: String
        public var path: String
        /// When it was taken (its file's time).
        public var takenAt: Date
    }

    static let snapshotPrefix = "library-", snapshotSuffix = ".sqlite"

    /// The snapshots there are, newest first.
    public func snapshots() -> [Snapshot] { Self.snapshots(in: files) }

    /// Whether a snapshot opens and passes SQLite's check.
    public func isGoodSnapshot(_ snapshot: Snapshot) -> Bool { Self.isGoodSnapshot(snapshot.path) }

    static func snapshots(in files: FileStore) -> [Snapshot] {
        let dir = files.path(FileStore.snapshotsDir)
        return files.entries(dir).compactMap { name -> Snapshot? in
            guard let day = snapshotDay(name), files.isRegularFile(dir + "/" + name) else { return nil }
            return Snapshot(
                day: day, path: dir + "/" + name, takenAt: files.modificationDate(dir + "/" + name) ?? .distantPast)
        }.sorted { $0.day > $1.day }
    }

    /// The day a snapshot's name stands for (nil for any other name).
    static func snapshotDay(_ name: String) -> String? {
        guard name.hasPrefix(snapshotPrefix), name.hasSuffix(snapshotSuffix) else { return nil }
        let day = String(name.dropFirst(snapshotPrefix.count).dropLast(snapshotSuffix.count))
        return LocalDay(parsing: day) != nil ? day : nil
    }

    /// Takes today's snapshot if there is none yet. Called with the library lock held, before the
    /// day's first change; a library with nothing in it is not copied. Best effort: a snapshot
    /// that cannot be taken now (a full disk) is tried again by the next command.
    func takeSnapshotIfDue(now: Date) {
        guard snapshotsEnabled, !snapshotChecked, isWritable else { return }
        snapshotChecked = true
        let today = LocalDay(now, in: .current).text
        let dir = files.path(FileStore.snapshotsDir)
        let final = dir + "/" + Self.snapshotPrefix + today + Self.snapshotSuffix
        guard !files.exists(final), !files.exists(files.path(FileStore.rebuildingMarker)),
            (try? store.holdsAnything()) == true
        else { return }
        do {
            // The snapshot holds all the journal says: appended first, emptied once it is in place.
            try flushJournal()
            let held = off_t(files.size(files.path(FileStore.journalFile)) ?? 0)
            try takeSnapshot(to: final)
            // Only while it is the snapshot a rebuild would start from (a day gone back with a
            // change of time zone names a newer one).
            if snapshots().first?.path == final { try trimJournal(holding: held) }
            pruneSnapshots(today: today)
        } catch {
            snapshotProblem = Self.describe(error)
        }
    }

    func takeSnapshot(to final: String) throws {
        let dir = (final as NSString).deletingLastPathComponent
        try files.makeDirectory(dir, site: "snapshot.mkdir")
        let temporary = dir + "/." + (final as NSString).lastPathComponent + ".tmp"
        for suffix in ["", "-journal"] { _ = unlink(temporary + suffix) }
        defer { for suffix in ["", "-journal"] { _ = unlink(temporary + suffix) } }
        try faults.hit("snapshot.copy")
        try copyDatabase(to: temporary)
        try files.sync(temporary, site: "snapshot.fsync.file")
        files.makePrivate(temporary, mode: 0o600)
        try files.rename(temporary, final, site: "snapshot.rename")
        try files.sync(dir, site: "snapshot.fsync.dir")
    }

    /// A consistent copy of the database at `path` (a new file): `VACUUM INTO`, then made a plain
    /// file (rollback journal, no WAL beside it) and checked. For snapshots and backups.
    func copyDatabase(to path: String) throws {
        try store.writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [path]) }
        try Self.settle(path)
    }

    private static func settle(_ path: String) throws {
        var config = Configuration()
        config.label = "cravey snapshot"
        let queue = try DatabaseQueue(path: path, configuration: config)
        try queue.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
            let check = try String.fetchAll(db, sql: "PRAGMA quick_check")
            guard check == ["ok"] else {
                throw LibraryError.database("the copy failed its check: \(check.prefix(3).joined(separator: "; "))")
            }
        }
        try queue.close()
    }

    /// Whether a snapshot is a sound cravey database (opened read-only, checked).
    static func isGoodSnapshot(_ path: String) -> Bool { passesCheck(path, readOnly: true, holding: "recording") }

    /// Whether a database file opens and passes SQLite's quick check (and, with `holding`, has
    /// that table).
    static func passesCheck(_ path: String, readOnly: Bool = false, holding table: String? = nil) -> Bool {
        var config = Configuration()
        config.readonly = readOnly
        config.label = "cravey check"
        guard let queue = try? DatabaseQueue(path: path, configuration: config) else { return false }
        defer { try? queue.close() }
        let good = try? queue.read { db -> Bool in
            try String.fetchAll(db, sql: "PRAGMA quick_check") == ["ok"]
                && (try table.map {
                    try Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = ?)", arguments: [$0]) ?? false
                } ?? true)
        }
        return good == true
    }

    /// Keeps the 7 newest snapshots and the newest of each of the last 8 weeks (Monday to
    /// Sunday); removes the others (only files with a snapshot's name).
    func pruneSnapshots(today: String) {
        let all = snapshots()
        for snapshot in all where !Self.keptSnapshotDays(all.map(\.day), today: today).contains(snapshot.day) {
            try? files.unlink(snapshot.path, site: "snapshot.prune")
        }
    }

    static func keptSnapshotDays(_ days: [String], today: String) -> Set<String> {
        let newestFirst = days.sorted(by: >)
        var kept = Set(newestFirst.prefix(7))
        guard let today = LocalDay(parsing: today) else { return kept }
        var weeks = Set<Int>()
        for day in newestFirst {
            guard let number = LocalDay(parsing: day), today - number < 56 else { continue }
            if weeks.insert(number.week).inserted { kept.insert(day) }
        }
        return kept
    }
}

/// A deleted recording leaves the snapshots too: deleted means deleted.
extension Library {
    /// Removes the rows of deleted recordings from every snapshot (its transcript and search entry
    /// with it, the freed pages wiped), then forgets the note. Best effort: a snapshot that cannot
    /// be changed now keeps the note for the next run.
    @discardableResult
    func scrubSnapshots() -> Bool {
        guard isWritable, let ids = try? store.pendingScrubs(), !ids.isEmpty else { return true }
        var clean = true
        for snapshot in snapshots() {
            do {
                try faults.hit("scrub.snapshot")
                let queue = try DatabaseQueue(path: snapshot.path)
                try queue.writeWithoutTransaction { db in
                    try db.inTransaction {
                        // A snapshot keeps the schema of its day: its note's one column is named
                        // `recordingId` before migration v10.
                        let noted =
                            try db.tableExists("pendingScrub") ? try db.columns(in: "pendingScrub").first?.name : nil
                        for id in ids {
                            // A deleted log is noted as 'craving:<id>' or 'use:<id>', a removed plan as
                            // 'plan:<id>', a recording by its id.
                            if id.hasPrefix("craving:") {
                                try db.execute(
                                    sql: "DELETE FROM craving WHERE id = ?", arguments: [String(id.dropFirst(8))])
                            } else if id.hasPrefix("use:") {
                                try db.execute(
                                    sql: "DELETE FROM usage WHERE id = ?", arguments: [String(id.dropFirst(4))])
                            } else if id.hasPrefix("plan:") {
                                // A snapshot made before plans has none to remove.
                                if try db.tableExists("plan") {
                                    try db.execute(
                                        sql: "DELETE FROM plan WHERE id = ?", arguments: [String(id.dropFirst(5))])
                                }
                            } else {
                                try db.execute(sql: "DELETE FROM recording WHERE id = ?", arguments: [id])
                            }
                            // The snapshot's own triggers noted what was just removed from it.
                            if let noted {
                                try db.execute(sql: "DELETE FROM pendingScrub WHERE \(noted) = ?", arguments: [id])
                            }
                        }
                        return .commit
                    }
                    try db.execute(sql: "INSERT INTO recordingSearch (recordingSearch) VALUES ('optimize')")
                    if try db.tableExists("logSearch") {
                        try db.execute(sql: "INSERT INTO logSearch (logSearch) VALUES ('optimize')")
                    }
                    try db.execute(sql: "VACUUM")
                }
                try queue.close()
            } catch {
                clean = false
            }
        }
        if clean { try? store.forgetScrubs(ids) }
        return clean
    }
}

extension Store {
    func pendingScrubs() throws -> [String] {
        try writer.read { db in try String.fetchAll(db, sql: "SELECT entryId FROM pendingScrub") }
    }

    func forgetScrubs(_ ids: [String]) throws {
        try writer.write { db in
            for id in ids { try db.execute(sql: "DELETE FROM pendingScrub WHERE entryId = ?", arguments: [id]) }
        }
    }
}
