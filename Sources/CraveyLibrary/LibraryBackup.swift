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

    static let partialSuffix = ".cravey-partial"

    /// Backs the library up to `directory` (created if missing; see the type's doc).
    public func backUp(to directory: String, now: Date = Date()) throws -> BackupResult {
        let dir = try backupDirectory(directory, create: true)
        let previous = Self.readManifest(in: dir)
        // Copies an interrupted backup left under cravey's temporary names go first.
        for sub in ["", "/Database", "/Recordings", "/Recordings/Thumbnails"] {
            for name in files.entries(dir + sub) where name.hasSuffix(Self.partialSuffix) && Self.sizeOf(dir + sub + "/" + name) != nil {
                _ = unlink(dir + sub + "/" + name)
            }
        }
        let links = files.path(FileStore.backupLinksDir)
        let databaseCopy = links + "/library.sqlite"
        var sources: [(relative: String, link: String)] = []
        var counts = (recordings: 0, logs: 0)
        // The consistent set: the database and the files as they are at this moment.
        try wrap {
            let lock = try lockLibrary()
            defer { lock.release() }
            try clearBackupLinks()
            try files.makeDirectory(links, site: "backup.mkdir")
            try copyDatabase(to: databaseCopy)
            counts = try store.writer.read { db in
                (try Int.fetchOne(db, sql: "SELECT count(*) FROM recording") ?? 0,
                 try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM craving) + (SELECT count(*) FROM usage)") ?? 0)
            }
            for recording in try store.recordings(section: .all) where hasFile(recording) {
                for relative in [recording.filePath] + (recording.thumbnailPath.map { [$0] } ?? [])
                where files.isRegularFile(files.path(relative)) {
                    let link = links + "/" + (relative as NSString).lastPathComponent
                    try files.link(files.path(relative), link, site: "backup.link")
                    sources.append((relative, link))
                }
            }
        }
        defer { try? clearBackupLinks() }

        var result = BackupResult(directory: dir, recordings: counts.recordings, logs: counts.logs, copied: 0, copiedBytes: 0,
                                  unchanged: 0, removed: 0, manifest: BackupManifest(
                                    createdAt: StoredDate.text(now), database: .init(path: "", size: 0, sha256: ""), files: [],
                                    recordings: counts.recordings, logs: counts.logs))
        let known = Dictionary((previous?.files ?? []).map { ($0.sha256, $0) }, uniquingKeysWith: { a, _ in a })
        func place(_ source: String, as wanted: String) throws -> BackupManifest.Entry {
            let (size, hash) = try FileCopy.sha256(source)
            if let entry = known[hash], entry.size == size, Self.sizeOf(dir + "/" + entry.path) == size {
                result.unchanged += 1
                return BackupManifest.Entry(path: entry.path, libraryPath: nil, size: size, sha256: hash)
            }
            let ext = (wanted as NSString).pathExtension
            let stem = (wanted as NSString).deletingPathExtension
            for candidate in [wanted, "\(stem).\(hash.prefix(8)).\(ext)", "\(stem).\(hash.prefix(16)).\(ext)"] {
                let target = dir + "/" + candidate
                if Self.sizeOf(target) != nil {
                    // A file there already: used only if it is this very content (left by a backup
                    // interrupted before its manifest); never written over.
                    if Self.sizeOf(target) == size, (try? FileCopy.sha256(target).sha256) == hash {
                        result.unchanged += 1
                        return BackupManifest.Entry(path: candidate, libraryPath: nil, size: size, sha256: hash)
                    }
                    continue
                }
                try Self.makeDirectories(for: candidate, in: dir)
                let partial = target + Self.partialSuffix
                _ = unlink(partial)
                let copied = try FileCopy.copy(source, to: partial, faults: faults, site: "backup.copy")
                guard copied.sha256 == hash else {
                    _ = unlink(partial)
                    throw LibraryError.database("\(source) changed while it was being copied; run the backup again")
                }
                try Self.renameFree(partial, target, faults: faults)
                try faults.hit("backup.fsync.dir")
                try FileCopy.sync((target as NSString).deletingLastPathComponent)
                result.copied += 1
                result.copiedBytes += size
                return BackupManifest.Entry(path: candidate, libraryPath: nil, size: size, sha256: hash)
            }
            throw LibraryError.database("\(dir)/\(wanted) and its other names are taken by other files; nothing was written over")
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
        try writeManifest(result.manifest, in: dir)
        // The new backup is whole: what only the last one listed goes.
        let kept = Set([database.path] + entries.map(\.path))
        for old in [previous?.database].compactMap({ $0 }) + (previous?.files ?? []) where !kept.contains(old.path) {
            let path = dir + "/" + old.path
            guard Self.sizeOf(path) == old.size else { continue }  // not the file it wrote
            try faults.hit("backup.remove.old")
            if unlink(path) == 0 { result.removed += 1 }
        }
        try? setLastBackup(directory: dir, at: now)
        return result
    }

    /// The problems found by reading every file of the backup at `directory` again (empty: whole).
    public func verifyBackup(at directory: String) throws -> (manifest: BackupManifest, problems: [String], bytes: Int64) {
        let dir = try backupDirectory(directory, create: false)
        guard let manifest = Self.readManifest(in: dir) else {
            throw LibraryError.invalid(field: "backup", reason: "\(dir) holds no cravey backup (no readable \(BackupManifest.name))")
        }
        var problems: [String] = []
        var bytes: Int64 = 0
        for entry in [manifest.database] + manifest.files {
            let path = dir + "/" + entry.path
            guard Self.sizeOf(path) != nil, let (size, hash) = try? FileCopy.sha256(path) else {
                problems.append("\(entry.path): missing or unreadable")
                continue
            }
            bytes += size
            if size != entry.size || hash != entry.sha256 { problems.append("\(entry.path): its SHA-256 no longer matches (changed or damaged)") }
        }
        return (manifest, problems, bytes)
    }

    /// Restores the backup at `directory` into this library, which must be empty: every file's
    /// SHA-256 is checked first, then the files are saved with the save's rules (noted, renamed
    /// in, the rows committed in one transaction), so a restore interrupted at any step leaves
    /// the library empty again, ready for another try.
    public func restore(from directory: String) throws -> BackupManifest {
        let (manifest, problems, _) = try verifyBackup(at: directory)
        let dir = try backupDirectory(directory, create: false)
        if let first = problems.first {
            throw LibraryError.invalid(field: "backup", reason: "the backup at \(dir) is damaged (\(first)\(problems.count > 1 ? " and \(problems.count - 1) more" : "")); nothing was restored")
        }
        guard manifest.files.allSatisfy({ entry in entry.libraryPath.map(Self.isRecordingPath) ?? false }) else {
            throw LibraryError.invalid(field: "backup", reason: "the manifest at \(dir) names a file outside a library's Recordings/; nothing was restored")
        }
        let links = files.path(FileStore.backupLinksDir)
        return try wrap {
            let lock = try lockLibrary()
            defer { lock.release() }
            let recordings = try store.count(), media = files.craveyMediaFiles().count
            if try store.holdsAnything() || media > 0 {
                throw LibraryError.invalid(field: "library", reason: "the library at \(root) is not empty (\(max(recordings, media)) recordings, or logs, check-ins or settings); restore goes only into an empty library: point --library or CRAVEY_LIBRARY at a new directory; nothing was restored")
            }
            try clearBackupLinks()
            try files.makeDirectory(links, site: "restore.mkdir")
            defer { try? clearBackupLinks() }
            // The backup's database, brought to this cravey's schema in a copy of its own.
            let database = links + "/restore.sqlite"
            let copied = try FileCopy.copy(dir + "/" + manifest.database.path, to: database, faults: faults, site: "restore.copy")
            guard copied.sha256 == manifest.database.sha256 else { throw LibraryError.database("the backup's database changed while it was read; nothing was restored") }
            let restored = try Store(path: database, faults: faults)
            try restored.writer.close()
            let paths = manifest.files.compactMap(\.libraryPath)
            try store.notePendingSave(paths)
            for entry in manifest.files {
                guard let relative = entry.libraryPath else { continue }
                let staged = files.path(FileStore.incomingDir) + "/restore_" + (relative as NSString).lastPathComponent
                _ = unlink(staged)
                let copy = try FileCopy.copy(dir + "/" + entry.path, to: staged, faults: faults, site: "restore.copy")
                guard copy.sha256 == entry.sha256 else {
                    _ = unlink(staged)
                    throw LibraryError.database("\(entry.path) changed while it was read; nothing was restored")
                }
                try files.rename(staged, files.path(relative), site: "restore.rename")
            }
            try files.sync(files.path(FileStore.thumbnailsDir), site: "restore.fsync.dir")
            try files.sync(files.path(FileStore.recordingsDir), site: "restore.fsync.dir")
            try store.adopt(database, clearing: paths, faults: faults)
            return manifest
        }
    }

    /// The last backup: where to and when (nil: never).
    public func lastBackup() -> (directory: String, at: Date)? {
        guard let text = try? setting(.lastBackup), let data = text.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: String],
              let dir = object["directory"], let at = object["at"].flatMap(StoredDate.date) else { return nil }
        return (dir, at)
    }

    private func setLastBackup(directory: String, at date: Date) throws {
        let object = ["directory": directory, "at": StoredDate.text(date)]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        try setSetting(.lastBackup, to: String(decoding: data, as: UTF8.self))
    }

    // MARK: - Helpers

    /// The backup directory as an absolute path: a directory (reached through a link if the user
    /// names one), never inside the library.
    private func backupDirectory(_ directory: String, create: Bool) throws -> String {
        guard !directory.isEmpty else { throw LibraryError.invalid(field: "directory", reason: "give the directory to back up to") }
        let absolute = directory.hasPrefix("/") ? directory : FileManager.default.currentDirectoryPath + "/" + directory
        if create, mkdir(absolute, 0o700) != 0, errno != EEXIST { throw systemError("create directory", absolute) }
        var info = stat()
        guard stat(absolute, &info) == 0 else { throw systemError("open", absolute) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw LibraryError.invalid(field: "directory", reason: "\(absolute) is not a directory")
        }
        let resolved = URL(fileURLWithPath: absolute).resolvingSymlinksInPath().path
        let library = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        if resolved == library || resolved.hasPrefix(library + "/") || library.hasPrefix(resolved + "/") {
            throw LibraryError.invalid(field: "directory", reason: "\(absolute) is inside the library (or holds it); a backup goes to another directory, best another disk")
        }
        return resolved
    }

    static func readManifest(in dir: String) -> BackupManifest? {
        let path = dir + "/" + BackupManifest.name
        guard sizeOf(path) != nil, let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(BackupManifest.self, from: data)
    }

    private func writeManifest(_ manifest: BackupManifest, in dir: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(manifest)
        let final = dir + "/" + BackupManifest.name
        let partial = final + Self.partialSuffix
        _ = unlink(partial)
        let fd = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw systemError("create", partial) }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, data.count) }
        try faults.hit("backup.manifest.fsync")
        guard written == data.count, retryingEINTR({ fsync(fd) }) == 0 else {
            close(fd)
            throw systemError("write", partial)
        }
        close(fd)
        var info = stat()
        if lstat(final, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            throw LibraryError.unsafeLibrary("\(final) is not a regular file; cravey does not write over it")
        }
        try faults.hit("backup.manifest.rename")
        guard Glibc.rename(partial, final) == 0 else { throw systemError("rename", partial) }
        try faults.hit("backup.manifest.fsync.dir")
        try FileCopy.sync(dir)
    }

    /// Renames to a name that is free (a file that appeared there meanwhile is not written over).
    private static func renameFree(_ from: String, _ to: String, faults: Faults) throws {
        try faults.hit("backup.rename")
        if exists(to) {
            _ = unlink(from)
            throw LibraryError.database("\(to) appeared while the backup ran; nothing was written over")
        }
        guard Glibc.rename(from, to) == 0 else { throw systemError("rename", from) }
    }

    private static func makeDirectories(for relative: String, in dir: String) throws {
        var current = dir
        for part in (relative as NSString).deletingLastPathComponent.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o700) != 0 && errno != EEXIST { throw systemError("create directory", current) }
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                throw LibraryError.unsafeLibrary("\(current) is not a directory (a link?); cravey does not write through it")
            }
        }
    }

    /// The size of a regular file (not through a link), nil for anything else.
    static func sizeOf(_ path: String) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Whether anything (a file, a directory, a link) is at `path`.
    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
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
        for name in files.entries(links) where name == "library.sqlite" || name.hasPrefix("restore.sqlite") || name.hasPrefix("library.sqlite-")
            || Recording.owner(ofFileName: name) != nil {
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
                for table in ["recording", "transcript", "checkinDay", "setting", "craving", "usage", "transcriptJob"] {
                    try db.execute(sql: "INSERT INTO main.\(table) SELECT * FROM restored.\(table)")
                }
                for path in paths { try db.execute(sql: "DELETE FROM pendingSave WHERE path = ?", arguments: [path]) }
                try faults.hit("restore.commit")
                return .commit
            }
        }
    }
}
