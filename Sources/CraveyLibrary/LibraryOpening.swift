import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How a library is reached and set up by one process at a time.
///
/// The rules:
/// - a library that has no database yet (or lost it) is created, migrated or rebuilt under the
///   library lock: several cravey processes started together on a new library make it once, and
///   the others wait for it, then find it made;
/// - a symbolic link to the library is followed once, when it is opened, and only when it is
///   trusted: it belongs to the running user (or root) and sits in a directory that no one else
///   can write. The library is then used by its real path. Any other link is refused, and no link
///   inside the library is ever followed (`FileStore.prepare`).
extension Library {
    /// The directory the library at `path` really is: `path` itself, or where a trusted link to
    /// it leads (see the type's rules). A link that is not trusted is refused with one line.
    static func realRoot(_ path: String) throws -> String {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return path }
        let parent =
            (path as NSString).deletingLastPathComponent.isEmpty
            ? "." : (path as NSString).deletingLastPathComponent
        var folder = stat()
        let me = geteuid()
        guard info.st_uid == me || info.st_uid == 0, stat(parent, &folder) == 0,
            folder.st_uid == me || folder.st_uid == 0, folder.st_mode & 0o022 == 0
        else {
            throw LibraryError.unsafeLibrary(
                "\(path) is a symbolic link someone else could have made or changed; cravey follows a link to its library only when it is yours and sits in a directory only you can write (use the library's own path)"
            )
        }
        var named = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &named, Int(PATH_MAX))
        guard count > 0 else { throw systemError("read link", path) }
        // The link's bytes as they are: a name that is not UTF-8 is refused, not changed.
        guard String(validating: named[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) != nil else {
            throw LibraryError.unsafeLibrary(
                "\(path) leads to a name that is not valid UTF-8; cravey takes names in UTF-8 (rename it, e.g. with convmv)"
            )
        }
        var target = named[0] == 0x2F ? [] : Array((parent + "/").utf8CString.dropLast())
        target += named[0..<count] + [0]
        var reached = stat()
        if lstat(target, &reached) != 0 {
            // A trusted link to a library not made yet: the library is made where it leads.
            guard errno == ENOENT, mkdir(target, 0o700) == 0 else { throw systemError("create directory", path) }
        } else if reached.st_mode & S_IFMT != S_IFDIR {
            throw LibraryError.unsafeLibrary(
                "\(path) leads to something that is not a directory (cravey follows one link to its library, no more)")
        }
        guard let real = realpath(target, nil) else { throw systemError("resolve", path) }
        defer { free(real) }
        guard let resolved = String(validatingCString: real) else {
            throw LibraryError.unsafeLibrary(
                "\(path) leads to a name that is not valid UTF-8; cravey takes names in UTF-8 (rename it, e.g. with convmv)"
            )
        }
        return resolved
    }

    /// Whether there is a library at `path` to read: anything there but nothing at all or an
    /// empty directory (what is there and no library is refused when it is opened). Nothing is
    /// created or changed; a command that only reads or changes what is there says there is no
    /// library instead of making one.
    public static func exists(at path: String) -> Bool {
        guard let directory = opendir(path) else { return errno != ENOENT }
        defer { closedir(directory) }
        // An empty directory of another user's, or one others can write, is not taken for "no
        // library": opening it says why it is refused.
        var info = stat()
        guard fstat(dirfd(directory), &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o022 == 0 else {
            return true
        }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { return true }
        }
        return false
    }

    /// What the directory holds: whether it has a database, the database's loss (nil: whole),
    /// and whether cravey's own files show it is a library. A directory that holds a person's
    /// files and no library is refused.
    static func survey(_ dbPath: String, root: String, files: FileStore) throws -> (
        hasDatabase: Bool, loss: String?, keepsOwnFiles: Bool
    ) {
        var info = stat()
        let hasDatabase = lstat(dbPath, &info) == 0
        if hasDatabase && (info.st_mode & S_IFMT) != S_IFREG {
            throw LibraryError.unsafeLibrary(
                "\(dbPath) is not a regular file; cravey does not follow links inside its library")
        }
        // A database that is missing, empty or cut short: lost, if cravey's own files show this
        // is its library (see below); else an empty or stray `library.sqlite` among a person's
        // files, which does not make cravey move in. (A whole one's schema is checked on opening.)
        let loss = hasDatabase ? Self.damage(ofDatabase: dbPath) : "missing"
        let keepsOwnFiles =
            loss != nil
            && (!files.craveyMediaFiles().isEmpty || !Self.snapshots(in: files).isEmpty
                || (files.size(files.path(FileStore.journalFile)) ?? 0) > 0
                || (files.size(files.path(FileStore.waitingLogsFile)) ?? 0) > 0)
        if loss != nil, !keepsOwnFiles {
            let foreign = files.entries(root).filter { !FileStore.isOwnTopLevelName($0) }
            if let first = foreign.first {
                throw LibraryError.unsafeLibrary(
                    "\(root) is not a cravey library: it holds other files ('\(first)'\(foreign.count > 1 ? " and \(foreign.count - 1) more" : "")); use an empty directory or one cravey made"
                )
            }
        }
        return (hasDatabase, loss, keepsOwnFiles)
    }

    /// Takes the library lock for setting the library up, waiting `seconds` at most for another
    /// process (told once through `onWait`). nil on a read-only disk, where nothing can be set
    /// up and nothing can change under the reader.
    static func lockForSetup(root: String, seconds: Double, onWait: (@Sendable () -> Void)?) throws -> FileLock? {
        let path = root + "/library.lock"
        let deadline = Date().addingTimeInterval(seconds)
        var told = false
        while true {
            do {
                if let lock = try FileLock(path: path, wait: false) { return lock }
            } catch LibraryError.system(_, _, let code) where code == EROFS {
                return nil
            }
            guard Date() < deadline else {
                throw LibraryError.busy(
                    "the library is busy: another cravey process has held it for \(Int(seconds)) s while it was being made (a stuck process?); nothing was changed"
                )
            }
            if !told { told = true; onWait?() }
            usleep(20_000)
        }
    }
}

extension Library {
    /// A private directory in the backup folder `folder` for the database's copy of a read-only
    /// library (which can hold nothing new of its own).
    static func readOnlyStaging(in folder: String) throws -> String {
        var template = Array((folder + "/.cravey-readonly-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw systemError("create directory", folder + "/.cravey-readonly-…")
        }
        return String(cString: made)
    }

    /// Removes what `readOnlyStaging` made (cravey's own names only).
    static func removeReadOnlyStaging(_ directory: String) {
        for name in ["library.sqlite", "library.sqlite-journal"] { _ = unlink(directory + "/" + name) }
        _ = rmdir(directory)
    }
}
