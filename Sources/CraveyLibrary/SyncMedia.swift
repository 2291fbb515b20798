import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Recordings on both machines: a message or a check-in made on one reaches the other through
/// the sync folder, its file once, its details as change lines.
///
/// The rules:
/// - **a file goes once, under a name of its own**: `devices/<device>/media/<id>.<version>.<ext>`,
///   written (a temporary name, fsync, rename) by the machine that made that version only; a
///   change line (`kind` "recording") carries the details (title, notes, purpose, triggers, the
///   kind, when it was made, the check-in's day, mood and question) and the version with its
///   file's length, size and SHA-256;
/// - **the folder is untrusted**: the other machine copies the file into its library under the
///   library's own rules (staged in `.incoming/`, fsynced, 0600, renamed, then the row), after
///   checking its size, its hash and that FFmpeg reads it as the kind and length the line says;
///   a file that fails is refused (named by `sync` and `check`) and nothing changes; every later
///   `sync` reads it again once it changed (its size, times or inode), so a file that comes whole
///   later is taken in with no new line. A file that has not come whole yet (a sync tool still
///   copying it) is waited for quietly: the line is kept (`syncRecordingWaiting`) and taken in by
///   a later `sync` once the file is whole;
/// - **a trim is a new version**: this machine's older version leaves the folder only once the
///   line naming the new one is in its change file (a machine reading the older line meanwhile
///   still finds its file); the other machine replaces its copy as a trim does
///   (`replaceMedia`); title, notes, purpose and triggers go by the last writer per field, as the
///   logs do; a check-in is never edited;
/// - **a delete is a tombstone** and wins over any edit or trim: each machine removes its own copy
///   when it takes it in, and the machine that wrote files of that id removes them from the folder;
/// - **a day keeps one check-in a machine**: the other machine's entry of the same day is kept
///   beside this one's (`checkinFrom`), and both are listed.
///
/// What this machine changed is found by comparing its recordings with what the folder was last
/// told (`syncField`), at every `sync`, so a recording saved, trimmed, edited or deleted while no
/// folder could be reached is shared once one can.
extension Library {
    /// The kind of a recording's change line.
    static let recordingKind = "recording"
    /// What a recording's change line may carry.
    static let recordingFields: Set<String> = [
        "title", "notes", "purpose", "forTriggers", "kind", "createdAt", "checkinDay", "mood", "prompt", "version",
        "duration", "sizeBytes", "sha",
    ]
    /// The details a person may edit: the last writer wins each.
    static let recordingTyped: Set<String> = ["title", "notes", "purpose", "forTriggers"]
    /// The largest recording file taken in from the folder (two minutes of video are far less).
    static let maxSharedMedia: Int64 = 1 << 30

    /// Why a recording from the folder was not taken in (the folder's fault, not this machine's).
    struct RecordingRefused: Error {
        let words: String
    }

    /// A recording's line held to the rules typed input meets (nil: kept).
    static func recordingLineProblem(_ line: SyncLine) -> String? {
        guard line.id.count == 36, let id = UUID(uuidString: line.id), id.uuidString == line.id else {
            return "its id is not one cravey makes"
        }
        for (field, value) in line.row ?? [:] {
            guard recordingFields.contains(field) else {
                return "it names a field of a recording cravey does not share"
            }
            if let problem = recordingValueProblem(field, value) { return "its \(field) \(problem)" }
        }
        return nil
    }

    private static func recordingValueProblem(_ field: String, _ value: JournalValue) -> String? {
        switch (field, value) {
        case ("notes", .null), ("purpose", .null), ("checkinDay", .null), ("mood", .null), ("prompt", .null):
            return nil
        case ("version", .integer(let version)):
            return (1...1_000_000).contains(version) ? nil : "is not a version cravey writes"
        case ("sizeBytes", .integer(let size)):
            return (1...maxSharedMedia).contains(size) ? nil : "is not a size cravey keeps"
        case ("duration", .integer), ("duration", .real):
            return value.number.map { $0 > 0 && $0 <= Validation.maxDuration } == true
                ? nil : "is not a length cravey keeps"
        case (_, .text(let text)):
            let lines = field == "notes"  // notes may hold lines and tabs, as typed
            guard text.utf8.count <= 4096,
                !text.unicodeScalars.contains(where: {
                    Validation.isUnsafe($0) && !(lines && ($0 == "\n" || $0 == "\t"))
                })
            else {
                return "is not text cravey would keep"
            }
            let fits: Bool
            switch field {
            case "kind": fits = Recording.Kind(rawValue: text) != nil
            case "purpose": fits = Recording.Purpose(rawValue: text) != nil
            case "mood": fits = CheckIn.Mood(rawValue: text) != nil
            case "createdAt": fits = StoredDate.date(text) != nil
            case "checkinDay": fits = text.utf8.count == 10 && LocalDay(parsing: text) != nil
            case "sha":
                fits =
                    text.utf8.count == 64
                    && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
            case "forTriggers":
                fits =
                    text.isEmpty
                    || text.split(separator: ",").allSatisfy { Validation.triggerNames.contains(String($0)) }
            case "title", "notes", "prompt": fits = true
            default: fits = false
            }
            return fits ? nil : "is not one cravey writes"
        default:
            return "is not a value cravey would keep"
        }
    }

