import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

extension FileStore {
    /// Logs and plays kept while another process held the library (see `Library.keepWaiting`).
    static let waitingLogsFile = "logs.waiting"
}

/// A busy library never refuses a log and never delays a play.
///
/// The rules:
/// - a craving or a use, a message played during a craving, and a play's count are written to the
///   database under the library lock. When another process holds the lock (a recording being
///   saved, a backup, a stuck process), they are not refused and not made to wait: each is
///   appended as one JSON line to `logs.waiting`, under that file's own short flock, and fsynced
///   (the directory too when the file is new) before the command says it is logged;
/// - whoever next takes the library lock — the next command, or the process holding it before it
///   lets it go — first puts every waiting line into the database, in order, in one transaction,
///   then journals them like any typed log, and only then empties `logs.waiting` (fsynced). A run
///   killed in between puts the same lines in again: a log whose id is there already is left as it
///   is, a play during a craving is noted once, and a play's count (each line has its own id,
///   noted as counted in the same transaction) is counted once;
/// - a torn last line (a power cut during an append) is cut back to the last whole line before
///   the next append, and passed over when read.
extension Library {
    /// How long a log waits for the library lock before it is kept in `logs.waiting` instead.
    static let logLockWait = 0.5

    /// One line of `logs.waiting`.
    struct WaitingLine: Codable, Equatable {
        /// "craving", "use", "played" (a message played during a craving) or "play" (a play to count).
        var kind: String
        /// The new log's row, for "craving" and "use".
        var row: [String: JournalValue]?
        /// The recording played, for "played" and "play".
        var recording: String?
        /// The craving it was played during, for "played".
        var craving: String?
        /// When it was played (stored time text), for "play".
        var at: String?
        /// The line's own id, for "play": a count put in again after a run killed before it emptied
        /// the file is not counted twice (lines written before it had one are counted as they come).
        var id: String?
    }

    private var waitingPath: String { files.path(FileStore.waitingLogsFile) }

    /// Opens `logs.waiting` without waiting on whatever is there (a FIFO planted in its place would
    /// hold an open or a read for ever): only a regular file is kept open; -1 otherwise, with
    /// errno set (ENOENT when there is none, EINVAL when it is not a regular file).
    static func openWaiting(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        let fd = open(path, flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, mode)
        guard fd >= 0 else { return -1 }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            errno = EINVAL
            return -1
        }
        // Reads and writes of a regular file never wait; the flag is cleared all the same.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// Runs `write` (a change that takes the library lock); when another process holds the lock,
    /// keeps `line` in `logs.waiting` instead, durably, to be written by whoever takes it next.
    /// `checking` holds the line to the rules the change would (read without the lock).
    func keepWaiting(
        _ line: @autoclosure () -> WaitingLine, checking: (Database) throws -> Void, otherwise write: () throws -> Void
    ) throws {
        do {
            try write()
        } catch let error as LibraryError {
            guard case .busy = error, isWritable else { throw error }
            try readLogs(checking)
            try files.withReserve { try appendWaiting(line()) }
        }
    }

    /// Writes the logs kept in `logs.waiting` (the lock held); a failure is said once, and the
    /// lines stay for the next command.
    func writeWaitingLogs() {
        guard isWritable, hasWaitingLogs else { return }
        do {
            try applyWaitingLogs()
        } catch {
            journalProblem =
                "the logs kept while the library was busy (\(FileStore.waitingLogsFile)) could not be written yet (\(Self.describe(error))); the next cravey command writes them"
        }
    }

    /// The row of a log as a journal line holds it.
    static func waitingRow(_ columns: String, _ values: [DatabaseValueConvertible?]) -> [String: JournalValue] {
        let names = columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var row: [String: JournalValue] = [:]
        for (name, value) in zip(names, values) { row[name] = JournalValue(value?.databaseValue ?? .null) }
        return row
    }

