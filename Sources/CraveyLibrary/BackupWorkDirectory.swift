import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A backup's or a restore's own working directory inside the library's `.backup`: the second
/// links to the recordings and the copies of databases it works on, named `<pid>-<8 hex>` and
/// locked (flock on the directory) while it is used, so two backups of one library (to two
/// folders at once), or a backup and a restore, never clear each other's. One whose lock is free
/// was left by a killed process, and is cleared by the next one made (each is made under the
/// library lock, and locked before that is released).
final class BackupWorkDirectory {
    let path: String
    private var fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { remove() }

    /// Makes one; the caller holds the library lock.
    static func make(in files: FileStore, site: String) throws -> BackupWorkDirectory {
        let parent = files.path(FileStore.backupLinksDir)
        try files.makeDirectory(parent, site: site)
        clearLeft(in: parent)
        let path = parent + "/\(getpid())-\(UUID().uuidString.prefix(8).lowercased())"
        guard mkdir(path, 0o700) == 0 else { throw systemError("create directory", path) }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw systemError("open", path) }
        guard retryingEINTR({ flock(fd, LOCK_EX | LOCK_NB) }) == 0 else {
            let error = systemError("lock", path)
            close(fd)
            throw error
        }
        return BackupWorkDirectory(path: path, fd: fd)
    }

    /// Empties and removes it (and `.backup` when nothing else is in it); then unlocks it.
    func remove() {
        guard fd >= 0 else { return }
        Self.clearNames(in: path)
        _ = rmdir(path)
        _ = rmdir((path as NSString).deletingLastPathComponent)
        close(fd)
        fd = -1
    }

    /// What killed processes left: cravey's names directly in `.backup` (where earlier versions
    /// kept them) and every work directory nobody holds. A link or anything else is left alone.
    private static func clearLeft(in parent: String) {
        clearNames(in: parent)
        for name in names(in: parent) where name.contains("-") && name.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
            let dir = parent + "/" + name
            let held = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard held >= 0 else { continue }
            defer { close(held) }
            guard retryingEINTR({ flock(held, LOCK_EX | LOCK_NB) }) == 0 else { continue }  // in use
            clearNames(in: dir)
            _ = rmdir(dir)
        }
    }

    /// Removes the files cravey puts in a work directory: its database copies (and SQLite's files
    /// beside them) and second links to recordings; only regular files, only those names.
    private static func clearNames(in dir: String) {
        for name in names(in: dir)
        where name == "library.sqlite" || name.hasPrefix("restore.sqlite") || name.hasPrefix("library.sqlite-")
            || Recording.owner(ofFileName: name) != nil
        {
            var info = stat()
            if lstat(dir + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { _ = unlink(dir + "/" + name) }
        }
    }

    private static func names(in dir: String) -> [String] {
        guard let handle = opendir(dir) else { return [] }
        return readNames(handle)
    }
}
