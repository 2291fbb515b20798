import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// Finishing what an interrupted run left half-done (and the report it shares with `check`).
/// It acts only on files cravey can prove it made (its own names in its own
/// directories); anything else found in the library is reported and left where it is.
extension Library {
    /// What recovery or a check found, and what it did about it.
    public struct Report: Sendable, Equatable {
        public var removedTemporaryFiles: [String] = []
        public var finishedDeletes: [String] = []
        public var undoneDeletes: [String] = []
        public var purge: String?
        public var undoneSaves: [String] = []
        /// Trims whose new row did not commit: the recording is back as it was.
        public var undoneReplaces: [String] = []
        public var rowsWithoutFile: [String] = []
        /// cravey recordings (by name) that no row lists.
        public var filesWithoutRow: [String] = []
        public var rowsOutsideLibrary: [String] = []
        public var invalidRows: [String] = []
        public var missingThumbnails: [String] = []
        public var loosePermissions: [String] = []
        public var recoveredRecordings: [String] = []
        public var unrecoverable: [String] = []
        /// Files no row owns that were listed again, rebuilt from the file.
        public var relisted: [String] = []
        /// Files that look like cravey's but cannot be listed, moved to `Quarantine/`.
        public var quarantined: [String] = []
        /// Files cravey did not make: never touched, only mentioned by `check`.
        public var foreignFiles: [String] = []
        /// Steps of recovery that could not be done now (a read-only or full disk): tried again later.
        public var deferred: [String] = []
        /// Recordings whose loudness is not measured yet (`--repair` measures them).
        public var unmeasured: [String] = []
        /// Recordings measured by this check.
        public var measured: [String] = []
        /// The search index or the transcripts out of step with the recordings (`--repair`
        /// rebuilds the index from the rows and removes transcripts of recordings that are gone).
        public var searchIndex: [String] = []
        /// Why the database was rebuilt from the files, when it was.
        public var rebuiltDatabase: String?
        /// Whether the problems listed were also fixed.
        public var repaired = false

        public var isEmpty: Bool { lines.isEmpty }

        /// Problems that `check --repair` fixes (foreign files and deferred steps are not among them).
        public var hasProblems: Bool {
            !(rowsWithoutFile.isEmpty && filesWithoutRow.isEmpty && rowsOutsideLibrary.isEmpty && invalidRows.isEmpty
              && missingThumbnails.isEmpty && loosePermissions.isEmpty && searchIndex.isEmpty)
        }

        /// One line per finding, for people.
        public var lines: [String] { lines(repairCommand: nil) }

        /// The findings, one line each; a problem `repairCommand` would repair names it.
        public func lines(repairCommand: String?) -> [String] {
            var out: [String] = []
            func add(_ items: [String], _ label: String) { for item in items { out.append("\(label): \(item)") } }
            if let rebuiltDatabase {
                out.append("\(rebuiltDatabase); rebuilt it from the recordings' files (\(relisted.count) listed again as 'Recovered recording <date>': titles, notes and play counts were lost)")
            }
            add(recoveredRecordings, "recovered an interrupted recording")
            add(unrecoverable, "could not recover an interrupted recording (kept; will try again)")
            add(removedTemporaryFiles, "removed a leftover temporary file")
            add(undoneSaves, "removed the file of a save that did not finish")
            add(finishedDeletes, "finished an interrupted delete")
            add(undoneReplaces, "undid an interrupted trim (the recording is as it was)")
            add(undoneDeletes, "undid an interrupted delete")
            if let purge { out.append(purge) }
            add(deferred, "could not finish now (will try again)")
            let fix = repaired ? "" : repairCommand.map { " (run '\($0)')" } ?? ""
            add(invalidRows, repaired ? "removed an invalid row (its file, if any, is listed again)" : "invalid row\(fix)")
            add(rowsWithoutFile, repaired ? "removed a row whose file was missing" : "row whose file is missing\(fix)")
            if rebuiltDatabase == nil {
                add(filesWithoutRow, repaired ? "found a recording no row listed" : "recording no row lists\(fix)")
                add(relisted, "listed again")
            }
            add(quarantined, "moved to Quarantine/ (looks like cravey's but cannot be played)")
            add(rowsOutsideLibrary, repaired ? "removed a row pointing outside the library" : "row pointing outside the library\(fix)")
            add(missingThumbnails, repaired ? "forgot a missing thumbnail" : "thumbnail missing\(fix)")
            add(loosePermissions, repaired ? "made private" : "not private (should be 0700/0600)\(fix)")
            add(searchIndex, repaired ? "rebuilt the search index" : "search index\(fix)")
            add(foreignFiles, "not made by cravey, left alone")
            add(unmeasured, "loudness not measured yet (measured when played" + (repairCommand.map { ", or by '\($0)')" } ?? ")"))
            add(measured, "measured loudness")
            return out
        }
    }

