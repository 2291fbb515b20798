import FoundationEssentials
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Each recording's file carries its own description in its tags (see `FileDescription`), so
/// that a lost database loses nothing a file can say. A change to a row notes the recording in
/// `pendingTags` (by trigger, in the change's transaction); then, under the library lock:
/// 1. the file is copied with its new tags to `.incoming/tags_<UUID>.<ext>` and fsynced;
/// 2. the copy is renamed over the file (one atomic step: old tags or new, always playable) and
///    the directory fsynced;
/// 3. the note is removed (if no newer change came meanwhile) with the file's new size.
/// A crash anywhere leaves the note, and the next cravey that opens the library writes the tags.
extension Library {
    /// Writes the tags of every recording whose file is behind its row. Best effort: what cannot
    /// be written now (a full or read-only disk) stays noted for a later run; returns the problems.
    @discardableResult
    public func writePendingTags() -> [String] {
        guard isWritable, let writeTags = media?.writeTags else { return [] }
        var problems: [String] = []
        do {
            let lock = try lockLibrary()
            defer { lock.release() }
            for (id, version) in try translatingDatabaseErrors({ try store.pendingTags() }) {
                do {
                    try tagFile(of: id, version: version, with: writeTags)
                } catch {
                    problems.append("the tags of \(id.uuidString): \(Self.describe(error))")
                }
            }
        } catch {
            problems.append(Self.describe(error))
        }
        return problems
    }

    private func tagFile(
        of id: UUID, version: Int,
        with writeTags: @Sendable (String, String, [(key: String, value: String)]) throws -> Bool
    ) throws {
        try translatingDatabaseErrors {
            guard let recording = try store.recording(id: id), hasFile(recording) else {
                // Nothing to tag (check reports a missing file).
                try store.forgetPendingTags(id, version: version, size: nil)
                return
            }
            let file = try files.file(of: recording)
            let description = FileDescription(recording, transcript: try store.transcript(of: id))
            if let current = try? media?.readTag?(file, FileDescription.descriptionTag), current == description.json {
                try store.forgetPendingTags(id, version: version, size: nil)
                return
            }
            let staged = try makeStagedFile(named: Staging.name(.tagged, id: id, kind: recording.kind))
            defer { discard(staged) }
            try faults.hit("tags.write")
            guard try writeTags(file, staged.path, description.tags) else {
                try store.forgetPendingTags(id, version: version, size: nil)  // not media: left as it is, for check
                return
            }
            try makeDurable(staged, thumbnail: nil, step: "tags")
            try files.rename(staged.path, file, site: "tags.rename")
            try files.sync(files.path(FileStore.recordingsDir), site: "tags.fsync.dir")
            try store.forgetPendingTags(id, version: version, size: files.size(file))
        }
    }

    /// The description a recording's file carries, if any (nil without one, or unreadable).
    func fileDescription(_ relative: String, id: UUID) -> FileDescription? {
        guard let json = try? media?.readTag?(files.path(relative), FileDescription.descriptionTag) else { return nil }
        return FileDescription(json: json, for: id)
    }
}

extension Store {
    func pendingTags() throws -> [(UUID, Int)] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT recordingId, version FROM pendingTags ORDER BY recordingId").compactMap {
                row in
                UUID(uuidString: row["recordingId"]).map { ($0, row["version"]) }
            }
        }
    }

    /// Whether some file's tags are behind its row, and whether a deleted recording is still in a
    /// snapshot: one read, for the check every opening makes.
    func notedFileWork() throws -> (tags: Bool, scrubs: Bool, journal: Bool) {
        try writer.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM pendingTags) AS tags, EXISTS (SELECT 1 FROM pendingScrub) AS scrubs,
                      EXISTS (SELECT 1 FROM pendingJournal) AS journal
                    """)
            return (row?["tags"] ?? false, row?["scrubs"] ?? false, row?["journal"] ?? false)
        }
    }

    /// Removes the note if no change came after `version`; with the file's new size.
    func forgetPendingTags(_ id: UUID, version: Int, size: Int64?) throws {
        try writer.write { db in
            try db.execute(
                sql: "DELETE FROM pendingTags WHERE recordingId = ? AND version = ?",
                arguments: [id.uuidString, version])
            if let size {
                try db.execute(
                    sql: "UPDATE recording SET sizeBytes = ? WHERE id = ?", arguments: [size, id.uuidString])
            }
            try faults.hit("tags.commit")
        }
    }
}
