import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Replacing a saved recording's file with a new version of it (a trim), atomically: the library
/// shows the old recording or the new one, never neither and never a mix.
///
/// The steps, under the library lock:
/// 1. the new file (and thumbnail) are fsynced where they were written, in `.incoming/`;
/// 2. an intent (`pendingReplace`) is committed;
/// 3. the current file (and thumbnail) get a second link, `.incoming/old_<UUID>.<ext>`;
/// 4. the new file is renamed over the current one (one atomic rename), the directory fsynced;
/// 5. the row's new facts are committed with the intent cleared, in one transaction;
/// 6. the old links are removed.
/// After a crash between 2 and 5, recovery renames the old links back over the new files and
/// clears the intent: the old recording, as it was. After 5, the new one; the old links are
/// leftovers recovery removes.
extension Library {
    /// Replaces `recording`'s file with `staged` (and its thumbnail with `thumbnail`): the new
    /// length and media facts are stored, title, notes, purpose, dates and play count are kept.
    /// The staged files are consumed.
    public func replaceMedia(
        of recording: Recording, with staged: StagedFile, thumbnail: StagedFile?, duration: Double, media: MediaFacts
    ) throws -> Recording {
        defer {
            _ = unlink(staged.path)
            if let thumbnail { _ = unlink(thumbnail.path) }
        }
        try refuseChanging(recording)
        return try translatingDatabaseErrors {
            let file = try files.file(of: recording)
            let oldThumb = try files.thumbnail(of: recording)
            var updated = recording
            updated.duration = try Validation.duration(duration)
            updated.media = media
            updated.media.avOffset = recording.media.avOffset
            updated.media.sizeBytes = files.size(staged.path) ?? 0
            updated.thumbnailPath = thumbnail != nil ? recording.canonicalThumbnailPath : nil
            updated.modifiedAt = syncWallClock().truncatedToMilliseconds
            try Validation.check(updated)

            let lock = try lockLibrary()
            defer { lock.release() }
            try makeDurable(staged, thumbnail: thumbnail, step: "replace")
            try store.notePendingReplace(recording.id)
            let incoming = files.path(FileStore.incomingDir)
            let keptFile = incoming + "/" + Staging.name(.previous, id: recording.id, kind: recording.kind)
            let keptThumb = incoming + "/" + Staging.name(.previousThumbnail, id: recording.id, kind: recording.kind)
            do {
                try files.link(file, keptFile, site: "replace.link.file")
                if let oldThumb, files.exists(oldThumb) {
                    try files.link(oldThumb, keptThumb, site: "replace.link.thumb")
                }
                try files.sync(incoming, site: "replace.fsync.incoming")
                try files.rename(staged.path, file, site: "replace.rename.file")
                if let thumbnail {
                    try files.rename(
                        thumbnail.path, files.path(recording.canonicalThumbnailPath), site: "replace.rename.thumb")
                    try files.sync(files.path(FileStore.thumbnailsDir), site: "replace.fsync.dir")
                } else if let oldThumb {
                    try files.unlink(oldThumb, site: "replace.unlink.thumb")
                }
                try files.sync(files.path(FileStore.recordingsDir), site: "replace.fsync.dir")
                try store.replaceMedia(updated)
            } catch {
                // The new row is not there: the old files go back (recovery does it if this fails too).
                try? undoReplace(recording.id, kind: recording.kind)
                throw error
            }
            try? files.unlink(keptFile, site: "replace.unlink.old")
            try? files.unlink(keptThumb, site: "replace.unlink.old")
            writePendingTags()
            return (try? store.recording(id: updated.id)) ?? updated
        }
    }

    /// Puts back the file (and thumbnail) a replacement whose row did not commit had replaced, and
    /// clears its intent.
    func undoReplace(_ id: UUID, kind: Recording.Kind) throws {
        let incoming = files.path(FileStore.incomingDir)
        for (role, home) in [
            (Staging.Role.previous, FileStore.recordingsDir + "/" + Recording.fileName(id: id, kind: kind)),
            (.previousThumbnail, FileStore.thumbnailsDir + "/" + Recording.thumbnailName(id: id, kind: .video)),
        ] {
            let kept = incoming + "/" + Staging.name(role, id: id, kind: kind)
            guard files.isRegularFile(kept) else { continue }
            if files.sameFile(kept, files.path(home)) {
                // Not replaced yet (rename of a link onto itself does nothing): drop the link.
                try files.unlink(kept, site: "recover.replace.unlink")
            } else {
                try files.rename(kept, files.path(home), site: "recover.replace.restore")
            }
        }
        try files.sync(files.path(FileStore.recordingsDir), site: "recover.replace.fsync")
        try files.sync(files.path(FileStore.thumbnailsDir), site: "recover.replace.fsync")
        try store.forgetPendingReplace(id)
    }
}
