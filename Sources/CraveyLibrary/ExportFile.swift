import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

extension RecordingExport {
    /// Writes an export file (0600) safely outside the library: through a new temporary file
    /// beside it — a fresh random name, O_EXCL, never followed through a link (O_NOFOLLOW), like
    /// mkstemp(3) — fsynced, then renamed over `path`. Only a regular file is ever replaced, and
    /// only with `replacing`: never a link (which would write elsewhere), a device or a FIFO.
    /// A failure leaves nothing half-written. A refusal says what to do in the caller's own words:
    /// `another` how to choose another file (`choose another with --html`), `replace` how to
    /// replace this one (`replace it with --force`), nil where there is no way to.
    /// A fresh temporary name in `path`'s directory, short whatever `path`'s own name is (a
    /// name of 255 bytes, the most a directory holds, is written too): `.tmp-` and 13 random
    /// letters and digits.
    static func temporaryName(beside path: String) -> String {
        let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        return directory + ".tmp-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }

    public static func write(_ data: Data, to path: String, replacing: Bool, another: String, replace: String?) throws {
        try write(to: path, replacing: replacing, another: another, replace: replace) { emit in try emit(data) }
    }

    /// The same, the file's bytes given a block at a time by `produce` (an export of ten years
    /// of logs is never held whole).
    public static func write(
        to path: String, replacing: Bool, another: String, replace: String?,
        _ produce: (_ emit: (Data) throws -> Void) throws -> Void
    ) throws {
        var info = stat()
        if lstat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw LibraryError.output("\(path) is not a regular file (\(kind(info.st_mode))); \(another)")
            }
            guard replacing else {
                throw LibraryError.output("\(path) already exists; \(another)" + (replace.map { " or \($0)" } ?? ""))
            }
        }
        var temp = ""
        var fd: Int32 = -1
        for _ in 0..<100 {
            temp = temporaryName(beside: path)
            fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw systemError("write", path) }
        var ok = true
        var code: Int32 = 0
        do {
            try produce { data in
                guard ok else { return }
                ok = data.withUnsafeBytes { raw -> Bool in
                    var offset = 0
                    while offset < raw.count {
                        let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                        if n < 0 {
                            if errno == EINTR { continue }
                            code = errno
                            return false
                        }
                        offset += n
                    }
                    return true
                }
            }
        } catch {
            close(fd)
            unlink(temp)
            throw error
        }
        if ok, fsync(fd) != 0 {
            ok = false
            code = errno
        }
        close(fd)
        // Without `replacing`, the name is made with link(2), which fails when a file took it
        // meanwhile (nothing is written over); a filesystem without hard links gets the rename.
        let placed: Bool
        if !ok {
            placed = false
        } else if replacing {
            placed = rename(temp, path) == 0
        } else if link(temp, path) == 0 {
            placed = true
            unlink(temp)
        } else if [EPERM, EOPNOTSUPP, EMLINK, EXDEV].contains(errno), lstat(path, &info) != 0 {
            placed = rename(temp, path) == 0
        } else {
            placed = false
        }
        guard placed else {
            let failure =
                ok && errno == EEXIST
                ? LibraryError.output("\(path) appeared while it was written; \(another)")
                : LibraryError.system(operation: "write", path: path, errno: ok ? errno : code)
            unlink(temp)
            throw failure
        }
    }

    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFLNK: return "a symbolic link"
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        default: return "not a file"
        }
    }
}
