import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The folder two machines share, read and written as untrusted input.
///
/// Its shape: `<folder>/cravey/devices/<device>/` for each machine, holding `device.json` (the
/// format that device writes) and `changes.jsonl` (its changes, one JSON line each, appended only
/// by that device: one writer per file, so a sync tool never sees two), and `media/` (the files of
/// its recordings, `<id>.<version>.<ext>`: see `SyncMedia.swift`). Names are lowercase, with
/// no `:`, so a FAT or exFAT stick keeps them. Every name inside is reached from the folder's own
/// descriptor one at a time with `O_NOFOLLOW`, as the backup folder is: a link planted anywhere
/// in it is named and never followed. Anything else in the folder (`.git/`, `.stfolder`, notes of
/// a sync tool) is left alone.
///
/// Compaction, so ten years of changes stay small: a device that compacts through its counter N
/// writes `snapshot-N.jsonl` (a header line naming the device and N, then each field it last set
/// and that no other device has changed since, as change lines grouped by stamp, then a last line
/// counting them: a copy cut short has no last line and is refused whole), then appends its later
/// changes to `changes-N.jsonl`, and removes its own older files (`changes.jsonl`, an older
/// snapshot and segment): only its own, one writer per file. A device's files are read from the
/// newest N found (a snapshot's or a segment's): a reader that has taken everything through N
/// reads only `changes-N.jsonl`; one that was away takes the snapshot, then `changes-N.jsonl`
/// from its start. The snapshot's lines are applied under the same rules as any line (per field
/// the later stamp wins), so taking one again, or one that holds more than N, changes nothing. A
/// sync tool that has carried the new segment but not yet the snapshot (the old file gone
/// already) leaves that device as it was, said by `check`, until the snapshot is whole.
struct SyncFolder {
    /// The format this cravey writes and reads; a device folder of another is refused whole.
    static let format = 1
    /// The largest change file read (ten years of logs are a few tens of megabytes).
    static let maxChangeFile: off_t = 1 << 30
    /// The longest change line read.
    static let maxLine = 65536
    static let changeFile = "changes.jsonl"
    /// The largest snapshot read.
    static let maxSnapshot: off_t = 1 << 31
    static let deviceFile = "device.json"
    /// How a sync tool names a copy it kept of a file two machines changed.
    static let conflictMark = ".sync-conflict-"

    /// The folder as the person named it.
    let path: String
    /// The library's fault-injection seam (`sync.survey`, `sync.read`: a folder that hangs).
    var faults = Faults.none

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
    struct Survey: Sendable {
        var devices: [String: off_t] = [:]
        var problems: [String] = []
        /// The counter each device's newest segment starts after (0: never compacted).
        var bases: [String: Int64] = [:]
        /// The devices whose snapshot of that counter is there (its whole is checked on reading).
        var snapshots: Set<String> = []
    }

    /// The name of the segment of changes after counter `base` (`changes.jsonl` before any compaction).
    static func segmentName(_ base: Int64) -> String { base == 0 ? changeFile : "changes-\(base).jsonl" }

    static func snapshotName(_ through: Int64) -> String { "snapshot-\(through).jsonl" }

    /// A segment's (or a snapshot's) counter from its name: `changes-N.jsonl` or `snapshot-N.jsonl`,
    /// N in ASCII digits as cravey writes it (no sign, no leading zero); nil for any other name.
    static func number(_ name: String, _ prefix: String) -> Int64? {
        guard name.hasPrefix(prefix), name.hasSuffix(".jsonl") else { return nil }
        return plainNumber(name.utf8.dropFirst(prefix.utf8.count).dropLast(".jsonl".utf8.count), digits: 18)
    }

