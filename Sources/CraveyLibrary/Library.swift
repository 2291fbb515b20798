import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A private recordings library: the SQLite store and the media files, kept in agreement.
///
/// The atomic rules of PRODUCT.md are implemented here:
/// - **save**: the file is written into `.incoming/` under a temporary name and fsynced; its final
///   path is noted in the `pendingSave` journal; it is renamed into `Recordings/`, the directory is
///   fsynced, and the row is committed together with the journal entry's removal. If the row cannot
///   be committed the file is removed; if the process dies first, `recover` removes it.
/// - **delete**: file and thumbnail are renamed into `.trash/`, the row is deleted, then the trash
///   is emptied. A failed rename changes nothing; a failed row delete moves the files back; after a
///   crash, `recover` moves trashed files back if their row still exists and deletes them otherwise.
/// - **purge**: `Recordings/` is renamed to `.purging/` in one step, every row is deleted in one
///   transaction, then `.purging/` is removed. After a crash, `recover` puts `.purging/` back if rows
///   remain and finishes removing it otherwise.
/// Mutations and recovery hold an exclusive flock on `library.lock`; readers never wait for it.
public final class Library: @unchecked Sendable {
    /// The library's root directory.
    public let root: String
    let store: Store
    let files: FileStore
    public let faults: Faults
    /// In-process side of the library lock: re-entrant, so recovery can save what it recovers.
    private let lockState = NSRecursiveLock()
    private var lockDepth = 0
    private var heldLock: FileLock?

    /// Opens the library at `root`, creating it (0700) if needed, and finishes any operation an
    /// earlier run left half-done.
    public init(root: String, faults: Faults = .fromEnvironment()) throws {
        umask(0o077)
        let root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.root = root
        self.faults = faults
        self.files = FileStore(root: root, faults: faults)
        try files.prepare()
        let dbPath = root + "/library.sqlite"
        if !files.exists(dbPath) {
            let fd = open(dbPath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw systemError("create", dbPath) }
            close(fd)
        }
        do {
            self.store = try Store(path: dbPath, faults: faults)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw LibraryError.database("\(error)")
        }
        openingReport = try recoverInterrupted()
    }

    /// What opening the library found and finished of an interrupted run (usually nothing).
    public private(set) var openingReport = Report()

    /// The default location: `$CRAVEY_LIBRARY`, else `${XDG_DATA_HOME:-~/.local/share}/cravey`.
    public static func defaultRoot(environment env: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = env["CRAVEY_LIBRARY"], !dir.isEmpty { return dir }
        if let data = env["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/cravey" }
        let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/cravey"
    }

    /// Absolute path of a path stored in a row, refusing anything outside the library.
    public func absolutePath(_ relative: String) throws -> String { try files.resolve(relative) }

    // MARK: - Reading

    /// Recordings newest first, optionally filtered. Rows whose file has vanished are not listed.
    public func recordings(kind: Recording.Kind? = nil, purpose: Recording.Purpose? = nil) throws -> [Recording] {
        try wrap { try store.recordings(kind: kind, purpose: purpose).filter(hasFile) }
    }

    /// The `limit` most played recordings (playCount desc, lastPlayedAt desc, newest).
    public func top(_ limit: Int = 3) throws -> [Recording] {
        try wrap {
            var result = try store.top(limit).filter(hasFile)
            if result.count < limit, try store.count() > result.count {
                result = try store.top(limit + 1000).filter(hasFile).prefix(limit).map { $0 }
            }
            return result
        }
    }

