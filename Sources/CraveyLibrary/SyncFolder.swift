import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The folder two machines share, read and written as untrusted input.
///
/// Its shape: `<folder>/cravey/devices/<device>/` for each machine, holding `device.json` (the
/// format that device writes) and `changes.jsonl` (its changes, one JSON line each, appended only
/// by that device: one writer per file, so a sync tool never sees two). Names are lowercase, with
/// no `:`, so a FAT or exFAT stick keeps them. Every name inside is reached from the folder's own
/// descriptor one at a time with `O_NOFOLLOW`, as the backup folder is: a link planted anywhere
/// in it is named and never followed. Anything else in the folder (`.git/`, `.stfolder`, notes of
/// a sync tool) is left alone.
struct SyncFolder {
    /// The format this cravey writes and reads; a device folder of another is refused whole.
    static let format = 1
    /// The largest change file read (ten years of logs are a few tens of megabytes).
    static let maxChangeFile: off_t = 1 << 30
    /// The longest change line read.
    static let maxLine = 65536
    static let changeFile = "changes.jsonl"
    static let deviceFile = "device.json"
    /// How a sync tool names a copy it kept of a file two machines changed.
    static let conflictMark = ".sync-conflict-"

    /// The folder as the person named it.
    let path: String

    var devicesPath: String { path + "/cravey/devices" }

