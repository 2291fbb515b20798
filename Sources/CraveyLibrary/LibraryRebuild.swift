import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Rebuilding a lost database: from the newest good snapshot, then from the recordings' files
/// (their own tags say what changed since, or what a recording no snapshot holds was).
extension Library {
    /// How a database file is lost or damaged, seen without opening it: "empty", "damaged (…)"
    /// (not an SQLite file, or cut short of the length its header gives); nil when it looks whole.
    static func damage(ofDatabase path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }  // opening it says why
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        if info.st_size == 0 { return "empty" }
        var header = [UInt8](repeating: 0, count: 100)
        let count = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, 100) }
        guard count == 100, Array(header[0..<16]) == Array("SQLite format 3\0".utf8) else {
            return "damaged (it is not an SQLite database)"
        }
        func number(_ at: Int, _ width: Int) -> Int { header[at..<(at + width)].reduce(0) { $0 << 8 | Int($1) } }
        let pageSize = number(16, 2) == 1 ? 65536 : number(16, 2)
        let pages = number(28, 4)
        // The header's page count is valid when its "valid for" number matches the change counter.
        if pages > 0, number(92, 4) == number(24, 4), Int64(pages) * Int64(pageSize) > Int64(info.st_size),
            !writeAheadLogHolds(pages: (Int(info.st_size) / pageSize + 1)...pages, pageSize: pageSize, of: path)
        {
            return "damaged (cut short: \(info.st_size) of \(Int64(pages) * Int64(pageSize)) bytes)"
        }
        return nil
    }

    /// Whether the database's write-ahead log (`path-wal`) holds every page in `missing`, in
    /// frames SQLite would take: its own header's salts, their checksums whole, up to its last
    /// commit. A checkpoint cut short (a kill or a power cut while the log is copied into the
    /// database) leaves the file shorter than its new header says, with the pages still in the
    /// log, from which SQLite reads them on opening: nothing is lost, and the database is whole.
    static func writeAheadLogHolds(pages missing: ClosedRange<Int>, pageSize: Int, of path: String) -> Bool {
        // Never following a link, and never waiting on something planted there (a FIFO).
        let fd = open(path + "-wal", O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size >= 32 else { return false }
        // One frame at a time (a log may be large): its 24-byte header, then the page.
        var bytes = [UInt8](repeating: 0, count: 24 + pageSize)
        func read(_ count: Int, at offset: off_t) -> Bool {
            bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, offset) } == count
        }
        func word(_ at: Int) -> UInt32 { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | UInt32($1) } }
        guard read(32, at: 0) else { return false }
        let magic = word(0)
        guard magic == 0x377f_0682 || magic == 0x377f_0683, Int(word(8)) == pageSize else { return false }
        // SQLite's checksum: pairs of 32-bit words, in the byte order the magic names.
        let bigEndian = magic & 1 == 1
        func checksum(_ range: Range<Int>, _ start: (UInt32, UInt32)) -> (UInt32, UInt32) {
            var (s0, s1) = start
            for at in stride(from: range.lowerBound, to: range.upperBound, by: 8) {
                let (x0, x1) = bigEndian ? (word(at), word(at + 4)) : (word(at).byteSwapped, word(at + 4).byteSwapped)
                s0 = s0 &+ x0 &+ s1
                s1 = s1 &+ x1 &+ s0
            }
            return (s0, s1)
        }
        var running = checksum(0..<24, (0, 0))
        guard running == (word(24), word(28)) else { return false }
        let salts = (word(16), word(20))
        var committed = Set<Int>(), pending = Set<Int>()
        var offset = off_t(32)
        while offset + off_t(24 + pageSize) <= info.st_size, read(24 + pageSize, at: offset) {
            guard (word(8), word(12)) == salts else { break }
            running = checksum(24..<(24 + pageSize), checksum(0..<8, running))
            guard running == (word(16), word(20)) else { break }
            pending.insert(Int(word(0)))
            if word(4) != 0 {  // a commit: its frames count
                committed.formUnion(pending)
                pending.removeAll()
            }
            offset += off_t(24 + pageSize)
        }
        return missing.allSatisfy(committed.contains)
    }

    /// Puts the newest good snapshot in place of a lost or damaged database (a damaged one, and
    /// any write-ahead log left of a lost one, are kept beside it, never deleted); with no
    /// snapshot, an empty database. The rebuild marker is made first, so a run killed after this
    /// still lists the files again. Returns the snapshot used.
    /// `lockHeld`: the caller holds the library lock already.
    static func replaceLostDatabase(
        _ dbPath: String, files: FileStore, faults: Faults, keep: Bool, lockHeld: Bool = false
    ) throws -> Snapshot? {
        let lock = lockHeld ? nil : try FileLock(path: files.path("library.lock"))
        defer { withExtendedLifetime(lock) {} }  // held to the end, not only to its last use
        let marker = files.path(FileStore.rebuildingMarker)
        var info = stat()
        let exists = lstat(dbPath, &info) == 0
        if exists, damage(ofDatabase: dbPath) == nil, !keep || passesCheck(dbPath) {
            return nil  // another cravey has put it back meanwhile
        }
        let fd = open(marker, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else { throw systemError("create", marker) }
        close(fd)
        try files.sync(files.root, site: "rebuild.fsync.root")
        let kept = dbPath + FileStore.damagedSuffix + "\(Int(Date().timeIntervalSince1970))"
        if exists && keep {
            try files.rename(dbPath, kept, site: "rebuild.keep")
        } else if exists {
            try files.unlink(dbPath, site: "rebuild.unlink.empty")
        }
        for suffix in ["-wal", "-shm"] where files.exists(dbPath + suffix) {
            if files.size(dbPath + suffix) ?? 0 > 0 {
                try files.rename(dbPath + suffix, kept + suffix, site: "rebuild.keep")
            } else {
                try files.unlink(dbPath + suffix, site: "rebuild.unlink.empty")
            }
        }
        let all = snapshots(in: files)
        let snapshot = all.first { isGoodSnapshot($0.path) }
        try noteWhatCannotComeBack(files: files, snapshots: all, using: snapshot)
        if let snapshot {
            let restoring = dbPath + ".restoring"
            _ = unlink(restoring)
            try FileCopy.copy(snapshot.path, to: restoring, faults: faults, site: "rebuild.copy")
            try files.rename(restoring, dbPath, site: "rebuild.rename")
        } else {
            let fd = open(dbPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard fd >= 0 else { throw systemError("create", dbPath) }
            close(fd)
        }
        try files.sync(files.root, site: "rebuild.fsync.root")
        return snapshot
    }

    /// Says what a rebuild from `snapshot` cannot bring back. The logs after it, when the journal
    /// was lost with the database (the journal is there, if empty, from the first snapshot on):
    /// in `logs.journal.lost`, said by every `check` until `check --repair`. The logs between it
    /// and a newer snapshot that is damaged, while the journal is there: in the rebuild's marker,
    /// said once by the rebuild (again if it is killed and taken up). One line each, fsynced.
    static func noteWhatCannotComeBack(files: FileStore, snapshots all: [Snapshot], using snapshot: Snapshot?) throws {
        let damaged = all.filter { $0.day > snapshot?.day ?? "" }
        let journalLost = !all.isEmpty && !files.exists(files.path(FileStore.journalFile))
        var parts: [String] = []
        if let newest = damaged.first {
            parts.append(
                "the snapshot of \(newest.day) is damaged (kept as it is), so the one of "
                    + (snapshot.map { "\($0.day) was used" } ?? "no day could be used"))
        }
        let since = snapshot.map { " since \($0.day)" } ?? ""
        if journalLost {
            parts.append(
                "logs and settings\(since) could not be brought back (the journal of logs was lost with the database)")
        } else if let newest = damaged.first {
            parts.append("logs and settings\(since) until \(newest.day) could not be brought back")
        }
        guard !parts.isEmpty else { return }
        let path = files.path(journalLost ? FileStore.lostNoteFile : FileStore.rebuildingMarker)
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else { throw systemError("open", path) }
        defer { close(fd) }
        let line = Data((parts.joined(separator: "; ") + "\n").utf8)
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == line.count, retryingEINTR({ fsync(fd) }) == 0 else { throw systemError("write", path) }
        try files.sync(files.root, site: "rebuild.fsync.root")
    }

    /// What rebuilds could not bring back, one line each, until `check --repair` forgets them
    /// (with `once`, also what this rebuild says only once).
    func notesOfWhatCannotComeBack(once: Bool = false) -> [String] {
        (once ? [FileStore.rebuildingMarker, FileStore.lostNoteFile] : [FileStore.lostNoteFile]).flatMap { name in
            let data = Self.regularFileContents(files.path(name)) ?? Data()
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
    }

    /// The rebuild's last steps, under the lock with its marker in place: every log and setting
    /// typed since the snapshot, from the journal, and what could not be brought back, said. The
    /// marker goes only once the journal could be read: one that cannot be read now (its
    /// permissions changed) is replayed by the first command after it is fixed, while logs made
    /// meanwhile wait in the database's notes for it.
    func finishRebuild(into report: inout Report) throws {
        let read = try replayJournal(into: &report)
        for note in notesOfWhatCannotComeBack(once: true) { report.add(.notBroughtBack, note) }
        guard read else { return }
        flushJournalAfterCommit()
        try files.unlink(files.path(FileStore.rebuildingMarker), site: "rebuild.unlink")
        try files.sync(root, site: "rebuild.fsync.root")
    }

    /// Removes the rows (from a snapshot) whose files were deleted since it was taken.
    func forgetRowsWithoutFiles(into report: inout Report) throws {
        for recording in try store.recordings(section: .all) where !hasFile(recording) {
            guard
                !files.exists(files.path(FileStore.trashDir) + "/" + (recording.filePath as NSString).lastPathComponent)
            else { continue }
            try store.deleteRecording(id: recording.id)
            report.add(.forgotten, "\(recording.filePath) '\(recording.title)'")
        }
    }

    /// Brings the rows (from a snapshot) of files changed since up to date from the files' own
    /// tags: details edited, a trim (its new length and sound), a transcript made.
    func refreshFromFiles(into report: inout Report) throws {
        guard media?.readTag != nil else { return }
        for recording in try store.recordings(section: .all) where hasFile(recording) {
            guard let description = fileDescription(recording.filePath, id: recording.id),
                let modified = StoredDate.date(description.modifiedAt)
            else { continue }
            var changed = false
            if modified > recording.modifiedAt {
                var updated = description.recording(over: recording)
                updated.checkIn = recording.checkIn  // a check-in's day is never changed
                let file = files.path(recording.filePath)
                if let inspect = media?.inspect, let facts = try? inspect(file), facts.duration > 0,
                    abs(facts.duration - recording.duration) > 0.0005
                {
                    // A trim since the snapshot: its new length and sound.
                    updated.duration = min(facts.duration, Validation.maxDuration)
                    updated.media = facts.media
                    updated.media.avOffset = recording.media.avOffset
                    updated.media.sizeBytes = files.size(file) ?? 0
                    if let measured = measured(updated, file: file) { updated = measured }
                    try store.replaceMedia(updated)
                }
                if (try? Validation.check(updated)) != nil {
                    try store.updateDetails(
                        id: recording.id, title: updated.title, notes: updated.notes,
                        purpose: updated.purpose, forTriggers: updated.forTriggers, at: updated.modifiedAt)
                    changed = true
                }
            }
            if let transcript = description.storedTranscript() {
                let stored = try store.transcript(of: recording.id)
                if stored == nil || stored!.state != .done || stored!.madeAt < transcript.madeAt {
                    _ = try store.storeTranscript(transcript)
                    changed = true
                }
            }
            if changed {
                let title = try store.recording(id: recording.id)?.title ?? recording.title
                report.add(.refreshed, "\(recording.filePath) as '\(title)'")
            }
        }
    }
}

extension Store {
    /// Whether a check-in for `day` is listed already.
    func checkInRecordingExists(day: String) throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM recording WHERE checkinDay = ? AND checkinFrom = '')",
                arguments: [day])
                ?? false
        }
    }

    /// Whether the library holds anything a user made: a recording, a log, a check-in day, a
    /// setting (its id alone is not something a user made) or a plan.
    func holdsAnything() throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM recording) OR EXISTS (SELECT 1 FROM craving) OR EXISTS (SELECT 1 FROM usage)
                      OR EXISTS (SELECT 1 FROM checkinDay) OR EXISTS (SELECT 1 FROM setting WHERE key != 'libraryId')
                      OR EXISTS (SELECT 1 FROM dayMark)
                      OR EXISTS (SELECT 1 FROM plan)
                      OR EXISTS (SELECT 1 FROM withdrawalCheck)
                      OR EXISTS (SELECT 1 FROM selfScreen)
                      OR EXISTS (SELECT 1 FROM limitRule)
                    """) ?? false
        }
    }
}
