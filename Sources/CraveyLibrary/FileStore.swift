import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The library's files on disk, and the few POSIX steps the atomic rules are made of.
///
/// Layout under the library root (PRODUCT.md "The library"):
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

    /// Creates the directory tree with private permissions (and tightens it if it exists).
    func prepare() throws {
        try makePrivateDirectory(root, tighten: false)
        for dir in [Self.recordingsDir, Self.thumbnailsDir, Self.incomingDir, Self.trashDir] {
            try makePrivateDirectory(path(dir), tighten: true)
        }
    }

    /// The absolute path of a row's file, after checking it stays inside the library even through
    /// symbolic links: a row that points elsewhere is never opened or deleted.
    func resolve(_ relative: String) throws -> String {
        _ = try Validation.libraryRelativePath(relative)
        let full = path(relative)
        let parent = (full as NSString).deletingLastPathComponent
        guard let realParent = realPath(parent), let realRecordings = realPath(path(Self.recordingsDir)),
              realParent == realRecordings || realParent.hasPrefix(realRecordings + "/")
        else { throw LibraryError.unsafePath(relative) }
        return full
    }

    // MARK: - Steps

    func rename(_ from: String, _ to: String, site: String) throws {
        try faults.hit(site)
        guard Glibc.rename(from, to) == 0 else { throw systemError("rename", from) }
    }

    func unlink(_ file: String, site: String) throws {
        try faults.hit(site)
        guard Glibc.unlink(file) == 0 || errno == ENOENT else { throw systemError("delete", file) }
    }

    /// fsync of a file or directory, so a rename or write survives power loss.
    func sync(_ file: String, site: String) throws {
        try faults.hit(site)
        let fd = open(file, O_RDONLY | O_CLOEXEC)
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
        guard stat(dir, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw LibraryError.invalid(field: "library", reason: "\(dir) exists and is not a directory")
        }
        if tighten, info.st_mode & 0o077 != 0 { _ = chmod(dir, 0o700) }
    }

    /// Copies `source` into the open file `output` (at `destination`) and fsyncs it.
    func copy(_ source: String, into output: Int32, path destination: String) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw systemError("open", source) }
        defer { close(input) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { raw in retryingEINTR { read(input, raw.baseAddress, raw.count) } }
            guard n >= 0 else { throw systemError("read", source) }
            if n == 0 { break }
            var written = 0
            while written < n {
                let w = buffer.withUnsafeBytes { raw in
                    retryingEINTR { write(output, raw.baseAddress! + written, n - written) }
                }
                guard w > 0 else { throw systemError("write", destination) }
                written += w
            }
        }
        guard retryingEINTR({ fsync(output) }) == 0 else { throw systemError("fsync", destination) }
    }

    /// Names of the entries of a directory (not `.`/`..`), or an empty list if it does not exist.
    func entries(_ dir: String) -> [String] {
        guard let handle = opendir(dir) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    func exists(_ file: String) -> Bool { access(file, F_OK) == 0 }

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

/// The error for a failed system call, with errno read at once.
func systemError(_ operation: String, _ path: String) -> LibraryError {
    .system(operation: operation, path: path, errno: errno)
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
final class FileLock {
    let fd: Int32

    /// Opens (creating 0600) and locks `path`. `wait: false` returns nil when someone holds it;
    /// `exclusiveCreate` fails if the file exists already.
    init?(path: String, wait: Bool = true, exclusiveCreate: Bool = false) throws {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | (exclusiveCreate ? O_EXCL : 0), 0o600)
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
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return retryingEINTR({ flock(fd, LOCK_EX | LOCK_NB) }) != 0 && errno == EWOULDBLOCK
}