    /// A device id: 32 lowercase hexadecimal digits, random.
    static func isDeviceId(_ name: String) -> Bool {
        name.utf8.count == 32 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    static func newDeviceId() -> String {
        UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// The folder cannot be reached (an unplugged stick): said by `sync` and `check` only.
    struct Missing: Error {
        let path: String
        let reason: String
    }

    /// What the folder holds: each device's change file size (nil: none yet), and what cravey
    /// will not read, in words.
    struct Survey {
        var devices: [String: off_t] = [:]
        var problems: [String] = []
    }

    /// Opens a directory beneath `dir` by one plain name, never through a link.
    private static func openDirectory(_ dir: Int32, _ name: String) -> Int32 {
        openat(dir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
    }

    /// The folder's own descriptor (the folder itself may be a link the person named).
    private func openRoot() throws -> Int32 {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw Missing(path: path, reason: String(cString: strerror(errno)))
        }
        return fd
    }

    /// The names in a directory (without `.` and `..`).
    private static func names(_ dir: Int32) -> [String] {
        let copy = dup(dir)
        guard copy >= 0 else { return [] }
        guard let stream = fdopendir(copy) else {
            close(copy)
            return []
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// What is at `name` beneath `dir`, not following a link (nil: nothing).
    private static func kind(_ dir: Int32, _ name: String) -> mode_t? {
        var info = stat()
        guard fstatat(dir, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// The devices the folder holds and their change files' sizes, with what is refused.
    func survey() throws -> Survey {
        let root = try openRoot()
        defer { close(root) }
        var survey = Survey()
        let shown = Self.shown
        if Self.kind(root, "cravey") == S_IFLNK {
            survey.problems.append("\(shown(path + "/cravey")) is a link; it was not followed")
        }
        let cravey = Self.openDirectory(root, "cravey")
        guard cravey >= 0 else { return survey }
        defer { close(cravey) }
        if Self.kind(cravey, "devices") == S_IFLNK {
            survey.problems.append("\(shown(devicesPath)) is a link; it was not followed")
        }
        let devices = Self.openDirectory(cravey, "devices")
        guard devices >= 0 else { return survey }
        defer { close(devices) }
        for name in Self.names(devices) {
            let label = devicesPath + "/" + name
            if name.contains(Self.conflictMark) {
                survey.problems.append(
                    "\(shown(label)) is a copy a sync tool kept of a conflict; it was not merged (compare it, then remove it)"
                )
                continue
            }
            guard Self.isDeviceId(name) else { continue }
            switch Self.kind(devices, name) {
            case .some(S_IFLNK):
                survey.problems.append("\(shown(label)) is a link; it was not followed")
                continue
            case .some(S_IFDIR): break
            default: continue
            }
            let dir = Self.openDirectory(devices, name)
            guard dir >= 0 else {
                survey.problems.append("\(shown(label)) cannot be read (\(String(cString: strerror(errno))))")
                continue
            }
            defer { close(dir) }
            for inner in Self.names(dir) where inner.contains(Self.conflictMark) {
                survey.problems.append(
                    "\(shown(label + "/" + inner)) is a copy a sync tool kept of a conflict; it was not merged (two machines may be writing as one: run 'cravey sync --new-device' on one of them)"
                )
            }
            if let problem = Self.formatProblem(dir, label: label) {
                survey.problems.append(problem)
                continue
            }
            switch Self.kind(dir, Self.changeFile) {
            case nil:
                survey.devices[name] = 0
            case .some(S_IFREG):
                var info = stat()
                guard fstatat(dir, Self.changeFile, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                if info.st_size > Self.maxChangeFile {
                    survey.problems.append(
                        "\(shown(label + "/" + Self.changeFile)) is larger than \(Self.maxChangeFile >> 20) MB; it was not read"
                    )
                    continue
                }
                survey.devices[name] = info.st_size
            default:
                survey.problems.append(
                    "\(shown(label + "/" + Self.changeFile)) is not a regular file (a link or something else); it was not read"
                )
            }
        }
        return survey
    }

    /// A device folder whose `device.json` is missing (not yet written: fine), a link, or names
    /// a format this cravey does not read: why it is refused whole (nil: it is read).
    private static func formatProblem(_ dir: Int32, label: String) -> String? {
        let file = label + "/" + deviceFile
        switch kind(dir, deviceFile) {
        case nil: return nil
        case .some(S_IFREG): break
        default: return "\(shown(file)) is not a regular file (a link or something else); the device was not read"
        }
        guard let data = readSmall(dir, deviceFile, limit: 4096),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let format = object["format"] as? Int
        else { return "\(shown(file)) is not one cravey writes; the device was not read" }
        guard format == Self.format else {
            return
                "\(shown(label)) is written in format \(format), newer than this cravey reads (\(Self.format)); it was not read: update cravey on this machine"
        }
        return nil
    }

    private static func readSmall(_ dir: Int32, _ name: String, limit: Int) -> Data? {
        let fd = openat(dir, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: limit + 1)
        let n = Glibc.read(fd, &buffer, buffer.count)
        guard n >= 0, n <= limit else { return nil }
        return Data(buffer[0..<n])
    }

    /// The device's directory, opened beneath the folder one name at a time (nil: not there).
    private func openDevice(_ device: String, making: Bool) throws -> Int32 {
        let root = try openRoot()
        defer { close(root) }
        var dir = dup(root)
        for name in ["cravey", "devices", device] {
            if making, mkdirat(dir, name, 0o700) != 0, errno != EEXIST {
                let failure = systemError("make", path)
                close(dir)
                throw failure
            }
            let next = Self.openDirectory(dir, name)
            close(dir)
            guard next >= 0 else {
                throw LibraryError.unsafeLibrary(
                    "\(Self.shown(path))/… cannot be opened at '\(name)' (\(String(cString: strerror(errno)))); a link there is not followed"
                )
            }
            dir = next
        }
        return dir
    }

    /// Makes this device's folder and says its format (`device.json`, written whole and fsynced).
    func make(device: String) throws {
        let dir = try openDevice(device, making: true)
        defer { close(dir) }
        if Self.kind(dir, Self.deviceFile) == S_IFREG { return }
        let text = Data("{\"device\":\"\(device)\",\"format\":\(Self.format)}\n".utf8)
        let temporary = Self.deviceFile + ".new"
        _ = unlinkat(dir, temporary, 0)
        let fd = openat(dir, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw systemError("create", devicesPath + "/" + device + "/" + temporary) }
        let written = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == text.count, synced, renameat(dir, temporary, dir, Self.deviceFile) == 0 else {
            throw systemError("write", devicesPath + "/" + device + "/" + Self.deviceFile)
        }
        _ = fsync(dir)
    }

    /// A device's change file from byte `offset` on: its whole lines, where they end, and
    /// whether a line after them is cut short (being copied, or torn).
    func read(device: String, from offset: off_t) throws -> (lines: [Data], end: off_t, torn: Bool) {
        let dir = try openDevice(device, making: false)
        defer { close(dir) }
        let fd = openat(dir, Self.changeFile, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return ([], offset, false) }
            throw systemError("open", devicesPath + "/" + device + "/" + Self.changeFile)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= Self.maxChangeFile else {
            throw LibraryError.unsafeLibrary(
                "\(Self.shown(devicesPath + "/" + device)): its changes are not a file cravey reads")
        }
        guard info.st_size > offset else { return ([], offset, false) }
        var data = Data(count: Int(info.st_size - offset))
        let count = data.count
        let n = data.withUnsafeMutableBytes { buffer in retryingEINTR { pread(fd, buffer.baseAddress, count, offset) } }
        guard n == count else { throw systemError("read", devicesPath + "/" + device + "/" + Self.changeFile) }
        guard let last = data.lastIndex(of: 0x0A) else { return ([], offset, true) }
        let whole = data[data.startIndex...last]
        let lines = whole.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map { Data($0) }
        return (lines, offset + off_t(whole.count), last + 1 < data.endIndex)
    }

    /// Appends this device's lines to its change file and fsyncs them (the directory too when
    /// the file is new). The file must be `expected` bytes long, as this device left it: longer
    /// or shorter, another machine writes as this device (a copied library), and nothing is
    /// written. Lines this device wrote before being killed (the start of `data`) are kept, a
    /// torn end of them is cut; returns how many bytes of `data` were already there.
    func append(_ data: Data, device: String, expected: off_t, faults: Faults) throws -> Int {
        let dir = try openDevice(device, making: true)
        defer { close(dir) }
        let label = devicesPath + "/" + device + "/" + Self.changeFile
        let fd = openat(dir, Self.changeFile, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else { throw systemError("open", label) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw LibraryError.unsafeLibrary("\(Self.shown(label)) is not a regular file")
        }
        var already = 0
        if info.st_size != expected {
            let extra = Int(info.st_size - expected)
            var tail = Data(count: max(0, extra))
            if extra > 0, extra <= data.count {
                let n = tail.withUnsafeMutableBytes { buffer in
                    retryingEINTR { pread(fd, buffer.baseAddress, extra, expected) }
                }
                if n != extra { tail = Data() }
            }
            // A power cut where the file system keeps no journal (FAT) may leave zeros for the
            // end of the write: a torn end too.
            let ours = tail.prefix(upTo: tail.lastIndex { $0 != 0 }.map { $0 + 1 } ?? tail.startIndex)
            guard extra > 0, extra <= data.count, data.starts(with: ours) else {
                throw SyncCloned(device: device)
            }
            // Ours, from a run killed after writing them: whole lines are kept, a torn end cut.
            if ours.count == extra, data[data.startIndex + extra - 1] == 0x0A {
                already = extra
            } else {
                guard ftruncate(fd, expected) == 0 else { throw systemError("cut the torn end of", label) }
            }
        }
        try faults.hit("sync.append")
        var written = already
        try data.withUnsafeBytes { bytes in
            while written < bytes.count {
                let n = retryingEINTR { write(fd, bytes.baseAddress! + written, bytes.count - written) }
                guard n > 0 else { throw systemError("write", label) }
                written += n
            }
        }
        try faults.hit("sync.fsync")
        guard retryingEINTR({ fsync(fd) }) == 0 else { throw systemError("fsync", label) }
        if expected == 0 { _ = fsync(dir) }
        return already
    }

    /// A path from the folder, safe to print (control characters shown as `?`).
    static func shown(_ path: String) -> String {
        String(String.UnicodeScalarView(path.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }
}

/// This device's change file is written by another machine too (a library copied with its
/// device id): nothing more is written there until `cravey sync --new-device`.
struct SyncCloned: Error {
    let device: String
}