    /// The number `text` spells as cravey writes one in a name: 1 to `digits` ASCII digits, no
    /// sign, no leading zero; nil for anything else.
    static func plainNumber(_ text: Substring.UTF8View, digits: Int) -> Int64? {
        guard (1...digits).contains(text.count), text.first != UInt8(ascii: "0"),
            text.allSatisfy({ (0x30...0x39).contains($0) })
        else { return nil }
        return text.reduce(0) { $0 * 10 + Int64($1 - 0x30) }
    }

    /// Opens a directory beneath `dir` by one plain name, never through a link.
    static func openDirectory(_ dir: Int32, _ name: String) -> Int32 {
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
    static func names(_ dir: Int32) -> [String] {
        let copy = dup(dir)
        guard copy >= 0 else { return [] }
        guard let stream = fdopendir(copy) else {
            close(copy)
            return []
        }
        defer { closedir(stream) }
        rewinddir(stream)  // the copy shares the offset a reading before left at the end
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
    static func kind(_ dir: Int32, _ name: String) -> mode_t? {
        var info = stat()
        guard fstatat(dir, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// The devices the folder holds and their change files' sizes, with what is refused.
    func survey() throws -> Survey {
        let call = SyncFolderWatch.calling(path)
        defer { call.returned() }
        try faults.hit("sync.survey")
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
            let inner = Self.names(dir)
            let segments = inner.compactMap { $0 == Self.changeFile ? 0 : Self.number($0, "changes-") }
            let snapshots = inner.compactMap { Self.number($0, "snapshot-") }
            let base = (segments + snapshots).max() ?? 0
            survey.bases[name] = base
            if snapshots.contains(base) { survey.snapshots.insert(name) }
            let segment = Self.segmentName(base)
            switch Self.kind(dir, segment) {
            case nil:
                survey.devices[name] = 0
            case .some(S_IFREG):
                var info = stat()
                guard fstatat(dir, segment, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                if info.st_size > Self.maxChangeFile {
                    survey.problems.append(
                        "\(shown(label + "/" + segment)) is larger than \(Self.maxChangeFile >> 20) MB, more than cravey writes; it was not read"
                    )
                    continue
                }
                survey.devices[name] = info.st_size
            default:
                survey.problems.append(
                    "\(shown(label + "/" + segment)) is not a regular file (a link or something else); it was not read"
                )
            }
        }
        return survey
    }

    /// The survey, when a device other than `own` wrote something since it was last taken in here
    /// (`marks`, `bases`; nil: nothing new). What is new is read through once, so a folder whose
    /// directories answer but whose files do not is found here, where a change made at leisure
    /// waits for it a moment, and the merge that follows reads what the system holds already.
    func news(marks: [String: (counter: Int64, bytes: off_t)], bases: [String: Int64], own: String) throws -> Survey? {
        let survey = try survey()
        var found = false
        for (device, size) in survey.devices where device != own {
            let base = survey.bases[device] ?? 0, mark = marks[device]?.bytes ?? 0
            let compacted = base != bases[device] ?? 0
            guard size > mark || compacted else { continue }
            found = true
            if compacted, let reader = try? snapshot(device: device, through: base) {
                while (try? reader.next()) != nil {}
            }
            if let reader = try? lines(device: device, base: base, from: compacted ? 0 : mark) {
                while (try? reader.next()) != nil {}
            }
        }
        return found ? survey : nil
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
    func openDevice(_ device: String, making: Bool) throws -> Int32 {
        let call = SyncFolderWatch.calling(path)
        defer { call.returned() }
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
        let call = SyncFolderWatch.calling(path)
        defer { call.returned() }
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

    /// A device's segment of changes after counter `base`, from byte `offset` on, read a block at a
    /// time (nil: the file is not there).
    func lines(device: String, base: Int64 = 0, from offset: off_t) throws -> LineReader? {
        guard let (fd, size, label) = try openFile(device, Self.segmentName(base)) else { return nil }
        guard size <= Self.maxChangeFile else {
            close(fd)
            throw LibraryError.unsafeLibrary(
                "\(Self.shown(devicesPath + "/" + device)): its changes are not a file cravey reads")
        }
        return LineReader(fd: fd, from: offset, to: size, label: label, folder: self)
    }

    /// One of a device's files opened for reading, never through a link, with its size (nil: not
    /// there); one that is not a regular file is refused.
    private func openFile(_ device: String, _ name: String) throws -> (fd: Int32, size: off_t, label: String)? {
        let dir = try openDevice(device, making: false)
        defer { close(dir) }
        let label = devicesPath + "/" + device + "/" + name
        let fd = openat(dir, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP {
                throw LibraryError.unsafeLibrary("\(Self.shown(label)) is a link; it was not followed")
            }
            throw systemError("open", label)
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw LibraryError.unsafeLibrary("\(Self.shown(label)) is not a regular file; it was not read")
        }
        return (fd, info.st_size, label)
    }

    /// A snapshot that is not whole (a copy cut short, or not one cravey writes).
    struct SnapshotNotWhole: Error {}

    /// The lines of a device's snapshot through `through`, checked whole first: its first line
    /// names the device and the counter, its last counts the lines (nil: not there).
    func snapshot(device: String, through: Int64) throws -> LineReader? {
        let call = SyncFolderWatch.calling(path)
        defer { call.returned() }
        guard let (fd, size, label) = try openFile(device, Self.snapshotName(through)) else { return nil }
        guard (1...Self.maxSnapshot).contains(size) else {
            close(fd)
            throw SnapshotNotWhole()
        }
        let reader = LineReader(fd: fd, from: 0, to: size, label: label, folder: self)
        let tail = min(size, 256)
        var last = [UInt8](repeating: 0, count: Int(tail))
        let n = last.withUnsafeMutableBytes { buffer in
            retryingEINTR { pread(fd, buffer.baseAddress, Int(tail), size - tail) }
        }
        guard n == Int(tail), last.last == 0x0A,
            let start = last.dropLast().lastIndex(of: 0x0A).map({ $0 + 1 }) ?? (tail == size ? 0 : nil),
            let trailer = try? JSONSerialization.jsonObject(with: Data(last[start..<(last.count - 1)]))
                as? [String: Any],
            (trailer["end"] as? Int).map(Int64.init) == through, trailer["lines"] is Int,
            case .line(let first, _)? = try reader.next(),
            let header = try? JSONSerialization.jsonObject(with: first) as? [String: Any],
            header["device"] as? String == device, (header["snapshot"] as? Int).map(Int64.init) == through
        else { throw SnapshotNotWhole() }
        reader.stop(at: size - tail + off_t(start))
        return reader
    }

    /// Writes this device's snapshot through `through` under a temporary name, fsynced: its
    /// header, the lines `body` gives to `emit`, the line counting them. `placeSnapshot` puts it.
    @discardableResult
    func writeSnapshot(device: String, through: Int64, _ body: (_ emit: (Data) throws -> Void) throws -> Void) throws
        -> Int64
    {
        let dir = try openDevice(device, making: true)
        defer { close(dir) }
        let temporary = ".\(Self.snapshotName(through)).new"
        let label = devicesPath + "/" + device + "/" + temporary
        _ = unlinkat(dir, temporary, 0)
        let fd = openat(dir, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw systemError("create", label) }
        defer { close(fd) }
        var pending = Data("{\"device\":\"\(device)\",\"snapshot\":\(through)}\n".utf8)
        var count = 0
        func flush() throws {
            let call = SyncFolderWatch.calling(path)
            defer { call.returned() }
            try Library.writeAll(pending, to: fd, path: label)
            pending.removeAll(keepingCapacity: true)
        }
        try body { line in
            pending.append(line)
            pending.append(0x0A)
            count += 1
            if pending.count >= 1 << 20 { try flush() }
        }
        pending.append(Data("{\"end\":\(through),\"lines\":\(count)}\n".utf8))
        try flush()
        let call = SyncFolderWatch.calling(path)
        defer { call.returned() }
        guard retryingEINTR({ fsync(fd) }) == 0 else { throw systemError("fsync", label) }
        return Int64(count)
    }

    /// Puts this device's snapshot through `through` in place (when its temporary file is there),
    /// then removes this device's older files: its segments and snapshots before `through`.
    func placeSnapshot(device: String, through: Int64) throws {
        let call = SyncFolderWatch.calling(path)
        defer { call.returned() }
        let dir = try openDevice(device, making: true)
        defer { close(dir) }
        let name = Self.snapshotName(through)
        if Self.kind(dir, "." + name + ".new") == S_IFREG {
            guard renameat(dir, "." + name + ".new", dir, name) == 0 else {
                throw systemError("rename", devicesPath + "/" + device + "/" + name)
            }
            guard fsync(dir) == 0 else { throw systemError("fsync", devicesPath + "/" + device) }
        }
        var removed = false
        for inner in Self.names(dir) {
            let number =
                inner == Self.changeFile ? 0 : Self.number(inner, "changes-") ?? Self.number(inner, "snapshot-")
            // Older, or the temporary snapshot of a compaction cut short before it was noted.
            let old =
                number.map { $0 < through }
                ?? (inner.hasPrefix(".") && inner.hasSuffix(".new")
                    && Self.number(String(inner.dropFirst().dropLast(".new".count)), "snapshot-") != nil)
            if old, Self.kind(dir, inner) == S_IFREG { removed = unlinkat(dir, inner, 0) == 0 || removed }
        }
        if removed { _ = fsync(dir) }
    }

    /// The size of one of this device's files (nil: not there).
    func size(device: String, _ name: String) -> off_t? {
        let call = SyncFolderWatch.calling(path)
        defer { call.returned() }
        guard let dir = try? openDevice(device, making: false) else { return nil }
        defer { close(dir) }
        var info = stat()
        guard fstatat(dir, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return nil
        }
        return info.st_size
    }

    /// Appends this device's lines to its change file and fsyncs them (the directory too when
    /// the file is new). The file must be `expected` bytes long, as this device left it: longer,
    /// another machine writes as this device (a copied library); shorter, an older copy of it
    /// (put back, or cut short by a power cut) or another machine's (`SyncHeal.swift` tells them
    /// apart); either way nothing is written. Lines this device wrote before being killed (the
    /// start of `data`) are kept, a torn end of them is cut; returns how many bytes of `data`
    /// were already there.
    func append(_ data: Data, device: String, base: Int64 = 0, expected: off_t, faults: Faults) throws -> Int {
        let call = SyncFolderWatch.calling(path)
        defer { call.returned() }
        let dir = try openDevice(device, making: true)
        defer { close(dir) }
        let segment = Self.segmentName(base)
        let label = devicesPath + "/" + device + "/" + segment
        let fd = openat(dir, segment, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else { throw systemError("open", label) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw LibraryError.unsafeLibrary("\(Self.shown(label)) is not a regular file")
        }
        guard info.st_size >= expected else { throw SyncCloned(device: device, shorter: true) }
        var already = 0
        if info.st_size != expected {
            // More than this write holds is not lines of its own (a file grown by another machine
            // or by hand, however large): refused before any of it is read.
            guard info.st_size - expected <= off_t(data.count) else { throw SyncCloned(device: device) }
            let extra = Int(info.st_size - expected)
            var tail = Data(count: extra)
            let n = tail.withUnsafeMutableBytes { buffer in
                retryingEINTR { pread(fd, buffer.baseAddress, extra, expected) }
            }
            if n != extra { tail = Data() }
            // A power cut where the file system keeps no journal (FAT) may leave zeros for the
            // end of the write: a torn end too.
            let ours = tail.prefix(upTo: tail.lastIndex { $0 != 0 }.map { $0 + 1 } ?? tail.startIndex)
            guard data.starts(with: ours) else { throw SyncCloned(device: device) }
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
/// device id): nothing more is written there until `cravey sync --new-device`. Or, when it is
/// `shorter` than this machine wrote it, perhaps an older copy of its own: `sync` looks, and writes
/// it again when it is (`SyncHeal.swift`).
struct SyncCloned: Error {
    let device: String
    var shorter = false
}

/// A file's whole lines from an offset, read a block at a time: what is held is a block and a
/// line, whatever the file's length. A line longer than `SyncFolder.maxLine` is passed over as
/// such; what follows the last newline is no line (`torn` says it is there).
final class LineReader {
    enum Item {
        case line(Data, end: off_t)
        case tooLong(end: off_t)

        var line: Data? { if case .line(let data, _) = self { data } else { nil } }
        var end: off_t {
            switch self {
            case .line(_, let end), .tooLong(let end): end
            }
        }
    }

    static let block = 1 << 20
    private let fd: Int32
    private var limit: off_t
    private let label: String
    /// The folder read (timed while it reads, and its fault seam).
    private let folder: SyncFolder
    /// The next byte to read from the file, and the file's offset of `bytes[start]`.
    private var position: off_t
    private var offset: off_t
    private var bytes: [UInt8] = []
    private var start = 0
    private var skipping = false
    /// Bytes after the last whole line (a line being copied, or torn).
    private(set) var torn = false

    init(fd: Int32, from: off_t, to size: off_t, label: String, folder: SyncFolder) {
        self.fd = fd
        self.folder = folder
        self.limit = size
        self.label = label
        position = from
        offset = from
    }

    deinit { close(fd) }

    /// Reads no further than `end` (a snapshot's counting line).
    func stop(at end: off_t) { limit = min(limit, end) }

    func next() throws -> Item? {
        while offset < limit {
            if let newline = bytes[start...].firstIndex(of: 0x0A) {
                let end = offset + off_t(newline - start + 1)
                defer {
                    start = newline + 1
                    offset = end
                }
                if skipping || newline - start > SyncFolder.maxLine {
                    skipping = false
                    return .tooLong(end: end)
                }
                return .line(Data(bytes[start..<newline]), end: end)
            }
            if bytes.count - start > SyncFolder.maxLine {
                offset += off_t(bytes.count - start)
                bytes.removeAll(keepingCapacity: true)
                start = 0
                skipping = true
            }
            guard position < limit else {
                torn = start < bytes.count || skipping
                return nil
            }
            if start > 0 {
                bytes.removeSubrange(0..<start)
                start = 0
            }
            let count = Int(min(off_t(Self.block), limit - position))
            let old = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: count))
            let at = position
            let call = SyncFolderWatch.calling(folder.path)
            defer { call.returned() }
            try folder.faults.hit("sync.read")
            let n = bytes.withUnsafeMutableBytes { buffer in
                retryingEINTR { pread(fd, buffer.baseAddress! + old, count, at) }
            }
            guard n == count else { throw systemError("read", label) }
            position += off_t(count)
        }
        torn = skipping
        return nil
    }
}

/// Every call into a sync folder, timed while it waits: a folder that stops answering (a stick
/// going bad, a network mount whose server went away) is told by how long the oldest call into it
/// has waited, never by how long a sync takes as a whole, so ten years of changes that come in
/// steadily are never cut short, and a folder that hangs holds a person `patience` seconds at most.
///
/// A command that reads or writes the folder in line (`sync`, `sync --status`, `check`) runs that
/// part on a thread of its own (`bounded`) and waits. Once a call has waited `patience` seconds,
/// the folder is given up for the rest of the process: the call left waiting (or any other) that
/// answers late goes no further than its return, so nothing more is done to the library after
/// the command has said what it did, and the process ends without that thread.
public enum SyncFolderWatch {
    /// How long one call into the folder may wait before the folder is said not to answer. A
    /// stick's slowest fsync of a block, a disk that was asleep spinning up (a few seconds), a
    /// network mount's first answer after a pause all come well within it; a person left longer
    /// than that without a word thinks the program hangs.
    public static let patience: Double = 10

    /// The folder did not answer a call for `seconds`; `broughtIn` changes had been kept before.
    public struct NotAnswering: Error, Sendable {
        public let folder: String
        public let seconds: Double
        public let broughtIn: Int
    }

    private struct Calls {
        var next = 0
        /// The calls under way: when each started (nanoseconds of uptime), and into which folder.
        var waiting: [Int: (since: UInt64, folder: String)] = [:]
        var givenUp = false
        /// The changes from the folder kept in the library by this process so far.
        var broughtIn = 0
    }

    private static let calls = Mutex(Calls())

    /// A call into the folder under way; `returned()` when it did.
    struct Call {
        fileprivate let token: Int

        /// The call is over; after the folder was given up, the thread waits here for the process to end.
        func returned() {
            let givenUp = SyncFolderWatch.calls.withLock { calls in
                calls.waiting[token] = nil
                return calls.givenUp
            }
            while givenUp { sleep(3600) }
        }
    }

    /// Starts timing a call into `folder`.
    static func calling(_ folder: String) -> Call {
        let now = DispatchTime.now().uptimeNanoseconds
        return Call(
            token: calls.withLock { calls in
                calls.next += 1
                calls.waiting[calls.next] = (now, folder)
                return calls.next
            })
    }

    /// Counts changes from the folder just kept in the library (said if the folder stops answering after).
    static func keptFromFolder(_ count: Int) {
        guard count > 0 else { return }
        calls.withLock { $0.broughtIn += count }
    }

    /// The folder one call has waited on for `seconds` or longer, given up from now on (nil: none).
    static func givingUp(after seconds: Double) -> NotAnswering? {
        let now = DispatchTime.now().uptimeNanoseconds
        return calls.withLock { calls in
            guard let oldest = calls.waiting.values.min(by: { $0.since < $1.since }),
                Double(now &- oldest.since) / 1e9 >= seconds
            else { return nil }
            calls.givenUp = true
            return NotAnswering(folder: SyncFolder.shown(oldest.folder), seconds: seconds, broughtIn: calls.broughtIn)
        }
    }

    /// Runs `body` on a thread of its own and waits for it: its result, or the error it threw; or
    /// `NotAnswering` once a call into a sync folder has waited `patience` seconds (the thread is
    /// left where it waits).
    public static func bounded<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let outcome = Outcome<T>(body)
        Thread.detachNewThread {
            // What the work holds (a library) is let go here before it is said to be done, so the
            // caller lets it go last, in line: never this thread as the process ends (a library
            // closed then could be cut short half-way through writing its database).
            var work = outcome.work.withLock { $0.take() }
            let result = Result { try work?() }
            work = nil
            outcome.result.withLock { $0 = result }
            outcome.done.signal()
        }
        while outcome.done.wait(timeout: .now() + 0.05) == .timedOut {
            if let stuck = givingUp(after: patience) { throw stuck }
        }
        return try outcome.result.withLock { $0 }!.get()!
    }

    /// What a thread of `bounded` is handed, and hands back.
    private final class Outcome<T: Sendable>: Sendable {
        let work: Mutex<(@Sendable () throws -> T)?>
        let result = Mutex<Result<T?, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)

        init(_ work: @escaping @Sendable () throws -> T) { self.work = Mutex(work) }
    }
}

extension Library {
    /// Whether `path` is a directory that can be reached (the folder a person names, before
    /// anything is made); timed as any call into the folder.
    public static func syncFolderIsDirectory(_ path: String) -> Bool {
        let call = SyncFolderWatch.calling(path)
        defer { call.returned() }
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