    /// Appends `line` to `logs.waiting` and fsyncs it, under the file's own flock.
    func appendWaiting(_ line: WaitingLine) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(line)
        data.append(0x0A)
        let path = waitingPath
        let fd = Self.openWaiting(path, O_RDWR | O_CREAT, 0o600)
        guard fd >= 0 else { throw systemError("open", path) }
        defer { close(fd) }
        try Self.lockWaiting(fd, LOCK_EX, path: path)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw systemError("stat", path) }
        let whole = Self.wholeLength(fd: fd, size: Int(info.st_size))
        if whole < info.st_size { _ = ftruncate(fd, off_t(whole)) }
        try faults.hit("waiting.append")
        let written = data.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let n = retryingEINTR { pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(whole + done)) }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
        guard written, retryingEINTR({ fsync(fd) }) == 0 else {
            let error = systemError("write", path)
            _ = ftruncate(fd, off_t(whole))
            throw error
        }
        if whole == 0 { try files.sync(root, site: "waiting.fsync.root") }
    }

    /// The length of the file's whole lines (up to and with its last newline), read back from
    /// its end a block at a time.
    private static func wholeLength(fd: Int32, size: Int) -> Int {
        var end = size
        var block = [UInt8](repeating: 0, count: 65536)
        while end > 0 {
            let start = max(0, end - block.count)
            let count = block.withUnsafeMutableBytes { pread(fd, $0.baseAddress, end - start, off_t(start)) }
            guard count == end - start else { return 0 }
            if let last = block[0..<count].lastIndex(of: 0x0A) { return start + last + 1 }
            end = start
        }
        return 0
    }

    /// Takes `logs.waiting`'s flock (`operation`: LOCK_EX or LOCK_SH). Whoever holds it holds it
    /// for one short step; a stuck holder is waited for `glanceBusyWait` seconds at most, then
    /// this fails with one line.
    static func lockWaiting(_ fd: Int32, _ operation: Int32, path: String) throws {
        let deadline = Date().addingTimeInterval(glanceBusyWait)
        while retryingEINTR({ flock(fd, operation | LOCK_NB) }) != 0 {
            guard errno == EWOULDBLOCK else { throw systemError("lock", path) }
            guard Date() < deadline else {
                throw LibraryError.busy("\(path) is held by a stuck process; nothing was changed")
            }
            usleep(10_000)
        }
    }

    /// Whether logs wait in `logs.waiting` to be written.
    var hasWaitingLogs: Bool { (files.size(waitingPath) ?? 0) > 0 }

    /// Puts every waiting line into the database, journals them, then empties `logs.waiting`
    /// (see the type's rules). Called with the library lock held. Returns how many lines.
    @discardableResult
    func applyWaitingLogs() throws -> Int {
        guard isWritable, hasWaitingLogs else { return 0 }
        let path = waitingPath
        let fd = Self.openWaiting(path, O_RDWR)
        guard fd >= 0 else { throw systemError("open", path) }
        defer { close(fd) }
        try Self.lockWaiting(fd, LOCK_EX, path: path)
        let data = try readToEnd(fd, named: path)
        let decoder = JSONDecoder()
        let lines = data.split(separator: 0x0A).compactMap { try? decoder.decode(WaitingLine.self, from: Data($0)) }
        if !lines.isEmpty {
            try translatingDatabaseErrors {
                try store.writer.write { db in
                    for line in lines { try Self.apply(line, db) }
                    try faults.hit("waiting.apply.commit")
                }
            }
            flushJournalAfterCommit()
        }
        try faults.hit("waiting.trim")
        guard ftruncate(fd, 0) == 0, retryingEINTR({ fsync(fd) }) == 0 else { throw systemError("trim", path) }
        // The file is empty (and stays so while its lock is held): the counts noted are let go.
        try? translatingDatabaseErrors {
            try store.writer.write { db in try db.execute(sql: "DELETE FROM syncState WHERE key LIKE 'counted play %'")
            }
        }
        return lines.count
    }

    /// One waiting line into the database; a log that is there already is left as it is, and a
    /// line whose recording or craving is gone keeps what it can.
    private static func apply(_ line: WaitingLine, _ db: Database) throws {
        func exists(_ table: String, _ id: String?) throws -> Bool {
            guard let id else { return false }
            return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)", arguments: [id])
                == true
        }
        switch line.kind {
        case "craving", "use":
            let table = line.kind == "craving" ? "craving" : "usage"
            guard var row = line.row else { return }
            let columns = Set(try db.columns(in: table).map(\.name))
            row = row.filter { columns.contains($0.key) }
            for (column, target) in [("recordingId", "recording"), ("cravingId", "craving")] {
                if case .text(let id)? = row[column], try !exists(target, id) { row[column] = .null }
            }
            let names = row.keys.sorted()
            try db.execute(
                sql:
                    "INSERT OR IGNORE INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
                arguments: StatementArguments(names.map { row[$0]!.databaseValue }))
        case "played":
            guard let recording = line.recording, try exists("recording", recording) else { return }
            try db.execute(sql: playedSQL, arguments: [recording, line.craving])
        case "play":
            if let id = line.id {
                // Counted already (a run killed after its commit, before it emptied the file).
                let key = "counted play " + id
                guard try String.fetchOne(db, sql: "SELECT key FROM syncState WHERE key = ?", arguments: [key]) == nil
                else { return }
                try db.execute(sql: "INSERT INTO syncState (key, value) VALUES (?, '')", arguments: [key])
            }
            try db.execute(
                sql: """
                    UPDATE recording SET playCount = playCount + 1,
                      lastPlayedAt = CASE WHEN lastPlayedAt IS NULL OR lastPlayedAt < ?1 THEN ?1 ELSE lastPlayedAt END
                    WHERE id = ?2 AND checkinDay IS NULL
                    """, arguments: [line.at, line.recording])
            if db.changesCount == 1, let recording = line.recording {
                try Library.notePlay(db, recordingId: recording, wall: line.at.flatMap(StoredDate.date) ?? Date())
            }
        default:
            return
        }
    }

    /// Notes recording `?1` played during craving `?2`: the first one played stays its
    /// `recordingId`; every one is added once to `played`, in order.
    static let playedSQL = """
        UPDATE craving SET recordingId = coalesce(recordingId, ?1),
          played = CASE WHEN instr(',' || played || ',', ',' || ?1 || ',') > 0 THEN played
                        WHEN played = '' THEN ?1 ELSE played || ',' || ?1 END
        WHERE id = ?2
        """
}