    /// Keeps a recording's line from another machine until it is taken in (its file may come
    /// later than the line).
    static func holdRecording(_ line: SyncLine, _ db: Database) throws -> Bool {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try db.execute(
            sql: "INSERT OR IGNORE INTO syncRecordingWaiting (device, counter, id, line) VALUES (?, ?, ?, ?)",
            arguments: [line.device, line.counter, line.id, String(decoding: try encoder.encode(line), as: UTF8.self)])
        return true
    }

    /// Under the library lock, the folder reached: shares what changed in this machine's
    /// recordings (stamped before what came in is weighed against it), then takes in the
    /// recordings the other machines shared whose files are whole. This machine's files no line
    /// names any more leave the folder once the lines are written (`tidyOwnMedia`). Returns how
    /// many recordings were taken in with their files.
    func shareRecordings(_ folder: SyncFolder, device: String) throws -> Int {
        try shareOwnRecordings(folder, device: device, copyingFiles: true)
        return try takeInRecordings(folder, device: device)
    }

    /// After a recording's details were edited or it was deleted, with a folder chosen: the
    /// change is stamped now and written when the folder is there (a file to copy waits for
    /// `sync`). Quiet: what fails here is done by the next `sync`.
    func shareRecordingChangesQuietly() {
        guard isWritable, let state = try? readLogs({ db in try SyncState.load(db) }) else { return }
        try? shareOwnRecordings(SyncFolder(path: state.folder), device: state.device, copyingFiles: false)
        pushSyncOutboxSoon()
    }

    // MARK: - Taking in

