import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Saving: staged files in `.incoming/`, and the atomic save that turns one into a recording
/// (see `Library` for the order of its steps).
extension Library {
    // MARK: - Saving

    /// A file being written inside the library under a temporary name. Its writer holds a flock on
    /// it, so `recover` in another process leaves it alone until it is saved or discarded.
    public final class StagedFile: Sendable {
        public let path: String
        fileprivate let lock: FileLock

        fileprivate init(path: String, lock: FileLock) {
            self.path = path
            self.lock = lock
        }

        /// fsync: what was written so far survives a crash or power cut.
        public func sync() throws {
            guard retryingEINTR({ fsync(lock.fd) }) == 0 else { throw systemError("fsync", path) }
        }
    }

    /// A new, empty temporary file in `.incoming/` named `name` (0600, locked by this process).
    /// It is created under the library lock, so a concurrent `recover` never sees it unlocked.
    /// Names come from `Staging`.
    func makeStagedFile(named name: String) throws -> StagedFile {
        try translatingDatabaseErrors {
            let path = files.path(FileStore.incomingDir) + "/" + name
            let libraryLock = try lockLibrary()
            defer { libraryLock.release() }
            guard let lock = try FileLock(path: path, exclusiveCreate: true) else {
                throw LibraryError.system(operation: "lock", path: path, errno: EWOULDBLOCK)
            }
            return StagedFile(path: path, lock: lock)
        }
    }

    /// Removes a staged file that will not be saved.
    public func discard(_ staged: StagedFile) {
        _ = unlink(staged.path)
    }

    /// What to save: the user's details, checked by `Validation`.
    public struct Draft: Sendable {
        public var title: String?
        public var notes: String?
        public var purpose: Recording.Purpose?
        /// The triggers the message is made for (names as a craving's are written, in order).
        public var forTriggers: [String]
        public init(
            title: String? = nil, notes: String? = nil, purpose: Recording.Purpose? = nil, forTriggers: [String] = []
        ) {
            self.title = title
            self.notes = notes
            self.purpose = purpose
            self.forTriggers = forTriggers
        }
    }

    /// Saves a finished media file (and optional thumbnail) as a new recording, atomically.
    ///
    /// `duration` is the one read from the finished file. The staged files are consumed: on
    /// success they are in the library, on failure they are gone and nothing else changed.
    public func save(
        _ staged: StagedFile, thumbnail: StagedFile? = nil, kind: Recording.Kind, draft: Draft,
        duration: Double, media: MediaFacts, id: UUID = UUID(), createdAt: Date = Date()
    ) throws -> Recording {
        defer {
            _ = unlink(staged.path)
            if let thumbnail { _ = unlink(thumbnail.path) }
        }
        return try translatingDatabaseErrors {
            let createdAt = createdAt.truncatedToMilliseconds
            var facts = media
            facts.sizeBytes = files.size(staged.path) ?? 0
            var recording = Recording(
                id: id, createdAt: createdAt, kind: kind,
                title: try Validation.title(draft.title, createdAt: createdAt),
                notes: try Validation.notes(draft.notes), purpose: draft.purpose,
                duration: try Validation.duration(duration),
                filePath: FileStore.recordingsDir + "/" + Recording.fileName(id: id, kind: kind),
                thumbnailPath: thumbnail.map { _ in
                    FileStore.thumbnailsDir + "/" + Recording.thumbnailName(id: id, kind: kind)
                },
                modifiedAt: createdAt, media: facts)
            recording.forTriggers = draft.forTriggers
            try Validation.check(recording)

            let lock = try lockLibrary()
            defer { lock.release() }
            try makeDurable(staged, thumbnail: thumbnail, step: "save")
            let finalPaths = [recording.filePath] + (recording.thumbnailPath.map { [$0] } ?? [])
            try store.notePendingSave(finalPaths)
            do {
                try files.rename(staged.path, files.path(recording.filePath), site: "save.rename.file")
                if let thumbnail, let thumbPath = recording.thumbnailPath {
                    try files.rename(thumbnail.path, files.path(thumbPath), site: "save.rename.thumb")
                    try files.sync(files.path(FileStore.thumbnailsDir), site: "save.fsync.dir")
                }
                try files.sync(files.path(FileStore.recordingsDir), site: "save.fsync.dir")
                recording = try store.insertRecording(recording)
            } catch {
                // The row is not there: take the files back out (recover does it if this fails too).
                try? undoPendingSave(finalPaths)
                throw error
            }
            writePendingTags()
            return (try? store.recording(id: recording.id)) ?? recording
        }
    }

    /// fsync of a staged file and its thumbnail (sites `<step>.fsync.file` / `.thumb`), and the
    /// file made private: what goes into `Recordings/` is on disk before any rename.
    func makeDurable(_ staged: StagedFile, thumbnail: StagedFile?, step: String) throws {
        try files.sync(staged.path, site: step + ".fsync.file")
        if let thumbnail { try files.sync(thumbnail.path, site: step + ".fsync.thumb") }
        _ = fchmod(staged.lock.fd, 0o600)
    }

    func undoPendingSave(_ paths: [String]) throws {
        for path in paths { try files.unlink(files.path(path), site: "save.undo.unlink") }
        try files.sync(files.path(FileStore.recordingsDir), site: "save.undo.fsync")
        for path in paths { try store.forgetPendingSave(path) }
    }
}
