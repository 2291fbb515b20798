import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Backups: a complete, consistent, verifiable copy of the library in a directory of the user's
/// (a USB disk, a mounted share, a synced folder), and a restore from one into an empty library.
///
/// What a backup directory holds, all written by cravey:
/// - `Database/library-<UTC time>.sqlite`: a snapshot of the database (one per backup);
/// - `Recordings/…` and `Recordings/Thumbnails/…`: the recordings' files under their library names
///   (a file whose content changed gets a second name, `<name>.<8 hex of its SHA-256>.<ext>`);
/// - `cravey-backup.json`: the manifest, the library's id and every file's path, size and
///   SHA-256, written last;
/// - `.cravey-backup.lock`: the folder's lock, holding the notes of the backup writing (see
///   `BackupFolder.Hold`).
/// The rules: a folder holds one library's backup (another library's is refused unless the person
/// asks to replace it); one backup writes into it at a time; the database snapshot and second
/// links to every recording are taken together under the library lock (a consistent set, copied
/// afterwards without holding up recording); a file whose SHA-256 the last manifest lists is not
/// copied again; every file is noted, copied under a temporary name, fsynced and renamed to a name
/// that was free; the new manifest replaces the old one in one rename; only then are the files the
/// old manifest listed and the new one does not removed, and those an interrupted backup noted.
/// Nothing else in the directory is ever touched, nothing is written over, so a backup
/// interrupted at any step leaves the last one whole, and one that cannot finish (a full disk)
/// takes back what it wrote.
extension Library {
    public struct BackupManifest: Codable, Sendable {
        public struct Entry: Codable, Sendable, Equatable {
            /// Where it is in the backup directory.
            public var path: String
            /// Where it goes in a library (recordings only).
            public var libraryPath: String?
            public var size: Int64
            public var sha256: String
        }

        public var format = 1
        /// The id of the library backed up (see `Library.identity()`); nil in a manifest written
        /// before libraries had ids.
        public var libraryId: String?
        public var createdAt: String
        public var database: Entry
        public var files: [Entry]
        public var recordings: Int
        public var logs: Int

        public static let name = "cravey-backup.json"
    }

