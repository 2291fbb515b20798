import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// The library's files on disk, and the few POSIX steps the atomic rules are made of.
///
/// Layout under the library root:
/// ```
/// library.sqlite          the store
/// library.lock            flock(2) target that serialises mutations and recovery
/// Recordings/             audio_<UUID>.m4a, video_<UUID>.mov
/// Recordings/Thumbnails/  video_<UUID>_thumb.jpg
/// .incoming/              files being written (temporary names; each held under flock by its writer)
/// .trash/                 files of a delete in progress (gone once the delete completes)
/// .purging/               the old Recordings/ of a purge in progress
/// ```
/// Directories are 0700 and files 0600. Every step goes through `faults`.
struct FileStore: Sendable {
    let root: String
    let faults: Faults

    static let recordingsDir = "Recordings"
    static let thumbnailsDir = "Recordings/Thumbnails"
    static let incomingDir = ".incoming"
    static let trashDir = ".trash"
    static let purgingDir = ".purging"

    func path(_ relative: String) -> String { root + "/" + relative }

    /// What an entry cravey makes in a library is.
    enum OwnKind { case file, directory }

    /// Everything cravey itself makes at a library's top level, one list for every rule that asks
    /// "is this cravey's?": a directory holding only these names (and no database) is a library
    /// whose database was lost, not someone else's folder; `check` holds each to private modes;
    /// and none of them may be a symbolic link (`refuseLinks`), so nothing cravey writes, chmods
    /// or copies there can lead outside the library.
    static let ownEntries: [String: OwnKind] = [
        "library.sqlite": .file, "library.sqlite-wal": .file, "library.sqlite-shm": .file,
        "library.sqlite-journal": .file,
        "library.sqlite.restoring": .file, "library.lock": .file, workerLockFile: .file, syncLockFile: .file,
        reserveFile: .file,
        rebuildingMarker: .file, journalFile: .file, journalFile + ".new": .file, setAsideFile: .file,
        lostNoteFile: .file, waitingLogsFile: .file, "nudge.state": .file, "nudge.pending": .file,
        recordingsDir: .directory, incomingDir: .directory, trashDir: .directory, purgingDir: .directory,
        quarantineDir: .directory, snapshotsDir: .directory, backupLinksDir: .directory,
    ]
    /// The journal of logs and settings, and its next version while it is written again (see
    /// `Library.flushJournal`).
    static let journalFile = "logs.journal"
    /// Journal lines that could not be replayed, kept as they were (see `Library.replayJournal`).
    static let setAsideFile = "logs.journal.set-aside"
    /// What a rebuild could not bring back, until `check --repair` is told it is known.
    static let lostNoteFile = "logs.journal.lost"
    /// The transcript worker's own lock (one worker a library).
    static let workerLockFile = "transcripts.lock"
    /// Held by whoever writes this machine's changes to the sync folder (one writer at a time,
    /// so no line is written twice; see `Library.pushSyncOutbox`).
    static let syncLockFile = "sync.lock"
    /// The database's daily snapshots (see `Library.snapshots`).
    static let snapshotsDir = "Snapshots"
    /// Second links to the recordings a backup is copying, so it copies them as they were when
    /// its snapshot was taken, in each backup's own folder (see `BackupWorkDirectory`).
    static let backupLinksDir = ".backup"
    /// Present while the database is being rebuilt from the files (see `Library.init`).
    static let rebuildingMarker = ".rebuilding"
    /// A damaged database is kept as `library.sqlite.damaged-<seconds>` (with its -wal and -shm).
    static let damagedSuffix = ".damaged-"

    static func isOwnTopLevelName(_ name: String) -> Bool {
        ownEntries[name] != nil || name.hasPrefix("library.sqlite" + damagedSuffix)
    }

    /// Refuses a library in which any of cravey's own names (`ownEntries`, and the thumbnails'
    /// directory) is a symbolic link: the whole library, with one line, before anything is
    /// written. A damaged database kept aside is only ever renamed, never written through.
    func refuseLinks() throws {
        for name in Self.ownEntries.keys.sorted() + [Self.thumbnailsDir] {
            var info = stat()
            if lstat(path(name), &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
                throw LibraryError.unsafeLibrary(
                    "\(path(name)) is a symbolic link; cravey does not follow links inside its library (move it away and run cravey again)"
                )
            }
        }
    }

