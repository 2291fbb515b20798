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
/// - `cravey-backup.json`: the manifest, every file's path, size and SHA-256, written last.
/// The rules: the database snapshot and second links to every recording are taken together under
/// the library lock (a consistent set, copied afterwards without holding up recording); a file
/// whose SHA-256 the last manifest lists is not copied again; every file is copied under a
/// temporary name, fsynced and renamed to a name that was free; the new manifest replaces the
/// old one in one rename; only then are the files the old manifest listed and the new one does
/// not removed. Nothing else in the directory is ever touched, nothing is written over, so a
/// backup interrupted at any step leaves the last one whole.
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
        public var createdAt: String
        public var database: Entry
        public var files: [Entry]
        public var recordings: Int
        public var logs: Int

        public static let name = "cravey-backup.json"
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
    /// already there that cravey cannot trust is refused, and nothing is written.
    public func backUp(to directory: String, now: Date = Date()) throws -> BackupResult {
        let folder = try backupFolder(directory, create: true)
        let previous = try Self.readManifest(in: folder)
        // Nothing is written before the folder is known to hold no link where cravey goes: its
        // directories, and every file the last manifest names (a missing one is only not reused).
        for sub in ["Database", "Recordings", "Recordings/Thumbnails"] {
            if let dir = try folder.directory(sub) { close(dir) }
        }
        for entry in [previous?.database].compactMap({ $0 }) + (previous?.files ?? []) {
            if let (file, _) = try folder.openFile(entry.path) { close(file) }
        }
        // Copies an interrupted backup left under cravey's temporary names go first.
        for sub in ["", "Database", "Recordings", "Recordings/Thumbnails"] {
            folder.removeFiles(in: sub) { $0.hasSuffix(Self.partialSuffix) }
        }
        // A read-only library cannot change under its backup: its files are copied as they are.
        let readOnly = !isWritable
        let links = readOnly ? try Self.readOnlyStaging(in: folder.path) : files.path(FileStore.backupLinksDir)
        defer { if readOnly { Self.removeReadOnlyStaging(links) } }
        let databaseCopy = links + "/library.sqlite"
        var sources: [(relative: String, link: String)] = []
        var counts = (recordings: 0, logs: 0)
        // The consistent set: the database and the files as they are at this moment.
        try translatingDatabaseErrors {
            let lock = try lockLibrary()
            defer { lock.release() }
            if !readOnly {
                try clearBackupLinks()
                try files.makeDirectory(links, site: "backup.mkdir")
            }
            try copyDatabase(to: databaseCopy)
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
                    let link = links + "/" + (relative as NSString).lastPathComponent
                    if !readOnly { try files.link(files.path(relative), link, site: "backup.link") }
                    sources.append((relative, readOnly ? files.path(relative) : link))
                }
            }
        }
        defer { try? clearBackupLinks() }

        var result = BackupResult(
            directory: folder.path, recordings: counts.recordings, logs: counts.logs, copied: 0, copiedBytes: 0,
            unchanged: 0, removed: 0,
            manifest: BackupManifest(
                createdAt: StoredDate.text(now), database: .init(path: "", size: 0, sha256: ""), files: [],
                recordings: counts.recordings, logs: counts.logs))
        let known = Dictionary(grouping: previous?.files ?? [], by: \.sha256)
        // Each path holds one entry of this backup: two files with the same content (two dark
        // thumbnails) are two entries under two names, as a manifest must list them.
        var used = Set<String>()
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
                    folder.removeFiles(in: (partial as NSString).deletingLastPathComponent) {
                        $0 == (partial as NSString).lastPathComponent
                    }
                    throw LibraryError.database("\(source) changed while it was being copied; run the backup again")
                }
                try folder.rename(
                    partial, to: (candidate as NSString).lastPathComponent, faults: faults, site: "backup.rename",
                    syncSite: "backup.fsync.dir")
                result.copied += 1
                result.copiedBytes += size
                return BackupManifest.Entry(path: candidate, libraryPath: nil, size: size, sha256: hash)
            }
            throw LibraryError.database(
                "\(folder.path)/\(wanted) and its other names are taken by other files; nothing was written over")
        }

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
        // The new backup is whole: what only the last one listed goes — each only while it is
        // still the file that manifest describes.
        let kept = Set([database.path] + entries.map(\.path))
        for old in [previous?.database].compactMap({ $0 }) + (previous?.files ?? []) where !kept.contains(old.path) {
            try faults.hit("backup.remove.old")
            if try folder.remove(old.path, ifItHas: old.size, sha256: old.sha256) { result.removed += 1 }
        }
        try? setLastBackup(directory: folder.path, at: now)
        return result
    }

    /// The problems found by reading every file of the backup at `directory` again (empty: whole).
    /// A manifest cravey cannot trust is refused before any file is read.
    public func verifyBackup(at directory: String) throws -> (
        manifest: BackupManifest, problems: [String], bytes: Int64
    ) {
        let folder = try backupFolder(directory, create: false)
        return try verify(folder)
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
        let (manifest, problems, _) = try verify(folder)
        if let first = problems.first {
            throw LibraryError.invalid(
                field: "backup",
                reason:
                    "the backup at \(folder.path) is damaged (\(first)\(problems.count > 1 ? " and \(problems.count - 1) more" : "")); nothing was restored"
            )
        }
        let links = files.path(FileStore.backupLinksDir)
        return try translatingDatabaseErrors {
            let lock = try lockLibrary()
            defer { lock.release() }
            let recordings = try store.count(), media = files.craveyMediaFiles().count
            if try store.holdsAnything() || media > 0 {
                throw LibraryError.notEmpty(root: root, holds: max(recordings, media))
            }
            try clearBackupLinks()
            try files.makeDirectory(links, site: "restore.mkdir")
            defer { try? clearBackupLinks() }
            // The backup's database, brought to this cravey's schema in a copy of its own.
            let database = links + "/restore.sqlite"
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

    /// What else a backup's database holds that cravey would not have written: a setting it does
    /// not keep or a value it would refuse, a check-in day that is no date or whose prompt is too
    /// long, a transcript whose words are not a list.
    private static func otherRowProblems(_ db: Database) throws -> [String] {
        var problems: [String] = []
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM setting") {
            let key: String = row["key"], value: String = row["value"]
            switch Setting(rawValue: key) {
            case nil:
                problems.append("setting '\(key.prefix(40))' is not one cravey keeps")
            case .name:
                if (try? Validation.name(value)) != value {
                    problems.append("the name setting is not 1 to 40 plain characters")
                }
            case .goal:
                if value.isEmpty || value.count > 40 || !value.allSatisfy({ $0.isLowercase || $0 == "-" }) {
                    problems.append("the goal setting is not a goal")
                }
            case .quickPlay:
                if !["most-played", "helped-most"].contains(value) {
                    problems.append("the quick-play setting is not an order")
                }
            case .prices:
                if !pricesAreValid(value) { problems.append("the prices setting is not one cravey would write") }
            case .currency:
                if value != "none" && (value.count != 3 || !value.allSatisfy({ $0.isASCII && $0.isUppercase })) {
                    problems.append("the currency setting is not a currency code")
                }
            case .welcomed, .lastBackup:
                if value.utf8.count > 4096 || value.unicodeScalars.contains(where: Validation.isUnsafe) {
                    problems.append("the \(key) setting is not one cravey would write")
                }
            }
        }
        for row in try Row.fetchAll(db, sql: "SELECT day, prompt FROM checkinDay") {
            let day: String = row["day"], prompt: String? = row["prompt"]
            if CheckIn.components(of: day) == nil || day.count != 10 {
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

    /// Prices as cravey writes them: a JSON object of method names to whole cents, 1 to 9,999,999.
    private static func pricesAreValid(_ value: String) -> Bool {
        guard value.utf8.count <= 4096,
            let object = try? JSONSerialization.jsonObject(with: Data(value.utf8)) as? [String: Any]
        else { return false }
        return object.allSatisfy { key, price in
            ["bowls", "vape", "dab", "edible"].contains(key)
                && (price as? NSNumber).map { Double(truncating: $0) }.map {
                    $0 == $0.rounded() && (1...9_999_999).contains($0)
                } == true
        }
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
        let data = FileHandle(fileDescriptor: fd, closeOnDealloc: false).readDataToEndOfFile()
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

    /// Empties the backup's second links (cravey's own directory; only its own names inside).
    func clearBackupLinks() throws {
        let links = files.path(FileStore.backupLinksDir)
        for name in files.entries(links)
        where name == "library.sqlite" || name.hasPrefix("restore.sqlite") || name.hasPrefix("library.sqlite-")
            || Recording.owner(ofFileName: name) != nil
        {
            _ = unlink(links + "/" + name)
        }
        _ = rmdir(links)
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
                    "milestone",
                ] {
                    try db.execute(sql: "INSERT INTO main.\(table) SELECT * FROM restored.\(table)")
                }
                for path in paths { try db.execute(sql: "DELETE FROM pendingSave WHERE path = ?", arguments: [path]) }
                try faults.hit("restore.commit")
                return .commit
            }
        }
    }
}