    /// What the library cannot do by itself, reading media files: given by the floor above
    /// (the recorder) when it opens a library. Without it, interrupted recordings wait in
    /// `.incoming/` for a cravey that can recover them, and orphans are only reported.
    public struct MediaRecovery: Sendable {
        /// Turns an interrupted recording (a `Staging.Role.part` file) into a saved recording;
        /// returns nil only when nothing in it is playable (then it is removed), and throws when
        /// it cannot be done now (the file is kept for a later run). Nil: such files wait.
        public var recoverPartial: (@Sendable (_ library: Library, _ path: String) throws -> Recording?)?
        /// A finished media file's length and facts, nil when nothing in it is playable, throwing
        /// when it cannot be read now: to list again recordings that lost their row.
        public var inspect: @Sendable (_ path: String) throws -> (duration: Double, media: MediaFacts)?
        /// A finished file's loudness (EBU R128 integrated loudness, nil when too quiet, true peak,
        /// and the gain that plays it at the common level), for rows saved before recordings were measured. Nil: they stay unmeasured.
        public var measure: (@Sendable (_ path: String) throws -> (loudness: Double?, truePeak: Double, gain: Double?))?

        public init(recoverPartial: (@Sendable (_ library: Library, _ path: String) throws -> Recording?)?,
                    inspect: @escaping @Sendable (_ path: String) throws -> (duration: Double, media: MediaFacts)?,
                    measure: (@Sendable (_ path: String) throws -> (loudness: Double?, truePeak: Double, gain: Double?))? = nil) {
            self.recoverPartial = recoverPartial
            self.inspect = inspect
            self.measure = measure
        }
    }

    /// Finishes what an interrupted run left half-done: saves, deletes, purges, temporary files.
    /// Cheap when there is nothing to do, so it runs every time a library is opened. A step that
    /// cannot be done now (read-only or full disk) is reported and tried again on a later run.
    @discardableResult
    public func recoverInterrupted() throws -> Report {
        let incoming = files.entries(files.path(FileStore.incomingDir)).filter { Staging.parse($0) != nil }
        let trash = files.entries(files.path(FileStore.trashDir)).filter { Recording.owner(ofFileName: $0) != nil }
        let purging = files.exists(files.path(FileStore.purgingDir))
        let pending = try wrap { try store.pendingSaves() }
        if incoming.isEmpty && trash.isEmpty && !purging && pending.isEmpty { return Report() }
        guard isWritable else {
            return Report(deferred: ["an interrupted operation (the library is read-only)"])
        }
        return try wrap {
            let lock = try lockLibrary()
            defer { lock.release() }
            return recoverLocked()
        }
    }

