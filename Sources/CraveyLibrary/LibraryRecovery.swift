import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Finishing what an interrupted run left half-done (and the report it shares with `check`).
/// It acts only on files cravey can prove it made (its own names in its own
/// directories); anything else found in the library is reported and left where it is.
extension Library {
    /// What recovery or a check found, and what it did about it: findings of a kind, each about
    /// one subject (a recording, a file or a row), in the order they were found. The command line
    /// words them.
    public struct Report: Sendable, Equatable {
        /// The kinds of finding, in the order a report lists them.
        public enum Kind: String, Sendable, CaseIterable {
            /// An interrupted recording saved from its temporary file ("<id> '<title>'").
            case recoveredRecording
            /// An interrupted recording that could not be saved now: kept, tried again later.
            case unrecoverable
            case removedTemporaryFile
            /// The file of a save whose row did not commit, removed.
            case undoneSave
            case finishedDelete
            /// A trim whose new row did not commit: the recording is back as it was.
            case undoneReplace
            case undoneDelete
            /// An interrupted purge undone (rows remained) or finished (none did); no subject.
            case undonePurge, finishedPurge
            /// A step that could not be done now (a read-only or full disk): tried again later.
            case deferred
            case invalidRow
            case rowWithoutFile
            /// A cravey recording (by its name) that no row lists.
            case fileWithoutRow
            /// A file no row owned, listed again from what the file holds ("<path> as '<title>'").
            case relisted
            /// The same, with the details the file's own tags keep ("<path> as '<title>'").
            case relistedFromTags
            /// A row from a snapshot brought up to date from its newer file ("<path> as '<title>'").
            case refreshed
            /// A row from a snapshot whose file was deleted since ("<path> '<title>'").
            case forgotten
            /// A file that looks like cravey's but cannot be listed, moved to `Quarantine/`.
            case quarantined
            case rowOutsideLibrary
            /// A recording whose file is not media cravey can play (changed from outside or
            /// restored so): `repair` moves the file to `Quarantine/` and removes its row.
            case notMedia
            case missingThumbnail
            case loosePermissions
            /// The search index or the transcripts out of step with the recordings.
            case searchIndex
            /// A file cravey did not make: never touched, only mentioned.
            case foreignFile
            /// The journal of logs and settings out of step with the database (`repair` writes
            /// it again from the database).
            case journal
            /// Logs and settings brought back from the journal by a rebuild (subject: how many).
            case replayedLogs
            /// Journal lines that could not be replayed, kept in `logs.journal.set-aside`.
            case setAside
            /// What a rebuild could not bring back (a journal lost or unreadable, a damaged
            /// snapshot): said until `repair` is told it is known.
            case notBroughtBack
            /// A setting or milestone that breaks the rules typed input meets (`repair` keeps what
            /// is valid of it: a prices setting's other prices).
            case invalidSetting
            /// A plan whose message is not there (deleted with foreign keys off, or restored
            /// without it): `repair` keeps the plan and clears its message.
            case danglingLink
            /// A day's answer that still stands on a day a use is logged on: `repair` withdraws
            /// it, naming that use, as logging the use does.
            case answerOnUseDay
            /// A day's answer or a withdrawal check dated before tracking began: kept, said.
            case beforeTracking
            /// A recording whose loudness is not measured yet (`repair` measures it).
            case unmeasured
            /// A recording measured by this check.
            case measured

            /// Problems a check with `repair` fixes (foreign files and deferred steps are not).
            public var isProblem: Bool {
                switch self {
                case .rowWithoutFile, .fileWithoutRow, .rowOutsideLibrary, .notMedia, .invalidRow, .missingThumbnail,
                    .loosePermissions, .searchIndex, .journal, .notBroughtBack, .invalidSetting, .danglingLink,
                    .answerOnUseDay:
                    true
                default: false
                }
            }
        }

        public struct Finding: Sendable, Equatable {
            public var kind: Kind
            public var subject: String
        }

        public private(set) var findings: [Finding] = []
        /// Why the database was rebuilt from the files, when it was.
        public var rebuiltDatabase: String?
        /// The snapshot it was rebuilt from (nil: from the files alone).
        public var restoredSnapshot: Snapshot?
        /// Whether the problems found were also fixed.
        public var repaired = false

        public init() {}

        init(_ kind: Kind, _ subject: String) { add(kind, subject) }

        mutating func add(_ kind: Kind, _ subject: String = "") {
            findings.append(Finding(kind: kind, subject: subject))
        }

        mutating func merge(_ other: Report) {
            findings += other.findings
            rebuiltDatabase = rebuiltDatabase ?? other.rebuiltDatabase
            restoredSnapshot = restoredSnapshot ?? other.restoredSnapshot
        }