    /// The lines waiting, by recording, each recording's in the order of their stamps.
    private func waitingRecordings() throws -> [(id: String, lines: [SyncLine])] {
        let rows = try store.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT id, line FROM syncRecordingWaiting ORDER BY id, device, counter").map {
                ($0["id"] as String, $0["line"] as String)
            }
        }
        let decoder = JSONDecoder()
        var grouped: [(id: String, lines: [SyncLine])] = []
        for (id, text) in rows {
            guard let line = try? decoder.decode(SyncLine.self, from: Data(text.utf8)) else { continue }
            if grouped.last?.id != id { grouped.append((id, [])) }
            grouped[grouped.count - 1].lines.append(line)
        }
        return grouped.map { ($0.id, $0.lines.sorted { $0.stamp < $1.stamp }) }
    }

    /// Takes in what waits. A recording refused before is tried again when a later line of it
    /// came, or when the file its lines name changed since (its size, times or inode: a sync tool
    /// that has now copied it whole, a damaged copy put right); else it stays named, unread.
    /// Returns how many were taken in with their files.
    private func takeInRecordings(_ folder: SyncFolder, device: String) throws -> Int {
        var withFiles = 0
        for (id, lines) in try waitingRecordings() {
            guard let newest = lines.last else { continue }
            let mark = "refused recording \(id) \(newest.device) \(newest.counter)"
            let seen = "tried recording \(id)"
            let file = namedFile(id, lines).map { folder.mediaStamp(device: $0.device, name: $0.name) } ?? "-"
            let (refusedAlready, triedFile) = try store.writer.read { db in
                (
                    try Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM syncState WHERE key = ?)", arguments: [mark])!,
                    try String.fetchOne(db, sql: "SELECT value FROM syncState WHERE key = ?", arguments: [seen])
                )
            }
            if refusedAlready, triedFile == file { continue }  // named once, and nothing changed since
            do {
                if try takeIn(id, lines, folder, device: device) { withFiles += 1 }
                // Taken in, or its file not whole yet (waiting, said as such): no longer refused.
                if triedFile != nil { try store.writer.write { db in try Self.forgetRefusal(db, id) } }
            } catch let refused as RecordingRefused {
                try store.writer.write { db in
                    try Self.forgetRefusal(db, id)  // one refusal named a recording, its newest
                    let note = try db.cachedStatement(
                        sql:
                            "INSERT INTO syncState (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
                    )
                    try note.execute(arguments: [
                        mark,
                        "a recording from device \(newest.device) (change \(newest.counter)) was not taken in: \(refused.words)",
                    ])
                    try note.execute(arguments: [seen, file])
                }
            }
        }
        return withFiles
    }

    /// What was refused of a recording, and the file then tried, forgotten.
    private static func forgetRefusal(_ db: Database, _ id: String) throws {
        try db.execute(
            sql: "DELETE FROM syncState WHERE key = ? OR key LIKE ?",
            arguments: ["tried recording \(id)", "refused recording \(id) %"])
    }

    /// The device and name of the file a recording's waiting lines name last (nil: none named).
    private func namedFile(_ id: String, _ lines: [SyncLine]) -> (device: String, name: String)? {
        guard let named = lines.last(where: { $0.row?["version"] != nil }),
            let version = named.row?["version"]?.integer.map({ Int64($0) }),
            let kind = UUID(uuidString: id).flatMap({ try? store.recording(id: $0) })?.kind
                ?? lines.lazy.compactMap({ $0.row?["kind"]?.text.flatMap(Recording.Kind.init(rawValue:)) }).first
        else { return nil }
        return (named.device, SyncFolder.mediaName(id: id, version: version, kind: kind))
    }

    /// Takes in one recording's waiting lines: a delete, or its details and (when it is new here
    /// or trimmed there) its file. Returns without a change when its file has not come whole yet.
    /// True when a file was taken in.
    private func takeIn(_ id: String, _ lines: [SyncLine], _ folder: SyncFolder, device: String) throws -> Bool {
        guard let uuid = UUID(uuidString: id) else { return false }
        var known = try store.writer.read { db in try Self.fields(db, Self.recordingKind, id) }
        let local = try store.recording(id: uuid)
        if known[Self.deletedField] == nil, let delete = lines.first(where: { $0.row == nil }) {
            // A delete wins over every edit and trim, whenever they were made.
            if let local { try self.delete(local, sharing: false) }
            try store.writer.write { db in
                try Self.keepFields(db, Self.recordingKind, id, nil, delete.stamp)
                try Self.forgetWaiting(db, id)
                try Self.forgetWaitingLinks(to: id, db)  // it never comes: SyncLinks.swift
            }
            return false
        }
        var newer: [String: (value: JournalValue, stamp: SyncStamp)] = [:]
        if known[Self.deletedField] == nil {
            for line in lines {
                for (field, value) in line.row ?? [:] where known[field].map({ $0.stamp < line.stamp }) ?? true {
                    known[field] = (value, line.stamp)
                    newer[field] = (value, line.stamp)
                }
            }
        }
        if local?.checkIn != nil {
            for field in Self.recordingTyped { newer[field] = nil }  // an entry is kept as it was saved
        }
        let taken = newer
        guard !taken.isEmpty else {
            try store.writer.write { db in try Self.forgetWaiting(db, id) }
            return false
        }
        var file: (staged: StagedFile, media: MediaFacts, duration: Double)?
        if local == nil || taken["version"] != nil {
            guard let found = try bringInFile(uuid, known: known, local: local, folder) else { return false }  // waits
            file = found
        }
        let keep: (Database) throws -> Void = { db in
            for (stamp, row) in Dictionary(grouping: taken, by: { $0.value.stamp }) {
                try Self.keepFields(
                    db, Self.recordingKind, id,
                    row.reduce(into: [String: JournalValue]()) { $0[$1.key] = $1.value.value }, stamp)
            }
            try Self.forgetWaiting(db, id)
        }
        let values = known.mapValues(\.value)
        if let local {
            // Every detail is held to the library's rules before the file is replaced: a line
            // refused changes nothing, neither the file nor the row.
            let typed = !Set(taken.keys).isDisjoint(with: Self.recordingTyped)
            var edited = local
            if typed {
                do {
                    edited = try Self.recording(local, typedFrom: values)
                } catch {
                    if let file { discard(file.staged) }
                    throw error
                }
            }
            if let file {
                do {
                    _ = try replaceMedia(
                        of: local, with: file.staged,
                        thumbnail: stageSharedThumbnail(
                            of: file.staged, id: uuid, kind: local.kind, role: .editThumbnail),
                        duration: file.duration, media: file.media)
                } catch LibraryError.invalid(_, let reason) {
                    throw RecordingRefused(words: reason)
                }
            }
            try store.writer.write { db in
                if typed {
                    try db.execute(
                        sql:
                            "UPDATE recording SET title = ?, notes = ?, purpose = ?, forTriggers = ?, modifiedAt = ? WHERE id = ?",
                        arguments: [
                            edited.title, edited.notes, edited.purpose?.rawValue,
                            edited.forTriggers.joined(separator: ","),
                            StoredDate.text(Date()), id,
                        ])
                }
                try keep(db)
            }
        } else if let file {
            try insertShared(uuid, values, file, from: known["kind"]?.stamp.device ?? "", keep: keep)
        }
        writePendingTags()
        return file != nil
    }

    /// A recording's lines taken in (or left behind by a delete), and what was refused of it.
    private static func forgetWaiting(_ db: Database, _ id: String) throws {
        try db.execute(sql: "DELETE FROM syncRecordingWaiting WHERE id = ?", arguments: [id])
        try forgetRefusal(db, id)
    }

    /// `recording` with the edited details `values` give, held to the library's rules.
    private static func recording(_ recording: Recording, typedFrom values: [String: JournalValue]) throws -> Recording
    {
        var edited = recording
        if case .text(let title)? = values["title"] { edited.title = title }
        if let notes = values["notes"] { edited.notes = notes.text }
        if let purpose = values["purpose"] {
            edited.purpose = purpose.text.flatMap(Recording.Purpose.init(rawValue:))
        }
        if case .text(let names)? = values["forTriggers"] {
            edited.forTriggers = names.split(separator: ",").map(String.init)
        }
        do {
            try Validation.check(edited)
        } catch {
            throw RecordingRefused(words: describe(error))
        }
        return edited
    }

    /// The file the details name, copied from the folder into `.incoming/` and checked (nil: not
    /// there whole yet, or no way to read media here: it waits).
    private func bringInFile(
        _ id: UUID, known: [String: (value: JournalValue, stamp: SyncStamp)], local: Recording?,
        _ folder: SyncFolder
    ) throws -> (staged: StagedFile, media: MediaFacts, duration: Double)? {
        guard case .integer(let version)? = known["version"]?.value, let writer = known["version"]?.stamp.device,
            case .integer(let size)? = known["sizeBytes"]?.value, case .text(let sha)? = known["sha"]?.value,
            let duration = known["duration"]?.value.number,
            let kind = local?.kind ?? known["kind"]?.value.text.flatMap(Recording.Kind.init(rawValue:))
        else { throw RecordingRefused(words: "its changes do not name its file whole") }
        let name = SyncFolder.mediaName(id: id.uuidString, version: version, kind: kind)
        let shown = SyncFolder.shown(folder.devicesPath + "/" + writer + "/media/" + name)
        let source: Int32
        switch folder.openMedia(device: writer, name: name) {
        case .missing:
            return nil
        case .refused(let why):
            throw RecordingRefused(words: "\(shown) \(why); it was not read")
        case .file(let fd, let found):
            guard found <= size else {
                close(fd)
                throw RecordingRefused(words: "\(shown) is larger than its change says")
            }
            guard found == size else {
                close(fd)
                return nil  // still being copied
            }
            source = fd
        }
        defer { close(source) }
        guard let inspect = media?.inspect else { return nil }  // for a cravey that can read media
        let staged = try stage(local == nil ? .final : .edit, id: id, kind: kind)
        let output = open(staged.path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW)
        guard output >= 0 else {
            let failure = systemError("open", staged.path)
            discard(staged)
            throw failure
        }
        let copied: (size: Int64, sha256: String)
        do {
            let call = SyncFolderWatch.calling(folder.path)
            defer { call.returned() }
            copied = try FileCopy.copy(
                from: source, named: shown, into: output, named: staged.path, faults: faults, site: "sync.media.copy")
        } catch {
            discard(staged)
            throw error
        }
        guard copied.size == size, copied.sha256 == sha else {
            discard(staged)
            throw RecordingRefused(
                words: "\(shown) is not the file its change names (its size or SHA-256 differs)")
        }
        let facts = try? inspect(staged.path)
        guard let facts, facts.duration > 0, (facts.media.width != nil) == (kind == .video),
            abs(facts.duration - duration) < 0.5
        else {
            discard(staged)
            throw RecordingRefused(
                words:
                    "\(shown) is not the \(kind.rawValue) recording its change names (FFmpeg does not read it as one)"
            )
        }
        var mediaFacts = facts.media
        mediaFacts.sizeBytes = copied.size
        return (staged, mediaFacts, duration)
    }

    /// Saves a recording made on another machine, as `save` does: the file renamed into
    /// `Recordings/` under an intent, then its row (with `keep`: what the folder said of it) in
    /// one transaction. A check-in keeps its day beside this machine's own entry of that day.
    private func insertShared(
        _ id: UUID, _ values: [String: JournalValue], _ file: (staged: StagedFile, media: MediaFacts, duration: Double),
        from device: String, keep: (Database) throws -> Void
    ) throws {
        defer { discard(file.staged) }
        guard let kind = values["kind"]?.text.flatMap(Recording.Kind.init(rawValue:)),
            let createdAt = values["createdAt"]?.text.flatMap(StoredDate.date), values["title"]?.text != nil
        else { throw RecordingRefused(words: "its changes do not say what it is (its first change is missing)") }
        let made = Recording(
            id: id, createdAt: createdAt, kind: kind, title: "-", notes: nil, purpose: nil, duration: file.duration,
            filePath: FileStore.recordingsDir + "/" + Recording.fileName(id: id, kind: kind), thumbnailPath: nil,
            modifiedAt: createdAt, media: file.media)
        var recording = try Self.recording(made, typedFrom: values)
        var checkIn: CheckIn?
        if let day = values["checkinDay"]?.text {
            guard let mood = values["mood"]?.text.flatMap(CheckIn.Mood.init(rawValue:)) else {
                throw RecordingRefused(words: "its check-in has no mood")
            }
            checkIn = CheckIn(day: day, mood: mood, prompt: values["prompt"]?.text)
        }
        // A video gets its thumbnail here, as a local save makes one (none when no frame decodes).
        let thumbnail = stageSharedThumbnail(of: file.staged, id: id, kind: kind, role: .thumbnail)
        defer { if let thumbnail { discard(thumbnail) } }
        recording.thumbnailPath = thumbnail.map { _ in
            FileStore.thumbnailsDir + "/" + Recording.thumbnailName(id: id, kind: kind)
        }
        let finalPaths = [recording.filePath] + (recording.thumbnailPath.map { [$0] } ?? [])
        try makeDurable(file.staged, thumbnail: thumbnail, step: "sync.media")
        try store.notePendingSave(finalPaths)
        do {
            try files.rename(file.staged.path, files.path(recording.filePath), site: "sync.media.rename")
            if let thumbnail, let thumbPath = recording.thumbnailPath {
                try files.makeDirectory(files.path(FileStore.thumbnailsDir), site: "sync.media.mkdir")
                try files.rename(thumbnail.path, files.path(thumbPath), site: "sync.media.rename.thumb")
                try files.sync(files.path(FileStore.thumbnailsDir), site: "sync.media.fsync.thumbs")
            }
            try files.sync(files.path(FileStore.recordingsDir), site: "sync.media.fsync.dir")
            try store.writer.write { db in
                try recording.insert(into: db)
                if let checkIn {
                    try db.execute(
                        sql: "UPDATE recording SET checkinDay = ?, mood = ?, prompt = ?, checkinFrom = ? WHERE id = ?",
                        arguments: [checkIn.day, checkIn.mood.rawValue, checkIn.prompt, device, id.uuidString])
                }
                for path in finalPaths {
                    try db.execute(sql: "DELETE FROM pendingSave WHERE path = ?", arguments: [path])
                }
                try Self.setWaitingLinks(to: recording.id.uuidString, db)  // SyncLinks.swift
                try keep(db)
                try faults.hit("sync.media.commit")
            }
            SyncFolderWatch.keptFromFolder(1)
        } catch {
            try? undoPendingSave(finalPaths)
            if let error = error as? DatabaseError, error.resultCode == .SQLITE_CONSTRAINT {
                throw RecordingRefused(words: "the library's rules refuse it (\(error.message ?? "a constraint"))")
            }
            throw error
        }
    }

    /// The thumbnail of a video taken in from the folder, staged to be saved with it (nil for a
    /// sound, for a cravey that cannot read media, or when no frame decodes: kept without one).
    private func stageSharedThumbnail(of video: StagedFile, id: UUID, kind: Recording.Kind, role: Staging.Role)
        -> StagedFile?
    {
        guard kind == .video, let make = media?.thumbnail, let staged = try? stage(role, id: id, kind: .video) else {
            return nil
        }
        do {
            try make(video.path, staged.path)
            return staged
        } catch {
            discard(staged)
            return nil
        }
    }

    // MARK: - Sharing this machine's

    /// Compares this machine's recordings with what the folder was told and shares the
    /// difference: a new recording (its file and details), a trim (a new version of its file), an
    /// edit (the fields changed), a delete (a tombstone; this machine's files of it leave the
    /// folder).
    private func shareOwnRecordings(_ folder: SyncFolder, device: String, copyingFiles: Bool) throws {
        let (recordings, known) = try store.writer.read { db in
            let ids = try String.fetchAll(
                db, sql: "SELECT DISTINCT id FROM syncField WHERE kind = ?", arguments: [Self.recordingKind])
            var known: [String: [String: (value: JournalValue, stamp: SyncStamp)]] = [:]
            for id in ids { known[id] = try Self.fields(db, Self.recordingKind, id) }
            return (try Recording.fetchAll(db, sql: "SELECT * FROM recording ORDER BY createdAt, id"), known)
        }
        var changes: [(id: String, row: [String: JournalValue]?)] = []
        for recording in recordings {
            let id = recording.id.uuidString
            let have = known[id] ?? [:]
            guard have[Self.deletedField] == nil else { continue }
            let typed = Self.typedFields(recording)
            var row: [String: JournalValue]
            if have.isEmpty {
                row = typed.merging(Self.madeFields(recording)) { $1 }
            } else {
                row = recording.checkIn != nil ? [:] : typed.filter { have[$0.key]?.value != $0.value }
            }
            var newFile = have["duration"]?.value.number.map { abs($0 - recording.duration) > 0.0005 } ?? true
            if !newFile, copyingFiles, have["version"]?.stamp.device == device,
                let version = have["version"]?.value.integer.map({ Int64($0) })
            {
                // This machine's copy gone from the folder (a device id given anew, a folder
                // emptied by hand): written again, as a new version.
                newFile = folder.lacksMedia(
                    device: device, name: SyncFolder.mediaName(id: id, version: version, kind: recording.kind))
            }
            if newFile {
                guard copyingFiles, hasFile(recording) else {
                    if !have.isEmpty, !row.isEmpty { changes.append((id, row)) }  // the file follows
                    continue
                }
                let version = Int64(have["version"]?.value.integer ?? 0) + 1
                let name = SyncFolder.mediaName(id: id, version: version, kind: recording.kind)
                let put = try folder.putMedia(
                    from: files.path(recording.filePath), device: device, name: name, faults: faults)
                row["version"] = .integer(version)
                row["sizeBytes"] = .integer(put.size)
                row["sha"] = .text(put.sha256)
                row["duration"] = .real(recording.duration)
            }
            if !row.isEmpty { changes.append((id, row)) }
        }
        let here = Set(recordings.map(\.id.uuidString))
        for (id, have) in known.sorted(by: { $0.key < $1.key })
        where have[Self.deletedField] == nil && have["version"] != nil && !here.contains(id) {
            changes.append((id, nil))
        }
        if !changes.isEmpty { try keepOwnChanges(changes) }
    }

    /// This machine's files in the folder that no line names any more (an older version, a
    /// deleted recording's, one a run killed before its line was kept, a temporary copy cut
    /// short) leave it, once the line that names what follows them is in this device's change
    /// file: while a recording's line still waits here (a push that failed or was cut short), the
    /// other machine reads the older line, and the file it names stays. Only names in cravey's own
    /// form, of recordings this library knows, are removed: anything else there is left alone.
    func tidyOwnMedia(_ folder: SyncFolder, device: String) throws {
        let (current, waiting, known) = try store.writer.read { db in
            let waiting = Set(
                try String.fetchAll(db, sql: "SELECT line FROM syncOutbox").compactMap { text -> String? in
                    guard let line = try? JSONDecoder().decode(SyncLine.self, from: Data(text.utf8)),
                        line.kind == Self.recordingKind
                    else { return nil }
                    return line.id.lowercased()
                })
            var names: Set<String> = []
            for id in try String.fetchAll(
                db, sql: "SELECT id FROM syncField WHERE kind = ? AND field = 'version' AND device = ?",
                arguments: [Self.recordingKind, device])
            {
                let known = try Self.fields(db, Self.recordingKind, id)
                guard case .integer(let version)? = known["version"]?.value,
                    let kind = known["kind"]?.value.text.flatMap(Recording.Kind.init(rawValue:))
                else { continue }
                names.insert(SyncFolder.mediaName(id: id, version: version, kind: kind))
            }
            // The recordings this library knows: a file of another id is none of this machine's.
            let known = Set(
                try String.fetchAll(
                    db, sql: "SELECT DISTINCT id FROM syncField WHERE kind = ? UNION SELECT id FROM recording",
                    arguments: [Self.recordingKind]
                ).map { $0.lowercased() })
            return (names, waiting, known)
        }
        folder.removeMedia(device: device) { name, id in
            known.contains(id) && !current.contains(name) && !waiting.contains(id)
        }
    }

    /// Stamps and keeps this machine's recording changes for the folder, in one transaction.
    private func keepOwnChanges(_ changes: [(id: String, row: [String: JournalValue]?)]) throws {
        try store.writer.write { db in
            guard var state = try SyncState.load(db) else { return }
            let wall = Self.milliseconds(syncWallClock())
            for change in changes {
                let stamp = SyncStamp(
                    clock: Self.stampChange(&state.clock, wall: wall, carrying: change.row), device: state.device)
                state.counter += 1
                try Self.keepOutgoing(
                    db,
                    SyncLine(
                        kind: Self.recordingKind, id: change.id, row: change.row, counter: state.counter,
                        clock: [stamp.clock.milliseconds, stamp.clock.tick], device: state.device))
                try Self.keepFields(db, Self.recordingKind, change.id, change.row, stamp)
            }
            try state.save(db)
        }
    }

    private static func typedFields(_ recording: Recording) -> [String: JournalValue] {
        [
            "title": .text(recording.title), "notes": recording.notes.map { JournalValue.text($0) } ?? .null,
            "purpose": recording.purpose.map { JournalValue.text($0.rawValue) } ?? .null,
            "forTriggers": .text(recording.forTriggers.joined(separator: ",")),
        ]
    }

    private static func madeFields(_ recording: Recording) -> [String: JournalValue] {
        var fields: [String: JournalValue] = [
            "kind": .text(recording.kind.rawValue), "createdAt": .text(StoredDate.text(recording.createdAt)),
        ]
        if let checkIn = recording.checkIn {
            fields["checkinDay"] = .text(checkIn.day)
            fields["mood"] = .text(checkIn.mood.rawValue)
            fields["prompt"] = checkIn.prompt.map { JournalValue.text($0) } ?? .null
        }
        return fields
    }

    // MARK: - What check says

    /// What `check` says of the recordings in the folder: a link planted among the files, and a
    /// recording whose line came but whose file has not (refusals are said with the folder's).
    func recordingFindings() throws -> [String] {
        guard let state = try readLogs({ db in try SyncState.load(db) }) else { return [] }
        let folder = SyncFolder(path: state.folder)
        var findings = folder.mediaLinks()
        let refused = Set(
            try readLogs { db in
                try String.fetchAll(db, sql: "SELECT key FROM syncState WHERE key LIKE 'refused recording %'")
            })
        for (id, lines) in try waitingRecordings() {
            guard let newest = lines.last,
                !refused.contains("refused recording \(id) \(newest.device) \(newest.counter)")
            else { continue }
            var file = "its file"
            if let named = namedFile(id, lines) {
                file = SyncFolder.shown(folder.devicesPath + "/" + named.device + "/media/" + named.name)
                // Whole in the folder already (a sync that stopped before it was read): the next takes it.
                let size = lines.last { $0.row?["sizeBytes"] != nil }?.row?["sizeBytes"]?.integer
                if case .file(let fd, let found) = folder.openMedia(device: named.device, name: named.name) {
                    close(fd)
                    if let size, Int64(size) == found {
                        findings.append(
                            "a recording from device \(newest.device) waits to be taken in from \(file), which is whole in the folder; the next 'cravey sync' takes it in"
                        )
                        continue
                    }
                }
            }
            findings.append(
                "a recording from device \(newest.device) waits for \(file), which has not come whole into the folder; it is taken in by a later 'cravey sync' once it has"
            )
        }
        return findings
    }
}

