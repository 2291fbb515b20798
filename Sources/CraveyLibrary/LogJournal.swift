import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// The journal of what a person typed: every craving, use and setting (their name, their goal…)
/// as it stands after each change, one JSON line each in `logs.journal` beside the database,
/// fsynced before a command says "logged". A lost database is rebuilt from the newest snapshot,
/// the recordings' own tags and this journal, so no log is lost with it.
///
/// The rules:
/// - a change is noted in `pendingJournal` by triggers, in the change's own transaction; after the
///   commit, under the library lock, the noted rows are appended as they now stand (or as deleted)
///   and fsynced (the directory too when the file is new), and only then is the note removed. A
///   run killed between the two appends the same lines again: each line is a whole row, so
///   replaying the journal in order gives the same logs however often a line appears;
/// - a deleted log's earlier lines are taken out of the journal at once (deleted means deleted:
///   its notes do not wait for the next snapshot); a line marking it deleted stays, so a rebuild
///   from a snapshot that still held it does not bring it back;
/// - the day's snapshot holds everything journaled before it: the journal is emptied right
///   after the snapshot is in place (a kill in between leaves lines the snapshot has already,
///   replayed harmlessly);
/// - a torn tail (a last line cut short, or the zeros a power cut leaves) is no line: an append
///   first cuts the journal back to its last whole line, fsynced, then writes; a replay passes
///   over it;
/// - a line that cannot be replayed (not JSON, from a newer cravey, refused by the database or
///   breaking the rules typed input meets) is never fatal: it is moved, as it was, to
///   `logs.journal.set-aside`, counted in the rebuild's words and named by `check`.
extension Library {
    /// The tables journaled, with the kind a line names.
    static let journaledTables: [(kind: String, table: String, key: String)] = [
        ("craving", "craving", "id"), ("use", "usage", "id"), ("setting", "setting", "key"),
        ("milestone", "milestone", "id"), ("day", "dayMark", "day"), ("plan", "plan", "id"),
        ("withdrawal", "withdrawalCheck", "day"), ("limit", "limitRule", "id"),
        ("screen", "selfScreen", "id"),
    ]

    /// One line of the journal.
    struct JournalLine: Codable, Equatable {
        var kind: String
        var id: String
        /// The row's columns as they stand (nil: deleted).
        var row: [String: JournalValue]?
    }

    /// A column's value in a line: what SQLite stores for the logs and settings.
    enum JournalValue: Codable, Equatable {
        case null, integer(Int64), real(Double), text(String)

        /// A whole number reads back from JSON as an integer: 3 and 3.0 are the same value.
        static func == (a: JournalValue, b: JournalValue) -> Bool {
            switch (a, b) {
            case (.null, .null): true
            case let (.integer(x), .integer(y)): x == y
            case let (.real(x), .real(y)): x == y
            case let (.integer(x), .real(y)), let (.real(y), .integer(x)): Double(x) == y
            case let (.text(x), .text(y)): x == y
            default: false
            }
        }

        init(_ value: DatabaseValue) {
            switch value.storage {
            case .null, .blob: self = .null
            case .int64(let n): self = .integer(n)
            case .double(let d): self = .real(d)
            case .string(let s): self = .text(s)
            }
        }

