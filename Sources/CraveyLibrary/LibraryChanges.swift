import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Changing what is saved: details, play counts, deleting one recording, purging all of them.
extension Library {
    // MARK: - Changing

    /// Sets title, notes, purpose and the triggers it is made for, with the library's limits
    /// (blank title → automatic title); nil leaves a detail as it is.
    @discardableResult
    public func edit(
        _ recording: Recording, title: String?, notes: String??, purpose: Recording.Purpose??,
        forTriggers: [String]? = nil
    ) throws -> Recording {
        try refuseChanging(recording)
        return try translatingDatabaseErrors {
            var updated = recording
            if let title { updated.title = try Validation.title(title, createdAt: recording.createdAt) }
            if let notes { updated.notes = try Validation.notes(notes) }
            if let purpose { updated.purpose = purpose }
            if let forTriggers { updated.forTriggers = forTriggers }
            updated.modifiedAt = syncWallClock().truncatedToMilliseconds
            let lock = try lockLibrary()
            defer { lock.release() }
            try store.updateDetails(
                id: recording.id, title: updated.title, notes: updated.notes,
                purpose: updated.purpose, forTriggers: updated.forTriggers, at: updated.modifiedAt)
            writePendingTags()  // the file's own tags follow (see `writePendingTags`)
            shareRecordingChangesQuietly()  // stamped now for the other machine (see `SyncMedia`)
            return (try? store.recording(id: updated.id)) ?? updated
        }
    }

    /// A day's check-in is kept as it was saved: it is never edited or trimmed (it may be deleted).
    public func refuseChanging(_ recording: Recording) throws {
        if let checkIn = recording.checkIn {
            throw LibraryError.invalid(
                field: "recording",
                reason: "it is the check-in of \(checkIn.day), kept as it was saved; nothing was changed")
        }
    }

    /// Counts one play: playCount + 1, lastPlayedAt = `date` (the session's clock).
    @discardableResult
    public func recordPlay(_ id: UUID, at date: Date) throws -> Bool {
        try translatingDatabaseErrors { try store.recordPlay(id: id, at: date) }
    }

    /// Measures the loudness of a recording saved before cravey measured it (through the floor
    /// above's `MediaRecovery.measure`) and stores it. Nil when it cannot be measured. Storing is
    /// best effort: on a read-only library the measurement is still returned, for this use.
    public func measureLoudness(_ recording: Recording) -> Recording? {
        guard let file = try? files.file(of: recording), let measured = measured(recording, file: file) else {
            return nil
        }
        try? translatingDatabaseErrors { try store.setLoudness(measured) }
        return measured
    }

    /// The recording with its file's loudness, measured; nil when it cannot be.
    func measured(_ recording: Recording, file: String) -> Recording? {
        guard let measure = media?.measure, let result = try? measure(file) else { return nil }
        var measured = recording
        measured.media.loudness = result.loudness
        measured.media.truePeak = result.truePeak
        measured.media.playbackGain = result.gain
        return measured
    }

    /// Deletes a recording's file, thumbnail and row together (see the type's doc).
    public func delete(_ recording: Recording) throws {
        try delete(recording, sharing: true)
    }

    /// `sharing`: the delete is this machine's, stamped now for the other machine (not one
    /// brought in from it).
    func delete(_ recording: Recording, sharing: Bool) throws {
        try translatingDatabaseErrors {
            let media = try files.file(of: recording)
            let thumb = try files.thumbnail(of: recording)
            let lock = try lockLibrary()
            defer { lock.release() }
            let trash = files.path(FileStore.trashDir)
            var moved: [(from: String, to: String)] = []
            do {
                for (file, site) in [(media, "delete.rename.file"), (thumb, "delete.rename.thumb")] {
                    guard let file, files.exists(file) else { continue }
                    let target = trash + "/" + (file as NSString).lastPathComponent
                    try files.rename(file, target, site: site)
                    moved.append((file, target))
                }
                try files.sync(files.path(FileStore.recordingsDir), site: "delete.fsync.dir")
                // On a full disk the commit may need the reserved space: a delete is how one frees space.
                try files.withReserve { try store.deleteRecording(id: recording.id) }
            } catch {
                for move in moved.reversed() { _ = Glibc.rename(move.to, move.from) }
                throw error
            }
            // The row is gone: the delete has happened. Emptying the trash can be finished by recover.
            for move in moved { try? files.unlink(move.to, site: "delete.unlink") }
            scrubSnapshots()
            if sharing { shareRecordingChangesQuietly() }
        }
    }

    /// Deletes every recording and every craving and use log, all or nothing (see the type's doc).
    /// Files in `Recordings/` that cravey did not make stay where they are.
    public func purge() throws {
        try translatingDatabaseErrors {
            let lock = try lockLibrary()
            defer { lock.release() }
            let recordings = files.path(FileStore.recordingsDir)
            let purging = files.path(FileStore.purgingDir)
            try files.rename(recordings, purging, site: "purge.rename")
            do {
                try files.sync(root, site: "purge.fsync.root")
                try files.makeDirectory(recordings, site: "purge.mkdir")
                try files.makeDirectory(files.path(FileStore.thumbnailsDir), site: "purge.mkdir")
                try files.withReserve { try store.deleteAllData() }
            } catch {
                _ = rmdir(files.path(FileStore.thumbnailsDir))
                _ = rmdir(recordings)
                _ = Glibc.rename(purging, recordings)
                throw error
            }
            try? finishPurge()
            // All data means the snapshots of it too.
            for snapshot in snapshots() { try? files.unlink(snapshot.path, site: "purge.snapshot") }
            // And the journal of the logs and settings (a purge killed first: the next command
            // drops the deleted rows' lines from it).
            if (try? files.unlink(files.path(FileStore.journalFile), site: "purge.journal")) != nil,
                (try? files.sync(root, site: "purge.journal.fsync.root")) != nil
            {
                // The notes go only once the journal's removal is durable.
                try? store.writer.write { db in try db.execute(sql: "DELETE FROM pendingJournal") }
            }
            try? store.forgetScrubs(store.pendingScrubs())
        }
    }
}