// MARK: - The folder's media area

extension SyncFolder {
    static let mediaDir = "media"

    /// A recording's file in the folder: `<id>.<version>.<ext>`, lowercase (FAT and exFAT keep it).
    static func mediaName(id: String, version: Int64, kind: Recording.Kind) -> String {
        "\(id.lowercased()).\(version).\(kind.fileExtension)"
    }

    /// What is at a media name of a device.
    enum MediaFound {
        case missing
        case refused(String)
        /// Open for reading, with its size.
        case file(Int32, Int64)
    }

    /// Opens `name` in `device`'s media folder, reaching it one name at a time, never through a link.
    func openMedia(device: String, name: String) -> MediaFound {
        let call = SyncFolderWatch.calling(path)
        defer { call.returned() }
        guard let dir = try? openDevice(device, making: false) else { return .missing }
        defer { close(dir) }
        switch Self.kind(dir, Self.mediaDir) {
        case nil: return .missing
        case .some(S_IFDIR): break
        default: return .refused("is in a media folder that is a link or not a folder")
        }
        let media = Self.openDirectory(dir, Self.mediaDir)
        guard media >= 0 else { return .missing }
        defer { close(media) }
        switch Self.kind(media, name) {
        case nil: return .missing
        case .some(S_IFREG): break
        default: return .refused("is a link or not a regular file")
        }
        let fd = openat(media, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return .missing }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            return .refused("is not a regular file")
        }
        return .file(fd, Int64(info.st_size))
    }

    /// What a device's media file is now, in a few numbers (its size, change times and inode;
    /// "-" when it is not there or not a file): a file refused before is read again only once
    /// this changed.
    func mediaStamp(device: String, name: String) -> String {
        guard case .file(let fd, _) = openMedia(device: device, name: name) else { return "-" }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return "-" }
        return
            "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec) \(info.st_ino)"
    }

    /// Whether nothing is at `name` in a device's media folder.
    func lacksMedia(device: String, name: String) -> Bool {
        switch openMedia(device: device, name: name) {
        case .missing: return true
        case .refused: return false
        case .file(let fd, _):
            close(fd)
            return false
        }
    }

    /// Writes a copy of `source` into this device's media folder as `name` (a temporary name,
    /// fsynced, renamed, the folder fsynced); returns its size and SHA-256.
    func putMedia(from source: String, device: String, name: String, faults: Faults) throws -> (
        size: Int64, sha256: String
    ) {
        let dir = try openDevice(device, making: true)
        defer { close(dir) }
        let label = devicesPath + "/" + device + "/" + Self.mediaDir
        let call = SyncFolderWatch.calling(path)
        defer { call.returned() }
        let made = mkdirat(dir, Self.mediaDir, 0o700) == 0
        guard made || errno == EEXIST else { throw systemError("make", label) }
        let media = Self.openDirectory(dir, Self.mediaDir)
        guard media >= 0 else {
            throw LibraryError.unsafeLibrary("\(Self.shown(label)) cannot be opened; a link there is not followed")
        }
        defer { close(media) }
        if made { _ = fsync(dir) }
        let temporary = "." + name + ".new"
        _ = unlinkat(media, temporary, 0)
        let output = openat(media, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard output >= 0 else { throw systemError("create", label + "/" + temporary) }
        let input = open(source, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard input >= 0 else {
            let failure = systemError("open", source)
            close(output)
            _ = unlinkat(media, temporary, 0)
            throw failure
        }
        defer { close(input) }
        do {
            let copied = try FileCopy.copy(
                from: input, named: source, into: output, named: label + "/" + temporary, faults: faults,
                site: "sync.media.out")
            guard renameat(media, temporary, media, name) == 0 else { throw systemError("rename", label + "/" + name) }
            guard fsync(media) == 0 else { throw systemError("fsync", label) }
            return copied
        } catch {
            _ = unlinkat(media, temporary, 0)
            throw error
        }
    }

    /// The recording id (lowercase) a name of this exact form holds: `mediaName`'s, or its
    /// temporary copy's (`.<name>.new`). Nil for any other name (a sync tool's conflict copy or
    /// notes, a `.gitkeep`, the id in capitals, a version with a sign or a leading zero).
    static func mediaId(_ name: String) -> String? {
        var name = Substring(name)
        if name.hasPrefix("."), name.hasSuffix(".new") { name = name.dropFirst().dropLast(".new".count) }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == 36,
            let id = UUID(uuidString: String(parts[0])), id.uuidString.lowercased() == parts[0],
            SyncFolder.plainNumber(parts[1].utf8, digits: 7) != nil,
            Recording.Kind.allCases.contains(where: { $0.fileExtension == parts[2] })
        else { return nil }
        return String(parts[0])
    }

    /// Removes the regular files of this device's media folder in cravey's own form (`mediaId`)
    /// that `unnamed` says no line names (given the name and its id); anything else there is left alone.
    func removeMedia(device: String, where unnamed: (_ name: String, _ id: String) -> Bool) {
        let call = SyncFolderWatch.calling(path)
        defer { call.returned() }
        guard let dir = try? openDevice(device, making: false) else { return }
        defer { close(dir) }
        let media = Self.openDirectory(dir, Self.mediaDir)
        guard media >= 0 else { return }
        defer { close(media) }
        var removed = false
        for name in Self.names(media) {
            guard let id = Self.mediaId(name), Self.kind(media, name) == S_IFREG, unnamed(name, id) else { continue }
            removed = unlinkat(media, name, 0) == 0 || removed
        }
        if removed { _ = fsync(media) }
    }

    /// Links planted among the devices' media files, in words (they are never followed).
    func mediaLinks() -> [String] {
        let call = SyncFolderWatch.calling(path)
        defer { call.returned() }
        var found: [String] = []
        for device in (try? survey())?.devices.keys.sorted() ?? [] {
            guard let dir = try? openDevice(device, making: false) else { continue }
            defer { close(dir) }
            let label = devicesPath + "/" + device + "/" + Self.mediaDir
            if Self.kind(dir, Self.mediaDir) == S_IFLNK {
                found.append("\(Self.shown(label)) is a link; it was not followed")
                continue
            }
            let media = Self.openDirectory(dir, Self.mediaDir)
            guard media >= 0 else { continue }
            defer { close(media) }
            for name in Self.names(media) where Self.kind(media, name) == S_IFLNK {
                found.append("\(Self.shown(label + "/" + name)) is a link; it was not followed")
            }
        }
        return found
    }
}