        var databaseValue: DatabaseValue {
            switch self {
            case .null: .null
            case .integer(let n): n.databaseValue
            case .real(let d): d.databaseValue
            case .text(let s): s.databaseValue
            }
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null; return }
            if let n = try? container.decode(Int64.self) { self = .integer(n); return }
            if let d = try? container.decode(Double.self) { self = .real(d); return }
            self = .text(try container.decode(String.self))
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .integer(let n): try container.encode(n)
            case .real(let d): try container.encode(d)
            case .text(let s): try container.encode(s)
            }
        }
    }

    // MARK: - Writing

    /// Appends what changed, after a change was committed and reported as kept in the database:
    /// a journal that cannot be written now does not undo that, but it is said (`journalProblem`),
    /// and the next command appends what is still noted.
    func flushJournalAfterCommit() {
        do {
            try flushJournal()
        } catch {
            journalProblem =
                "the journal of logs (\(FileStore.journalFile)) could not be written (\(Self.describe(error))); the next cravey command writes it"
        }
    }

    /// Appends what changed since the last append (see the type's rules). Called with the library
    /// lock held, after a change's commit and before the command reports it.
    func flushJournal() throws {
        guard isWritable else { return }
        let (noted, lines) = try store.writer.read { db -> (Int64, [JournalLine]) in
            let pending = try Row.fetchAll(db, sql: "SELECT seq, kind, id FROM pendingJournal ORDER BY seq")
            guard let last = pending.last?["seq"] as Int64? else { return (0, []) }
            var seen = Set<String>(), lines: [JournalLine] = []
            for note in pending.reversed() {  // the newest note of a row decides; lines in order
                let kind: String = note["kind"], id: String = note["id"]
                guard seen.insert(kind + "\u{0}" + id).inserted else { continue }
                lines.append(JournalLine(kind: kind, id: id, row: try Self.journaledRow(db, kind: kind, id: id)))
            }
            return (last, lines.reversed())
        }
        guard !lines.isEmpty else { return }
        let deleted = Set(lines.filter { $0.row == nil }.map { $0.kind + "\u{0}" + $0.id })
        try files.withReserve {
            if deleted.isEmpty {
                try appendToJournal(lines)
            } else {
                // The deleted rows' earlier lines go with them: the journal is written again
                // without them, the new lines at its end.
                try rewriteJournal { contents in
                    contents.lines.filter { !deleted.contains($0.kind + "\u{0}" + $0.id) || $0.row == nil } + lines
                }
            }
        }
        try faults.hit("journal.forget")
        try store.writer.write { db in
            try db.execute(sql: "DELETE FROM pendingJournal WHERE seq <= ?", arguments: [noted])
            // The same changes for the sync folder, kept in the same step (see `Sync.swift`).
            try noteSyncChanges(db, lines.map { ($0.kind, $0.id) })
        }
        // Kept in the library now: the folder gets them without anyone waiting on it.
        pushSyncOutboxSoon()
    }

    /// A journaled row as it stands now (nil: not there).
    static func journaledRow(_ db: Database, kind: String, id: String) throws -> [String: JournalValue]? {
        guard let (_, table, key) = journaledTables.first(where: { $0.kind == kind }),
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM \(table) WHERE \(key) = ?"), arguments: [id])
        else { return nil }
        var values: [String: JournalValue] = [:]
        for (column, value) in row { values[column] = JournalValue(value) }
        return values
    }

    private var journalPath: String { files.path(FileStore.journalFile) }

    /// The lines as `JSONEncoder` writes them, one a line: written by `JSONLineWriter` where it
    /// spells them the same, else by the encoder.
    private static func encode(_ lines: [JournalLine]) throws -> Data {
        var bytes: [UInt8] = []
        var encoder: JSONEncoder?
        for line in lines {
            if let written = JSONLineWriter.journal(line) {
                bytes += written
            } else {
                if encoder == nil {
                    encoder = JSONEncoder()
                    encoder?.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                }
                bytes += try encoder!.encode(line)
            }
            bytes.append(0x0A)
        }
        return Data(bytes)
    }

    /// Appends whole lines and fsyncs them (and the directory, when the journal is new).
    /// A torn tail left by a crash or a power cut is cut back to the last whole line first
    /// (fsynced), so the new lines never join it; a write cut short (a full disk) is taken back
    /// the same way, so a retry does not leave a line that cannot be read.
    private func appendToJournal(_ lines: [JournalLine]) throws {
        let data = try Self.encode(lines)
        var (fd, info) = try openHeldJournal()
        defer { close(fd) }
        let whole = try Self.wholeLinesLength(fd, size: info.st_size, path: journalPath)
        if whole < info.st_size {
            try faults.hit("journal.cut")
            guard ftruncate(fd, whole) == 0, retryingEINTR({ fsync(fd) }) == 0 else {
                throw systemError("cut the torn end of", journalPath)
            }
            info.st_size = whole
        }
        do {
            try faults.hit("journal.append")
            try Self.writeAll(data, to: fd, path: journalPath)
            try faults.hit("journal.fsync")
            guard retryingEINTR({ fsync(fd) }) == 0 else { throw systemError("fsync", journalPath) }
        } catch {
            _ = ftruncate(fd, info.st_size)
            throw error
        }
        // A new (or emptied) journal's name is made durable with its first lines.
        if info.st_size == 0 { try files.sync(root, site: "journal.fsync.root") }
    }

    /// How long an append waits for another process holding the journal (a few writes, normally).
    static let journalLockWait: Double = 10

    /// The journal opened for appending and held: its own lock (flock), so one process at a time
    /// appends, cuts or replaces it, whoever holds the library. Opened again when it was replaced
    /// while this waited. Released by closing the descriptor.
    private func openHeldJournal() throws -> (Int32, stat) {
        while true {
            let fd = open(journalPath, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
            guard fd >= 0 else { throw systemError("open", journalPath) }
            var info = stat(), named = stat()
            // Waited for a bounded time: a stuck holder is said in words, never waited on for ever.
            let deadline = Date().addingTimeInterval(Self.journalLockWait)
            while retryingEINTR({ flock(fd, LOCK_EX | LOCK_NB) }) != 0 {
                guard errno == EWOULDBLOCK, Date() < deadline else {
                    close(fd)
                    throw LibraryError.busy(
                        "another process has held \(journalPath) for \(Int(Self.journalLockWait)) s"
                    )
                }
                usleep(20_000)
            }
            guard fstat(fd, &info) == 0 else {
                close(fd)
                throw systemError("stat", journalPath)
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                close(fd)
                throw LibraryError.unsafeLibrary("it is not a regular file")
            }
            if lstat(journalPath, &named) == 0, named.st_ino == info.st_ino, named.st_dev == info.st_dev {
                return (fd, info)
            }
            close(fd)  // replaced while this waited: the new one
        }
    }

    /// Writes the journal again as `change` makes it from what it holds now (its lines that are
    /// not cravey's set aside first), holding it: a new file, fsynced, renamed over the old one.
    func rewriteJournal(_ change: (JournalContents) throws -> [JournalLine]) throws {
        let (held, _) = try openHeldJournal()
        defer { close(held) }
        let contents = try readJournalContents()
        try setAside(contents.unreadable)
        try replaceJournal(with: try Self.encode(try change(contents)))
    }

    /// Puts `data` in place of the journal (held by the caller): a new file, fsynced, renamed over it.
    private func replaceJournal(with data: Data) throws {
        let temporary = journalPath + ".new"
        _ = unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw systemError("create", temporary) }
        do {
            try Self.writeAll(data, to: fd, path: temporary)
            try faults.hit("journal.rewrite.fsync")
            guard retryingEINTR({ fsync(fd) }) == 0 else { throw systemError("fsync", temporary) }
            close(fd)
        } catch {
            close(fd)
            _ = unlink(temporary)
            throw error
        }
        try files.rename(temporary, journalPath, site: "journal.rewrite.rename")
        try files.sync(root, site: "journal.fsync.root")
    }

    static func writeAll(_ data: Data, to fd: Int32, path: String) throws {
        try data.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                let n = retryingEINTR { write(fd, bytes.baseAddress! + written, bytes.count - written) }
                guard n > 0 else { throw systemError("write", path) }
                written += n
            }
        }
    }

    /// The length of a file up to the end of its last whole line (the byte after its last
    /// newline; 0 with none): what is after it is a torn tail. Read backwards, a block at a time.
    static func wholeLinesLength(_ fd: Int32, size: off_t, path: String) throws -> off_t {
        var end = size
        var block = [UInt8](repeating: 0, count: 65536)
        while end > 0 {
            let start = max(0, end - off_t(block.count))
            let count = Int(end - start)
            let n = block.withUnsafeMutableBytes { buffer in
                retryingEINTR { pread(fd, buffer.baseAddress, count, start) }
            }
            guard n == count else { throw systemError("read", path) }
            if let last = block[0..<count].lastIndex(of: 0x0A) { return start + off_t(last) + 1 }
            end = start
        }
        return 0
    }

    /// Empties the journal of the `held` bytes the day's snapshot holds (see the type's rules),
    /// its lines that are not cravey's set aside first. The journal is there from then on, empty or
    /// not: a journal missing beside a lost database was lost with it.
    func trimJournal(holding held: off_t) throws {
        guard files.exists(journalPath) else {
            // Made empty, its name made durable: nothing to trim, so no step of a trim either.
            let fd = open(journalPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
            guard fd >= 0 else { throw systemError("create", journalPath) }
            close(fd)
            let dir = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard dir >= 0 else { throw systemError("open", root) }
            defer { close(dir) }
            guard retryingEINTR({ fsync(dir) }) == 0 else { throw systemError("fsync", root) }
            return
        }
        let (fd, info) = try openHeldJournal()
        defer { close(fd) }
        // Lines that are not cravey's were never in the snapshot: kept, not emptied with the rest.
        try setAside(try readJournalContents().unreadable)
        try faults.hit("journal.trim")
        if info.st_size > held {
            // Appended since the snapshot was taken (by a process that did not hold the library):
            // kept, the rest emptied.
            var tail = Data(count: Int(info.st_size - held))
            let count = tail.count
            let n = tail.withUnsafeMutableBytes { buffer in
                retryingEINTR { pread(fd, buffer.baseAddress, count, held) }
            }
            guard n == count else { throw systemError("read", journalPath) }
            return try replaceJournal(with: tail)
        }
        guard ftruncate(fd, 0) == 0, retryingEINTR({ fsync(fd) }) == 0 else { throw systemError("trim", journalPath) }
    }

    /// Lines that cannot be replayed, moved as they were to the end of `logs.journal.set-aside`
    /// (0600, fsynced) before the journal is written without them: kept, never replayed again.
    func setAside(_ raw: [Data]) throws {
        guard !raw.isEmpty else { return }
        let path = files.path(FileStore.setAsideFile)
        let fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else { throw systemError("open", path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw systemError("stat", path) }
        // Cut back to its own last whole line too, so each line set aside stays one line.
        let whole = try Self.wholeLinesLength(fd, size: info.st_size, path: path)
        if whole < info.st_size { _ = ftruncate(fd, whole) }
        var data = Data()
        for line in raw {
            data.append(line)
            data.append(0x0A)
        }
        try faults.hit("journal.set-aside")
        try Self.writeAll(data, to: fd, path: path)
        guard retryingEINTR({ fsync(fd) }) == 0 else { throw systemError("fsync", path) }
        if whole == 0 { try files.sync(root, site: "journal.fsync.root") }
    }

    /// How many lines are set aside (0: none, or the file cannot be read).
    func setAsideCount() -> Int {
        Self.regularFileContents(files.path(FileStore.setAsideFile))?.split(separator: 0x0A).count ?? 0
    }

    /// A regular file's bytes (nil: not there, or not a regular file: a pipe planted in its place
    /// is never waited on).
    static func regularFileContents(_ path: String) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return try? handle.readToEnd() ?? Data()
    }

    // MARK: - Reading and replaying

    /// What the journal holds: its lines that read as cravey's, in order, and the raw lines that
    /// do not (to be set aside). A torn tail (after the last newline) is neither; zeros a power cut
    /// left before a line are passed over, and a line appended to a torn fragment by an older
    /// cravey is found after it.
    struct JournalContents {
        var lines: [JournalLine] = []
        var unreadable: [Data] = []
    }

    /// The journal as it stands (no journal: nothing). A journal that is there but cannot be read
    /// throws: taken for empty, it would be written over.
    func readJournalContents() throws -> JournalContents {
        let fd = open(journalPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return JournalContents() }
            throw systemError("open", journalPath)
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw LibraryError.unsafeLibrary("it is not a regular file")
        }
        guard let data = try handle.readToEnd() else { return JournalContents() }
        let decoder = JSONDecoder()
        func parse(_ bytes: Data) -> JournalLine? {
            guard let parsed = try? decoder.decode(JournalLine.self, from: bytes),
                Self.journaledTables.contains(where: { $0.kind == parsed.kind })
            else { return nil }
            return parsed
        }
        var contents = JournalContents()
        var pieces = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        pieces.removeLast()  // the torn tail, or the nothing after the last newline
        let start = Data("{\"id\":".utf8)
        for piece in pieces {
            let line = Data(piece.drop { $0 == 0 })
            guard !line.isEmpty else { continue }
            if let parsed = parse(line) {
                contents.lines.append(parsed)
            } else if let at = line.lastRange(of: start), at.lowerBound > line.startIndex,
                let parsed = parse(Data(line[at.lowerBound...]))
            {
                contents.lines.append(parsed)
            } else {
                contents.unreadable.append(line)
            }
        }
        return contents
    }

    /// The journal's lines that read as cravey's, in order (see `readJournalContents`).
    func readJournal() throws -> [JournalLine] { try readJournalContents().lines }

    /// Brings the database's logs and settings up to the journal (a rebuild's last step): each
    /// line, in order, puts its row as it stood or removes it. Links to a recording or craving that
    /// is not there are cleared; a row changed since (still noted for the journal) is newer than
    /// its lines and kept. A line that cannot be replayed is set aside (see the type's rules).
    /// Says in `report` how many rows the journal changed and what was set aside; returns false,
    /// saying what to fix, when the journal cannot be read now (the rebuild is taken up again by
    /// the next command, so its lines come back once it can be read).
    func replayJournal(into report: inout Report) throws -> Bool {
        let contents: JournalContents
        do {
            contents = try readJournalContents()
        } catch {
            let since = report.restoredSnapshot.map { "since \($0.day)" } ?? "in it"
            report.add(.notBroughtBack, journalTrouble(error, "read") + "; logs \(since) are not back yet")
            return false
        }
        var setAside: [(raw: Data, reason: String)] = []
        let today = LocalDay(Date(), in: .current).text
        let changed = try store.writer.write { db -> Int in
            let pending = Set(
                try Row.fetchAll(db, sql: "SELECT kind, id FROM pendingJournal").map {
                    ($0["kind"] as String) + "\u{0}" + ($0["id"] as String)
                })
            var changed = 0
            for line in contents.lines where !pending.contains(line.kind + "\u{0}" + line.id) {
                do {
                    var row = line.row
                    if let rule = try Self.ruleProblem(line, today: today, keeping: &row) {
                        setAside.append((try Self.encode([line]).dropLast(), rule))
                        guard row != nil else { continue }
                    }
                    try db.inSavepoint {
                        if try Self.replay(line.kind, id: line.id, row: row, db) { changed += 1 }
                        return .commit
                    }
                } catch let error as DatabaseError where Self.isEnvironmental(error) {
                    throw error
                } catch {
                    // Refused by the database (hand-edited, or from a newer cravey): set aside.
                    setAside.append((try Self.encode([line]).dropLast(), Self.reason(error)))
                }
            }
            // What the replay and the rebuild changed stays noted: the next append says it as it
            // now stands (a cleared link included), so the journal agrees with the database.
            try faults.hit("journal.replay.commit")
            return changed
        }
        if changed > 0 { report.add(.replayedLogs, "\(changed)") }
        if !setAside.isEmpty || !contents.unreadable.isEmpty {
            // Kept first, then left out of the journal: never replayed again, never lost (the
            // lines that are not cravey's are set aside by the rewrite).
            try self.setAside(setAside.map(\.raw))
            let aside = Set(setAside.map(\.raw))
            try rewriteJournal { now in try now.lines.filter { !aside.contains(try Self.encode([$0]).dropLast()) } }
            let count = setAside.count + contents.unreadable.count
            report.add(
                .setAside,
                "\(count) line\(count == 1 ? "" : "s") of the journal could not be brought back (\(setAside.first?.reason ?? "not a line cravey can read")); kept in \(FileStore.setAsideFile)"
            )
        }
        return true
    }

    /// Puts one line's row as it stood (or removes it); true when the database changed. `standing`:
    /// the row as it stands now when the caller has just read it (nil inside: not there), else
    /// read here.
    static func replay(
        _ kind: String, id: String, row line: [String: JournalValue]?, _ db: Database,
        standing: [String: JournalValue]?? = nil
    ) throws -> Bool {
        guard let (_, table, key) = journaledTables.first(where: { $0.kind == kind }) else { return false }
        guard try (standing ?? journaledRow(db, kind: kind, id: id)) != line else { return false }
        guard var row = line else {
            try db.execute(sql: "DELETE FROM \(table) WHERE \(key) = ?", arguments: [id])
            try forgetWaitingLinks(of: kind, id, db)  // SyncLinks.swift
            return true
        }
        let columns = Set(try db.columns(in: table).map(\.name))
        row = row.filter { columns.contains($0.key) }
        guard row[key] == .text(id) else {
            throw LibraryError.invalid(field: "journal", reason: "the line holds no \(table) this cravey knows")
        }
        for (column, target) in [("recordingId", "recording"), ("cravingId", "craving")] {
            if case .text(let id)? = row[column],
                try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(target) WHERE id = ?)", arguments: [id])!
            {
                row[column] = .null
            }
        }
        let names = row.keys.sorted()
        let updates = names.filter { $0 != key }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        try db.cachedStatement(
            sql:
                "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
                + " ON CONFLICT(\(key)) DO " + (updates.isEmpty ? "NOTHING" : "UPDATE SET \(updates)")
        ).execute(arguments: StatementArguments(names.map { row[$0]!.databaseValue }))
        return true
    }

    /// A setting or milestone line held to the rules typed input meets: nil when it keeps them;
    /// else why not, with `row` left as what may still be kept (a prices setting's valid
    /// entries) or nil.
    static func ruleProblem(_ line: JournalLine, today: String, keeping row: inout [String: JournalValue]?)
        throws -> String?
    {
        guard let values = row else { return nil }
        func text(_ column: String) -> String? {
            if case .text(let value)? = values[column] { value } else { nil }
        }
        switch line.kind {
        case "setting":
            guard let value = text("value") else {
                row = nil
                return "the line of the \(line.id.prefix(40)) setting holds no value this cravey reads"
            }
            let checked = Validation.setting(line.id, value)
            guard let problem = checked.problems.first else { return nil }
            row = checked.kept.map { ["key": .text(line.id), "value": .text($0)] }
            return problem
        case "milestone":
            let count: Int64? = if case .integer(let n)? = values["count"] { n } else { nil }
            let problem = Validation.milestoneProblem(
                id: text("id"), kind: text("kind"), count: count, reachedOn: text("reachedOn"),
                shownAt: text("shownAt"), today: today)
            if problem != nil { row = nil }
            return problem
        case "day":
            let problem = Validation.dayMarkProblem(
                day: text("day"), answer: text("answer"), markedAt: text("markedAt"), today: today)
            if problem != nil { row = nil }
            return problem
        case "plan":
            let hour: Int64?? =
                switch values["hour"] {
                case nil, .null?: .some(nil)
                case .integer(let n)?: .some(n)
                default: nil
                }
            let problem = Validation.planProblem(
                id: text("id"), trigger: text("forTrigger"), location: text("location"), hour: hour,
                instead: text("instead"))
            if problem != nil { row = nil }
            return problem
        case "withdrawal":
            let scores = Dictionary(
                uniqueKeysWithValues: WithdrawalCheckRow.columns.map { column -> (String, Int64?) in
                    if case .integer(let n)? = values[column] { (column, n) } else { (column, nil) }
                })
            let problem = Validation.withdrawalProblem(
                day: text("day"), scores: scores, checkedAt: text("checkedAt"), today: today)
            if problem != nil { row = nil }
            return problem
        case "screen":
            let score: Int64? = if case .integer(let n)? = values["score"] { n } else { nil }
            let problem = Validation.selfScreenProblem(
                id: text("id"), takenAt: text("takenAt"), answers: text("answers"), score: score, today: today)
            if problem != nil { row = nil }
            return problem
        case "limit":
            let problem = limitLineProblem(values)
            if problem != nil { row = nil }
            return problem
        default:
            return nil
        }
    }

    /// The journal cannot be read or written, and what a person can do about it, in words.
    func journalTrouble(_ error: Error, _ what: String) -> String {
        let fix =
            if case .system(_, _, let code) = error as? LibraryError, code == EACCES || code == EPERM {
                "fix its permissions with chmod 600 \(journalPath)"
            } else {
                "put the file back as it was, or move it away to go on without it"
            }
        return "the journal of logs (\(journalPath)) cannot be \(what) (\(Self.reason(error))): \(fix)"
    }

    /// Errors of the disk or of SQLite itself, not of a line: they stop the replay (tried again
    /// by the next command) instead of setting the line aside.
    static func isEnvironmental(_ error: DatabaseError) -> Bool {
        [
            .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_NOMEM, .SQLITE_CORRUPT,
            .SQLITE_CANTOPEN, .SQLITE_NOTADB, .SQLITE_INTERRUPT,
        ]
        .contains(error.resultCode.primaryResultCode)
    }

    /// The reason of an error, in a few words ("Permission denied", SQLite's message).
    static func reason(_ error: Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        switch error as? LibraryError {
        case .system(_, _, let code)?: return String(cString: strerror(code))
        case .unsafeLibrary(let message)?: return message
        default: return describe(error)
        }
    }

    // MARK: - Checking

    /// The logs and settings where the database and what the newest snapshot and the journal
    /// give differ (empty: they agree). Flushes what is noted first.
    func journalDifferences() throws -> [String] {
        try flushJournal()
        var expected: [String: [String: JournalValue]] = [:]
        if let snapshot = snapshots().first(where: isGoodSnapshot) {
            var config = Configuration()
            config.readonly = true
            let queue = try DatabaseQueue(path: snapshot.path, configuration: config)
            try queue.read { db in expected = try Self.journaledRows(db) }
            try queue.close()
        }
        for line in try readJournal() { expected[line.kind + " " + line.id] = line.row }
        let actual = try store.writer.read { db in try Self.journaledRows(db) }
        return Set(expected.keys).union(actual.keys).sorted().filter { expected[$0] != actual[$0] }
    }

    static func journaledRows(_ db: Database) throws -> [String: [String: JournalValue]] {
        var rows: [String: [String: JournalValue]] = [:]
        for (kind, table, key) in journaledTables where try db.tableExists(table) {
            for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table)") {
                var values: [String: JournalValue] = [:]
                for (column, value) in row { values[column] = JournalValue(value) }
                rows[kind + " " + (row[key] as String? ?? "")] = values
            }
        }
        return rows
    }

    /// Writes the journal again from the database: every log and setting as it stands.
    func rebuildJournal() throws {
        let lines = try store.writer.read { db in
            try Self.journaledRows(db).sorted { $0.key < $1.key }.map { entry in
                JournalLine(
                    kind: String(entry.key.prefix { $0 != " " }), id: String(entry.key.drop { $0 != " " }.dropFirst()),
                    row: entry.value)
            }
        }
        try rewriteJournal { _ in lines }
        try store.writer.write { db in try db.execute(sql: "DELETE FROM pendingJournal") }
    }
}
