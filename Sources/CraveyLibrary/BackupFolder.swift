import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A backup folder, read and written as untrusted input.
///
/// A backup may sit on a share, a USB disk or a synced folder that others can write to, so neither
/// its manifest nor what stands in it decides where cravey goes. Every path inside it is a relative
/// path of plain names (no `..` or `.`, not absolute, no empty part, no control character), reached
/// from the folder's own descriptor one name at a time with `O_NOFOLLOW`: a symbolic link anywhere
/// along a path — planted in the folder or named by a manifest — is refused, never followed. (The
/// walk does by hand what `openat2`'s `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS` does, on every
/// kernel.) So cravey reads, writes and deletes only regular files inside the folder it was given.
final class BackupFolder {
    /// The folder as named, made absolute (for messages).
    let path: String
    private let fd: Int32

    /// Opens the folder. The folder itself may be reached through a link the person named;
    /// nothing inside it is.
    init(path: String) throws {
        self.path = path
        let opened = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard opened >= 0 else {
            if errno == ENOTDIR { throw LibraryError.invalid(field: "directory", reason: "\(path) is not a directory") }
            throw systemError("open", path)
        }
        fd = opened
    }

    deinit { close(fd) }

    /// Whether this folder is the directory at `other`, inside it, or holds it: compared by the
    /// directories themselves (device and inode, up through `..`), so no other name for a
    /// directory (a link, a bind mount, `/proc/self/cwd`) hides it. Unreadable: no.
    func overlaps(_ other: String) -> Bool {
        let theirs = open(other, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard theirs >= 0 else { return false }
        defer { close(theirs) }
        func identity(_ dir: Int32) -> [UInt64]? {
            var info = stat()
            return fstat(dir, &info) == 0 ? [UInt64(info.st_dev), UInt64(info.st_ino)] : nil
        }
        /// The directory and every one above it, up to the root.
        func lineage(_ start: Int32) -> Set<[UInt64]> {
            var seen = Set<[UInt64]>()
            var dir = dup(start)
            while dir >= 0, let id = identity(dir), seen.insert(id).inserted {
                let up = openat(dir, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                close(dir)
                dir = up
            }
            if dir >= 0 { close(dir) }
            return seen
        }
        guard let mine = identity(fd), let their = identity(theirs) else { return false }
        return lineage(fd).contains(their) || lineage(theirs).contains(mine)
    }

    /// The folder's lock file: one backup writes into a folder at a time, and a check or a
    /// restore reads it while none is.
    static let lockName = ".cravey-backup.lock"

    /// A hold on the folder's lock (released when this is released). A backup writing into the
    /// folder notes in the lock file each file it is about to put there (path, size, SHA-256,
    /// fsynced first), so the next backup removes what one cut short left — each only while it
    /// still is what was noted, as a manifest's files are.
    final class Hold {
        private let fd: Int32
        init(_ fd: Int32) { self.fd = fd }
        deinit { if fd >= 0 { close(fd) } }

        struct Note: Equatable {
            var path: String
            var size: Int64
            var sha256: String
        }

        /// What the last backup to hold the lock noted (lines it did not finish are passed over).
        func notes() -> [Note] {
            guard fd >= 0, lseek(fd, 0, SEEK_SET) == 0 else { return [] }
            var data = [UInt8](repeating: 0, count: 1 << 20)
            let count = data.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return [] }
            return String(decoding: data[..<count], as: UTF8.self).split(separator: "\n").compactMap { line in
                let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard parts.count == 3, let size = Int64(parts[1]), parts[2].count == 64 else { return nil }
                return Note(path: parts[0], size: size, sha256: parts[2])
            }
        }

        /// Notes a file about to be put in the folder, durably.
        func note(_ note: Note) throws {
            guard fd >= 0 else { return }
            let line = Array("\(note.path)\t\(note.size)\t\(note.sha256)\n".utf8)
            guard lseek(fd, 0, SEEK_END) >= 0,
                line.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == line.count,
                retryingEINTR({ fsync(fd) }) == 0
            else { throw systemError("write", BackupFolder.lockName) }
        }

        /// Forgets the notes (the backup is whole, or what they named is gone).
        func clearNotes() {
            guard fd >= 0 else { return }
            _ = ftruncate(fd, 0)
            _ = fsync(fd)
        }
    }

    /// Takes the folder's lock (`flock` on `lockName`, made 0600 beside the backup): exclusive to
    /// write a backup (the file made if missing), shared to read one. Another process holding it
    /// is waited for `seconds` at most, then this fails in one line. A folder with no lock file
    /// (never written by this cravey), or on a filesystem without locks, is used without one.
    func lock(exclusive: Bool, waiting seconds: Double) throws -> Hold {
        // A reader makes nothing: a folder no new cravey has written to has no backup being written.
        let file =
            exclusive
            ? openat(fd, Self.lockName, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
            : openat(fd, Self.lockName, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if file < 0, !exclusive, errno != ELOOP { return Hold(-1) }
        guard file >= 0 else {
            if errno == ELOOP { throw refusal("\(Self.lockName) is a symbolic link") }
            throw systemError("create", path + "/" + Self.lockName)
        }
        var info = stat()
        guard fstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(file)
            throw refusal("\(Self.lockName) is not a regular file")
        }
        let deadline = Date().addingTimeInterval(seconds)
        while retryingEINTR({ flock(file, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) }) != 0 {
            let code = errno
            guard code == EWOULDBLOCK else {
                if exclusive && ![ENOLCK, EOPNOTSUPP, EINVAL].contains(code) {
                    close(file)
                    throw LibraryError.system(operation: "lock", path: path + "/" + Self.lockName, errno: code)
                }
                break  // a filesystem without locks: as before there were any
            }
            guard Date() < deadline else {
                close(file)
                throw LibraryError.backupFolder(
                    exclusive
                        ? "another backup is being written to \(path) right now; nothing was changed (run this one again when it has finished)"
                        : "a backup is being written to \(path) right now; nothing was read (try again when it has finished)"
                )
            }
            usleep(50_000)
        }
        return Hold(file)
    }

    /// Why `relative` may not name anything inside a backup (nil: it may).
    static func problem(withPath relative: String) -> String? {
        if relative.isEmpty { return "an empty path" }
        if relative.hasPrefix("/") { return "an absolute path" }
        if relative.utf8.count > 1024 { return "too long a path" }
        if relative.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "a path with a control character"
        }
        for part in relative.split(separator: "/", omittingEmptySubsequences: false) {
            if part.isEmpty { return "a path with an empty part" }
            if part == "." || part == ".." { return "a path that steps out ('\(part)')" }
        }
        return nil
    }

    /// A refusal: something in the folder that cravey does not read or write through.
    func refusal(_ what: String) -> LibraryError {
        .untrustedBackup("the backup at \(path) cannot be trusted: \(what); nothing was changed")
    }

    /// The directory at `relative` ("" for the folder itself), opened beneath the folder one name
    /// at a time without following a link; nil when it is missing (and not `create`d, 0700).
    func directory(_ relative: String, create: Bool = false) throws -> Int32? {
        var current = dup(fd)
        guard current >= 0 else { throw systemError("open", path) }
        var reached = ""
        for part in relative.split(separator: "/").map(String.init) {
            reached += (reached.isEmpty ? "" : "/") + part
            if create, mkdirat(current, part, 0o700) != 0, errno != EEXIST {
                let error = systemError("create directory", path + "/" + reached)
                close(current)
                throw error
            }
            let next = openat(current, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let code = errno
            close(current)
            guard next >= 0 else {
                if code == ENOENT { return nil }
                if code == ELOOP || code == ENOTDIR {
                    throw refusal(
                        "\(reached) is a symbolic link or not a directory (cravey never follows links in a backup)")
                }
                throw LibraryError.system(operation: "open", path: path + "/" + reached, errno: code)
            }
            current = next
        }
        return current
    }

    /// The directory holding `relative` and its last name.
    private func parent(of relative: String, create: Bool = false) throws -> (fd: Int32, name: String)? {
        let parentPath = (relative as NSString).deletingLastPathComponent
        guard let dir = try directory(parentPath, create: create) else { return nil }
        return (dir, (relative as NSString).lastPathComponent)
    }

    /// A regular file inside the folder opened for reading, with its size (nil: nothing there).
    /// A link, a directory or a device there is refused.
    func openFile(_ relative: String) throws -> (fd: Int32, size: Int64)? {
        guard let (dir, name) = try parent(of: relative) else { return nil }
        defer { close(dir) }
        let file = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            if code == ELOOP {
                throw refusal("\(relative) is a symbolic link (cravey never follows links in a backup)")
            }
            throw LibraryError.system(operation: "open", path: path + "/" + relative, errno: code)
        }
        var info = stat()
        guard fstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(file)
            throw refusal("\(relative) is not a regular file (cravey reads only regular files in a backup)")
        }
        return (file, Int64(info.st_size))
    }