        /// The subjects of the findings of `kind`, in the order found.
        public func subjects(_ kind: Kind) -> [String] { findings.filter { $0.kind == kind }.map(\.subject) }

        public var isEmpty: Bool { findings.isEmpty && rebuiltDatabase == nil }

        public var hasProblems: Bool { findings.contains { $0.kind.isProblem } }

        /// How many problems (see `Kind.isProblem`) were found.
        public var problemCount: Int { findings.count { $0.kind.isProblem } }
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
        /// Copies a finished file to `output` with `tags` as its tags, the media unchanged; returns
        /// false when the file cannot be read as media (it is not tagged), throws when it cannot be
        /// done now. Nil: files keep the tags they have, and their rows say what is new.
        public var writeTags:
            (@Sendable (_ input: String, _ output: String, _ tags: [(key: String, value: String)]) throws -> Bool)?
        /// One tag of a finished file (nil when it has none).
        public var readTag: (@Sendable (_ path: String, _ key: String) throws -> String?)?
        /// Writes a finished video's thumbnail to `output` (a video taken in from the sync folder
        /// gets one as a local save does). Nil: such videos are kept without one.
        public var thumbnail: (@Sendable (_ video: String, _ output: String) throws -> Void)?

        public init(
            recoverPartial: (@Sendable (_ library: Library, _ path: String) throws -> Recording?)?,
            inspect: @escaping @Sendable (_ path: String) throws -> (duration: Double, media: MediaFacts)?,
            measure: (@Sendable (_ path: String) throws -> (loudness: Double?, truePeak: Double, gain: Double?))? = nil,
            writeTags: (
                @Sendable (_ input: String, _ output: String, _ tags: [(key: String, value: String)]) throws -> Bool
            )? = nil,
            readTag: (@Sendable (_ path: String, _ key: String) throws -> String?)? = nil,
            thumbnail: (@Sendable (_ video: String, _ output: String) throws -> Void)? = nil
        ) {
            self.recoverPartial = recoverPartial
            self.inspect = inspect
            self.measure = measure
            self.writeTags = writeTags
            self.readTag = readTag
            self.thumbnail = thumbnail
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
        let pending = try translatingDatabaseErrors { try store.pendingSaves() }
        let noted = try translatingDatabaseErrors { try store.notedFileWork() }
        let tags = noted.tags && media?.writeTags != nil  // only a cravey that can write them does
        if incoming.isEmpty && trash.isEmpty && !purging && pending.isEmpty && !tags && !noted.scrubs && !noted.journal
        {
            return Report()
        }
        guard isWritable else {
            return Report(.deferred, "an interrupted operation (the library is read-only)")
        }
        return try translatingDatabaseErrors {
            let lock = try lockLibrary()
            defer { lock.release() }
            return recoverLocked()
        }
    }