    func recoverLocked() -> Report {
        var report = Report()
        /// Runs one step; its failure is reported, and the other steps still run.
        func step(_ what: String, _ body: () throws -> Void) {
            do { try wrap(body) } catch { report.deferred.append("\(what): \(Self.describe(error))") }
        }
        let recordings = files.path(FileStore.recordingsDir)
        if files.exists(files.path(FileStore.purgingDir)) {
            step("an interrupted purge") {
                if try store.count() > 0 {
                    try undoPurge()
                    report.purge = "undid an interrupted purge (nothing was deleted)"
                } else {
                    try finishPurge()
                    report.purge = "finished an interrupted purge"
                }
            }
        }
        step("an interrupted save") {
            for path in try store.pendingSaves() {
                if try !store.rowExists(forPath: path), let full = try? files.resolve(path),
                   Recording.owner(ofFileName: (path as NSString).lastPathComponent) != nil {
                    try files.unlink(full, site: "recover.save.unlink")
                    report.undoneSaves.append(path)
                }
                try store.forgetPendingSave(path)
            }
        }
        // Before leftovers are removed: an unfinished replacement's old files are among them.
        step("an interrupted trim") {
            for text in try store.pendingReplaces() {
                guard let id = UUID(uuidString: text), let row = try store.recording(id: id) else {
                    if let id = UUID(uuidString: text) { try store.forgetPendingReplace(id) }
                    continue
                }
                try undoReplace(id, kind: row.kind)
                report.undoneReplaces.append("\(id.uuidString) '\(row.title)'")
            }
        }
        let trash = files.path(FileStore.trashDir)
        for name in files.entries(trash) where Recording.owner(ofFileName: name) != nil && files.isRegularFile(trash + "/" + name) {
            step("an interrupted delete") {
                let original = name.hasSuffix("_thumb.jpg") ? FileStore.thumbnailsDir + "/" + name
                                                            : FileStore.recordingsDir + "/" + name
                if try store.rowExists(forPath: original) {
                    try files.rename(trash + "/" + name, files.path(original), site: "recover.trash.restore")
                    report.undoneDeletes.append(original)
                } else {
                    try files.unlink(trash + "/" + name, site: "recover.trash.unlink")
                    report.finishedDeletes.append(original)
                }
            }
        }
        let incoming = files.path(FileStore.incomingDir)
        // Only cravey's temporary names, only regular files, and none a live writer holds.
        let names = files.entries(incoming).filter {
            Staging.parse($0) != nil && files.isRegularFile(incoming + "/" + $0) && !isLockedByOther(incoming + "/" + $0)
        }
        func isPart(_ name: String) -> Bool { Staging.parse(name)?.role == .part }
        // Staged files of saves that never finished go first: a recording recovered below may
        // need its staged name again.
        for name in names where !isPart(name) || files.size(incoming + "/" + name) == 0 {
            step("a leftover temporary file") {
                try files.unlink(incoming + "/" + name, site: "recover.incoming.unlink")
                report.removedTemporaryFiles.append(FileStore.incomingDir + "/" + name)
            }
        }
        for name in names where isPart(name) && files.exists(incoming + "/" + name) {
            let full = incoming + "/" + name
            do {
                if let id = Staging.parse(name)?.id, try store.recording(id: id) != nil {
                    // Saved already; only removing the temporary file was interrupted.
                    try files.unlink(full, site: "recover.incoming.unlink")
                    continue
                }
                guard let recoverPartial = media?.recoverPartial else { continue }  // left for a cravey that can
                if let saved = try recoverPartial(self, full) {
                    report.recoveredRecordings.append("\(saved.id.uuidString) '\(saved.title)'")
                } else {
                    report.removedTemporaryFiles.append(FileStore.incomingDir + "/" + name + " (nothing playable)")
                }
                try files.unlink(full, site: "recover.incoming.unlink")
            } catch {
                // Kept for another try; the rest of the library is still usable.
                report.unrecoverable.append("\(FileStore.incomingDir)/\(name): \(Self.describe(error))")
            }
        }
        step("syncing Recordings/") { try files.sync(recordings, site: "recover.fsync.dir") }
        return report
    }

    /// After a purge committed: removes cravey's own files from `.purging/` and puts everything
    /// else back into `Recordings/`.
    func finishPurge() throws {
        let purging = files.path(FileStore.purgingDir)
        let recordings = files.path(FileStore.recordingsDir)
        let thumbs = purging + "/Thumbnails"
        for (dir, home) in [(thumbs, recordings + "/Thumbnails"), (purging, recordings)] {
            for name in files.entries(dir) where !(dir == purging && name == "Thumbnails" && files.isDirectory(thumbs)) {
                let file = dir + "/" + name
                if Recording.owner(ofFileName: name) != nil && files.isRegularFile(file) {
                    try files.unlink(file, site: "purge.unlink")
                } else if !files.exists(home + "/" + name) {
                    try files.rename(file, home + "/" + name, site: "purge.restore")
                }
            }
        }
        try faults.hit("purge.unlink")
        _ = rmdir(thumbs)
        guard rmdir(purging) == 0 || errno == ENOENT else { throw systemError("remove directory", purging) }
        try files.sync(root, site: "purge.fsync.root")
        files.keepReserve()
    }