    /// The size and SHA-256 of a regular file inside the folder (nil: nothing there).
    func hash(_ relative: String) throws -> (size: Int64, sha256: String)? {
        guard let (file, _) = try openFile(relative) else { return nil }
        defer { close(file) }
        return try FileCopy.sha256(of: file, named: path + "/" + relative)
    }

    /// Whether anything at all (a file, a directory, a link) stands at `relative`.
    func exists(_ relative: String) throws -> Bool {
        guard let (dir, name) = try parent(of: relative) else { return false }
        defer { close(dir) }
        var info = stat()
        return fstatat(dir, name, &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// A new file (0600, never over another, never through a link), its directories made as
    /// needed, open for writing.
    func create(_ relative: String) throws -> Int32 {
        guard let (dir, name) = try parent(of: relative, create: true) else {
            throw systemError("open", path + "/" + relative)
        }
        defer { close(dir) }
        let file = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw systemError("create", path + "/" + relative) }
        return file
    }

    /// Renames `relative` to `newName` in the same directory, refusing a name taken meanwhile
    /// (nothing is written over), then fsyncs the directory so the new name survives a power cut.
    ///
    /// The new name is made with `linkat`, which fails when the name exists at that very moment
    /// (what `renameat2`'s `RENAME_NOREPLACE` does, which Swift's Glibc does not declare); then the
    /// old name is removed. A filesystem without hard links (FAT on a USB stick) gets a look before
    /// the rename instead.
    func rename(_ relative: String, to newName: String, faults: Faults, site: String, syncSite: String) throws {
        guard let (dir, name) = try parent(of: relative) else { throw systemError("open", path + "/" + relative) }
        defer { close(dir) }
        try faults.hit(site)
        let taken = LibraryError.database("\(path)/\(newName) appeared while the backup ran; nothing was written over")
        if linkat(dir, name, dir, newName, 0) == 0 {
            guard unlinkat(dir, name, 0) == 0 else { throw systemError("remove", path + "/" + relative) }
        } else if errno == EEXIST {
            _ = unlinkat(dir, name, 0)
            throw taken
        } else if [EPERM, EOPNOTSUPP, EMLINK, EXDEV].contains(errno) {
            var info = stat()
            if fstatat(dir, newName, &info, AT_SYMLINK_NOFOLLOW) == 0 {
                _ = unlinkat(dir, name, 0)
                throw taken
            }
            guard renameat(dir, name, dir, newName) == 0 else { throw systemError("rename", path + "/" + relative) }
        } else {
            throw systemError("rename", path + "/" + relative)
        }
        try faults.hit(syncSite)
        guard retryingEINTR({ fsync(dir) }) == 0 else { throw systemError("fsync", path) }
    }

    /// Renames `relative` over `newName` in the same directory (the caller has checked what stands
    /// there is its own), then fsyncs the directory.
    func replace(_ relative: String, with newName: String, faults: Faults, syncSite: String) throws {
        guard let (dir, name) = try parent(of: relative) else { throw systemError("open", path + "/" + relative) }
        defer { close(dir) }
        guard renameat(dir, name, dir, newName) == 0 else { throw systemError("rename", path + "/" + relative) }
        try faults.hit(syncSite)
        guard retryingEINTR({ fsync(dir) }) == 0 else { throw systemError("fsync", path) }
    }

    /// Removes the regular file at `relative` only while it is still what a manifest says it is
    /// (this size and SHA-256): a file put in its place is left alone. True when removed.
    func remove(_ relative: String, ifItHas size: Int64, sha256: String) throws -> Bool {
        guard BackupFolder.problem(withPath: relative) == nil, let (dir, name) = try? parent(of: relative) else {
            return false
        }
        defer { close(dir) }
        let file = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return false }
        defer { close(file) }
        var opened = stat(), there = stat()
        guard fstat(file, &opened) == 0, (opened.st_mode & S_IFMT) == S_IFREG, Int64(opened.st_size) == size,
            let found = try? FileCopy.sha256(of: file, named: path + "/" + relative), found.sha256 == sha256,
            fstatat(dir, name, &there, AT_SYMLINK_NOFOLLOW) == 0, there.st_dev == opened.st_dev,
            there.st_ino == opened.st_ino
        else { return false }
        return unlinkat(dir, name, 0) == 0
    }

    /// Removes the regular files in the directory `relative` whose names `matching` accepts (links
    /// and anything else are left alone); a missing or refused directory is passed over.
    func removeFiles(in relative: String, matching: (String) -> Bool) {
        guard let opened = try? directory(relative) else { return }
        defer { close(opened) }
        for name in names(of: opened) where matching(name) {
            var info = stat()
            if fstatat(opened, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG {
                _ = unlinkat(opened, name, 0)
            }
        }
    }

    /// The names in an open directory (not `.` and `..`).
    private func names(of dir: Int32) -> [String] {
        let copy = dup(dir)
        guard copy >= 0 else { return [] }
        guard let handle = fdopendir(copy) else {
            close(copy)
            return []
        }
        return readNames(handle)
    }
}
