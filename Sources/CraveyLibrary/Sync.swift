import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Two machines, one history, through a folder the person chooses (a Syncthing folder, a USB
/// stick, a git repository they push themselves): cravey never runs a server or a network.
///
/// The rules:
/// - **one writer per file**: each change this machine makes to a log, a plan or a shared setting
///   is a line of its own change file (`SyncFolder`), the journal's line (kind, id, the fields
///   that changed) with this device's counter and a hybrid clock (`SyncClock`). It is kept in the
///   database (`syncOutbox`) in the step that writes the journal, then appended and fsynced to the
///   folder before the command says it is logged; a folder that is not there (an unplugged stick)
///   gets it on the next command that finds it;
/// - **merge is a replay** into this database, which stays outside the folder: per field, the
///   later stamp (clock, then device id) wins (`syncField` keeps each field's stamp); a deleted log
///   stays deleted whatever edit comes after; a log keeps its id on every machine; what came in is
///   remembered per device (`syncSeen`: counter and bytes), so finding nothing new is a `stat` a
///   device;
/// - **the folder is untrusted**: every line is read as typed input and held to the database's
///   rules; a line that breaks them is named by `check` and never applied; counters that go back
///   (two machines writing as one device), a conflict copy, a link or a newer format are named
///   and never merged.
///
/// Shared: cravings, uses, plans, and the settings name, goal, prices, currency and Quick Play's
/// order. Kept per machine: the folder, the devices, the reminders, milestones (derived again
/// from the merged logs) and the recordings.
extension Library {
    /// What is shared, by the journal's kind: its table, key, and the columns kept per machine
    /// (a link to a recording, which stays on the machine that made it).
    static let sharedKinds: [String: (table: String, key: String, perMachine: Set<String>)] = [
        "craving": ("craving", "id", ["recordingId"]), "use": ("usage", "id", []),
        "plan": ("plan", "id", ["recordingId"]), "setting": ("setting", "key", []),
    ]
    /// The settings that are the person's on every machine.
    static let sharedSettings: Set<String> = ["name", "goal", "prices", "currency", "quickPlay"]
    /// The field that marks a deleted log in `syncField`.
    static let deletedField = "-"
    /// How far ahead of this machine's clock a change may be stamped (a week); later is refused.
    static let clockAhead: Int64 = 7 * 86_400_000

    /// One change line: the journal's line with the device, its counter and its stamp.
    struct SyncLine: Codable {
        var kind: String
        var id: String
        /// The fields that changed (nil: the log was deleted).
        var row: [String: JournalValue]?
        var counter: Int64
        /// The hybrid clock: milliseconds, tick.
        var clock: [Int64]
        var device: String

        var stamp: SyncStamp {
            SyncStamp(clock: SyncClock(milliseconds: clock.first ?? 0, tick: clock.last ?? 0), device: device)
        }
    }

    /// This machine's side of syncing, kept in the database (nil: no folder chosen).
    struct SyncState {
        var device: String
        var folder: String
        var counter: Int64
        var written: Int64
        var clock: SyncClock

        static func load(_ db: Database) throws -> SyncState? {
            var values: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT key, value FROM syncState WHERE key NOT LIKE 'refused %'") {
                values[row["key"] as String] = row["value"] as String
            }
            guard let device = values["device"], let folder = values["folder"] else { return nil }
            let clock = (values["clock"] ?? "0 0").split(separator: " ").compactMap { Int64($0) }
            return SyncState(
                device: device, folder: folder, counter: Int64(values["counter"] ?? "") ?? 0,
                written: Int64(values["written"] ?? "") ?? 0,
                clock: SyncClock(milliseconds: clock.first ?? 0, tick: clock.last ?? 0))
        }

        func save(_ db: Database) throws {
            for (key, value) in [
                ("device", device), ("folder", folder), ("counter", String(counter)), ("written", String(written)),
                ("clock", "\(clock.milliseconds) \(clock.tick)"),
            ] {
                try db.execute(
                    sql:
                        "INSERT INTO syncState (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    arguments: [key, value])
            }
        }
    }

    // MARK: - What the person asks

    /// What `cravey sync` did or found.
    public struct SyncReport: Sendable, Encodable {
        /// The folder chosen and this machine's device id in it.
        public var folder: String
        public var device: String
        /// Whether the folder could be reached (an unplugged stick: no).
        public var reachable = true
        /// Changes brought in from the other machines, and written for them, this time.
        public var broughtIn = 0
        public var written = 0
        /// Changes of this machine still to be written to the folder.
        public var waiting = 0
        /// The devices seen, with the last change of each taken in (this machine's: written).
        public var devices: [Device] = []
        /// What was not merged or written, in words (a conflict copy, a link, a cloned id…).
        public var problems: [String] = []
        /// Whether the folder's file system keeps this machine's files private (FAT and exFAT,
        /// as most USB sticks, keep no modes: anyone who can open the folder reads them).
        public var modesKept = true

        public struct Device: Sendable, Encodable {
            public var device: String
            public var changes: Int64
            public var thisMachine: Bool
        }
    }

    /// The folder chosen on this machine (nil: none).
    public func syncFolder() throws -> String? {
        try readLogs { db in try SyncState.load(db)?.folder }
    }

    /// Chooses `path` as the shared folder: this machine gets a device folder in it, takes in what
    /// the others wrote, then writes what only it has. A folder chosen again is synced, also at
    /// another place once it holds this machine's folder (a stick mounted elsewhere); another
    /// folder is refused while one is chosen.
    public func syncChoose(folder path: String) throws -> SyncReport {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw LibraryError.invalid(
                field: "folder",
                reason:
                    "\(SyncFolder.shown(path)) cannot be reached (\(String(cString: strerror(errno)))); make it first, or plug in the stick it is on; nothing was changed"
            )
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw LibraryError.invalid(
                field: "folder", reason: "\(SyncFolder.shown(path)) is not a directory; nothing was changed")
        }
        guard !(try BackupFolder(path: path).overlaps(root)) else {
            throw LibraryError.invalid(
                field: "folder",
                reason:
                    "\(SyncFolder.shown(path)) is the library's own directory, inside it or holding it; choose a folder outside it; nothing was changed"
            )
        }
        return try translatingDatabaseErrors {
            let lock = try lockLibrary()
            defer { lock.release() }
            try flushJournal()
            let current = try store.writer.read { db in try SyncState.load(db) }
            if let current, current.folder == path { return try syncNowLocked() }
            if var moved = current {
                // A folder is chosen already. The same folder found at another place (a stick
                // mounted elsewhere, a folder moved or copied whole) holds this machine's own
                // folder: only its place changes, and every change still waiting, every stamp and
                // every mark of what was read stay. Any other folder would start this machine's
                // history there anew over what it already shared, and could undo an edit or a
                // delete made since: refused.
                guard try SyncFolder(path: path).survey().devices[moved.device] != nil else {
                    throw LibraryError.invalid(
                        field: "folder",
                        reason:
                            "this machine already shares its history through \(SyncFolder.shown(moved.folder)), and \(SyncFolder.shown(path)) does not hold it; to move, copy that folder's 'cravey' folder whole into the new one and choose it again; nothing was changed"
                    )
                }
                moved.folder = path
                try store.writer.write { db in try moved.save(db) }
                return try syncNowLocked()
            }
            try store.writer.write { db in
                try db.execute(sql: "DELETE FROM syncOutbox")
                try db.execute(sql: "DELETE FROM syncField")  // a new folder is told everything
                try db.execute(sql: "DELETE FROM syncSeen")
                try db.execute(sql: "DELETE FROM syncState WHERE key LIKE 'refused %'")
                try SyncState(
                    device: SyncFolder.newDeviceId(), folder: path, counter: 0, written: 0,
                    clock: current?.clock ?? SyncClock()
                ).save(db)
            }
            return try syncNowLocked(sharingAll: true)
        }
    }

    /// Brings in the others' changes and writes this machine's.
    public func syncNow() throws -> SyncReport {
        guard try syncFolder() != nil else { throw SyncNotSet() }
        return try translatingDatabaseErrors {
            let lock = try lockLibrary()
            defer { lock.release() }
            return try syncNowLocked()
        }
    }

    /// Gives this machine its own device id in the folder (a library copied from another machine
    /// writes as that one until it does): what this machine wrote under the old id is written
    /// again under the new one, with the stamps it had, and the old id's changes are taken in as
    /// another machine's.
    public func syncNewDevice() throws -> SyncReport {
        guard try syncFolder() != nil else { throw SyncNotSet() }
        return try translatingDatabaseErrors {
            let lock = try lockLibrary()
            defer { lock.release() }
            try flushJournal()
            try store.writer.write { db in
                guard var state = try SyncState.load(db) else { return }
                let old = state.device
                state.device = SyncFolder.newDeviceId()
                state.counter = 0
                state.written = 0
                try db.execute(sql: "DELETE FROM syncOutbox")
                let rows = try Row.fetchAll(
                    db,
                    sql:
                        "SELECT kind, id, field, value, at, tick FROM syncField WHERE device = ? ORDER BY at, tick, kind, id",
                    arguments: [old])
                var groups: [(key: [String], row: [String: JournalValue], deleted: Bool)] = []
                for row in rows {
                    let key = [
                        row["kind"] as String, row["id"] as String, String(row["at"] as Int64),
                        String(row["tick"] as Int64),
                    ]
                    let field: String = row["field"]
                    if groups.last?.key != key { groups.append((key, [:], false)) }
                    if field == Self.deletedField {
                        groups[groups.count - 1].deleted = true
                    } else {
                        groups[groups.count - 1].row[field] = JournalValue(row["value"] as DatabaseValue)
                    }
                }
                for group in groups {
                    state.counter += 1
                    let line = SyncLine(
                        kind: group.key[0], id: group.key[1], row: group.deleted ? nil : group.row,
                        counter: state.counter,
                        clock: [Int64(group.key[2])!, Int64(group.key[3])!], device: state.device)
                    try Self.keepOutgoing(db, line)
                }
                try db.execute(sql: "UPDATE syncField SET device = ? WHERE device = ?", arguments: [state.device, old])
                try state.save(db)
            }
            return try syncNowLocked()
        }
    }

    /// Brings in what the other machines wrote when the folder holds something new; finding
    /// nothing new is a look at each device's file size. Quiet: a folder that is not there, a
    /// library another process holds, or what the folder holds that is refused are said by `sync`
    /// and `check`. Never waits on the library's lock: called before a change a person makes at
    /// leisure, and after a craving is said to be logged, never before.
    ///
    /// This machine's own changes are stamped first (the journal flushed): a change committed
    /// but not yet journaled (a run cut short, a full disk) has no stamp, and an older change
    /// brought in over it would undo it for good. While they cannot be stamped, nothing is
    /// brought in.
    public func syncBringInIfNew() {
        guard isWritable, let found = try? readLogs({ db in try SyncState.load(db) }) else { return }
        let folder = SyncFolder(path: found.folder)
        guard let survey = try? folder.survey(), let seen = try? readLogs({ db in try Self.seenMarks(db) }),
            survey.devices.contains(where: { $0.key != found.device && $0.value > (seen[$0.key]?.bytes ?? 0) })
        else { return }
        _ = try? translatingDatabaseErrors {
            let lock = try lockLibrary(waitingAtMost: 0)
            defer { lock.release() }
            try flushJournal()
            guard let state = try store.writer.read({ db in try SyncState.load(db) }), state.device == found.device
            else { return 0 }
            return try bringIn(state, folder: folder, survey: survey)
        }
    }

    /// What `cravey sync --status` says: the folder, the devices and their high-water marks,
    /// what waits and what is refused. Changes nothing.
    public func syncStatus() throws -> SyncReport {
        let (state, seen, waiting) = try readLogs { db in
            (
                try SyncState.load(db), try Self.seenMarks(db),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM syncOutbox") ?? 0
            )
        }
        guard let state else { throw SyncNotSet() }
        var report = SyncReport(folder: state.folder, device: state.device, waiting: waiting)
        let problems = try syncProblems(state, into: &report)
        report.problems = problems
        report.modesKept = report.reachable ? Self.keepsModes(state.folder + "/cravey/devices/" + state.device) : true
        report.devices =
            [SyncReport.Device(device: state.device, changes: state.counter - Int64(waiting), thisMachine: true)]
            + seen.sorted { $0.key < $1.key }.map {
                SyncReport.Device(device: $0.key, changes: $0.value.counter, thisMachine: false)
            }
        return report
    }

    /// Whether the file system under `path` keeps the modes cravey gives (this machine's folder
    /// made 0700): a FAT or exFAT stick shows every file to anyone who can open it. Not there yet:
    /// nothing to say.
    static func keepsModes(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return true }
        return info.st_mode & 0o077 == 0
    }

    /// What `check` says of the folder (empty: no folder chosen, or nothing wrong).
    public func syncFindings() throws -> [String] {
        guard (try? syncFolder()) != nil else { return [] }
        return try syncStatus().problems
    }

    /// What is wrong in the folder or was refused from it, reading only.
    private func syncProblems(_ state: SyncState, into report: inout SyncReport) throws -> [String] {
        let folder = SyncFolder(path: state.folder)
        let survey: SyncFolder.Survey
        do {
            survey = try folder.survey()
        } catch let missing as SyncFolder.Missing {
            report.reachable = false
            return ["the sync folder \(SyncFolder.shown(missing.path)) cannot be reached (\(missing.reason))"]
        }
        var problems = survey.problems
        let refused = try readLogs { db in
            try Row.fetchAll(db, sql: "SELECT value FROM syncState WHERE key LIKE 'refused %' ORDER BY key").map {
                $0["value"] as String
            }
        }
        problems += refused
        if let size = survey.devices[state.device], Int64(size) != state.written,
            try !ownLinesWaiting(state, folder: folder, size: size)
        {
            problems.append(Self.clonedWords(state.device))
        }
        let seen = try readLogs { db in try Self.seenMarks(db) }
        for (device, size) in survey.devices where device != state.device {
            let mark = seen[device] ?? (0, 0)
            if size < mark.bytes {
                problems.append(Self.rewrittenWords(device))
                continue
            }
            guard size > mark.bytes, let read = try? folder.read(device: device, from: mark.bytes) else { continue }
            var counter = mark.counter
            for data in read.lines {
                guard let line = try? JSONDecoder().decode(SyncLine.self, from: data) else { continue }
                if line.counter <= counter {
                    problems.append(Self.backwardsWords(device))
                    break
                }
                counter = line.counter
            }
            if read.torn {
                problems.append(
                    "the last line of device \(device)'s changes is cut short (still being copied, or torn); it is left until it is whole"
                )
            }
        }
        return problems
    }

    /// Whether what this device's change file holds past what this machine wrote is lines of its
    /// own still waiting (a run killed after writing them): else another machine writes there.
    private func ownLinesWaiting(_ state: SyncState, folder: SyncFolder, size: off_t) throws -> Bool {
        guard Int64(size) > state.written, let read = try? folder.read(device: state.device, from: off_t(state.written))
        else {
            return false
        }
        let waiting = try readLogs { db in try String.fetchAll(db, sql: "SELECT line FROM syncOutbox ORDER BY counter")
        }
        return read.lines.count <= waiting.count && zip(read.lines, waiting).allSatisfy { $0 == Data($1.utf8) }
    }

    static func clonedWords(_ device: String) -> String {
        "another machine writes as this one (device \(device): a copied library?); nothing more is written there: run 'cravey sync --new-device' on this machine"
    }

    static func rewrittenWords(_ device: String) -> String {
        "device \(device)'s changes are shorter than when they were last read (rewritten by hand, or two machines writing as one); nothing of them was merged"
    }

    static func backwardsWords(_ device: String) -> String {
        "device \(device)'s change counter goes back (two machines writing as one device: run 'cravey sync --new-device' on one of them); what follows was not merged"
    }

    /// The no-folder refusal.
    public struct SyncNotSet: Error, CustomStringConvertible {
        public var description: String {
            "no sync folder is chosen on this machine yet: 'cravey sync --folder DIR' chooses one; nothing was changed"
        }
    }

    // MARK: - Syncing, the lock held

    private func syncNowLocked(sharingAll: Bool = false) throws -> SyncReport {
        try flushJournal()
        guard let state = try store.writer.read({ db in try SyncState.load(db) }) else { throw SyncNotSet() }
        var report = SyncReport(folder: state.folder, device: state.device)
        let folder = SyncFolder(path: state.folder)
        let survey: SyncFolder.Survey
        do {
            survey = try folder.survey()
            try folder.make(device: state.device)
        } catch let missing as SyncFolder.Missing {
            report.reachable = false
            report.problems = [
                "the sync folder \(SyncFolder.shown(missing.path)) cannot be reached (\(missing.reason)); this machine's changes wait here until it is back"
            ]
            report.waiting = try readLogs { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM syncOutbox") ?? 0 }
            return report
        }
        report.broughtIn = try bringIn(state, folder: folder, survey: survey)
        if sharingAll {
            // What only this machine has is written once the folder's history is in.
            try store.writer.write { db in
                var keys: [(kind: String, id: String)] = []
                for (kind, shared) in Self.sharedKinds.sorted(by: { $0.key < $1.key }) {
                    for id in try String.fetchAll(db, sql: "SELECT \(shared.key) FROM \(shared.table)") {
                        keys.append((kind, id))
                    }
                }
                try noteSyncChanges(db, keys)
            }
        }
        do {
            report.written = try pushSyncOutbox()
        } catch is SyncCloned {
            // Said by the status below, with the folder's other problems.
        }
        var status = try syncStatus()
        status.broughtIn = report.broughtIn
        status.written = report.written
        return status
    }

    static func seenMarks(_ db: Database) throws -> [String: (counter: Int64, bytes: off_t)] {
        var marks: [String: (counter: Int64, bytes: off_t)] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT device, counter, bytes FROM syncSeen") {
            marks[row["device"] as String] = (row["counter"] as Int64, off_t(row["bytes"] as Int64))
        }
        return marks
    }

    /// Takes in what the other devices wrote since it was last read, in the order of their
    /// stamps; returns how many changes were applied.
    private func bringIn(_ state: SyncState, folder: SyncFolder, survey: SyncFolder.Survey) throws -> Int {
        let seen = try store.writer.read { db in try Self.seenMarks(db) }
        var batch: [SyncLine] = []
        var marks = seen
        var refused: [(key: String, words: String)] = []
        let wall = Self.milliseconds(syncWallClock())
        let decoder = JSONDecoder()
        for (device, size) in survey.devices.sorted(by: { $0.key < $1.key }) where device != state.device {
            var mark = seen[device] ?? (0, 0)
            guard size > mark.bytes else { continue }  // nothing new (or rewritten: named by status)
            let read = try folder.read(device: device, from: mark.bytes)
            for data in read.lines {
                let end = mark.bytes + off_t(data.count) + 1
                guard data.count <= SyncFolder.maxLine, let line = try? decoder.decode(SyncLine.self, from: data) else {
                    refused.append(
                        (
                            "refused \(device) \(end)",
                            "a line of device \(device)'s changes (ending at byte \(end)) is not a change cravey reads; it was not applied"
                        ))
                    mark.bytes = end
                    continue
                }
                guard line.counter > mark.counter else { break }  // goes back: named, never merged
                if let problem = Self.lineProblem(line, device: device, wall: wall) {
                    refused.append(
                        (
                            "refused \(device) \(end)",
                            "change \(line.counter) of device \(device) was not applied: \(problem)"
                        ))
                } else {
                    batch.append(line)
                }
                mark = (line.counter, end)
            }
            marks[device] = mark
        }
        let ordered = batch.sorted { $0.stamp < $1.stamp }
        guard
            !ordered.isEmpty || marks.count != seen.count || !refused.isEmpty
                || marks.contains(where: { seen[$0.key]?.bytes != $0.value.bytes })
        else { return 0 }
        let today = LocalDay(Date(), in: .current).text
        return try writeLogs(step: "sync.merge") { db in
            var applied = 0
            var clock = try SyncState.load(db)?.clock ?? state.clock
            for line in ordered {
                do {
                    try db.inSavepoint {
                        if try Self.apply(line, db, today: today) { applied += 1 }
                        return .commit
                    }
                    clock.receive(line.stamp.clock, wall: wall)
                } catch let error as DatabaseError where Self.isEnvironmental(error) {
                    throw error
                } catch {
                    refused.append(
                        (
                            "refused \(line.device) \(line.counter)",
                            "change \(line.counter) of device \(line.device) was not applied: \(Self.reason(error))"
                        ))
                }
            }
            for (key, words) in refused {
                try db.execute(
                    sql:
                        "INSERT INTO syncState (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    arguments: [key, words])
            }
            for (device, mark) in marks {
                try db.execute(
                    sql:
                        "INSERT INTO syncSeen (device, counter, bytes) VALUES (?, ?, ?) ON CONFLICT(device) DO UPDATE SET counter = excluded.counter, bytes = excluded.bytes",
                    arguments: [device, mark.counter, Int64(mark.bytes)])
            }
            try db.execute(
                sql: "UPDATE syncState SET value = ? WHERE key = 'clock'",
                arguments: ["\(clock.milliseconds) \(clock.tick)"])
            return applied
        }
    }

    /// A line held to the rules typed input meets, before it touches the database (nil: kept).
    static func lineProblem(_ line: SyncLine, device: String, wall: Int64) -> String? {
        guard line.device == device else { return "it names another device" }
        guard line.clock.count == 2, (946_684_800_000...(wall + clockAhead)).contains(line.clock[0]),
            (0...1_000_000_000).contains(line.clock[1])
        else { return "its clock is not a time cravey would stamp (more than a week ahead of this machine's?)" }
        guard let shared = sharedKinds[line.kind] else { return "it changes nothing cravey shares" }
        if line.kind == "setting" {
            guard sharedSettings.contains(line.id) else {
                return "the setting '\(line.id.prefix(40))' is kept per machine"
            }
        } else {
            guard line.id.count == 36, UUID(uuidString: line.id) != nil else { return "its id is not one cravey makes" }
        }
        guard let row = line.row else { return line.kind == "setting" ? "a setting is never deleted so" : nil }
        for (field, value) in row {
            guard !field.isEmpty, field.utf8.count <= 40,
                field.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A || $0 >= 0x41 && $0 <= 0x5A }),
                !shared.perMachine.contains(field)
            else { return "it names a field cravey does not share" }
            if case .text(let text) = value {
                guard text.utf8.count <= 4096, !text.unicodeScalars.contains(where: Validation.isUnsafe) else {
                    return "its \(field) is not text cravey would keep"
                }
                if ["at", "createdAt", "modifiedAt"].contains(field), StoredDate.date(text) == nil {
                    return "its \(field) is not a time"
                }
            }
        }
        if let key = row[shared.key], key != .text(line.id) { return "it names two ids" }
        return nil
    }

    /// Applies one change: the fields it stamps later than what this machine has (a deleted log
    /// stays deleted), then the row as its fields now give it. True when a field was taken.
    private static func apply(_ line: SyncLine, _ db: Database, today: String) throws -> Bool {
        let known = try fields(db, line.kind, line.id)
        if known[deletedField] != nil { return false }  // a delete wins
        let stamp = line.stamp
        let taken: [String: JournalValue]?
        if let row = line.row {
            let newer = row.filter { field, _ in known[field].map { $0.stamp < stamp } ?? true }
            guard !newer.isEmpty else { return false }
            taken = newer
        } else {
            taken = nil
        }
        try keepFields(db, line.kind, line.id, taken, stamp)
        var now = known
        if let taken {
            for (field, value) in taken { now[field] = (value, stamp) }
        } else {
            now = [deletedField: (.null, stamp)]
        }
        try materialize(db, line.kind, line.id, now, today: today)
        return true
    }

    /// Puts a shared row as its fields give it (removes it when deleted).
    private static func materialize(
        _ db: Database, _ kind: String, _ id: String, _ known: [String: (value: JournalValue, stamp: SyncStamp)],
        today: String
    ) throws {
        guard let shared = sharedKinds[kind] else { return }
        var row = try journaledRow(db, kind: kind, id: id) ?? [:]
        for (field, entry) in known where field != deletedField { row[field] = entry.value }
        if known[deletedField] != nil || (kind == "setting" && (row["value"] ?? .null) == .null) {
            try db.execute(sql: "DELETE FROM \(shared.table) WHERE \(shared.key) = ?", arguments: [id])
            return
        }
        row[shared.key] = .text(id)
        var kept: [String: JournalValue]? = row
        if let problem = try ruleProblem(JournalLine(kind: kind, id: id, row: row), today: today, keeping: &kept) {
            throw LibraryError.invalid(field: kind, reason: problem)
        }
        _ = try replay(kind, id: id, row: row, db)
    }

    /// The shared fields of a row as this machine knows them, each with its stamp.
    static func fields(_ db: Database, _ kind: String, _ id: String) throws -> [String: (
        value: JournalValue, stamp: SyncStamp
    )] {
        var known: [String: (value: JournalValue, stamp: SyncStamp)] = [:]
        // Cached: a merge asks once a change line, tens of thousands of times in a first sync.
        let statement = try db.cachedStatement(
            sql: "SELECT field, value, at, tick, device FROM syncField WHERE kind = ? AND id = ?")
        for row in try Row.fetchAll(statement, arguments: [kind, id]) {  // by index: the columns above
            let clock = SyncClock(milliseconds: row[2] as Int64, tick: row[3] as Int64)
            known[row[0] as String] = (
                JournalValue(row[1] as DatabaseValue), SyncStamp(clock: clock, device: row[4] as String)
            )
        }
        return known
    }

    /// Notes fields as taken with their stamp (nil: the log is deleted, its fields forgotten).
    private static func keepFields(
        _ db: Database, _ kind: String, _ id: String, _ row: [String: JournalValue]?, _ stamp: SyncStamp
    ) throws {
        let fields: [String: JournalValue]
        if let row {
            fields = row
        } else {
            try db.cachedStatement(sql: "DELETE FROM syncField WHERE kind = ? AND id = ?").execute(arguments: [
                kind, id,
            ])
            fields = [deletedField: .null]
        }
        let keep = try db.cachedStatement(
            sql: """
                INSERT INTO syncField (kind, id, field, value, at, tick, device) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(kind, id, field) DO UPDATE SET value = excluded.value, at = excluded.at,
                  tick = excluded.tick, device = excluded.device
                """)
        for (field, value) in fields {
            try keep.execute(
                arguments: [
                    kind, id, field, value.databaseValue, stamp.clock.milliseconds, stamp.clock.tick, stamp.device,
                ])
        }
    }

    // MARK: - Writing this machine's changes

    /// Notes this machine's changes of the rows named, in the transaction that writes them to the
    /// journal: each field that differs from what the folder was last told, as one line, stamped
    /// now. Nothing without a folder chosen.
    func noteSyncChanges(_ db: Database, _ keys: [(kind: String, id: String)]) throws {
        guard var state = try SyncState.load(db) else { return }
        let wall = Self.milliseconds(syncWallClock())
        var noted = false
        for (kind, id) in keys {
            guard let shared = Self.sharedKinds[kind], kind != "setting" || Self.sharedSettings.contains(id) else {
                continue
            }
            let known = try Self.fields(db, kind, id)
            if known[Self.deletedField] != nil { continue }
            let change: [String: JournalValue]?
            if let row = try Self.journaledRow(db, kind: kind, id: id) {
                var fields = row.filter { !shared.perMachine.contains($0.key) && known[$0.key]?.value != $0.value }
                // A link to a craving that is not here (yet) was cleared here, not changed.
                if case .null? = fields["cravingId"], case .text(let linked)? = known["cravingId"]?.value,
                    try !Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM craving WHERE id = ?)", arguments: [linked])!
                {
                    fields["cravingId"] = nil
                }
                guard !fields.isEmpty else { continue }
                change = fields
            } else if kind == "setting" {
                guard let value = known["value"]?.value, value != .null else { continue }
                change = ["value": .null]
            } else {
                guard !known.isEmpty else { continue }
                change = nil
            }
            let stamp = SyncStamp(clock: state.clock.send(wall: wall), device: state.device)
            state.counter += 1
            let line = SyncLine(
                kind: kind, id: id, row: change, counter: state.counter,
                clock: [stamp.clock.milliseconds, stamp.clock.tick], device: state.device)
            try Self.keepOutgoing(db, line)
            try Self.keepFields(db, kind, id, change, stamp)
            noted = true
        }
        if noted { try state.save(db) }
    }

    private static func keepOutgoing(_ db: Database, _ line: SyncLine) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try db.cachedStatement(sql: "INSERT INTO syncOutbox (counter, line) VALUES (?, ?)").execute(
            arguments: [line.counter, String(decoding: try encoder.encode(line), as: UTF8.self)])
    }

    /// Writes the changes waiting in the database to this machine's change file (fsynced), then
    /// forgets them; returns how many. A folder that cannot be reached keeps them waiting.
    @discardableResult
    func pushSyncOutbox() throws -> Int {
        let (state, lines) = try store.writer.read { db in
            (
                try SyncState.load(db),
                try Row.fetchAll(db, sql: "SELECT counter, line FROM syncOutbox ORDER BY counter").map {
                    ($0["counter"] as Int64, $0["line"] as String)
                }
            )
        }
        guard let state, let last = lines.last?.0 else { return 0 }
        var data = Data()
        for (_, line) in lines {
            data.append(Data(line.utf8))
            data.append(0x0A)
        }
        let folder = SyncFolder(path: state.folder)
        do {
            try folder.make(device: state.device)
            _ = try folder.append(data, device: state.device, expected: off_t(state.written), faults: faults)
        } catch is SyncFolder.Missing {
            return 0
        }
        try faults.hit("sync.forget")
        try store.writer.write { db in
            try db.execute(sql: "DELETE FROM syncOutbox WHERE counter <= ?", arguments: [last])
            try db.execute(
                sql: "UPDATE syncState SET value = ? WHERE key = 'written'",
                arguments: [String(state.written + Int64(data.count))])
        }
        return lines.count
    }

    /// After the journal took this machine's changes: they go to the folder too (a folder that
    /// is not there, or a copied id, keeps them waiting, said by `sync` and `check`).
    func pushSyncOutboxQuietly() {
        _ = try? pushSyncOutbox()
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