    /// After a purge that did not commit: everything goes back into `Recordings/`.
    func undoPurge() throws {
        let purging = files.path(FileStore.purgingDir)
        let recordings = files.path(FileStore.recordingsDir)
        if files.exists(recordings) {
            // Whatever appeared in the new Recordings/ joins the old one (cannot happen under the lock).
            try files.makeDirectory(purging + "/Thumbnails", site: "recover.mkdir")
            for (dir, home) in [(recordings + "/Thumbnails", purging + "/Thumbnails"), (recordings, purging)] {
                for name in files.entries(dir) where !(dir == recordings && name == "Thumbnails") {
                    guard !files.exists(home + "/" + name) else { continue }
                    try files.rename(dir + "/" + name, home + "/" + name, site: "recover.purge.merge")
                }
            }
            _ = rmdir(recordings + "/Thumbnails")
            guard rmdir(recordings) == 0 else { throw systemError("remove directory", recordings) }
        }
        try files.rename(purging, recordings, site: "recover.purge.rename")
        try files.makeDirectory(files.path(FileStore.thumbnailsDir), site: "recover.mkdir")
        try files.sync(root, site: "recover.fsync.root")
    }

    /// Lists again every cravey recording in `Recordings/` that no row owns: the row is rebuilt
    /// from the file (length, kind, media facts; titled `Recovered recording <date>`). A file
    /// with nothing playable goes to `Quarantine/`; one that cannot be read now stays for later.
    func relistOrphans(into report: inout Report) throws {
        let owned = Set(try store.allPaths().map(\.file))
        for (id, kind, relative) in files.craveyMediaFiles() where !owned.contains(relative) {
            guard try store.recording(id: id) == nil else { continue }
            let full = files.path(relative)
            guard let inspect = media?.inspect else { continue }
            let facts: (duration: Double, media: MediaFacts)?
            do {
                facts = try inspect(full)
            } catch {
                report.unrecoverable.append("\(relative): \(Self.describe(error))")
                continue
            }
            guard let facts, facts.duration > 0 else {
                try quarantine(relative, into: &report)
                continue
            }
            var found = facts.media
            found.sizeBytes = files.size(full) ?? 0
            let created = (files.modificationDate(full) ?? Date()).addingTimeInterval(-facts.duration).truncatedToMilliseconds
            let thumbRelative = FileStore.thumbnailsDir + "/" + Recording.thumbnailName(id: id, kind: kind)
            let recording = Recording(
                id: id, createdAt: created, kind: kind, title: Validation.recoveredTitle(for: created), notes: nil,
                purpose: nil, duration: min(facts.duration, Validation.maxDuration), filePath: relative,
                thumbnailPath: kind == .video && files.isRegularFile(files.path(thumbRelative)) ? thumbRelative : nil,
                modifiedAt: created, media: found)
            try Validation.check(recording)
            try store.insertRecording(recording)
            files.makePrivate(full, mode: 0o600)
            if let thumb = recording.thumbnailPath { files.makePrivate(files.path(thumb), mode: 0o600) }
            report.relisted.append("\(relative) as '\(recording.title)'")
        }
    }

    /// Moves one of cravey's files to `Quarantine/` (never deletes it).
    func quarantine(_ relative: String, into report: inout Report) throws {
        let dir = files.path(FileStore.quarantineDir)
        try files.makeDirectory(dir, site: "check.quarantine")
        try files.rename(files.path(relative), dir + "/" + (relative as NSString).lastPathComponent, site: "check.quarantine")
        report.quarantined.append(relative)
    }
}