    func recoverLocked() -> Report {
        var report = Report()
        /// Runs one step; its failure is reported, and the other steps still run.
        func step(_ what: String, _ body: () throws -> Void) {
            do { try translatingDatabaseErrors(body) } catch {
                report.add(.deferred, "\(what): \(Self.describe(error))")
            }
        }
        let recordings = files.path(FileStore.recordingsDir)
        if files.exists(files.path(FileStore.purgingDir)) {
            step("an interrupted purge") {
                if try store.storedCount() > 0 {  // the rows' deletion did not commit: nothing was deleted
                    try undoPurge()
                    report.add(.undonePurge)
                } else {
                    try finishPurge()
                    report.add(.finishedPurge)
                }
            }
        }
        step("an interrupted save") {
            for path in try store.pendingSaves() {
                if try !store.rowExists(forPath: path), let full = try? files.resolve(path),
                    Recording.owner(ofFileName: (path as NSString).lastPathComponent) != nil
                {
                    try files.unlink(full, site: "recover.save.unlink")
                    report.add(.undoneSave, path)
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
                report.add(.undoneReplace, "\(id.uuidString) '\(row.title)'")
            }
        }
        let trash = files.path(FileStore.trashDir)
        for name in files.entries(trash)
        where Recording.owner(ofFileName: name) != nil && files.isRegularFile(trash + "/" + name) {
            step("an interrupted delete") {
                let original =
                    name.hasSuffix("_thumb.jpg")
                    ? FileStore.thumbnailsDir + "/" + name
                    : FileStore.recordingsDir + "/" + name
                if try store.rowExists(forPath: original) {
                    try files.rename(trash + "/" + name, files.path(original), site: "recover.trash.restore")
                    report.add(.undoneDelete, original)
                } else {
                    try files.unlink(trash + "/" + name, site: "recover.trash.unlink")
                    report.add(.finishedDelete, original)
                }
            }
        }
        let incoming = files.path(FileStore.incomingDir)
        // Only cravey's temporary names, only regular files, and none a live writer holds.
        let names = files.entries(incoming).filter {
            Staging.parse($0) != nil && files.isRegularFile(incoming + "/" + $0)
                && !isLockedByOther(incoming + "/" + $0)
        }
        func isPart(_ name: String) -> Bool { Staging.parse(name)?.role == .part }
        // Staged files of saves that never finished go first: a recording recovered below may
        // need its staged name again.
        for name in names where !isPart(name) || files.size(incoming + "/" + name) == 0 {
            step("a leftover temporary file") {
                try files.unlink(incoming + "/" + name, site: "recover.incoming.unlink")
                report.add(.removedTemporaryFile, FileStore.incomingDir + "/" + name)
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
                    report.add(.recoveredRecording, "\(saved.id.uuidString) '\(saved.title)'")
                } else {
                    report.add(.removedTemporaryFile, FileStore.incomingDir + "/" + name + " (nothing playable)")
                }
                try files.unlink(full, site: "recover.incoming.unlink")
            } catch {
                // Kept for another try; the rest of the library is still usable.
                report.add(.unrecoverable, "\(FileStore.incomingDir)/\(name): \(Self.describe(error))")
            }
        }
        step("syncing Recordings/") { try files.sync(recordings, site: "recover.fsync.dir") }
        for problem in writePendingTags() { report.add(.deferred, problem) }
        step("appending to the journal of logs") { try flushJournal() }
        if !scrubSnapshots() { report.add(.deferred, "removing deleted recordings from the snapshots") }
        return report
    }

    /// After a purge committed: removes cravey's own files from `.purging/` and puts everything
    /// else back into `Recordings/`.
    func finishPurge() throws {
        let purging = files.path(FileStore.purgingDir)
        let recordings = files.path(FileStore.recordingsDir)
        let thumbs = purging + "/Thumbnails"
        for (dir, home) in [(thumbs, recordings + "/Thumbnails"), (purging, recordings)] {
            for name in files.entries(dir) where !(dir == purging && name == "Thumbnails" && files.isDirectory(thumbs))
            {
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
                report.add(.unrecoverable, "\(relative): \(Self.describe(error))")
                continue
            }
            guard let facts, facts.duration > 0 else {
                try quarantine(relative, into: &report)
                continue
            }
            var found = facts.media
            found.sizeBytes = files.size(full) ?? 0
            let created = (files.modificationDate(full) ?? Date()).addingTimeInterval(-facts.duration)
                .truncatedToMilliseconds
            let thumbRelative = FileStore.thumbnailsDir + "/" + Recording.thumbnailName(id: id, kind: kind)
            var recording = Recording(
                id: id, createdAt: created, kind: kind, title: Validation.recoveredTitle(for: created), notes: nil,
                purpose: nil, duration: min(facts.duration, Validation.maxDuration), filePath: relative,
                thumbnailPath: kind == .video && files.isRegularFile(files.path(thumbRelative)) ? thumbRelative : nil,
                modifiedAt: created, media: found)
            // The file's own description gives back what the row held (title, notes, purpose,
            // dates, the check-in, the transcript); a description that does not pass the
            // library's rules is not used.
            let description = fileDescription(relative, id: id).flatMap { description in
                (try? Validation.check(description.recording(over: recording))).map { description }
            }
            if let description {
                recording = description.recording(over: recording)
                if let day = recording.checkIn?.day, try store.checkInRecordingExists(day: day) {
                    recording.checkIn = nil
                }
            }
            try Validation.check(recording)
            try store.insertRecording(recording)
            if let transcript = description?.storedTranscript() { _ = try store.storeTranscript(transcript) }
            files.makePrivate(full, mode: 0o600)
            if let thumb = recording.thumbnailPath { files.makePrivate(files.path(thumb), mode: 0o600) }
            report.add(description != nil ? .relistedFromTags : .relisted, "\(relative) as '\(recording.title)'")
        }
    }

    /// Moves one of cravey's files to `Quarantine/` (never deletes it).
    func quarantine(_ relative: String, into report: inout Report) throws {
        let dir = files.path(FileStore.quarantineDir)
        try files.makeDirectory(dir, site: "check.quarantine")
        try files.rename(
            files.path(relative), dir + "/" + (relative as NSString).lastPathComponent, site: "check.quarantine")
        report.add(.quarantined, relative)
    }
}