    /// The recording with this id (full or a unique prefix, any case).
    public func recording(matching key: String) throws -> Recording {
        try wrap {
            let trimmed = key.trimmingCharacters(in: .whitespaces)
            if let id = UUID(uuidString: trimmed), let found = try store.recording(id: id) { return found }
            let prefix = trimmed.uppercased()
            guard !prefix.isEmpty, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
                throw LibraryError.notFound(key)
            }
            let ids = try store.ids(prefix: prefix)
            guard ids.count <= 1 else { throw LibraryError.ambiguous(key, candidates: ids) }
            guard let id = ids.first.flatMap(UUID.init(uuidString:)), let found = try store.recording(id: id) else {
                throw LibraryError.notFound(key)
            }
            return found
        }
    }

    /// The recording with this id or unique id prefix, else the one whose title starts with `key`.
    public func recording(idOrTitle key: String) throws -> Recording {
        do {
            return try recording(matching: key)
        } catch LibraryError.notFound {
            let matches = try wrap { try store.recordings(titlePrefix: key) }
            let exact = matches.filter { $0.title.lowercased() == key.lowercased() }
            if matches.count == 1 { return matches[0] }
            if exact.count == 1 { return exact[0] }  // "Walk" beats "Walk 2" when typed in full
            if matches.isEmpty { throw LibraryError.notFound(key) }
            throw LibraryError.ambiguous(key, candidates: matches.map { "\($0.id.uuidString.prefix(8)) '\($0.title)'" })
        }
    }

    public func count() throws -> Int { try wrap { try store.count() } }

    // MARK: - Saving

    /// A file being written inside the library under a temporary name. Its writer holds a flock on
    /// it, so `recover` in another process leaves it alone until it is saved or discarded.
    public final class StagedFile: @unchecked Sendable {
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
    public func makeStagedFile(named name: String) throws -> StagedFile {
        try wrap {
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
        public init(title: String? = nil, notes: String? = nil, purpose: Recording.Purpose? = nil) {
            self.title = title
            self.notes = notes
            self.purpose = purpose
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
        return try wrap {
            let createdAt = createdAt.truncatedToMilliseconds
            var facts = media
            facts.sizeBytes = files.size(staged.path) ?? 0
            let recording = Recording(
                id: id, createdAt: createdAt, kind: kind,
                title: try Validation.title(draft.title, createdAt: createdAt),
                notes: try Validation.notes(draft.notes), purpose: draft.purpose,
                duration: try Validation.duration(duration),
                filePath: FileStore.recordingsDir + "/" + Recording.fileName(id: id, kind: kind),
                thumbnailPath: thumbnail.map { _ in FileStore.thumbnailsDir + "/" + Recording.thumbnailName(id: id, kind: kind) },
                modifiedAt: createdAt, media: facts)
            try Validation.check(recording)

            let lock = try lockLibrary()
            defer { lock.release() }
            try files.sync(staged.path, site: "save.fsync.file")
            if let thumbnail { try files.sync(thumbnail.path, site: "save.fsync.thumb") }
            _ = chmod(staged.path, 0o600)
            let finalPaths = [recording.filePath] + (recording.thumbnailPath.map { [$0] } ?? [])
            try store.notePendingSave(finalPaths)
            do {
                try files.rename(staged.path, files.path(recording.filePath), site: "save.rename.file")
                if let thumbnail, let thumbPath = recording.thumbnailPath {
                    try files.rename(thumbnail.path, files.path(thumbPath), site: "save.rename.thumb")
                    try files.sync(files.path(FileStore.thumbnailsDir), site: "save.fsync.dir")
                }
                try files.sync(files.path(FileStore.recordingsDir), site: "save.fsync.dir")
                try store.insertRecording(recording)
            } catch {
                // The row is not there: take the files back out (recover does it if this fails too).
                try? undoPendingSave(finalPaths)
                throw error
            }
            return recording
        }
    }

    /// Copies an existing finished media file into the library and saves it (used by import and tests).
    public func save(
        copying source: String, thumbnail: String? = nil, kind: Recording.Kind, draft: Draft,
        duration: Double, media: MediaFacts, id: UUID = UUID(), createdAt: Date = Date()
    ) throws -> Recording {
        let staged = try makeStagedFile(named: "save_\(id.uuidString).\(kind.fileExtension)")
        var stagedThumb: StagedFile?
        do {
            try wrap { try files.copy(source, into: staged.lock.fd, path: staged.path) }
            if let thumbnail {
                let thumb = try makeStagedFile(named: "save_\(id.uuidString)_thumb.jpg")
                stagedThumb = thumb
                try wrap { try files.copy(thumbnail, into: thumb.lock.fd, path: thumb.path) }
            }
        } catch {
            discard(staged)
            if let stagedThumb { discard(stagedThumb) }
            throw error
        }
        return try save(staged, thumbnail: stagedThumb, kind: kind, draft: draft, duration: duration,
                        media: media, id: id, createdAt: createdAt)
    }

    private func undoPendingSave(_ paths: [String]) throws {
        for path in paths { try files.unlink(files.path(path), site: "save.undo.unlink") }
        try files.sync(files.path(FileStore.recordingsDir), site: "save.undo.fsync")
        for path in paths { try store.forgetPendingSave(path) }
    }

    // MARK: - Changing

    /// Sets title, notes and purpose with the library's limits (blank title → automatic title).
    @discardableResult
    public func edit(_ recording: Recording, title: String?, notes: String??, purpose: Recording.Purpose??) throws -> Recording {
        try wrap {
            var updated = recording
            if let title { updated.title = try Validation.title(title, createdAt: recording.createdAt) }
            if let notes { updated.notes = try Validation.notes(notes) }
            if let purpose { updated.purpose = purpose }
            updated.modifiedAt = Date().truncatedToMilliseconds
            try store.updateDetails(id: recording.id, title: updated.title, notes: updated.notes,
                                    purpose: updated.purpose, at: updated.modifiedAt)
            return updated
        }
    }

    /// Counts one play: playCount + 1, lastPlayedAt = now.
    @discardableResult
    public func recordPlay(_ id: UUID, at date: Date = Date()) throws -> Bool {
        try wrap { try store.recordPlay(id: id, at: date) }
    }

    /// Deletes a recording's file, thumbnail and row together (see the type's doc).
    public func delete(_ recording: Recording) throws {
        try wrap {
            let media = try files.resolve(recording.filePath)
            let thumb = try recording.thumbnailPath.map { try files.resolve($0) }
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
                try store.deleteRecording(id: recording.id)
            } catch {
                for move in moved.reversed() { _ = Glibc.rename(move.to, move.from) }
                throw error
            }
            // The row is gone: the delete has happened. Emptying the trash can be finished by recover.
            for move in moved { try? files.unlink(move.to, site: "delete.unlink") }
        }
    }

    /// Deletes every recording, all or nothing (see the type's doc).
    public func purge() throws {
        try wrap {
            let lock = try lockLibrary()
            defer { lock.release() }
            let recordings = files.path(FileStore.recordingsDir)
            let purging = files.path(FileStore.purgingDir)
            try files.rename(recordings, purging, site: "purge.rename")
            do {
                try files.sync(root, site: "purge.fsync.root")
                try files.makeDirectory(recordings, site: "purge.mkdir")
                try files.makeDirectory(files.path(FileStore.thumbnailsDir), site: "purge.mkdir")
                try store.deleteAllRecordings()
            } catch {
                _ = rmdir(files.path(FileStore.thumbnailsDir))
                _ = rmdir(recordings)
                _ = Glibc.rename(purging, recordings)
                throw error
            }
            try? files.removeTree(purging, site: "purge.unlink")
            try? files.sync(root, site: "purge.fsync.root")
        }
    }

    // MARK: - Recovery

    /// What recovery or a check found, and what it did about it.
    public struct Report: Sendable, Equatable {
        public var removedTemporaryFiles: [String] = []
        public var finishedDeletes: [String] = []
        public var undoneDeletes: [String] = []
        public var purge: String?
        public var undoneSaves: [String] = []
        public var rowsWithoutFile: [String] = []
        public var filesWithoutRow: [String] = []
        public var rowsOutsideLibrary: [String] = []
        public var missingThumbnails: [String] = []
        public var loosePermissions: [String] = []
        public var recoveredRecordings: [String] = []
        public var unrecoverable: [String] = []
        /// Whether the problems listed were also fixed.
        public var repaired = false

        public var isEmpty: Bool { lines.isEmpty }

        /// One line per finding, for people.
        public var lines: [String] {
            var out: [String] = []
            func add(_ items: [String], _ label: String) { for item in items { out.append("\(label): \(item)") } }
            add(recoveredRecordings, "recovered an interrupted recording")
            add(unrecoverable, "could not recover an interrupted recording (kept; will try again)")
            add(removedTemporaryFiles, "removed a leftover temporary file")
            add(undoneSaves, "removed the file of a save that did not finish")
            add(finishedDeletes, "finished an interrupted delete")
            add(undoneDeletes, "undid an interrupted delete")
            if let purge { out.append(purge) }
            let fix = repaired ? "" : " (run 'cravey check --repair')"
            add(rowsWithoutFile, repaired ? "removed a row whose file was missing" : "row whose file is missing\(fix)")
            add(filesWithoutRow, repaired ? "removed a file no recording owns" : "file no recording owns\(fix)")
            add(rowsOutsideLibrary, repaired ? "removed a row pointing outside the library" : "row pointing outside the library\(fix)")
            add(missingThumbnails, repaired ? "forgot a missing thumbnail" : "thumbnail missing\(fix)")
            add(loosePermissions, repaired ? "made private" : "not private (should be 0700/0600)\(fix)")
            return out
        }
    }

    /// Turns an interrupted recording (a temporary file in `.incoming/` named `rec_*`) into a saved
    /// recording, or returns nil when nothing in it is playable. Installed by the recorder floor.
    public typealias PartialRecordingRecoverer = @Sendable (_ library: Library, _ path: String) throws -> Recording?

    nonisolated(unsafe) public static var partialRecordingRecoverer: PartialRecordingRecoverer?

    /// The temporary name of a recording being captured: `rec_<kind>_<UUID>.<ext>.part`.
    public static func temporaryName(id: UUID, kind: Recording.Kind) -> String {
        "rec_\(kind.rawValue)_\(id.uuidString).\(kind.fileExtension).part"
    }

    /// The id and kind in a temporary recording name, if it is one.
    public static func recordingID(inTemporaryName name: String) -> UUID? {
        let parts = name.split(separator: "_")
        guard parts.count == 3, parts[0] == "rec" else { return nil }
        return UUID(uuidString: String(parts[2].prefix(36)))
    }

    /// Finishes what an interrupted run left half-done: saves, deletes, purges, temporary files.
    /// Cheap when there is nothing to do, so it runs every time a library is opened.
    @discardableResult
    public func recoverInterrupted() throws -> Report {
        let incoming = files.entries(files.path(FileStore.incomingDir))
        let trash = files.entries(files.path(FileStore.trashDir))
        let purging = files.exists(files.path(FileStore.purgingDir))
        let pending = try wrap { try store.pendingSaves() }
        if incoming.isEmpty && trash.isEmpty && !purging && pending.isEmpty { return Report() }
        return try wrap {
            let lock = try lockLibrary()
            defer { lock.release() }
            return try recoverLocked()
        }
    }

    private func recoverLocked() throws -> Report {
        var report = Report()
        let recordings = files.path(FileStore.recordingsDir)
        let purging = files.path(FileStore.purgingDir)
        if files.exists(purging) {
            if try store.count() > 0 {
                // The purge did not commit: put everything back.
                _ = rmdir(files.path(FileStore.thumbnailsDir))
                _ = rmdir(recordings)
                if files.exists(recordings) {
                    // New files appeared (cannot happen under the lock); keep them beside the old ones.
                    for name in files.entries(recordings) where !files.isDirectory(recordings + "/" + name) {
                        try files.rename(recordings + "/" + name, purging + "/" + name, site: "recover.purge.merge")
                    }
                    try files.removeTree(recordings, site: "recover.purge.unlink")
                }
                try files.rename(purging, recordings, site: "recover.purge.rename")
                report.purge = "undid an interrupted purge (nothing was deleted)"
            } else {
                try files.removeTree(purging, site: "recover.purge.unlink")
                report.purge = "finished an interrupted purge"
            }
            try files.makeDirectory(recordings, site: "recover.mkdir")
            try files.makeDirectory(files.path(FileStore.thumbnailsDir), site: "recover.mkdir")
            try files.sync(root, site: "recover.fsync.root")
        }
        for path in try store.pendingSaves() {
            if try !store.rowExists(forPath: path), let full = try? files.resolve(path) {
                try files.unlink(full, site: "recover.save.unlink")
                report.undoneSaves.append(path)
            }
            try store.forgetPendingSave(path)
        }
        let trash = files.path(FileStore.trashDir)
        for name in files.entries(trash) {
            let original = name.hasSuffix("_thumb.jpg") ? FileStore.thumbnailsDir + "/" + name
                                                        : FileStore.recordingsDir + "/" + name
            if try store.rowExists(forPath: original) {
                try files.rename(trash + "/" + name, files.path(original), site: "recover.trash.restore")
                report.undoneDeletes.append(original)
            } else {
                try files.unlink(trash + "/" + name, site: "recover.trash.unlink")
                report.finishedDeletes.append(original)
            }
        }
        let incoming = files.path(FileStore.incomingDir)
        // Staged files of saves that never finished go first: a recording recovered below may
        // need its staged name again.
        let names = files.entries(incoming).filter { !isLockedByOther(incoming + "/" + $0) }  // else being written now
        for name in names where !name.hasPrefix("rec_") || files.size(incoming + "/" + name) == 0 {
            let full = incoming + "/" + name
            if files.isDirectory(full) {
                try files.removeTree(full, site: "recover.incoming.unlink")
            } else {
                try files.unlink(full, site: "recover.incoming.unlink")
            }
            report.removedTemporaryFiles.append(FileStore.incomingDir + "/" + name)
        }
        for name in names where name.hasPrefix("rec_") && files.exists(incoming + "/" + name) {
            let full = incoming + "/" + name
            if let id = Self.recordingID(inTemporaryName: name), try store.recording(id: id) != nil {
                // Saved already; only removing the temporary file was interrupted.
                try files.unlink(full, site: "recover.incoming.unlink")
                continue
            }
            guard let recoverer = Self.partialRecordingRecoverer else { continue }  // left for a recorder that can
            do {
                if let saved = try recoverer(self, full) {
                    report.recoveredRecordings.append("\(saved.id.uuidString) '\(saved.title)'")
                } else {
                    report.removedTemporaryFiles.append(FileStore.incomingDir + "/" + name + " (nothing playable)")
                }
                try files.unlink(full, site: "recover.incoming.unlink")
            } catch {
                // Kept for another try; the rest of the library is still usable.
                report.unrecoverable.append("\(FileStore.incomingDir)/\(name): \(Self.describe(error))")
            }
        }
        try files.sync(recordings, site: "recover.fsync.dir")
        return report
    }

    /// Checks the whole library: everything `recoverInterrupted` does, plus rows whose file is
    /// missing, files no row owns, rows pointing outside the library, missing thumbnails and loose
    /// permissions. With `repair`, fixes them all.
    public func check(repair: Bool) throws -> Report {
        try wrap {
            let lock = try lockLibrary()
            defer { lock.release() }
            var report = try recoverLocked()
            report.repaired = repair
            var owned = Set<String>()
            var badRows: [String] = []
            var missingRows: [String] = []
            for row in try store.allPaths() {
                guard let full = try? files.resolve(row.file) else {
                    report.rowsOutsideLibrary.append("\(row.id) → \(row.file)")
                    badRows.append(row.id)
                    continue
                }
                if files.exists(full) {
                    owned.insert(row.file)
                } else {
                    report.rowsWithoutFile.append("\(row.id) → \(row.file)")
                    missingRows.append(row.id)
                    continue
                }
                if let thumb = row.thumbnail {
                    if let thumbFull = try? files.resolve(thumb), files.exists(thumbFull) {
                        owned.insert(thumb)
                    } else {
                        report.missingThumbnails.append("\(row.id) → \(thumb)")
                        if repair { try store.clearThumbnail(id: row.id) }
                    }
                }
            }
            if repair { try store.deleteRecordings(ids: badRows + missingRows) }
            var strays: [String] = []
            for dir in [FileStore.recordingsDir, FileStore.thumbnailsDir] {
                for name in files.entries(files.path(dir)) {
                    let relative = dir + "/" + name
                    if relative == FileStore.thumbnailsDir || owned.contains(relative) { continue }
                    strays.append(relative)
                }
            }
            report.filesWithoutRow = strays
            if repair {
                for stray in strays {
                    let full = files.path(stray)
                    if files.isDirectory(full) {
                        try files.removeTree(full, site: "check.unlink")
                    } else {
                        try files.unlink(full, site: "check.unlink")
                    }
                }
            }
            var loose: [String] = []
            for dir in ["", FileStore.recordingsDir, FileStore.thumbnailsDir, FileStore.incomingDir, FileStore.trashDir] {
                let full = dir.isEmpty ? root : files.path(dir)
                if let mode = files.mode(full), mode & 0o077 != 0 { loose.append(full); if repair { _ = chmod(full, 0o700) } }
            }
            for relative in owned.sorted() + ["library.sqlite", "library.sqlite-wal", "library.sqlite-shm", "library.lock"] {
                let full = files.path(relative)
                if let mode = files.mode(full), mode & 0o077 != 0 { loose.append(full); if repair { _ = chmod(full, 0o600) } }
            }
            report.loosePermissions = loose
            if repair { try files.sync(files.path(FileStore.recordingsDir), site: "check.fsync.dir") }
            return report
        }
    }

    // MARK: - Helpers

    /// A hold on the library lock (flock on `library.lock`, re-entrant within this process).
    struct LockHold {
        let release: () -> Void
    }

    /// Takes the library lock; mutations and recovery run under it, readers never wait for it.
    private func lockLibrary() throws -> LockHold {
        lockState.lock()
        if lockDepth == 0 {
            do {
                guard let lock = try FileLock(path: root + "/library.lock") else {
                    throw LibraryError.system(operation: "lock", path: root + "/library.lock", errno: EWOULDBLOCK)
                }
                heldLock = lock
            } catch {
                lockState.unlock()
                throw error
            }
        }
        lockDepth += 1
        return LockHold { [self] in
            lockDepth -= 1
            if lockDepth == 0 { heldLock = nil }
            lockState.unlock()
        }
    }

    private func hasFile(_ recording: Recording) -> Bool {
        access(files.path(recording.filePath), F_OK) == 0
    }

    /// Runs `body`, turning database errors into `LibraryError.database` with SQLite's message.
    private func wrap<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as LibraryError {
            throw error
        } catch {
            throw LibraryError.database(Self.describe(error))
        }
    }

    static func describe(_ error: Error) -> String {
        let text = "\(error)"
        return text.replacingOccurrences(of: "\n", with: " ")
    }
}