extension Library {
    /// Counts a play of message `id` (playCount + 1, lastPlayedAt = `date`) once the sound has
    /// been heard. While another process holds the library the count is kept in `logs.waiting`,
    /// durably, and made by whoever takes the library next: a play never waits on the library.
    /// Returns whether a message was counted now (false: no such message, or kept for later).
    public func countPlay(_ id: UUID, at date: Date) throws -> Bool {
        var counted = false
        try keepWaiting(
            WaitingLine(kind: "play", recording: id.uuidString, at: StoredDate.text(date), id: UUID().uuidString),
            checking: { _ in }
        ) {
            try translatingDatabaseErrors {
                let lock = try lockLibrary(waitingAtMost: Self.logLockWait)
                defer { lock.release() }
                counted = try store.recordPlay(id: id, at: date)
                if counted { pushSyncOutboxSoon() }  // this machine's count, to the folder (one writer)
            }
        }
        return counted
    }
}

// MARK: - Reading what waits

extension Library {
    /// Runs `body` (a read of the database) under a shared flock of `logs.waiting` at `root` and
    /// returns its result with the new cravings and uses the file keeps (not yet in the database):
    /// whoever writes them into the database holds the file exclusively from reading it to
    /// emptying it, so they are seen in one place or the other, never both, never neither. Nothing
    /// is created or changed.
    static func readingWaitingLogs<T>(root: String, _ body: () throws -> T) throws -> (T, [WaitingLine]) {
        let fd = openWaiting(root + "/" + FileStore.waitingLogsFile, O_RDONLY)
        guard fd >= 0 else { return (try body(), []) }  // none, or not a file cravey made: nothing waits
        defer { close(fd) }
        try? lockWaiting(fd, LOCK_SH, path: "")  // a stuck holder: read as it is
        let result = try body()
        let data = try readToEnd(fd, named: root + "/" + FileStore.waitingLogsFile)
        let decoder = JSONDecoder()
        let lines = data.split(separator: 0x0A).compactMap { line -> WaitingLine? in
            guard let parsed = try? decoder.decode(WaitingLine.self, from: Data(line)),
                parsed.kind == "craving" || parsed.kind == "use", parsed.row != nil
            else { return nil }
            return parsed
        }
        return (result, lines)
    }
}

extension Library {
    /// A waiting log's row as the database would read it.
    static func row(waiting values: [String: JournalValue]) -> Row {
        Row(values.mapValues { $0.databaseValue as DatabaseValueConvertible? })
    }
}

extension Library.JournalValue {
    var text: String? { if case .text(let value) = self { value } else { nil } }
    var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }
    var integer: Int? {
        switch self {
        case .integer(let value): Int(exactly: value)
        case .real(let value): Int(exactly: value)
        default: nil
        }
    }
}

extension GlanceRows {
    /// Adds the cravings and uses still waiting in `logs.waiting` (see `Library.readingWaitingLogs`).
    mutating func add(waiting lines: [Library.WaitingLine], since: String) {
        let linked = Set(lines.compactMap { $0.kind == "use" ? $0.row?["cravingId"]?.text : nil })
        for line in lines {
            guard let row = line.row, let at = row["at"]?.text, let time = StoredDate.date(at) else { continue }
            let ms = Int64((time.timeIntervalSince1970 * 1000).rounded())
            let offset = row["utcOffset"]?.integer ?? 0
            let day = Int(((Double(ms) / 1000 + Double(offset)) / 86400).rounded(.down))
            if line.kind == "craving" {
                firstCravingDay = min(firstCravingDay ?? day, day)
                if at >= since {
                    cravings.append(
                        Craving(ms: ms, utcOffset: offset, linked: linked.contains(row["id"]?.text ?? "")))
                }
            } else {
                firstUseDay = min(firstUseDay ?? day, day)
                lastUseDay = max(lastUseDay ?? day, day)
                useDays.append(day)
                if at >= since { useTimes.append(ms) }
            }
        }
        cravings.sort { $0.ms < $1.ms }
        useTimes.sort()
    }
}