    /// Makes the library root and its snapshots' folder 0700 and the database with its journal,
    /// -wal and -shm, the journal of logs and the snapshots 0600 again
    /// where something loosened them (without following a link; only what the user owns). SQLite
    /// gives a new -wal or -shm the database's own mode, so this runs before the database opens.
    /// Returns why it could not, when it could not.
    func tightenPrivacy() -> String? {
        var problems: [String] = []
        let snapshots = entries(path(Self.snapshotsDir)).filter {
            $0.hasPrefix("library-") || $0.hasPrefix(".library-")
        }
        let own: [(String, mode_t)] = [
            ("", 0o700), ("library.sqlite", 0o600), ("library.sqlite-wal", 0o600),
            ("library.sqlite-shm", 0o600), ("library.sqlite-journal", 0o600), (Self.journalFile, 0o600),
            (Self.setAsideFile, 0o600), (Self.lostNoteFile, 0o600), (Self.snapshotsDir, 0o700),
        ]
        for (name, mode) in own + snapshots.map({ (Self.snapshotsDir + "/" + $0, mode_t(0o600)) }) {
            let full = name.isEmpty ? root : path(name)
            guard let current = self.mode(full), current & 0o077 != 0 else { continue }
            if let problem = makePrivate(full, mode: mode) { problems.append(problem) }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// Where `check --repair` moves files that look like cravey's but cannot be listed.
    static let quarantineDir = "Quarantine"
    /// Space held back so that a delete can commit on a full disk (see `Library.withReserve`).
    static let reserveFile = ".reserve"

    /// Creates the directory tree with private permissions (and tightens it if it exists).
    ///
    /// A library is private: its root must belong to the user running cravey and must not be
    /// writable by others, and no directory inside it may be a symbolic link (cravey would write
    /// and chmod through it, outside the library). Anything else is refused with one line.
    func prepare() throws {
        try makePrivateDirectory(root, tighten: false)
        try checkOwnership(root, what: "library directory")
        try refuseLinks()
        for dir in [Self.recordingsDir, Self.thumbnailsDir, Self.incomingDir, Self.trashDir] {
            try makePrivateDirectory(path(dir), tighten: true)
            try checkOwnership(path(dir), what: dir)
        }
    }

    /// Refuses a directory that is a symbolic link, is owned by someone else, or that others can write.
    func checkOwnership(_ dir: String, what: String) throws {
        var info = stat()
        guard lstat(dir, &info) == 0 else { throw systemError("open", dir) }
        if (info.st_mode & S_IFMT) == S_IFLNK && dir != root {
            throw LibraryError.unsafeLibrary(
                "\(dir) is a symbolic link; cravey does not follow links inside its library")
        }
        if dir == root { _ = stat(dir, &info) }  // the root itself may be reached through a link
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw LibraryError.unsafeLibrary("\(dir) is not a directory")
        }
        guard info.st_uid == geteuid() else {
            throw LibraryError.unsafeLibrary(
                "the \(what) \(dir) belongs to another user (uid \(info.st_uid)); cravey keeps a library only in a directory of yours"
            )
        }
        guard info.st_mode & 0o022 == 0 else {
            throw LibraryError.unsafeLibrary(
                "the \(what) \(dir) can be written by others (mode \(String(info.st_mode & 0o777, radix: 8))); make it private with chmod 700"
            )
        }
    }

    /// The absolute path of a row's file, after checking it stays inside the library even through
    /// symbolic links: a row that points elsewhere, or at a symbolic link, is never opened or deleted.
    func resolve(_ relative: String) throws -> String {
        _ = try Validation.libraryRelativePath(relative)
        let full = path(relative)
        let parent = (full as NSString).deletingLastPathComponent
        guard let realParent = realPath(parent), let realRecordings = realPath(path(Self.recordingsDir)),
            realParent == realRecordings || realParent.hasPrefix(realRecordings + "/")
        else { throw LibraryError.unsafePath(relative) }
        var info = stat()
        if lstat(full, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG { throw LibraryError.unsafePath(relative) }
        return full
    }

    /// The file of a recording: the row's path must be the one cravey gives that id and kind, so a
    /// tampered row can never make cravey open or delete another recording's file (or anything else).
    /// A canonical path lies directly in `Recordings/` or `Recordings/Thumbnails/`, which opening
    /// the library checked are real directories of the user's (`prepare`), so only the file itself
    /// needs a look: it must not be a link (listings call this for every row).
    func file(of recording: Recording) throws -> String {
        guard recording.filePath == recording.canonicalFilePath else {
            throw LibraryError.unsafePath(recording.filePath)
        }
        return try notALink(recording.filePath)
    }

    /// The thumbnail of a recording, under the same rule.
    func thumbnail(of recording: Recording) throws -> String? {
        guard let thumb = recording.thumbnailPath else { return nil }
        guard thumb == recording.canonicalThumbnailPath else { throw LibraryError.unsafePath(thumb) }
        return try notALink(thumb)
    }

    private func notALink(_ relative: String) throws -> String {
        let full = path(relative)
        var info = stat()
        if lstat(full, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG { throw LibraryError.unsafePath(relative) }
        return full
    }

    // MARK: - Steps

    func rename(_ from: String, _ to: String, site: String) throws {
        try faults.hit(site)
        guard Glibc.rename(from, to) == 0 else { throw systemError("rename", from) }
    }

    /// A second name for a file (a hard link), in the same file system.
    func link(_ existing: String, _ new: String, site: String) throws {
        try faults.hit(site)
        guard Glibc.link(existing, new) == 0 else { throw systemError("link", existing) }
    }

    /// Whether two paths name the same file (device and inode).
    func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        return lstat(a, &x) == 0 && lstat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    func unlink(_ file: String, site: String) throws {
        try faults.hit(site)
        guard Glibc.unlink(file) == 0 || errno == ENOENT else { throw systemError("delete", file) }
    }

    /// fsync of a file or directory, so a rename or write survives power loss.
    func sync(_ file: String, site: String) throws {
        try faults.hit(site)
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw systemError("open", file) }
        defer { close(fd) }
        guard retryingEINTR({ fsync(fd) }) == 0 else { throw systemError("fsync", file) }
    }

    func makeDirectory(_ dir: String, site: String) throws {
        try faults.hit(site)
        guard mkdir(dir, 0o700) == 0 || errno == EEXIST else { throw systemError("create directory", dir) }
        _ = chmod(dir, 0o700)
    }

    func makePrivateDirectory(_ dir: String, tighten: Bool) throws {
        if mkdir(dir, 0o700) == 0 { return }
        if errno == ENOENT {
            try FileManager.default.createDirectory(
                atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return
        }
        guard errno == EEXIST else { throw systemError("create directory", dir) }
        var info = stat()
        guard lstat(dir, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR || dir == root else {
            if (info.st_mode & S_IFMT) == S_IFLNK {
                throw LibraryError.unsafeLibrary(
                    "\(dir) is a symbolic link; cravey does not follow links inside its library")
            }
            throw LibraryError.invalid(field: "library", reason: "\(dir) exists and is not a directory")
        }
        if tighten, info.st_mode & 0o077 != 0, info.st_uid == geteuid() { _ = chmod(dir, 0o700) }
    }

    /// Names of the entries of a directory (not `.`/`..`), or an empty list if it does not exist.
    func entries(_ dir: String) -> [String] {
        guard let handle = opendir(dir) else { return [] }
        return readNames(handle).sorted()
    }

    func exists(_ file: String) -> Bool {
        var info = stat()
        return lstat(file, &info) == 0
    }

    /// A regular file itself, not a link to one.
    func isRegularFile(_ file: String) -> Bool {
        var info = stat()
        return lstat(file, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    func modificationDate(_ file: String) -> Date? {
        var info = stat()
        guard lstat(file, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    /// cravey's media files in `Recordings/` (by name, regular files only): id, kind, relative path.
    func craveyMediaFiles() -> [(id: UUID, kind: Recording.Kind, relative: String)] {
        entries(path(Self.recordingsDir)).compactMap { name in
            guard let owner = Recording.owner(ofFileName: name), !owner.isThumbnail,
                isRegularFile(path(Self.recordingsDir) + "/" + name)
            else { return nil }
            return (owner.id, owner.kind, Self.recordingsDir + "/" + name)
        }
    }

    /// Sets `mode` on a file or directory of the user's without following a link (a planted link
    /// never makes cravey chmod something outside the library).
    /// Returns why it could not (nil: done, or nothing there).
    @discardableResult
    func makePrivate(_ file: String, mode: mode_t) -> String? {
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return errno == ENOENT ? nil : "\(file): \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return "\(file): \(String(cString: strerror(errno)))" }
        guard info.st_uid == geteuid() else { return "\(file) belongs to another user (uid \(info.st_uid))" }
        guard fchmod(fd, mode) == 0 else { return "\(file): \(String(cString: strerror(errno)))" }
        return nil
    }

    // MARK: - Space for a delete on a full disk

    /// Bytes held in `.reserve`: enough for the database commits of a delete or a purge.
    static let reserveBytes: off_t = 512 << 10

    /// Makes sure the reserve holds its space (best effort: on a full disk it stays as it is).
    func keepReserve() {
        let fd = open(path(Self.reserveFile), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_blocks * 512 < Self.reserveBytes else { return }
        if posix_fallocate(fd, 0, Self.reserveBytes) != 0 { _ = ftruncate(fd, info.st_size) }
    }

    /// Runs `body`; if it fails for want of space, gives the reserve back to the disk and tries once
    /// more. Deleting is how a user frees space, so a delete must be able to commit on a full disk.
    func withReserve<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch  where Self.isNoSpace(error) {
            let fd = open(path(Self.reserveFile), O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else { throw error }
            _ = ftruncate(fd, 0)
            close(fd)
            return try body()
        }
    }

    static func isNoSpace(_ error: Error) -> Bool {
        if let error = error as? DatabaseError { return error.resultCode.primaryResultCode == .SQLITE_FULL }
        if case let .system(_, _, code)? = error as? LibraryError { return code == ENOSPC }
        return false
    }

    /// Whether a file starts as the .m4a and .mov files cravey writes do: an ISO base media box
    /// (`ftyp`, `moov`, `mdat`, `free`, `skip`, `wide`) at its first byte. A first look only, read
    /// without opening any media library.
    func startsLikeMedia(_ file: String) -> Bool {
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 8)
        guard header.withUnsafeMutableBytes({ read(fd, $0.baseAddress, 8) }) == 8 else { return false }
        let size = header[0..<4].reduce(0) { $0 << 8 | UInt32($1) }
        let type = String(decoding: header[4..<8], as: UTF8.self)
        return (size == 0 || size == 1 || size >= 8) && ["ftyp", "moov", "mdat", "free", "skip", "wide"].contains(type)
    }

    func isDirectory(_ file: String) -> Bool {
        var info = stat()
        return lstat(file, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    func size(_ file: String) -> Int64? {
        var info = stat()
        return stat(file, &info) == 0 ? Int64(info.st_size) : nil
    }

    func mode(_ file: String) -> mode_t? {
        var info = stat()
        return lstat(file, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    /// Removes a directory tree entry by entry, each unlink a fault site.
    func removeTree(_ dir: String, site: String) throws {
        for name in entries(dir) {
            let child = dir + "/" + name
            if isDirectory(child) {
                try removeTree(child, site: site)
            } else {
                try unlink(child, site: site)
            }
        }
        try faults.hit(site)
        guard rmdir(dir) == 0 || errno == ENOENT else { throw systemError("remove directory", dir) }
    }

    private func realPath(_ file: String) -> String? {
        guard let resolved = realpath(file, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// The names in an opened directory stream (not `.`/`..`), which it closes.
func readNames(_ handle: OpaquePointer) -> [String] {
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
        let name = withUnsafePointer(to: entry.pointee.d_name) {
            $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

/// The error for a failed system call, with errno read at once.
func systemError(_ operation: String, _ path: String) -> LibraryError {
    .system(operation: operation, path: path, errno: errno)
}

/// An open file read from where it stands to its end: a read that fails (a stick going bad, a
/// network mount that errs) is a `LibraryError` naming the file, never a crash.
func readToEnd(_ fd: Int32, named path: String) throws -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    while true {
        let count = buffer.withUnsafeMutableBytes { raw in retryingEINTR { read(fd, raw.baseAddress, raw.count) } }
        guard count >= 0 else { throw systemError("read", path) }
        if count == 0 { return data }
        data.append(contentsOf: buffer[0..<count])
    }
}

/// Retries a system call interrupted by a signal.
@discardableResult
func retryingEINTR<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}

/// An exclusive advisory lock (flock) on a file, released on close or process death.
final class FileLock: Sendable {
    let fd: Int32

    /// Opens (creating 0600) and locks `path`. `wait: false` returns nil when someone holds it;
    /// `exclusiveCreate` fails if the file exists already.
    init?(path: String, wait: Bool = true, exclusiveCreate: Bool = false) throws {
        // O_NOFOLLOW: a link planted in the library never makes cravey create or write elsewhere.
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (exclusiveCreate ? O_EXCL : 0), 0o600)
        guard fd >= 0 else { throw systemError("open", path) }
        let result = retryingEINTR { flock(fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB) }
        if result != 0 {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { return nil }
            throw LibraryError.system(operation: "lock", path: path, errno: code)
        }
    }

    deinit { close(fd) }
}

/// True when another process holds a flock on `path` (a file being written right now).
func isLockedByOther(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return retryingEINTR({ flock(fd, LOCK_EX | LOCK_NB) }) != 0 && errno == EWOULDBLOCK
}
