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
// Unchecked: the compiler cannot see the library lock, which guards the mutable state. Its
// in-process side (`lockDepth`, `heldLock`, under `lockState`) is re-entrant and held from
// `lockLibrary` until its `LockHold` is released, across calls, which a Mutex (held only for one
// closure) cannot express. The other `var`s are set while the library is opened, before anyone
// else has it, or with the library lock held (`snapshotChecked`, `snapshotProblem`,
// `journalProblem`), and read by the command after; the store is GRDB's, which serialises itself.
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
    public let lockWaitSeconds: Double
    /// Told once when a mutation starts waiting for the library lock (for a message to the user).
    public let onLockWait: (@Sendable () -> Void)?
    /// Reading media for recovery, from the floor above (nil: the library does without).
    let media: MediaRecovery?
    /// Whether changes take the day's snapshot first (not while the library is being opened).
    var snapshotsEnabled = false
    /// Whether this process has looked for the day's snapshot already.
    var snapshotChecked = false
    /// Why opening could not make the library private again (0700, the database 0600), when a
    /// mode was loosened and could not be tightened.
    public private(set) var privacyProblem: String?
    /// Why the journal of logs could not be written after a change, when it could not (the change
    /// is kept in the database; the next command writes what is missing).
    public internal(set) var journalProblem: String?
    /// Why the day's snapshot could not be taken, when it could not.
    public internal(set) var snapshotProblem: String?
    /// The session's clock (a test's clock under test): it stamps the changes shared through a sync
    /// folder and a recording's edit or trim.
    public var syncWallClock: @Sendable () -> Date = { Date() }
    /// The logs a sync's merge just put as their shared fields give them (nothing to tell the folder).
    var syncMerged: Set<String> = []

    /// Opens the library at `root`, creating it (0700) if needed, and finishes any operation an
    /// earlier run left half-done. A lost or damaged database is rebuilt from the recordings' files.
    ///
    /// `lockWaitSeconds`: how long a change waits for another process holding the lock.
    public init(
        root: String, faults: Faults = .none, lockWaitSeconds: Double = 10, media: MediaRecovery? = nil,
        onLockWait: (@Sendable () -> Void)? = nil
    ) throws {
        umask(0o077)
        let root = try Self.realRoot(root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root)
        self.root = root
        self.faults = faults
        self.onLockWait = onLockWait
        self.media = media
        self.lockWaitSeconds = lockWaitSeconds
        self.files = FileStore(root: root, faults: faults)
        try files.makePrivateDirectory(root, tighten: false)
        let dbPath = root + "/library.sqlite"
        var (hasDatabase, loss, keepsOwnFiles) = try Self.survey(dbPath, root: root, files: files)
        try files.prepare()
        // A library is made (or its lost database rebuilt) by one process at a time; the others
        // wait here, then find it made. The lock is held to the end of opening.
        var setupLock: FileLock?
        if loss != nil {
            setupLock = try Self.lockForSetup(root: root, seconds: lockWaitSeconds, onWait: onLockWait)
            (hasDatabase, loss, keepsOwnFiles) = try Self.survey(dbPath, root: root, files: files)
        }
        privacyProblem = files.tightenPrivacy().map {
            "the library at \(root) could not be made private again (\($0)); others may be able to read it"
        }
        var rebuild: String?
        var restoredSnapshot: Snapshot?
        // A database that is missing, empty or cut short while the library holds recordings or
        // snapshots was lost: it is rebuilt from the newest good snapshot and the files.
        if let loss, keepsOwnFiles {
            restoredSnapshot = try Self.replaceLostDatabase(
                dbPath, files: files, faults: faults, keep: loss != "missing" && loss != "empty",
                lockHeld: setupLock != nil)
            rebuild = "the library database was \(loss)"
        } else if !hasDatabase {
            let fd = open(dbPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard fd >= 0 || errno == EEXIST else { throw systemError("create", dbPath) }
            if fd >= 0 { close(fd) }
        }
        // A database behind this cravey's schema is migrated under the lock too.
        let lockToMigrate = { [lockWaitSeconds, onLockWait] () throws in
            if setupLock == nil {
                setupLock = try Self.lockForSetup(root: root, seconds: lockWaitSeconds, onWait: onLockWait)
            }
        }
        do {
            store = try Self.openStore(dbPath, faults: faults, lockToMigrate: lockToMigrate)
        } catch Store.OpenFailure.corrupt(let message) {
            try lockToMigrate()
            restoredSnapshot = try Self.replaceLostDatabase(
                dbPath, files: files, faults: faults, keep: true, lockHeld: setupLock != nil)
            store = try Self.openStore(dbPath, faults: faults, lockToMigrate: lockToMigrate)
            rebuild = "the library database was damaged (\(message))"
        }
        // What opening does under the lock from here on holds the setup lock (re-entrant).
        if let setupLock {
            heldLock = setupLock
            lockDepth = 1
        }
        defer {
            if setupLock != nil {
                lockDepth = 0
                heldLock = nil
            }
        }
        files.keepReserve()
        var report = Report()
        report.restoredSnapshot = restoredSnapshot
        report.merge(try recoverInterrupted())
        // A rebuild that was interrupted (or a database emptied from outside) is taken up again:
        // a database that lists nothing while Recordings/ holds cravey's recordings lost its rows.
        let marker = files.path(FileStore.rebuildingMarker)
        if rebuild == nil, isWritable, files.exists(marker) {
            rebuild = "an interrupted rebuild of the library database was taken up again"
        }
        if rebuild == nil, isWritable, try translatingDatabaseErrors({ try store.isEmpty() }),
            !files.craveyMediaFiles().isEmpty
        {
            rebuild = "the library database listed none of the recordings in Recordings/"
        }
        if let rebuild {
            report.rebuiltDatabase = rebuild
            try translatingDatabaseErrors {
                let lock = try lockLibrary()
                defer { lock.release() }
                // The marker is durable before the first row and gone after the last: a rebuild
                // killed half-way is finished by the next command.
                let fd = open(marker, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
                guard fd >= 0 else { throw systemError("create", marker) }
                close(fd)
                try files.sync(root, site: "rebuild.fsync.root")
                try forgetRowsWithoutFiles(into: &report)
                try refreshFromFiles(into: &report)
                try relistOrphans(into: &report)
                // Then every log and setting typed since the snapshot, from the journal.
                try finishRebuild(into: &report)
            }
        }
        openingReport = report
        // Logs kept while another process held the library are written now, if it is free.
        if hasWaitingLogs {
            if lockDepth > 0 {
                writeWaitingLogs()
            } else if let lock = try? lockLibrary(waitingAtMost: 0) {
                lock.release()
            }
        }
        snapshotsEnabled = true
    }

    private static func openStore(_ path: String, faults: Faults, lockToMigrate: () throws -> Void) throws
        -> Store
    {
        do {
            return try Store(path: path, faults: faults, lockToMigrate: lockToMigrate)
        } catch let error as LibraryError {
            throw error
        } catch let error as Store.OpenFailure {
            if case .foreign = error {
                throw LibraryError.unsafeLibrary(
                    "\(path) is the database of another program; this directory is not a cravey library")
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

    /// The absolute path of a recording's file. A row whose path is not the one cravey gives its
    /// id, or that leads outside the library or to a link, is refused.
    public func file(of recording: Recording) throws -> String { try files.file(of: recording) }

    /// The absolute path of a recording's thumbnail (nil without one), under the same rule.
    public func thumbnail(of recording: Recording) throws -> String? { try files.thumbnail(of: recording) }

    // MARK: - Reading

    /// Messages newest first, optionally filtered (check-ins are not messages; `includingCheckIns`
    /// lists every row, as an export does). Rows whose file has vanished are not listed.
    public func recordings(
        kind: Recording.Kind? = nil, purpose: Recording.Purpose? = nil, includingCheckIns: Bool = false
    ) throws -> [Recording] {
        try translatingDatabaseErrors {
            try store.recordings(kind: kind, purpose: purpose, section: includingCheckIns ? .all : .messages).filter(
                hasFile)
        }
    }

    /// The `limit` most played messages (playCount desc, lastPlayedAt desc, newest).
    public func top(_ limit: Int = 3) throws -> [Recording] {
        let limit = min(max(limit, 0), 1_000_000)  // any count from the command line, without overflow
        return try translatingDatabaseErrors {
            var result = try store.top(limit).filter(hasFile)
            if result.count < limit, try store.messageCount() > result.count {
                result = try store.top(limit + 1000).filter(hasFile).prefix(limit).map { $0 }
            }
            return result
        }
    }

    /// The recording with this id (full or a unique prefix, any case).
    public func recording(matching key: String) throws -> Recording {
        try translatingDatabaseErrors {
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
            let matches = try translatingDatabaseErrors { try store.recordings(titlePrefix: key) }
            let exact = matches.filter { $0.title.lowercased() == key.lowercased() }
            if matches.count == 1 { return matches[0] }
            if exact.count == 1 { return exact[0] }  // "Walk" beats "Walk 2" when typed in full
            if matches.isEmpty { throw LibraryError.notFound(key) }
            throw LibraryError.ambiguous(key, candidates: matches.map { "\($0.id.uuidString.prefix(8)) '\($0.title)'" })
        }
    }

    public func count() throws -> Int { try translatingDatabaseErrors { try store.count() } }

    // MARK: - Helpers

    /// A hold on the library lock (flock on `library.lock`, re-entrant within this process).
    struct LockHold {
        let release: () -> Void
    }

    /// Takes the library lock; mutations and recovery run under it, readers never wait for it.
    /// Another process holding it is waited for `lockWaitSeconds` at most (told once through
    /// `onLockWait`), then this fails with one line instead of hanging.
    ///
    /// `waitingAtMost`: seconds to wait instead of `lockWaitSeconds` (a log waits briefly, then is
    /// kept in `logs.waiting`). The logs kept there are written first thing once the lock is
    /// taken, and once more before it is let go.
    func lockLibrary(waitingAtMost wait: Double? = nil) throws -> LockHold {
        lockState.lock()
        if lockDepth == 0 {
            do {
                let path = root + "/library.lock"
                let wait = wait ?? lockWaitSeconds
                let deadline = Date().addingTimeInterval(wait)
                var told = false
                while true {
                    do {
                        if let lock = try FileLock(path: path, wait: false) {
                            heldLock = lock
                            break
                        }
                    } catch LibraryError.system(_, _, let code) where code == EROFS || (code == EACCES && !isWritable) {
                        // A library no one can change (a read-only disk) needs no lock to be read
                        // whole: a backup or a check of it goes on; a change is refused by SQLite.
                        break
                    }
                    guard Date() < deadline else {
                        throw LibraryError.busy(
                            "the library is busy: another cravey process has held it for \(Int(wait.rounded(.up))) s (a recording being saved, or a stuck process); nothing was changed"
                        )
                    }
                    if !told, wait >= 1 { told = true; onLockWait?() }
                    usleep(wait >= 1 ? 50_000 : 10_000)
                }
            } catch {
                lockState.unlock()
                throw error
            }
        }
        lockDepth += 1
        if lockDepth == 1 {
            writeWaitingLogs()
            takeSnapshotIfDue(now: Date())  // before the day's first change (the device's own day)
        }
        return LockHold { [self] in
            if lockDepth == 1 { writeWaitingLogs() }  // kept while this process held the lock
            lockDepth -= 1
            if lockDepth == 0 { heldLock = nil }
            lockState.unlock()
        }
    }

    /// Whether a row's file is there: its own canonical name, a regular file (one lstat a row).
    func hasFile(_ recording: Recording) -> Bool {
        recording.filePath == recording.canonicalFilePath && files.isRegularFile(files.path(recording.filePath))
    }

    /// Runs `body`, turning database errors into `LibraryError` with SQLite's message.
    func translatingDatabaseErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as LibraryError {
            throw error
        } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_READONLY {
            throw LibraryError.readOnly(
                "the library at \(root) is read-only (\(error.message ?? "read-only database")); nothing was changed")
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
