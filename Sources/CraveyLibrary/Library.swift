import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// A private recordings library: the SQLite store and the media files, kept in agreement.
///
/// The atomic rules:
/// - **save**: the file is written into `.incoming/` under a temporary name and fsynced; its final
///   path is noted in the `pendingSave` journal (a durable commit); it is renamed into
///   `Recordings/`, the directory is fsynced, and the row is committed (durably) together with the
///   journal entry's removal. If the row cannot be committed the file is removed; if the process
///   dies first, `recover` removes it.
/// - **delete**: file and thumbnail are renamed into `.trash/`, the row is deleted, then the trash
///   is emptied. A failed rename changes nothing; a failed row delete moves the files back; after a
///   crash, `recover` moves trashed files back if their row still exists and deletes them otherwise.
///   On a full disk the commit may use the space held in `.reserve`.
/// - **purge**: `Recordings/` is renamed to `.purging/` in one step, every row is deleted in one
///   transaction, then cravey's own files in `.purging/` are removed and anything else is put back.
///
/// What cravey removes: only files whose names it gives (`audio_<UUID>.m4a`, `video_<UUID>.mov`,
/// `video_<UUID>_thumb.jpg`, its temporary names) inside its own directories. Anything else in a
/// library directory is left where it is; `check --repair` re-lists cravey recordings no row owns
/// and moves unplayable ones to `Quarantine/`, and never deletes a file.
/// Mutations and recovery hold an exclusive flock on `library.lock` (waiting a bounded time);
/// readers never wait for it.
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
    /// How long a mutation waits for another cravey process to release the library.
    public var lockWaitSeconds: Double
    /// Told once when a mutation starts waiting for the library lock (for a message to the user).
    public var onLockWait: (@Sendable () -> Void)?

    /// Opens the library at `root`, creating it (0700) if needed, and finishes any operation an
    /// earlier run left half-done. A lost or damaged database is rebuilt from the recordings' files.
    ///
    /// `CRAVEY_LOCK_WAIT` (seconds) changes how long mutations wait for the lock (default 10).
    public init(root: String, faults: Faults = .fromEnvironment(), onLockWait: (@Sendable () -> Void)? = nil) throws {
        umask(0o077)
        let root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.root = root
        self.faults = faults
        self.onLockWait = onLockWait
        self.lockWaitSeconds = ProcessInfo.processInfo.environment["CRAVEY_LOCK_WAIT"].flatMap(Double.init) ?? 10
        self.files = FileStore(root: root, faults: faults)
        try files.makePrivateDirectory(root, tighten: false)
        let dbPath = root + "/library.sqlite"
        var info = stat()
        let hasDatabase = lstat(dbPath, &info) == 0
        if hasDatabase && (info.st_mode & S_IFMT) != S_IFREG {
            throw LibraryError.unsafeLibrary("\(dbPath) is not a regular file; cravey does not follow links inside its library")
        }
        if !hasDatabase {
            // Only an empty directory, or one holding nothing but cravey's own names, becomes a library.
            let foreign = files.entries(root).filter { !FileStore.ownTopLevelNames.contains($0) }
            if let first = foreign.first {
                throw LibraryError.unsafeLibrary(
                    "\(root) is not a cravey library: it holds other files ('\(first)'\(foreign.count > 1 ? " and \(foreign.count - 1) more" : "")); use an empty directory or one cravey made")
            }
        }
        try files.prepare()
        var rebuild: String?
        if !hasDatabase {
            let fd = open(dbPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard fd >= 0 else { throw systemError("create", dbPath) }
            close(fd)
            if !files.craveyMediaFiles().isEmpty { rebuild = "the library database was missing" }
        }
        do {
            store = try Self.openStore(dbPath, faults: faults)
        } catch Store.OpenFailure.corrupt(let message) {
            // Never deleted: the damaged database is kept beside the new one for whoever wants it.
            let kept = dbPath + ".damaged-\(Int(Date().timeIntervalSince1970))"
            guard Glibc.rename(dbPath, kept) == 0 else { throw systemError("rename", dbPath) }
            for suffix in ["-wal", "-shm"] { _ = Glibc.rename(dbPath + suffix, kept + suffix) }
            let fd = open(dbPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard fd >= 0 else { throw systemError("create", dbPath) }
            close(fd)
            store = try Self.openStore(dbPath, faults: faults)
            rebuild = "the library database was damaged (\(message); kept as \((kept as NSString).lastPathComponent))"
        }
        files.keepReserve()
        var report = try recoverInterrupted()
        if let rebuild {
            report.rebuiltDatabase = rebuild
            try wrap {
                let lock = try lockLibrary()
                defer { lock.release() }
                try relistOrphans(into: &report)
            }
        }
        openingReport = report
    }

    private static func openStore(_ path: String, faults: Faults) throws -> Store {
        do {
            return try Store(path: path, faults: faults)
        } catch let error as LibraryError {
            throw error
        } catch let error as Store.OpenFailure {
            if case .foreign = error {
                throw LibraryError.unsafeLibrary("\(path) is the database of another program; this directory is not a cravey library")
            }
            throw error
        } catch {
            throw LibraryError.database(describe(error))
        }
    }

    /// False when the library could only be opened for reading (a read-only disk or database):
    /// listing and playing work, changes are refused with one line.
    public var isWritable: Bool { store.writable }

    /// What opening the library found and finished of an interrupted run (usually nothing).
    public private(set) var openingReport = Report()

    /// The default location: `$CRAVEY_LIBRARY`, else `${XDG_DATA_HOME:-~/.local/share}/cravey`.
    public static func defaultRoot(environment env: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = env["CRAVEY_LIBRARY"], !dir.isEmpty { return dir }
        if let data = env["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/cravey" }
        let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/cravey"
    }

    /// The absolute path of a recording's file. A row whose path is not the one cravey gives its
    /// id, or that leads outside the library or to a link, is refused.
    public func file(of recording: Recording) throws -> String { try files.file(of: recording) }

    /// The absolute path of a recording's thumbnail (nil without one), under the same rule.
    public func thumbnail(of recording: Recording) throws -> String? { try files.thumbnail(of: recording) }

    // MARK: - Reading

    /// Recordings newest first, optionally filtered. Rows whose file has vanished are not listed.
    public func recordings(kind: Recording.Kind? = nil, purpose: Recording.Purpose? = nil) throws -> [Recording] {
        try wrap { try store.recordings(kind: kind, purpose: purpose).filter(hasFile) }
    }

    /// The `limit` most played recordings (playCount desc, lastPlayedAt desc, newest).
    public func top(_ limit: Int = 3) throws -> [Recording] {
        let limit = min(max(limit, 0), 1_000_000)  // any count from the command line, without overflow
        return try wrap {
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
            _ = fchmod(staged.lock.fd, 0o600)
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
        }
    }

    /// Deletes every recording, all or nothing (see the type's doc). Files in `Recordings/` that
    /// cravey did not make stay where they are.
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
                try files.withReserve { try store.deleteAllRecordings() }
            } catch {
                _ = rmdir(files.path(FileStore.thumbnailsDir))
                _ = rmdir(recordings)
                _ = Glibc.rename(purging, recordings)
                throw error
            }
            try? finishPurge()
        }
    }

    // MARK: - Helpers

    /// A hold on the library lock (flock on `library.lock`, re-entrant within this process).
    struct LockHold {
        let release: () -> Void
    }

    /// Takes the library lock; mutations and recovery run under it, readers never wait for it.
    /// Another process holding it is waited for `lockWaitSeconds` at most (told once through
    /// `onLockWait`), then this fails with one line instead of hanging.
    func lockLibrary() throws -> LockHold {
        lockState.lock()
        if lockDepth == 0 {
            do {
                let path = root + "/library.lock"
                let deadline = Date().addingTimeInterval(lockWaitSeconds)
                var told = false
                while true {
                    if let lock = try FileLock(path: path, wait: false) {
                        heldLock = lock
                        break
                    }
                    guard Date() < deadline else {
                        throw LibraryError.busy(
                            "the library is busy: another cravey process has held it for \(Int(lockWaitSeconds)) s (a recording being saved, or a stuck process); nothing was changed")
                    }
                    if !told { told = true; onLockWait?() }
                    usleep(50_000)
                }
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
        guard let path = try? files.file(of: recording) else { return false }
        return access(path, F_OK) == 0
    }

    /// Runs `body`, turning database errors into `LibraryError` with SQLite's message.
    func wrap<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as LibraryError {
            throw error
        } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_READONLY {
            throw LibraryError.readOnly("the library at \(root) is read-only (\(error.message ?? "read-only database")); nothing was changed")
        } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_FULL {
            throw LibraryError.system(operation: "write", path: root + "/library.sqlite", errno: ENOSPC)
        } catch {
            throw LibraryError.database(Self.describe(error))
        }
    }

    static func describe(_ error: Error) -> String {
        let text = "\(error)"
        return text.replacingOccurrences(of: "\n", with: " ")
    }
}