    /// Whether `directory` holds a backup's mark: the manifest or the lock file the first backup
    /// left there (each a regular file, not a link). The mount point a disk leaves when it is not
    /// plugged in holds neither: a backup made there would fill the disk under it instead.
    public static func holdsBackupMark(_ directory: String) -> Bool {
        let dir = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { return false }
        defer { close(dir) }
        return [BackupManifest.name, BackupFolder.lockName].contains { name in
            var info = stat()
            return fstatat(dir, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        }
    }

    public struct BackupResult: Sendable {
        public var directory: String
        public var recordings: Int
        public var logs: Int
        /// Recordings' files copied by this backup, and the bytes copied (with the database's).
        public var copied: Int
        public var copiedBytes: Int64
        /// Recordings' files the last backup had already, not copied again.
        public var unchanged: Int
        /// Files of the last backup no longer part of this one, removed.
        public var removed: Int
        public var manifest: BackupManifest
    }

    /// Why a manifest read from a backup folder cannot be trusted (nil: it can). The folder may be
    /// written by others, so a manifest is held to what cravey itself writes: format 1; counts that
    /// are not negative; the database under `Database/` and every file under `Recordings/`, each
    /// path a plain relative path inside the folder (see `BackupFolder.problem(withPath:)`) named
    /// once, with a size and a SHA-256; every file going to its own recording's name in a library,
    /// each name once.
    static func problem(in manifest: BackupManifest) -> String? {
        guard manifest.format == 1 else {
            return "is in format \(manifest.format), which this cravey does not read (it reads format 1)"
        }
        guard manifest.recordings >= 0, manifest.logs >= 0 else { return "counts less than nothing" }
        if let id = manifest.libraryId, !isIdentity(id) { return "names no proper library id" }
        var paths = Set<String>(), libraryPaths = Set<String>()
        for entry in [manifest.database] + manifest.files {
            let shown =
                "'\(String(entry.path.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) }).prefix(120))'"
            if let problem = BackupFolder.problem(withPath: entry.path) {
                return "names \(shown), \(problem) (cravey reads only inside the backup folder)"
            }
            guard entry.size >= 0, entry.sha256.count == 64,
                entry.sha256.allSatisfy({ $0.isHexDigit && !$0.isUppercase })
            else {
                return "gives \(shown) no proper size and SHA-256"
            }
            guard paths.insert(entry.path).inserted else { return "names \(shown) twice" }
        }
        guard manifest.database.path.hasPrefix("Database/"), manifest.database.path.hasSuffix(".sqlite"),
            manifest.database.libraryPath == nil
        else {
            return "does not name its database under Database/"
        }
        for entry in manifest.files {
            guard entry.path.hasPrefix(FileStore.recordingsDir + "/"), let libraryPath = entry.libraryPath,
                Library.isRecordingPath(libraryPath)
            else {
                return "names a file that is not a recording's (\(entry.libraryPath ?? "no library name"))"
            }
            guard libraryPaths.insert(libraryPath).inserted else { return "names \(libraryPath) twice" }
        }
        return nil
    }

    /// What a restore really brought in, counted in the library afterwards.
    public struct RestoreResult: Sendable {
        public var recordings: Int
        public var logs: Int
        public var files: Int
        public var backedUpAt: String
    }

    static let partialSuffix = ".cravey-partial"

    /// Backs the library up to `directory` (created if missing; see the type's doc). A manifest
    /// already there that cravey cannot trust is refused, and nothing is written. The folder holds
    /// one library's backup: a backup of another library there is refused in one line unless
    /// `replacing` (then it is replaced, as the person asked). One backup writes into a folder at a
    /// time (its lock is waited for `folderWaitSeconds` at most).
    public func backUp(
        to directory: String, replacing: Bool = false, now: Date, folderWaitSeconds: Double = 10
    ) throws -> BackupResult {
        let folder = try backupFolder(directory, create: true)
        // A library that cannot be written and has no id yet is told by its content (as an old
        // manifest is, see `refuseAnotherLibrarysBackup`).
        let identity: String?
        do {
            identity = try self.identity()
        } catch LibraryError.readOnly {
            identity = nil
        }
        // Another library's backup is refused before anything is made in the folder, and again
        // under its lock (a backup may have finished meanwhile).
        func refuseAnotherLibrarys(_ manifest: BackupManifest?) throws {
            guard let manifest, !replacing else { return }
            let recordings = try translatingDatabaseErrors { try store.recordings(section: .all) }
            try refuseAnotherLibrarysBackup(
                manifest, in: folder, identity: identity,
                recordings: recordings.flatMap { [$0.filePath] + ($0.thumbnailPath.map { [$0] } ?? []) })
        }
        try refuseAnotherLibrarys(try Self.readManifest(in: folder))
        let hold = try folder.lock(exclusive: true, waiting: folderWaitSeconds)
        defer { withExtendedLifetime(hold) {} }
        let previous = try Self.readManifest(in: folder)
        try refuseAnotherLibrarys(previous)
        // Nothing is written before the folder is known to hold no link where cravey goes: its
        // directories, and every file the last manifest names (a missing one is only not reused).
        for sub in ["Database", "Recordings", "Recordings/Thumbnails"] {
            if let dir = try folder.directory(sub) { close(dir) }
        }
        for entry in [previous?.database].compactMap({ $0 }) + (previous?.files ?? []) {
            if let (file, _) = try folder.openFile(entry.path) { close(file) }
        }
        var work: BackupWorkDirectory?
        defer { work?.remove() }
        // A read-only library cannot change under its backup: its database is copied into a private
        // directory in the folder, its recordings straight from where they are.
        let readOnly = !isWritable
        let staging = readOnly ? try Self.readOnlyStaging(in: folder.path) : nil
        defer { if let staging { Self.removeReadOnlyStaging(staging) } }
        var sources: [(relative: String, link: String)] = []
        var counts = (recordings: 0, logs: 0)
        // The consistent set: the database and the files as they are at this moment.
        try translatingDatabaseErrors {
            let lock = try lockLibrary()
            defer { lock.release() }
            if staging == nil { work = try BackupWorkDirectory.make(in: files, site: "backup.mkdir") }
            try copyDatabase(to: (staging ?? work!.path) + "/library.sqlite")
            counts = try store.writer.read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM recording") ?? 0,
                    try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM craving) + (SELECT count(*) FROM usage)")
                        ?? 0
                )
            }
            for recording in try store.recordings(section: .all) where hasFile(recording) {
                for relative in [recording.filePath] + (recording.thumbnailPath.map { [$0] } ?? [])
                where files.isRegularFile(files.path(relative)) {
                    if let work {
                        let link = work.path + "/" + (relative as NSString).lastPathComponent
                        try files.link(files.path(relative), link, site: "backup.link")
                        sources.append((relative, link))
                    } else {
                        sources.append((relative, files.path(relative)))
                    }
                }
            }
        }
        let databaseCopy = (staging ?? work!.path) + "/library.sqlite"
        // What an interrupted backup left: copies under the temporary name go now; the files it
        // noted go once this backup is whole (what this one copies again is reused meanwhile),
        // or at once if the folder is full.
        Self.removePartials(in: folder)
        let leftovers = hold.notes().filter { Self.isBackupCopyName($0.path) }
        func removeLeftovers(keeping manifest: BackupManifest?) {
            let listed = Set(([manifest?.database].compactMap { $0 } + (manifest?.files ?? [])).map(\.path))
            for note in leftovers where !listed.contains(note.path) {
                _ = try? folder.remove(note.path, ifItHas: note.size, sha256: note.sha256)
            }
        }

        var result = BackupResult(
            directory: folder.path, recordings: counts.recordings, logs: counts.logs, copied: 0, copiedBytes: 0,
            unchanged: 0, removed: 0,
            manifest: BackupManifest(
                libraryId: identity, createdAt: StoredDate.text(now), database: .init(path: "", size: 0, sha256: ""),
                files: [], recordings: counts.recordings, logs: counts.logs))
        let known = Dictionary(grouping: previous?.files ?? [], by: \.sha256)
        // Each path holds one entry of this backup: two files with the same content (two dark
        // thumbnails) are two entries under two names, as a manifest must list them.
        var used = Set<String>()
        // The files this backup wrote, removed again if it cannot finish.
        var created: [String] = []
        func place(_ source: String, as wanted: String) throws -> BackupManifest.Entry {
            let entry = try placeOnce(source, as: wanted)
            used.insert(entry.path)
            return entry
        }
        func placeOnce(_ source: String, as wanted: String) throws -> BackupManifest.Entry {
            let (size, hash) = try FileCopy.sha256(source)
            // The last backup's copy counts only while it still hashes as its manifest says.
            for entry in known[hash] ?? [] where entry.size == size && !used.contains(entry.path) {
                if let there = try folder.hash(entry.path), there == (size, hash) {
                    result.unchanged += 1
                    return BackupManifest.Entry(path: entry.path, libraryPath: nil, size: size, sha256: hash)
                }
            }
            let ext = (wanted as NSString).pathExtension
            let stem = (wanted as NSString).deletingPathExtension
            for candidate in [wanted, "\(stem).\(hash.prefix(8)).\(ext)", "\(stem).\(hash.prefix(16)).\(ext)"]
            where !used.contains(candidate) {
                if try folder.exists(candidate) {
                    // A file there already: used only if it is this very content (left by a backup
                    // interrupted before its manifest); never written over.
                    if let there = try? folder.hash(candidate), there == (size, hash) {
                        result.unchanged += 1
                        return BackupManifest.Entry(path: candidate, libraryPath: nil, size: size, sha256: hash)
                    }
                    continue
                }
                let partial = candidate + Self.partialSuffix
                let input = open(source, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
                guard input >= 0 else { throw systemError("open", source) }
                defer { close(input) }
                let copied = try FileCopy.copy(
                    from: input, named: source, into: try folder.create(partial), named: folder.path + "/" + partial,
                    faults: faults, site: "backup.copy")
                guard copied.sha256 == hash else {
                    throw LibraryError.database("\(source) changed while it was being copied; run the backup again")
                }
                try hold.note(.init(path: candidate, size: size, sha256: hash))
                try folder.rename(
                    partial, to: (candidate as NSString).lastPathComponent, faults: faults, site: "backup.rename",
                    syncSite: "backup.fsync.dir")
                created.append(candidate)
                result.copied += 1
                result.copiedBytes += size
                return BackupManifest.Entry(path: candidate, libraryPath: nil, size: size, sha256: hash)
            }
            throw LibraryError.database(
                "\(folder.path)/\(wanted) and its other names are taken by other files; nothing was written over")
        }

        do {
            let stamp = Self.backupStamp(now)
            let database = try place(databaseCopy, as: "Database/library-\(stamp).sqlite")
            // The counts below are the recordings' files; the database is copied each time.
            result.copied = 0
            result.unchanged = 0
            var entries: [BackupManifest.Entry] = []
            for (relative, link) in sources {
                var entry = try place(link, as: relative)
                entry.libraryPath = relative
                entries.append(entry)
            }
            result.manifest.database = database
            result.manifest.files = entries
            try writeManifest(result.manifest, in: folder)
        } catch {
            // Not whole: what this backup wrote goes again, so the folder holds the last backup as
            // it was and nothing more.
            for path in created {
                folder.removeFiles(in: (path as NSString).deletingLastPathComponent) {
                    $0 == (path as NSString).lastPathComponent
                }
            }
            Self.removePartials(in: folder)
            if case let LibraryError.system(_, _, code) = error, code == ENOSPC || code == EDQUOT {
                removeLeftovers(keeping: previous)
                throw LibraryError.backupFolder(
                    "there is not enough room in \(folder.path) for this backup (\(String(cString: strerror(code)))); "
                        + "nothing of it was left there\(previous == nil ? "" : " and the last backup is whole")")
            }
            throw error
        }
        // The new backup is whole: what only the last one listed goes — each only while it is
        // still the file that manifest describes.
        let kept = Set([result.manifest.database.path] + result.manifest.files.map(\.path))
        for old in [previous?.database].compactMap({ $0 }) + (previous?.files ?? []) where !kept.contains(old.path) {
            try faults.hit("backup.remove.old")
            if try folder.remove(old.path, ifItHas: old.size, sha256: old.sha256) { result.removed += 1 }
        }
        removeLeftovers(keeping: result.manifest)
        hold.clearNotes()
        try? setLastBackup(directory: folder.path, at: now)
        return result
    }

    /// Refuses a backup into a folder that holds another library's backup (see `backUp`). A
    /// manifest written before libraries had ids is this library's when it lists one of this
    /// library's recordings (their names are their own UUIDs) or its database holds one of this
    /// library's logs (by id); any other is another library's.
    private func refuseAnotherLibrarysBackup(
        _ manifest: BackupManifest, in folder: BackupFolder, identity: String?, recordings: [String]
    ) throws {
        let mine = Set(recordings)
        let byContent = manifest.libraryId == nil || identity == nil
        if !byContent {
            if manifest.libraryId == identity { return }
        } else if manifest.files.contains(where: { $0.libraryPath.map(mine.contains) == true })
            || holdsOneOfMyLogs(manifest.database, in: folder)
        {
            return
        }
        throw LibraryError.backupFolder(
            "\(folder.path) holds the backup of another library\(byContent ? " (none of its recordings or logs are this library's)" : ""), "
                + "and it stays as it is: back up to another folder, or add --replace to replace that backup with this library's"
        )
    }

    /// Whether the database of an older backup holds a craving or a use this library holds.
    private func holdsOneOfMyLogs(_ entry: BackupManifest.Entry, in folder: BackupFolder) -> Bool {
        guard let lock = try? lockLibrary() else { return false }
        let work = try? BackupWorkDirectory.make(in: files, site: "backup.mkdir")
        lock.release()
        guard let work else { return false }
        defer { work.remove() }
        let copy = work.path + "/library.sqlite-previous"
        let sql = "SELECT id FROM craving UNION ALL SELECT id FROM usage"
        guard (try? self.copy(entry, from: folder, to: copy, site: "backup.previous.copy")) != nil,
            let mine = try? store.writer.read({ try String.fetchSet($0, sql: sql) }), !mine.isEmpty
        else { return false }
        var config = Configuration()
        config.readonly = true
        config.label = "cravey backup"
        guard let queue = try? DatabaseQueue(path: copy, configuration: config) else { return false }
        defer { try? queue.close() }
        let theirs = (try? queue.read { try String.fetchSet($0, sql: sql) }) ?? []
        return !theirs.isDisjoint(with: mine)
    }

    /// Removes the copies an interrupted backup left under cravey's temporary name.
    private static func removePartials(in folder: BackupFolder) {
        for sub in ["", "Database", FileStore.recordingsDir, FileStore.thumbnailsDir] {
            folder.removeFiles(in: sub) { $0.hasSuffix(Self.partialSuffix) }
        }
    }

    /// Where a backup puts its copies: `Database/library-<UTC time>.sqlite`, or a recording's or
    /// thumbnail's own name under `Recordings/`, each maybe with a second name's hex before its
    /// extension (`<name>.<hex>.<ext>`).
    static func isBackupCopyName(_ relative: String) -> Bool {
        let name = (relative as NSString).lastPathComponent
        switch (relative as NSString).deletingLastPathComponent {
        case "Database":
            return name.hasPrefix("library-") && name.hasSuffix(".sqlite")
                && name.dropFirst(8).dropLast(7).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") }
        case FileStore.recordingsDir, FileStore.thumbnailsDir:
            return isRecordingCopyName(name)
        default:
            return false
        }
    }

    /// A recording's or thumbnail's own name, or its second name (`<name>.<hex>.<ext>`).
    static func isRecordingCopyName(_ name: String) -> Bool {
        if Recording.owner(ofFileName: name) != nil { return true }
        let ext = (name as NSString).pathExtension
        let stem = (name as NSString).deletingPathExtension
        let hex = (stem as NSString).pathExtension
        guard [8, 16].contains(hex.count), hex.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return false }
        return Recording.owner(ofFileName: (stem as NSString).deletingPathExtension + "." + ext) != nil
    }

    /// The problems found by reading every file of the backup at `directory` again (empty: whole).
    /// A manifest cravey cannot trust is refused before any file is read.
    public func verifyBackup(at directory: String) throws -> (
        manifest: BackupManifest, problems: [String], bytes: Int64
    ) {
        let folder = try backupFolder(directory, create: false)
        let hold = try folder.lock(exclusive: false, waiting: 10)
        defer { withExtendedLifetime(hold) {} }
        return try verify(folder)
    }

    /// Refuses a folder that is not there or holds no cravey backup, before any library is made
    /// to restore into (the words `restore` would say).
    public static func refuseWhatIsNoBackup(_ directory: String) throws {
        guard !directory.isEmpty else {
            throw LibraryError.invalid(field: "directory", reason: "give the directory to restore from")
        }
        let absolute = directory.hasPrefix("/") ? directory : FileManager.default.currentDirectoryPath + "/" + directory
        let folder = try BackupFolder(path: URL(fileURLWithPath: absolute).resolvingSymlinksInPath().path)
        guard try readManifest(in: folder) != nil else {
            throw LibraryError.invalid(
                field: "backup", reason: "\(folder.path) holds no cravey backup (no \(BackupManifest.name))")
        }
    }

    private func verify(_ folder: BackupFolder) throws -> (manifest: BackupManifest, problems: [String], bytes: Int64) {
        guard let manifest = try Self.readManifest(in: folder) else {
            throw LibraryError.invalid(
                field: "backup", reason: "\(folder.path) holds no cravey backup (no \(BackupManifest.name))")
        }
        var problems: [String] = []
        var bytes: Int64 = 0
        for entry in [manifest.database] + manifest.files {
            guard let (size, hash) = try folder.hash(entry.path) else {
                problems.append("\(entry.path): missing")
                continue
            }
            bytes += size
            if size != entry.size || hash != entry.sha256 {
                problems.append("\(entry.path): its SHA-256 no longer matches (changed or damaged)")
            }
        }
        return (manifest, problems, bytes)
    }

    /// Restores the backup at `directory` into this library, which must be empty: the manifest is
    /// checked whole and every file's SHA-256 first, the backup's rows against the rules typed
    /// input meets (`checkLogs` adds the rules of the logs, from the floor that knows them), then
    /// the files are saved with the save's rules (noted, renamed in, the rows committed in one
    /// transaction), so a restore interrupted at any step leaves the library empty again.
    public func restore(from directory: String, checkLogs: ((String) throws -> [String])? = nil) throws -> RestoreResult
    {
        let folder = try backupFolder(directory, create: false)
        let hold = try folder.lock(exclusive: false, waiting: 10)
        defer { withExtendedLifetime(hold) {} }
        let (manifest, problems, _) = try verify(folder)
        if let first = problems.first {
            throw LibraryError.invalid(
                field: "backup",
                reason:
                    "the backup at \(folder.path) is damaged (\(first)\(problems.count > 1 ? " and \(problems.count - 1) more" : "")); nothing was restored"
            )
        }
        return try translatingDatabaseErrors {
            let lock = try lockLibrary()
            defer { lock.release() }
            let recordings = try store.count(), media = files.craveyMediaFiles().count
            if try store.holdsAnything() || media > 0 {
                throw LibraryError.notEmpty(root: root, holds: max(recordings, media))
            }
            let work = try BackupWorkDirectory.make(in: files, site: "restore.mkdir")
            defer { work.remove() }
            // The backup's database, brought to this cravey's schema in a copy of its own.
            let database = work.path + "/restore.sqlite"
            try copy(manifest.database, from: folder, to: database, site: "restore.copy")
            try Self.checkBackupDatabase(
                database, named: manifest.database.path, in: folder, faults: faults, checkLogs: checkLogs,
                files: Set(manifest.files.compactMap(\.libraryPath)))
            let paths = manifest.files.compactMap(\.libraryPath)
            try store.notePendingSave(paths)
            for entry in manifest.files {
                guard let relative = entry.libraryPath else { continue }
                let staged = files.path(FileStore.incomingDir) + "/restore_" + (relative as NSString).lastPathComponent
                _ = unlink(staged)
                try copy(entry, from: folder, to: staged, site: "restore.copy")
                try files.rename(staged, files.path(relative), site: "restore.rename")
            }
            try files.sync(files.path(FileStore.thumbnailsDir), site: "restore.fsync.dir")
            try files.sync(files.path(FileStore.recordingsDir), site: "restore.fsync.dir")
            try store.adopt(database, clearing: paths, faults: faults)
            flushJournalAfterCommit()  // the restored logs and settings, journaled like typed ones
            let logs = try store.writer.read { db in
                try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM craving) + (SELECT count(*) FROM usage)") ?? 0
            }
            return RestoreResult(
                recordings: try store.count(), logs: logs, files: files.craveyMediaFiles().count,
                backedUpAt: manifest.createdAt)
        }
    }

    /// Copies a file of the backup (opened beneath its folder) to `destination`, checking it is
    /// still the content its manifest names.
    private func copy(_ entry: BackupManifest.Entry, from folder: BackupFolder, to destination: String, site: String)
        throws
    {
        guard let (input, _) = try folder.openFile(entry.path) else {
            throw LibraryError.invalid(
                field: "backup",
                reason: "\(entry.path) left the backup at \(folder.path) while it was read; nothing was restored")
        }
        defer { close(input) }
        let copied = try FileCopy.copy(
            from: input, named: folder.path + "/" + entry.path, to: destination, faults: faults, site: site)
        guard copied.sha256 == entry.sha256 else {
            _ = unlink(destination)
            throw LibraryError.invalid(
                field: "backup",
                reason: "\(entry.path) in the backup at \(folder.path) changed while it was read; nothing was restored")
        }
    }

    /// Opens the backup's database copy as this cravey's and checks its rows: every recording
    /// against the rules of typed input, owning a file the backup holds, and each file owned by a
    /// row; the logs through `checkLogs`. A backup database that is not cravey's, or holds a row
    /// cravey would refuse, is refused in words that name the backup, not the person's library.
    static func checkBackupDatabase(
        _ database: String, named name: String, in folder: BackupFolder, faults: Faults,
        checkLogs: ((String) throws -> [String])?, files: Set<String>
    ) throws {
        func refuse(_ why: String) -> LibraryError {
            .untrustedBackup("the backup's database (\(name) in \(folder.path)) \(why); nothing was restored")
        }
        if try madeByANewerCravey(database) {
            throw LibraryError.backupFolder(
                "the backup at \(folder.path) was made by a newer cravey; update cravey to restore it (nothing was restored)"
            )
        }
        let restored: Store
        do {
            restored = try Store(path: database, faults: faults)
        } catch Store.OpenFailure.foreign {
            throw refuse("is the database of another program")
        } catch Store.OpenFailure.corrupt(let message) {
            throw refuse("is not a cravey database (\(message))")
        } catch let error as DatabaseError {
            throw refuse("cannot be read (\(error.message ?? "\(error.resultCode)"))")
        } catch let error as LibraryError {
            throw refuse("cannot be used (\(error))")
        }
        var problems: [String] = []
        var owned = Set<String>()
        do {
            for raw in try restored.rawRows() {
                if let problem = Validation.problem(inRow: raw.values) {
                    problems.append("\(raw.label): \(problem)")
                    continue
                }
                let row = raw.recording
                guard row.filePath == row.canonicalFilePath, files.contains(row.filePath) else {
                    problems.append("recording \(row.id) has no file in the backup")
                    continue
                }
                owned.insert(row.filePath)
                if let thumb = row.thumbnailPath {
                    guard thumb == row.canonicalThumbnailPath, files.contains(thumb) else {
                        problems.append("recording \(row.id) has no thumbnail in the backup")
                        continue
                    }
                    owned.insert(thumb)
                }
            }
            problems += try restored.writer.read(otherRowProblems)
            try restored.writer.close()
        } catch let error as LibraryError {
            throw error
        } catch {
            throw refuse("cannot be read (\(Library.describe(error)))")
        }
        for file in files.subtracting(owned).sorted() { problems.append("\(file) belongs to no recording") }
        do {
            problems += try checkLogs?(database) ?? []
        } catch {
            throw refuse("cannot be read (\(Library.describe(error)))")
        }
        if let first = problems.first {
            throw refuse(
                "holds what cravey would not save: \(first)\(problems.count > 1 ? " and \(problems.count - 1) more" : "")"
            )
        }
    }

    /// Whether a backup's database was brought to a schema this cravey does not know: a migration
    /// it has not got is recorded as done (opened read-only; a database with no migrations at all
    /// is left to the checks that follow).
    static func madeByANewerCravey(_ database: String) throws -> Bool {
        var config = Configuration()
        config.readonly = true
        config.label = "cravey backup"
        let applied: [String]
        do {
            let queue = try DatabaseQueue(path: database, configuration: config)
            defer { try? queue.close() }
            applied = try queue.read { db in
                guard try db.tableExists("grdb_migrations") else { return [] }
                return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            }
        } catch {
            return false  // not a database cravey can read: said in the words of the checks after
        }
        return !Set(applied).isSubset(of: Store.migrator.migrations)
    }

    /// What else a backup's database holds that cravey would not have written: a setting it does
    /// not keep or a value it would refuse, a check-in day that is no date or whose prompt is too
    /// long, a transcript whose words are not a list.
    private static func otherRowProblems(_ db: Database) throws -> [String] {
        var problems: [String] = []
        // Settings and milestones: the rules `check` and the journal's replay hold them to.
        var checked = Report()
        try checkSettingsAndMilestones(db, today: LocalDay(Date(), in: .current).text, repair: false, into: &checked)
        problems += checked.subjects(.invalidSetting)
        for row in try Row.fetchAll(db, sql: "SELECT day, prompt FROM checkinDay") {
            let day: String = row["day"], prompt: String? = row["prompt"]
            if LocalDay(parsing: day) == nil {
                problems.append("check-in day '\(day.prefix(20))' is not a date")
            }
            if let prompt, prompt.count > 200 || prompt.unicodeScalars.contains(where: Validation.isUnsafe) {
                problems.append("the prompt of \(day.prefix(20)) is not one cravey would write")
            }
        }
        for row in try Row.fetchAll(db, sql: "SELECT recordingId, words FROM transcript") {
            let id: String = row["recordingId"], words: String = row["words"]
            if (try? JSONSerialization.jsonObject(with: Data(words.utf8))) as? [Any] == nil {
                problems.append("the transcript of \(id.prefix(8)) has words that are not a list")
            }
        }
        return problems
    }

    /// The last backup: where to and when (nil: never).
    public func lastBackup() -> (directory: String, at: Date)? {
        guard let text = try? setting(.lastBackup), let data = text.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: String],
            let dir = object["directory"], let at = object["at"].flatMap(StoredDate.date)
        else { return nil }
        return (dir, at)
    }

    private func setLastBackup(directory: String, at date: Date) throws {
        let object = ["directory": directory, "at": StoredDate.text(date)]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        try setSetting(.lastBackup, to: String(decoding: data, as: UTF8.self))
    }

    // MARK: - Helpers

    /// The backup folder, opened (see `BackupFolder`): a directory, reached through a link if
    /// the person names one, never inside the library nor holding it.
    private func backupFolder(_ directory: String, create: Bool) throws -> BackupFolder {
        guard !directory.isEmpty else {
            throw LibraryError.invalid(field: "directory", reason: "give the directory to back up to")
        }
        let absolute = directory.hasPrefix("/") ? directory : FileManager.default.currentDirectoryPath + "/" + directory
        if create, mkdir(absolute, 0o700) != 0, errno != EEXIST { throw systemError("create directory", absolute) }
        let resolved = URL(fileURLWithPath: absolute).resolvingSymlinksInPath().path
        let folder = try BackupFolder(path: resolved)
        if folder.overlaps(root) {
            throw LibraryError.invalid(
                field: "directory",
                reason:
                    "\(absolute) is inside the library (or holds it); a backup goes to another directory, best another disk"
            )
        }
        return folder
    }

    /// The manifest in a backup folder: nil when there is none; refused whole (nothing read
    /// beyond it, nothing changed) when it is not one cravey can trust (see `BackupManifest.problem`).
    static func readManifest(in folder: BackupFolder) throws -> BackupManifest? {
        guard let (fd, size) = try folder.openFile(BackupManifest.name) else { return nil }
        defer { close(fd) }
        guard size <= 64 << 20 else {
            throw folder.refusal("\(BackupManifest.name) is too large (\(size) bytes) to be a manifest cravey wrote")
        }
        let data = try readToEnd(fd, named: folder.path + "/" + BackupManifest.name)
        let manifest: BackupManifest
        do {
            manifest = try JSONDecoder().decode(BackupManifest.self, from: data)
        } catch {
            throw folder.refusal("\(BackupManifest.name) is not a manifest cravey wrote (cut short or changed)")
        }
        if let problem = Self.problem(in: manifest) { throw folder.refusal("its manifest \(problem)") }
        return manifest
    }

    private func writeManifest(_ manifest: BackupManifest, in folder: BackupFolder) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(manifest)
        let partial = BackupManifest.name + Self.partialSuffix
        folder.removeFiles(in: "") { $0 == partial }
        let fd = try folder.create(partial)
        var closed = false
        defer { if !closed { close(fd) } }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, data.count) }
        try faults.hit("backup.manifest.fsync")
        guard written == data.count, retryingEINTR({ fsync(fd) }) == 0 else {
            throw systemError("write", folder.path + "/" + partial)
        }
        closed = true
        close(fd)
        // The manifest is replaced in one rename: only a regular file there (the last manifest) is.
        if let (old, _) = try folder.openFile(BackupManifest.name) { close(old) }
        try faults.hit("backup.manifest.rename")
        try folder.replace(partial, with: BackupManifest.name, faults: faults, syncSite: "backup.manifest.fsync.dir")
    }

    /// Whether a manifest's library path is a recording's or thumbnail's own name in `Recordings/`.
    static func isRecordingPath(_ relative: String) -> Bool {
        let name = (relative as NSString).lastPathComponent
        guard Recording.owner(ofFileName: name) != nil else { return false }
        return relative == FileStore.recordingsDir + "/" + name || relative == FileStore.thumbnailsDir + "/" + name
    }

    static func backupStamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }
}

extension Store {
    /// Copies every row of the database at `path` (same schema) into this empty one, and clears
    /// the pending saves of `paths`, in one transaction.
    func adopt(_ path: String, clearing paths: [String], faults: Faults) throws {
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS restored", arguments: [path])
            defer { try? db.execute(sql: "DETACH DATABASE restored") }
            try db.inTransaction {
                for table in [
                    "recording", "transcript", "checkinDay", "setting", "craving", "usage", "transcriptJob",
                    "milestone", "dayMark", "plan", "withdrawalCheck", "selfScreen", "limitRule",
                ] {
                    // The backup's id replaces one this empty library was given (a backup tried first).
                    let insert = table == "setting" ? "INSERT OR REPLACE" : "INSERT"
                    try db.execute(sql: "\(insert) INTO main.\(table) SELECT * FROM restored.\(table)")
                }
                for path in paths { try db.execute(sql: "DELETE FROM pendingSave WHERE path = ?", arguments: [path]) }
                try faults.hit("restore.commit")
                return .commit
            }
        }
    }
}
