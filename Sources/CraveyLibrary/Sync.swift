import Foundation
import GRDB
import Synchronization

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
///   database (`syncOutbox`, fsynced) in the step that writes the journal, then appended and
///   fsynced to the folder on a thread of its own while the command says it is logged (a slow or
///   hung folder never holds a hard moment; a command waits for it a moment at most as it ends),
///   one writer at a time (`sync.lock`); a folder that is not there (an unplugged stick), or a
///   push not done when the process ends, gets it on the next command that finds it;
/// - **merge is a replay** into this database, which stays outside the folder: per field, the
///   later stamp (clock, then device id) wins (`syncField` keeps each field's stamp); a deleted log
///   stays deleted whatever edit comes after; a log keeps its id on every machine; what came in is
///   remembered per device (`syncSeen`: counter and bytes), so finding nothing new is a `stat` a
///   device; the lines are read a block at a time and applied in chunks, each its own transaction
///   with how far each device is taken in, so memory stays flat in the number of lines and a
///   merge cut short is taken up where it stopped;
/// - **a change refused by the database's rules** (an edit of a log whose first line has not
///   arrived, a value out of range) is named by `check`, kept, and tried again after the next
///   merge that brings something in: applied, or found older than what now holds every field it
///   sets (or its log deleted), it is no longer named;
/// - **compaction** (`cravey sync --compact`, and by itself in `sync` once this device's segment is
///   larger than `compactAfter` and than its last snapshot): see `SyncFolder`. The snapshot is
///   written under a temporary name, then this machine notes the new segment, then the snapshot
///   is put in place and the older files removed; a run cut short anywhere is finished by the
///   next `sync` (a snapshot written again from the fields holds at least as much);
/// - **the folder is untrusted**: every line is read as typed input and held to the database's
///   rules; a line that breaks them is named by `check` and never applied; counters that go back
///   (two machines writing as one device), a conflict copy, a link or a newer format are named
///   and never merged.
///
/// Shared: cravings, uses, plans, the settings name, goal, prices, currency and Quick Play's
/// order, and the recordings with their files (`SyncMedia.swift`). Kept per machine: the folder,
/// the devices, the reminders and milestones (derived again from the merged logs).
extension Library {
    /// What is shared, by the journal's kind: its table, key, and the columns kept per machine
    /// (none now: a craving's and a plan's message travel with them, see `SyncLinks.swift`).
    static let sharedKinds: [String: (table: String, key: String, perMachine: Set<String>)] = [
        "craving": ("craving", "id", []), "use": ("usage", "id", []),
        "plan": ("plan", "id", []), "setting": ("setting", "key", []),
    ]
    /// The settings that are the person's on every machine.
    static let sharedSettings: Set<String> = ["name", "goal", "prices", "currency", "quickPlay"]
    /// The field that marks a deleted log in `syncField`.
    static let deletedField = "-"
    /// How far ahead of this machine's clock a change may be stamped (a week) to be taken in now; a
    /// change stamped later waits here, held, until this machine's clock comes within a week of it
    /// (one of the two clocks is wrong: a laptop whose clock was reset, or this one's).
    static let clockAhead: Int64 = 7 * 86_400_000
    /// How far a change's times (a log's `at`, when it was made or changed, a last play) may be
    /// later than the stamp of its change (a minute): typed, a log is never later than now, and
    /// its change is stamped after it is kept, so a time much later than its stamp is not one a
    /// person gave. The minute leaves room for a clock set back a little in between.
    static let timeAhead: Int64 = 60_000
    /// The latest clock cravey would stamp (2100-01-01): a stamp past it is refused, not held.
    static let latestClock: Int64 = 4_102_444_800_000
    /// How many lines a merge applies in one transaction.
    static let mergeChunk = 4096
    /// The size of this device's segment past which `sync` compacts, when a quarter of the lines
    /// of its files (snapshot and segment) are changes made again since or deleted.
    static let compactAfter: Int64 = 4 << 20

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
        /// The counter this device's segment starts after (0: `changes.jsonl`, never compacted).
        var segment: Int64 = 0
        /// The lines of this device's snapshot.
        var snapshotLines: Int64 = 0

        static func load(_ db: Database) throws -> SyncState? {
            var values: [String: String] = [:]
            for row in try Row.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT key, value FROM syncState WHERE key IN ('device', 'folder', 'counter', 'written', 'clock', 'segment', 'snapshotLines')"
                ))
            {
                values[row["key"] as String] = row["value"] as String
            }
            guard let device = values["device"], let folder = values["folder"] else { return nil }
            let clock = (values["clock"] ?? "0 0").split(separator: " ").compactMap { Int64($0) }
            return SyncState(
                device: device, folder: folder, counter: Int64(values["counter"] ?? "") ?? 0,
                written: Int64(values["written"] ?? "") ?? 0,
                clock: SyncClock(milliseconds: clock.first ?? 0, tick: clock.last ?? 0),
                segment: Int64(values["segment"] ?? "") ?? 0, snapshotLines: Int64(values["snapshotLines"] ?? "") ?? 0)
        }

        func save(_ db: Database) throws {
            for (key, value) in [
                ("device", device), ("folder", folder), ("counter", String(counter)), ("written", String(written)),
                ("clock", "\(clock.milliseconds) \(clock.tick)"), ("segment", String(segment)),
                ("snapshotLines", String(snapshotLines)),
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
        /// Changes brought in from the other machines (a recording's once taken in, not while it
        /// waits for its file), and written for them, this time.
        public var broughtIn = 0
        public var written = 0
        /// Recordings taken in with their files from the other machines this time (a file that
        /// came after its line too).
        public var recordingsTakenIn = 0
        /// Changes of this machine still to be written to the folder.
        public var waiting = 0
        /// Whether everything this machine had when its folder was chosen is still to be written
        /// to it (a first sync cut short, or a folder gone since): the next sync that gets that
        /// far writes it, with the `waiting` changes made since.
        public var historyToShare = false
        /// The devices seen, with the last change of each taken in (this machine's: written).
        public var devices: [Device] = []
        /// What was not merged or written, in words (a conflict copy, a link, a cloned id…).
        public var problems: [String] = []
        /// The counter this machine's changes were compacted through this time (nil: not compacted).
        public var compacted: Int64?
        /// Whether the folder's file system keeps this machine's files private (FAT and exFAT,
        /// as most USB sticks, keep no modes: anyone who can open the folder reads them).
        public var modesKept = true
        /// Whether this machine's changes in the folder were found older than its own (an older
        /// copy put back, a file cut short) and written again this time.
        public var rewritten = false

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
                try db.execute(
                    sql:
                        "DELETE FROM syncState WHERE key LIKE 'refused %' OR key LIKE 'held %' OR key LIKE 'ahead %' OR key LIKE 'base %'"
                )
                try SyncState(
                    device: SyncFolder.newDeviceId(), folder: path, counter: 0, written: 0,
                    clock: current?.clock ?? SyncClock()
                ).save(db)
                // Everything this machine has is to be told to the folder: kept with the choice, so
                // a first sync cut short (a kill, a folder that stops answering) leaves it to the
                // next sync, never undone.
                try db.execute(
                    sql: "INSERT OR REPLACE INTO syncState (key, value) VALUES (?, '1')",
                    arguments: [Self.sharingAllKey])
            }
            return try syncNowLocked()
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

    /// Brings in and writes what waits, then compacts this machine's changes into a snapshot
    /// (see `SyncFolder`): only once all of them are in the folder.
    public func syncCompact() throws -> SyncReport {
        guard try syncFolder() != nil else { throw SyncNotSet() }
        return try translatingDatabaseErrors {
            let lock = try lockLibrary()
            defer { lock.release() }
            return try syncNowLocked(compacting: true)
        }
    }

    /// Gives this machine its own device id in the folder (a library copied from another machine
    /// writes as that one until it does): what this machine wrote under the old id is written
    /// again under the new one, with the stamps it had, and the old id's changes are taken in as
    /// another machine's. Every change still waiting to be written under the old id (a folder
    /// that was away, or a copy's changes refused there) goes under the new one too, each kind of
    /// it: its fields, recordings and deletes as they were stamped, and this machine's plays not
    /// yet written as the new id's count (what the old id's lines say stays the old id's, so no
    /// play is counted twice nor lost).
    public func syncNewDevice() throws -> SyncReport {
        guard try syncFolder() != nil else { throw SyncNotSet() }
        return try translatingDatabaseErrors {
            let lock = try lockLibrary()
            defer { lock.release() }
            // The push lock first: another process's push appends no line of the old id after the
            // folder's lines are counted here (its plays would be counted again under the new id).
            let pushing = try holdPushForSync()
            defer { withExtendedLifetime(pushing) {} }
            try flushJournal()
            // Lines of the old id already in the folder (a run killed before it forgot them):
            // the folder holds them under that id.
            let there = try store.writer.read { db in try SyncState.load(db) }.flatMap {
                try ownLinesPastWritten($0, folder: SyncFolder(path: $0.folder))
            }
            try store.writer.write { db in
                guard var state = try SyncState.load(db) else { return }
                let old = state.device
                state.device = SyncFolder.newDeviceId()
                state.counter = 0
                state.written = 0
                state.segment = 0
                state.snapshotLines = 0
                var lines: [SyncLine] = []
                try Self.forEachOwnLine(db, device: old) { lines.append($0) }
                lines += try Self.waitingUnderNewId(db, old: old, new: state.device, skipping: there ?? 0)
                try db.execute(sql: "DELETE FROM syncOutbox")
                // In the order of their stamps, as every device writes its lines.
                lines.sort { ($0.clock.first ?? 0, $0.clock.last ?? 0) < ($1.clock.first ?? 0, $1.clock.last ?? 0) }
                for var line in lines {
                    state.counter += 1
                    line.counter = state.counter
                    line.device = state.device
                    try Self.keepOutgoing(db, line)
                }
                try db.execute(sql: "UPDATE syncField SET device = ? WHERE device = ?", arguments: [state.device, old])
                try state.save(db)
            }
            return try syncNowLocked(pushing: pushing)
        }
    }

    /// The old id's lines still waiting to be written (after the first `skipping`, which the
    /// folder holds), for the new id: as they were, but each count of plays made the new id's,
    /// less what the folder holds of the old id's (its count before the first play waiting), and
    /// this machine's counts per device set so. Not yet numbered.
    private static func waitingUnderNewId(_ db: Database, old: String, new: String, skipping: Int) throws
        -> [SyncLine]
    {
        let decoder = JSONDecoder()
        var lines: [SyncLine] = []
        var told: [String: Int64] = [:]  // by message: the old id's count the folder holds
        for text in try String.fetchAll(db, sql: "SELECT line FROM syncOutbox ORDER BY counter").dropFirst(skipping) {
            guard var line = try? decoder.decode(SyncLine.self, from: Data(text.utf8)) else { continue }
            if line.kind == playsKind {
                guard case .integer(let count)? = line.row?["count"] else { continue }
                let before = told[line.id] ?? max(0, count - 1)  // each play is counted and written once
                told[line.id] = before
                line.row?["count"] = .integer(count - before)
            }
            lines.append(line)
        }
        for (id, count) in told.sorted(by: { $0.key < $1.key }) {
            try db.execute(
                sql: """
                    INSERT INTO recordingPlays (recordingId, device, count, lastPlayedAt)
                    SELECT recordingId, ?3, count - ?4, lastPlayedAt FROM recordingPlays
                    WHERE recordingId = ?1 AND device = ?2 AND count > ?4
                    ON CONFLICT (recordingId, device) DO UPDATE SET count = count + excluded.count
                    """,
                arguments: [id, old, new, count])
            try db.execute(
                sql: "UPDATE recordingPlays SET count = min(count, ?3) WHERE recordingId = ?1 AND device = ?2",
                arguments: [id, old, count])
        }
        return lines
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
        guard isWritable, let found = try? readLogs({ db in try SyncState.load(db) }),
            let taken = try? readLogs({ db in (marks: try Self.seenMarks(db), bases: try Self.seenBases(db)) })
        else { return }
        let folder = SyncFolder(path: found.folder, faults: faults)
        // What is new is read once within the moment, so reading it again below does not wait.
        guard
            let survey = Self.surveyAnswering({
                try folder.news(marks: taken.marks, bases: taken.bases, own: found.device)
            })
        else { return }
        _ = try? translatingDatabaseErrors {
            let lock = try lockLibrary(waitingAtMost: 0)
            defer { lock.release() }
            defer { syncMerged = [] }
            try flushJournal()
            guard let state = try store.writer.read({ db in try SyncState.load(db) }), state.device == found.device
            else { return 0 }
            return try bringIn(state, folder: folder, survey: survey)
        }
    }

    /// How long a change made at leisure (a use, an edit) waits for the folder to answer before
    /// it is made without the folder's news: a folder that hangs (a stick going bad, a network
    /// mount that stopped answering) never holds a log.
    static let surveyWait: Double = 2

    /// The folder's survey from `look`, when it answers in a moment (`surveyWait`, once a
    /// process, as a push waits); nil when it does not, or cannot be read. In the executable, the
    /// folder is read on a thread of its own, left to end or not; a program that reads in line (a
    /// test of the library) reads it here.
    static func surveyAnswering(_ look: @escaping @Sendable () throws -> SyncFolder.Survey?) -> SyncFolder.Survey? {
        guard pushesOnTheirOwnThread.load(ordering: .relaxed) else { return try? look() }
        guard !pushWaitedInVain.load(ordering: .relaxed) else { return nil }
        final class Answer: Sendable {
            let survey = Mutex<SyncFolder.Survey?>(nil)
            let done = DispatchSemaphore(value: 0)
        }
        let answer = Answer()
        Thread.detachNewThread {
            let survey = try? look()
            answer.survey.withLock { $0 = survey }
            answer.done.signal()
        }
        guard answer.done.wait(timeout: .now() + surveyWait) == .success else {
            pushWaitedInVain.store(true, ordering: .relaxed)
            return nil
        }
        return answer.survey.withLock { $0 }
    }

    /// What `cravey sync --status` says: the folder, the devices and their high-water marks,
    /// what waits and what is refused. Changes nothing.
    public func syncStatus() throws -> SyncReport {
        let (state, seen, waiting, historyToShare) = try readLogs { db in
            (
                try SyncState.load(db), try Self.seenMarks(db),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM syncOutbox") ?? 0, try Self.historyToShare(db)
            )
        }
        guard let state else { throw SyncNotSet() }
        var report = SyncReport(
            folder: state.folder, device: state.device, waiting: waiting, historyToShare: historyToShare)
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
        return try syncStatus().problems + ((try? recordingFindings()) ?? [])
    }

    /// What is wrong in the folder or was refused from it, reading only.
    private func syncProblems(_ state: SyncState, into report: inout SyncReport) throws -> [String] {
        let folder = SyncFolder(path: state.folder, faults: faults)
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
        problems += try aheadFindings()
        if let size = survey.devices[state.device] {
            let base = survey.bases[state.device] ?? 0
            if base > state.segment {
                problems.append(Self.clonedWords(state.device))  // a newer file of this id, not this machine's
            } else if (try? ownChangesAreOlder(state, survey: survey, folder: folder)) == true {
                problems.append(Self.olderWords)  // SyncHeal.swift
            } else if base == state.segment, Int64(size) != state.written,
                try !ownLinesWaiting(state, folder: folder, size: size)
            {
                problems.append(Self.clonedWords(state.device))
            }
        }
        let (seen, bases) = try readLogs { db in (try Self.seenMarks(db), try Self.seenBases(db)) }
        let decoder = JSONDecoder()
        for (device, size) in survey.devices.sorted(by: { $0.key < $1.key }) where device != state.device {
            let mark = seen[device] ?? (0, 0)
            let base = survey.bases[device] ?? 0, taken = bases[device] ?? 0
            if base < taken || (base == taken && size < mark.bytes) {
                problems.append(Self.rewrittenWords(device))
                continue
            }
            if base > taken, mark.counter < base {
                // Compacted past what this machine has: its snapshot first, whole.
                let file = SyncFolder.shown(folder.devicesPath + "/" + device + "/" + SyncFolder.snapshotName(base))
                guard survey.snapshots.contains(device) else {
                    problems.append(
                        "device \(device) compacted its changes, and its snapshot (\(file)) is not here yet (still being copied?); nothing more of it is taken in until it is"
                    )
                    continue
                }
                do {
                    _ = try folder.snapshot(device: device, through: base)
                } catch is SyncFolder.SnapshotNotWhole {
                    problems.append(
                        "device \(device)'s snapshot (\(file)) is not whole (a copy cut short?); it was not read, and nothing more of that device is taken in until it is"
                    )
                    continue
                } catch {
                    problems.append(
                        "device \(device)'s snapshot: \(Self.reason(error)); nothing more of that device is taken in until it is a whole snapshot"
                    )
                    continue
                }
            }
            let from = base == taken ? mark.bytes : 0
            guard size > from, let reader = try? folder.lines(device: device, base: base, from: from) else { continue }
            var counter = base == taken ? mark.counter : max(base, 0)
            while let item = try? reader.next() {
                guard let data = item.line, let line = try? decoder.decode(SyncLine.self, from: data) else { continue }
                if base != taken, line.counter <= mark.counter { continue }
                // A line refused says nothing true of the counter (`SyncStream`).
                if Self.lineProblem(line, device: device) != nil { continue }
                if line.counter <= counter {
                    problems.append(Self.backwardsWords(device))
                    break
                }
                counter = line.counter
            }
            if reader.torn {
                problems.append(
                    "the last line of device \(device)'s changes is cut short (still being copied, or torn); it is left until it is whole"
                )
            }
        }
        return problems
    }

    /// The changes held as stamped more than a week ahead of this machine's clock, said once a
    /// device: how many, the latest day, and that they wait.
    private func aheadFindings() throws -> [String] {
        let ahead = try readLogs { db in
            try Row.fetchAll(db, sql: "SELECT key, value FROM syncState WHERE key LIKE 'ahead %' ORDER BY key").map {
                (key: $0["key"] as String, at: Int64($0["value"] as String) ?? 0)
            }
        }
        var byDevice: [String: (count: Int, latest: Int64)] = [:]
        for entry in ahead {
            let device = String(entry.key.dropFirst("ahead ".count).prefix { $0 != " " })
            let known = byDevice[device] ?? (0, 0)
            byDevice[device] = (known.count + 1, max(known.latest, entry.at))
        }
        return byDevice.sorted { $0.key < $1.key }.map { device, held -> String in
            let day = LocalDay(Date(timeIntervalSince1970: Double(held.latest) / 1000), in: .current).text
            let one = held.count == 1
            return
                "\(held.count) \(one ? "change" : "changes") of device \(device) \(one ? "waits" : "wait") here: \(one ? "it was" : "they were") stamped more than a week ahead of this machine's clock (the latest on \(day)), so one of the two clocks is wrong; \(one ? "it is" : "they are") taken in once this machine's clock is within a week of \(one ? "it" : "them")"
        }
    }

    /// Whether what this device's change file holds past what this machine wrote is lines of its
    /// own still waiting (a run killed after writing them): else another machine writes there.
    private func ownLinesWaiting(_ state: SyncState, folder: SyncFolder, size: off_t) throws -> Bool {
        guard Int64(size) > state.written else { return false }
        return try ownLinesPastWritten(state, folder: folder) != nil
    }

    /// How many whole lines this device's change file holds past what this machine wrote, when
    /// they are the first of its lines waiting (a run killed after writing them, before it forgot
    /// them); nil when the file cannot be read or holds another machine's lines there. Read a
    /// stretch at a time and held against the waiting lines as it goes: the first line that is
    /// not one of them ends the look, however long the file is past it.
    private func ownLinesPastWritten(_ state: SyncState, folder: SyncFolder) throws -> Int? {
        let opened: LineReader?
        do {
            opened = try folder.lines(device: state.device, base: state.segment, from: off_t(state.written))
        } catch { return nil }
        guard let reader = opened else { return 0 }
        var matched = 0
        var stretch: [Data] = []
        var stretchBytes = 0
        // Whether the stretch read is the next of the waiting lines, in their order.
        func stretchIsWaiting() throws -> Bool {
            defer {
                stretch.removeAll(keepingCapacity: true)
                stretchBytes = 0
            }
            guard !stretch.isEmpty else { return true }
            let waiting = try readLogs { db in
                try String.fetchAll(
                    db, sql: "SELECT line FROM syncOutbox ORDER BY counter LIMIT ? OFFSET ?",
                    arguments: [stretch.count, matched])
            }
            guard waiting.count == stretch.count, zip(stretch, waiting).allSatisfy({ $0 == Data($1.utf8) }) else {
                return false
            }
            matched += stretch.count
            return true
        }
        while true {
            let item: LineReader.Item?
            do { item = try reader.next() } catch { return nil }
            guard let item else { break }
            stretch.append(item.line ?? Data())
            stretchBytes += stretch.last!.count
            if stretch.count == 1024 || stretchBytes >= LineReader.block {
                guard try stretchIsWaiting() else { return nil }
            }
        }
        return try stretchIsWaiting() ? matched : nil
    }

    static func clonedWords(_ device: String) -> String {
        "another machine writes as this one (device \(device): a copied library?); nothing more is written there: run 'cravey sync --new-device' on this machine"
    }

    static func rewrittenWords(_ device: String) -> String {
        "device \(device)'s changes in the folder are shorter than when they were last read here (an older copy of the folder put back, a file cut short by a power cut, a change by hand, or two machines writing as one); nothing of them was merged now, and nothing taken in before is lost: when they are that machine's own, its next 'cravey sync' writes them again"
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

    /// The key in `syncState` kept while this machine's rows and plays from before its folder was
    /// chosen are still to be told to the folder: set with the choice, gone in the transaction
    /// that notes them.
    static let sharingAllKey = "sharing all"

    /// Whether this machine's rows and plays from before its folder was chosen are still to be
    /// told to the folder.
    static func historyToShare(_ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM syncState WHERE key = ?)", arguments: [sharingAllKey]) ?? false
    }

    /// The push lock for `sync`: a push under way (a change a moment ago) ends first; one that
    /// takes longer than `syncPushLockWait` is said, and nothing is changed.
    private func holdPushForSync() throws -> FileLock {
        guard let pushing = try holdSyncPush(waitingAtMost: Self.syncPushLockWait) else {
            throw LibraryError.busy(
                "another cravey process has been writing to the sync folder for \(Int(Self.syncPushLockWait)) s (a folder slow to answer?); this machine's changes wait here; nothing was changed"
            )
        }
        return pushing
    }

    /// `pushing`: the push lock, when the caller holds it already.
    private func syncNowLocked(compacting: Bool = false, pushing held: FileLock? = nil) throws -> SyncReport {
        // One writer of this machine's change file: a push under way (a change a moment ago) ends
        // first, and none starts while this writes, tidies or compacts.
        let pushing = try held ?? holdPushForSync()
        let key = root
        Self.pushes.withLock { _ = $0.bySync.insert(key) }  // what is kept meanwhile is written here
        defer {
            Self.pushes.withLock { _ = $0.bySync.remove(key) }
            withExtendedLifetime(pushing) {}
        }
        try flushJournal()
        defer { syncMerged = [] }
        guard let state = try store.writer.read({ db in try SyncState.load(db) }) else { throw SyncNotSet() }
        var report = SyncReport(folder: state.folder, device: state.device)
        let folder = SyncFolder(path: state.folder, faults: faults)
        let survey: SyncFolder.Survey
        do {
            survey = try folder.survey()
            try folder.make(device: state.device)
            try finishCompaction(state, folder: folder)
        } catch let missing as SyncFolder.Missing {
            report.reachable = false
            report.problems = [
                "the sync folder \(SyncFolder.shown(missing.path)) cannot be reached (\(missing.reason)); this machine's changes wait here until it is back"
            ]
            (report.waiting, report.historyToShare) = try readLogs { db in
                (try Int.fetchOne(db, sql: "SELECT count(*) FROM syncOutbox") ?? 0, try Self.historyToShare(db))
            }
            return report
        }
        report.broughtIn = try bringIn(state, folder: folder, survey: survey)
        // SyncMedia.swift: this machine's, then the others'; a recording's line is brought in once
        // taken in, not while it waits for its file
        let waitingLines = try recordingLinesWaiting()
        do {
            report.recordingsTakenIn = try shareRecordings(folder, device: state.device)
        } catch is SyncFolder.Missing {
            // Gone after the changes came in (a stick pulled out): said by the status below, with
            // what was brought in; the recordings go with the next sync.
        }
        report.broughtIn += try recordingLinesTaken(waitingLines)
        if try store.writer.read(Self.historyToShare) {
            // What only this machine has is written once the folder's history is in (by the first
            // sync after the folder was chosen that gets this far).
            try store.writer.write { db in
                var keys: [(kind: String, id: String)] = []
                for (kind, shared) in Self.sharedKinds.sorted(by: { $0.key < $1.key }) {
                    for id in try String.fetchAll(db, sql: "SELECT \(shared.key) FROM \(shared.table)") {
                        keys.append((kind, id))
                    }
                }
                try noteSyncChanges(db, keys)
                try Self.shareOwnPlays(db, wall: syncWallClock())
                try db.execute(sql: "DELETE FROM syncState WHERE key = ?", arguments: [Self.sharingAllKey])
            }
        }
        try shareLinksOnce()  // SyncLinks.swift
        do {
            // This machine's changes in the folder older than its own: written again first.
            report.rewritten = try healOwnChanges(folder: folder)  // SyncHeal.swift
            report.written = try pushSyncOutboxHeld()
            try tidyOwnMedia(folder, device: state.device)  // SyncMedia.swift: once their lines are out
            report.compacted = try compactIfDue(folder: folder, asked: compacting)
        } catch is SyncCloned {
            // Said by the status below, with the folder's other problems.
        } catch is SyncFolder.Missing {
            // Gone while it was written (a stick pulled out): said by the status below.
        }
        var status = try syncStatus()
        status.broughtIn = report.broughtIn
        status.recordingsTakenIn = report.recordingsTakenIn
        status.written = report.written
        status.compacted = report.compacted
        status.rewritten = report.rewritten
        return status
    }

    /// The segment each other device was last read in (the counter it starts after; 0 when none
    /// is noted: `changes.jsonl`).
    static func seenBases(_ db: Database) throws -> [String: Int64] {
        var bases: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM syncState WHERE key LIKE 'base %'") {
            bases[String((row["key"] as String).dropFirst("base ".count))] = Int64(row["value"] as String) ?? 0
        }
        return bases
    }

    static func seenMarks(_ db: Database) throws -> [String: (counter: Int64, bytes: off_t)] {
        var marks: [String: (counter: Int64, bytes: off_t)] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT device, counter, bytes FROM syncSeen") {
            marks[row["device"] as String] = (row["counter"] as Int64, off_t(row["bytes"] as Int64))
        }
        return marks
    }

    /// Takes in what the other devices wrote since it was last read, in the order of their
    /// stamps (each device's lines come in the order it stamped them: the merge takes the earliest
    /// head of all), a chunk at a time; then, when something came in or this machine's clock came
    /// near a change held as stamped ahead of it, the changes held before. Returns how many
    /// changes were applied. The caller empties `syncMerged` when done.
    private func bringIn(_ state: SyncState, folder: SyncFolder, survey: SyncFolder.Survey) throws -> Int {
        let (seen, bases) = try store.writer.read { db in (try Self.seenMarks(db), try Self.seenBases(db)) }
        let wall = Self.milliseconds(syncWallClock())
        let decoder = JSONDecoder()
        var streams: [SyncStream] = []
        for (device, size) in survey.devices.sorted(by: { $0.key < $1.key }) where device != state.device {
            let mark = seen[device] ?? (0, 0)
            let base = survey.bases[device] ?? 0
            let refused = try store.writer.read { db in
                try Self.refusalsNoted(db, device: device, compacted: base > bases[device] ?? 0)
            }
            if let stream = try SyncStream(
                device: device, folder: folder, size: size, base: base, hasSnapshot: survey.snapshots.contains(device),
                seen: SyncStream.Mark(counter: mark.counter, bytes: mark.bytes, base: bases[device] ?? 0),
                wall: wall, decoder: decoder, refused: refused)
            {
                streams.append(stream)
            }
        }
        let today = LocalDay(Date(), in: .current).text
        var applied = 0
        var compacted = streams.filter(\.compactedSince).map(\.device)
        // A chunk is applied in a savepoint, and each statement with triggers or many rows in one
        // of its own: SQLite keeps the pages they change as they were, to take them back, in a
        // sub-journal, which past 64 KiB it writes to a file. Ten years of lines wrote 3.4 GB
        // there (every page a statement changes, again for the next one); in memory it is a copy.
        // What it holds is the pages changed by one chunk, at most, not by the whole merge.
        let bulk = !streams.isEmpty
        if bulk {
            try store.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA temp_store = MEMORY") }
        }
        defer {
            if bulk {
                try? store.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA temp_store = DEFAULT") }
            }
        }
        while !streams.isEmpty {
            var batch: [SyncStream.Taken] = []
            while batch.count < Self.mergeChunk {
                // A device paused after many lines passed over: they are noted before any later line.
                if streams.contains(where: \.paused) { break }
                var earliest: SyncStream?
                for stream in streams {
                    guard let head = stream.head else { continue }
                    if let best = earliest?.head, !(head.lines[0].stamp < best.lines[0].stamp) { continue }
                    earliest = stream
                }
                guard let next = earliest else { break }
                batch.append(try next.pop())
            }
            let notes = streams.flatMap { $0.takeNotes() }
            let moved = streams.filter(\.moved)
            guard !batch.isEmpty || !notes.isEmpty || !moved.isEmpty || streams.contains(where: \.paused) else { break }
            let kept = try writeLogs(step: "sync.merge") { db in
                try forgetRefusals(of: compacted, db)
                return try mergeChunk(batch, notes: notes, moved: moved, state: state, wall: wall, today: today, db)
            }
            applied += kept
            SyncFolderWatch.keptFromFolder(kept)  // said if the folder stops answering after
            compacted = []
            for stream in moved { stream.noted() }
            for stream in streams where stream.paused { try stream.resume() }
        }
        let due = try store.writer.read { db in try Self.aheadDue(db, wall: wall) }
        if applied > 0 || due {
            let kept = try retryHeld(state: state, wall: wall, today: today)
            applied += kept
            SyncFolderWatch.keptFromFolder(kept)
        }
        return applied
    }

    /// What is noted of a device's lines refused: how many are named, and how many counted past
    /// them (of a device compacted since, only what `forgetRefusals` leaves: those still held).
    static func refusalsNoted(_ db: Database, device: String, compacted: Bool) throws -> (named: Int, more: Int) {
        let more = SyncStream.moreKey(device)
        let named = try Int.fetchOne(
            db,
            sql: """
                SELECT count(*) FROM syncState WHERE key > ? AND key < ? AND key != ?
                AND (? OR 'held ' || substr(key, 9) IN (SELECT key FROM syncState))
                """,
            arguments: ["refused \(device) ", "refused \(device)!", more, !compacted])!
        guard !compacted else { return (named, 0) }
        let words = try String.fetchOne(db, sql: "SELECT value FROM syncState WHERE key = ?", arguments: [more])
        return (named, words.map(SyncStream.moreCount) ?? 0)
    }

    /// The recording lines from the folder waiting to be taken in (`SyncMedia.swift`): each row's
    /// recording and stamp.
    private func recordingLinesWaiting() throws -> [(row: Int64, id: String, stamp: SyncStamp)] {
        let decoder = JSONDecoder()
        return try store.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT rowid, id, line FROM syncRecordingWaiting").compactMap { row in
                guard let line = try? decoder.decode(SyncLine.self, from: Data((row["line"] as String).utf8)) else {
                    return nil
                }
                return (row: row["rowid"] as Int64, id: row["id"] as String, stamp: line.stamp)
            }
        }
    }

    /// How many of the recording lines `waiting` were taken in since: waiting no more, and a field
    /// of their recording (or its delete) holding their stamp; one found older than what holds
    /// every field it sets, or waiting still (its file not here yet, or refused), is not.
    private func recordingLinesTaken(_ waiting: [(row: Int64, id: String, stamp: SyncStamp)]) throws -> Int {
        guard !waiting.isEmpty else { return 0 }
        return try store.writer.read { db in
            let still = Set(try Int64.fetchAll(db, sql: "SELECT rowid FROM syncRecordingWaiting"))
            let holds = try db.cachedStatement(
                sql:
                    "SELECT EXISTS (SELECT 1 FROM syncField WHERE kind = ? AND id = ? AND at = ? AND tick = ? AND device = ?)"
            )
            var taken = 0
            for line in waiting where !still.contains(line.row) {
                let stamp = line.stamp
                if try Bool.fetchOne(
                    holds,
                    arguments: [
                        Self.recordingKind, line.id, stamp.clock.milliseconds, stamp.clock.tick, stamp.device,
                    ])!
                {
                    taken += 1
                }
            }
            return taken
        }
    }

    /// Whether a change held as stamped ahead of this machine's clock may be taken in now.
    private static func aheadDue(_ db: Database, wall: Int64) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: "SELECT EXISTS (SELECT 1 FROM syncState WHERE key LIKE 'ahead %' AND CAST(value AS INTEGER) <= ?)",
            arguments: [wall + clockAhead])!
    }

    /// One chunk of a merge, in one transaction: its lines applied in order (a line refused by the
    /// database named and held), the refusals and lines held as read, how far each device is
    /// taken in, the clock.
    private func mergeChunk(
        _ batch: [SyncStream.Taken], notes read: [(key: String, words: String)], moved: [SyncStream],
        state: SyncState, wall: Int64, today: String, _ db: Database
    ) throws -> Int {
        // With no change of this machine waiting for the journal, the rows put here are as their
        // fields give them: nothing to tell the folder about them (see `noteSyncChanges`).
        let quiet = try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM pendingJournal)")!
        var applied = 0
        var clock = try SyncState.load(db)?.clock ?? state.clock
        var notes = read
        var merged: [String] = []
        // The whole chunk at once; only when a line is refused is it applied again a line at a
        // time, each in its own savepoint, so the refused line alone is left out.
        do {
            try db.inSavepoint {
                for taken in batch {
                    guard try Self.apply(taken.lines, db, today: today) else { continue }
                    applied += 1
                    merged.append(taken.lines[0].kind + "\u{0}" + taken.lines[0].id)
                }
                return .commit
            }
        } catch let error as DatabaseError where Self.isEnvironmental(error) {
            throw error
        } catch {
            applied = -1
            merged = []
        }
        for taken in batch {
            let line = taken.lines[0]
            do {
                if applied < 0 {
                    try db.inSavepoint {
                        if try Self.apply(taken.lines, db, today: today) {
                            merged.append(line.kind + "\u{0}" + line.id)
                        }
                        return .commit
                    }
                }
                for line in taken.lines { clock.receive(line.stamp.clock, wall: wall) }
            } catch let error as DatabaseError where Self.isEnvironmental(error) {
                throw error
            } catch {
                notes.append(
                    (
                        "refused " + taken.key,
                        "change \(line.counter) of device \(line.device) was not applied: \(Self.reason(error))"
                    ))
                notes.append(("held " + taken.key, String(decoding: taken.raw, as: UTF8.self)))
            }
        }
        if applied < 0 { applied = merged.count }
        if quiet { syncMerged.formUnion(merged) }
        let note = try db.cachedStatement(
            sql:
                "INSERT INTO syncState (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
        )
        for (key, words) in notes { try note.execute(arguments: [key, words]) }
        for stream in moved {
            let mark = stream.mark
            try note.execute(arguments: ["base " + stream.device, String(mark.base)])
            try db.execute(
                sql:
                    "INSERT INTO syncSeen (device, counter, bytes) VALUES (?, ?, ?) ON CONFLICT(device) DO UPDATE SET counter = excluded.counter, bytes = excluded.bytes",
                arguments: [stream.device, mark.counter, Int64(mark.bytes)])
        }
        try db.execute(
            sql: "UPDATE syncState SET value = ? WHERE key = 'clock'",
            arguments: ["\(clock.milliseconds) \(clock.tick)"])
        return applied
    }

    /// What was refused of the older files of devices that compacted since is not in the folder
    /// any more: no longer named (what is held stays, tried again).
    private func forgetRefusals(of devices: [String], _ db: Database) throws {
        for device in devices {
            try db.execute(
                sql:
                    "DELETE FROM syncState WHERE key LIKE ? AND 'held ' || substr(key, 9) NOT IN (SELECT key FROM syncState)",
                arguments: ["refused \(device) %"])
        }
    }

    /// The changes held before, tried again in the order of their stamps: those the database
    /// refused, and those stamped more than a week ahead of this machine's clock once it has come
    /// within a week of them (the others wait on). Applied, or older than what holds every field
    /// they set now (or their log deleted), they are no longer held nor named; refused by the
    /// database, they stay, named as refused. Returns how many were applied.
    private func retryHeld(state: SyncState, wall: Int64, today: String) throws -> Int {
        let (held, ahead) = try store.writer.read { db in
            (
                try Row.fetchAll(db, sql: "SELECT key, value FROM syncState WHERE key LIKE 'held %'").map {
                    (key: String(($0["key"] as String).dropFirst("held ".count)), line: $0["value"] as String)
                },
                Set(
                    try String.fetchAll(db, sql: "SELECT key FROM syncState WHERE key LIKE 'ahead %'").map {
                        String($0.dropFirst("ahead ".count))
                    })
            )
        }
        guard !held.isEmpty else { return 0 }
        let decoder = JSONDecoder()
        let groups = held.compactMap { entry -> (key: String, lines: [SyncLine])? in
            let lines = entry.line.split(separator: "\n").compactMap {
                try? decoder.decode(SyncLine.self, from: Data($0.utf8))
            }
            return lines.isEmpty ? nil : (entry.key, lines)
        }.sorted { $0.lines[0].stamp < $1.lines[0].stamp }
        return try writeLogs(step: "sync.merge") { db in
            var applied = 0
            var clock = try SyncState.load(db)?.clock ?? state.clock
            for (key, lines) in groups where !lines.contains(where: { Self.isAhead($0, wall: wall) }) {
                do {
                    try db.inSavepoint {
                        if try Self.apply(lines, db, today: today) { applied += 1 }
                        return .commit
                    }
                    for line in lines { clock.receive(line.stamp.clock, wall: wall) }
                } catch let error as DatabaseError where Self.isEnvironmental(error) {
                    throw error
                } catch {
                    if ahead.contains(key) {
                        // Its time came, and the database refuses it: named as any refusal.
                        try db.execute(
                            sql:
                                "INSERT INTO syncState (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                            arguments: [
                                "refused " + key,
                                "change \(lines[0].counter) of device \(lines[0].device) was not applied: \(Self.reason(error))",
                            ])
                        try db.execute(sql: "DELETE FROM syncState WHERE key = ?", arguments: ["ahead " + key])
                    }
                    continue
                }
                try db.execute(
                    sql: "DELETE FROM syncState WHERE key IN (?, ?, ?)",
                    arguments: ["held " + key, "refused " + key, "ahead " + key])
            }
            let unread = Set(held.map(\.key)).subtracting(groups.map(\.key))
            for key in unread {
                try db.execute(
                    sql: "DELETE FROM syncState WHERE key IN (?, ?)", arguments: ["held " + key, "ahead " + key])
            }
            try db.execute(
                sql: "UPDATE syncState SET value = ? WHERE key = 'clock'",
                arguments: ["\(clock.milliseconds) \(clock.tick)"])
            return applied
        }
    }

    /// Whether `text` is an id as cravey writes it: a UUID in capitals. The same id in small letters
    /// names no row here (ids are compared as text), so a line naming one would add a second row
    /// beside the first, or wait for ever for one that never comes.
    static func isCraveyId(_ text: String) -> Bool {
        text.utf8.count == 36 && UUID(uuidString: text)?.uuidString == text
    }

    /// A line held to the rules typed input meets, before it touches the database (nil: kept).
    /// One stamped more than a week ahead of this machine's clock is kept too, and waits
    /// (`isAhead`).
    static func lineProblem(_ line: SyncLine, device: String) -> String? {
        guard line.device == device else { return "it names another device" }
        guard line.clock.count == 2, (946_684_800_000..<latestClock).contains(line.clock[0]),
            (0...1_000_000_000).contains(line.clock[1])
        else { return "its clock is not a time cravey would stamp" }
        if let problem = timeProblem(line) { return problem }
        if line.kind == recordingKind { return recordingLineProblem(line) }  // SyncMedia.swift
        if line.kind == playsKind { return playsLineProblem(line) }
        if let problem = grownLineProblem(line) { return problem }  // ratings and plays: SyncGrow.swift
        guard let shared = sharedKinds[line.kind] else { return "it changes nothing cravey shares" }
        if line.kind == "setting" {
            guard sharedSettings.contains(line.id) else {
                return "the setting '\(line.id.prefix(40))' is kept per machine"
            }
        } else {
            guard isCraveyId(line.id) else { return "its id is not one cravey makes" }
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
        return linkProblem(row)  // SyncLinks.swift
    }

    /// Whether a line is stamped more than a week ahead of this machine's clock (`wall`): it is
    /// not taken in yet, and waits until this machine's clock comes within a week of it.
    static func isAhead(_ line: SyncLine, wall: Int64) -> Bool {
        (line.clock.first ?? 0) > wall + clockAhead
    }

    /// The stamp of a change made here now, the clock moved on to it: never before the times the
    /// change carries (a log kept while this machine's clock was ahead, then set right), as the
    /// other machine holds them to its stamp; a time more than a week ahead moves no clock (that
    /// line is refused there, and named).
    static func stampChange(_ clock: inout SyncClock, wall: Int64, carrying row: [String: JournalValue]?) -> SyncClock {
        let carried = latestTime(row)
        return clock.send(wall: carried <= wall + clockAhead ? max(wall, carried) : wall)
    }

    /// The times a change carries (`timeFields`), the latest, in milliseconds (0: none).
    static func latestTime(_ row: [String: JournalValue]?) -> Int64 {
        var latest: Int64 = 0
        for field in timeFields {
            guard case .text(let text)? = row?[field], let date = StoredDate.date(text) else { continue }
            latest = max(latest, milliseconds(date))
        }
        return latest
    }

    /// The fields of a change that are times: never later than its stamp allows (`timeAhead`).
    static let timeFields = ["at", "createdAt", "modifiedAt", "lastPlayedAt"]

    /// A time in a line's row later than its stamp allows (`timeAhead`): a log of something that
    /// has not happened when its change was made (nil: none).
    static func timeProblem(_ line: SyncLine) -> String? {
        guard let row = line.row, let stamped = line.clock.first else { return nil }
        for field in timeFields {
            guard case .text(let text)? = row[field], let date = StoredDate.date(text) else { continue }
            if milliseconds(date) > stamped + timeAhead {
                return
                    "its \(field) (\(text.prefix(40))) is later than the moment its change was made; a log is of something that has happened"
            }
        }
        // A check-in's day: never after the day of its stamp anywhere on Earth (UTC+14).
        if case .text(let day)? = row["checkinDay"], let parsed = LocalDay(parsing: day),
            parsed.number > LocalDay.day(millisecondsSince1970: stamped + timeAhead, utcOffset: 14 * 3600)
        {
            return "its checkinDay (\(day)) is after the day its change was made; a check-in is for a day that has come"
        }
        return nil
    }

    /// Applies one change (or a snapshot's changes of one log, together): the fields each stamps
    /// later than what this machine has (a deleted log stays deleted), ratings and plays grown,
    /// then the row as its fields now give it. True when a field was taken.
    private static func apply(_ lines: [SyncLine], _ db: Database, today: String) throws -> Bool {
        guard let first = lines.first else { return false }
        if first.kind == recordingKind || first.kind == playsKind {
            var took = false
            for line in lines {
                // A recording's file may come later: held, and counted once taken in
                // (SyncMedia.swift); plays are counts per device (SyncGrow.swift).
                if line.kind == recordingKind {
                    _ = try holdRecording(line, db)
                } else if try applyPlays(line, db) {
                    took = true
                }
            }
            return took
        }
        var now = try fields(db, first.kind, first.id)
        if now[deletedField] != nil { return false }  // a delete wins
        var took = false
        for line in lines where now[deletedField] == nil {
            let stamp = line.stamp
            let taken: [String: JournalValue]?
            let grown = Self.grown(line, now)  // ratings and plays only grow: SyncGrow.swift
            if let row = lastWriterFields(line) {
                let newer = row.filter { field, _ in now[field].map { $0.stamp < stamp } ?? true }
                guard !newer.isEmpty || !grown.isEmpty else { continue }
                taken = newer
            } else {
                taken = nil
            }
            try keepFields(db, line.kind, line.id, taken, stamp)
            for (field, entry) in grown { try keepFields(db, line.kind, line.id, [field: entry.value], entry.stamp) }
            if let taken {
                for (field, value) in taken { now[field] = (value, stamp) }
                for (field, entry) in grown { now[field] = entry }
            } else {
                now = [deletedField: (.null, stamp)]
            }
            took = true
        }
        guard took else { return false }
        try materialize(db, first.kind, first.id, now, today: today)
        return true
    }

    /// Puts a shared row as its fields give it (removes it when deleted).
    private static func materialize(
        _ db: Database, _ kind: String, _ id: String, _ known: [String: (value: JournalValue, stamp: SyncStamp)],
        today: String
    ) throws {
        guard let shared = sharedKinds[kind] else { return }
        let standing = try journaledRow(db, kind: kind, id: id)
        var row = standing ?? [:]
        for (field, entry) in known where field != deletedField { row[field] = entry.value }
        if known[deletedField] != nil || (kind == "setting" && (row["value"] ?? .null) == .null) {
            try db.execute(sql: "DELETE FROM \(shared.table) WHERE \(shared.key) = ?", arguments: [id])
            return try forgetWaitingLinks(of: kind, id, db)  // SyncLinks.swift
        }
        row[shared.key] = .text(id)
        var kept: [String: JournalValue]? = row
        if let problem = try ruleProblem(JournalLine(kind: kind, id: id, row: row), today: today, keeping: &kept) {
            throw LibraryError.invalid(field: kind, reason: problem)
        }
        _ = try replay(kind, id: id, row: row, db, standing: .some(standing))
        try noteWaitingLink(db, kind, id, known)  // a message not here yet: SyncLinks.swift
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

    /// The statement that keeps `count` fields of a line with their stamp.
    static func keepFieldsSQL(_ count: Int) -> String {
        "INSERT INTO syncField (kind, id, field, value, at, tick, device) VALUES "
            + (0..<count).map { "(?1, ?2, ?\(6 + 2 * $0), ?\(7 + 2 * $0), ?3, ?4, ?5)" }.joined(separator: ", ")
            + " ON CONFLICT(kind, id, field) DO UPDATE SET value = excluded.value, at = excluded.at,"
            + " tick = excluded.tick, device = excluded.device"
    }

    /// The statements' texts for lines of up to 31 fields, made once, not once a line (a cached
    /// statement is found by its text).
    static let keepFieldsTexts = (0..<32).map { keepFieldsSQL($0) }

    /// Notes fields as taken with their stamp (nil: the log is deleted, its fields forgotten).
    static func keepFields(
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
        guard !fields.isEmpty else { return }  // only grown fields were taken (kept on their own)
        // One statement for the line's fields (a merge keeps hundreds of thousands of them), what
        // they share bound once: ?1 to ?5 the log and the stamp, then each field's name and value.
        let keep = try db.cachedStatement(
            sql: fields.count < keepFieldsTexts.count ? keepFieldsTexts[fields.count] : keepFieldsSQL(fields.count))
        var values: [DatabaseValue] = [
            kind.databaseValue, id.databaseValue, stamp.clock.milliseconds.databaseValue,
            stamp.clock.tick.databaseValue, stamp.device.databaseValue,
        ]
        values.reserveCapacity(5 + fields.count * 2)
        for (field, value) in fields {
            values.append(field.databaseValue)
            values.append(value.databaseValue)
        }
        try keep.execute(arguments: StatementArguments(values))
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
            if !syncMerged.isEmpty, syncMerged.contains(kind + "\u{0}" + id) { continue }  // just merged
            let known = try Self.fields(db, kind, id)
            if known[Self.deletedField] != nil { continue }
            let change: [String: JournalValue]?
            if let row = try Self.journaledRow(db, kind: kind, id: id).map({
                try Self.keepingGrown(db, kind, id, $0, known)
            }) {
                var fields = row.filter { !shared.perMachine.contains($0.key) && known[$0.key]?.value != $0.value }
                // A link to a craving or a recording that is not here (yet) was cleared here, not changed.
                try Self.keepWaitingLinks(&fields, known, db)  // SyncLinks.swift
                guard !fields.isEmpty else { continue }
                change = fields
            } else if kind == "setting" {
                guard let value = known["value"]?.value, value != .null else { continue }
                change = ["value": .null]
            } else {
                guard !known.isEmpty else { continue }
                change = nil
            }
            let stamp = SyncStamp(
                clock: Self.stampChange(&state.clock, wall: wall, carrying: change), device: state.device)
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

    static func keepOutgoing(_ db: Database, _ line: SyncLine) throws {
        let text: [UInt8]
        if let written = JSONLineWriter.change(line) {
            text = written
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            text = Array(try encoder.encode(line))
        }
        try db.cachedStatement(sql: "INSERT INTO syncOutbox (counter, line) VALUES (?, ?)").execute(
            arguments: [line.counter, String(decoding: text, as: UTF8.self)])
    }

    /// How long a push started after a change waits for another process's push to end before
    /// it leaves its lines for the next one.
    static let pushLockWait: Double = 10
    /// How long `sync` waits for a push under way (another process, or a folder slow to answer).
    static let syncPushLockWait: Double = 30

    /// Holds the push lock (`sync.lock`): one writer of this machine's change file at a time,
    /// across processes and threads. nil when another held it for `wait` seconds.
    func holdSyncPush(waitingAtMost wait: Double) throws -> FileLock? {
        let path = files.path(FileStore.syncLockFile)
        let deadline = Date().addingTimeInterval(wait)
        while true {
            if let lock = try FileLock(path: path, wait: false) { return lock }
            guard Date() < deadline else { return nil }
            usleep(10_000)
        }
    }

    /// Writes the changes waiting in the database to this machine's change file (fsynced), then
    /// forgets them; returns how many. A folder that cannot be reached keeps them waiting. Holds
    /// the push lock (see `pushSyncOutboxHeld`); another push under way for longer than `wait`
    /// leaves them waiting too.
    @discardableResult
    func pushSyncOutbox(waitingAtMost wait: Double) throws -> Int {
        guard let lock = try holdSyncPush(waitingAtMost: wait) else { return 0 }
        defer { withExtendedLifetime(lock) {} }
        return try pushSyncOutboxHeld()
    }

    /// `pushSyncOutbox` with the push lock held by the caller. The lines are forgotten only when
    /// this machine's side is still as it was read (no new device id, no compaction since): else
    /// they are written again by the next push, and the file's own check keeps them once.
    @discardableResult
    func pushSyncOutboxHeld() throws -> Int {
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
            _ = try folder.append(
                data, device: state.device, base: state.segment, expected: off_t(state.written), faults: faults)
        } catch is SyncFolder.Missing {
            return 0
        }
        try faults.hit("sync.forget")
        return try store.writer.write { db in
            guard let now = try SyncState.load(db), now.device == state.device, now.segment == state.segment,
                now.written == state.written, now.folder == state.folder
            else { return 0 }
            try db.execute(sql: "DELETE FROM syncOutbox WHERE counter <= ?", arguments: [last])
            try db.execute(
                sql: "UPDATE syncState SET value = ? WHERE key = 'written'",
                arguments: [String(state.written + Int64(data.count))])
            return lines.count
        }
    }

    /// This process's pushes under way, by library: whether one runs, whether a change came
    /// while it did (it goes round again), and whether `sync` holds the push lock (it writes
    /// what is kept meanwhile itself).
    private static let pushes = Mutex<(running: Set<String>, again: Set<String>, bySync: Set<String>)>(([], [], []))

    /// Whether a push after a change runs on a thread of its own (the executable: a person never
    /// waits on the folder) or in line, before the change returns (a program that reads the
    /// folder next, such as a test of the library).
    public static let pushesOnTheirOwnThread = Atomic<Bool>(false)

    /// After this machine's changes were kept in the database (and the journal): they go to the
    /// folder on a thread of their own, so the words of a hard moment and the screen after them
    /// never wait on the folder (a slow stick, a network mount that stopped answering). A folder
    /// that is not there, a copied id, or a push that did not end before the process did keeps
    /// them waiting for the next command's push or `sync`; said by `sync` and `check`.
    func pushSyncOutboxSoon() {
        guard isWritable,
            (try? store.writer.read({ db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM syncOutbox)") }))
                == true
        else { return }
        let key = root
        guard Self.pushesOnTheirOwnThread.load(ordering: .relaxed) else {
            if !Self.pushes.withLock({ $0.bySync.contains(key) }) {
                _ = try? pushSyncOutbox(waitingAtMost: Self.pushLockWait)
            }
            return
        }
        let start = Self.pushes.withLock { pushes in
            guard !pushes.bySync.contains(key) else { return false }
            guard !pushes.running.contains(key) else {
                pushes.again.insert(key)
                return false
            }
            pushes.running.insert(key)
            return true
        }
        guard start else { return }
        Thread.detachNewThread { [self] in
            while true {
                _ = try? pushSyncOutbox(waitingAtMost: Self.pushLockWait)
                let done = Self.pushes.withLock { pushes in
                    guard pushes.again.remove(key) == nil else { return false }
                    pushes.running.remove(key)
                    return true
                }
                if done { return }
            }
        }
    }

    /// How long a command, its words said, waits for its push to the folder as it ends.
    static let pushWaitAsACommandEnds: Double = 2
    /// Whether this process waited that long once already: a folder that did not answer then is
    /// not waited on again.
    private static let pushWaitedInVain = Atomic<Bool>(false)

    /// Waits a moment at most (`pushWaitAsACommandEnds`, once a process) for this process's pushes
    /// to the folder to end: called after a command's words, before it reads the folder again and
    /// as it ends. What is not written by then waits in the library for the next push. True when
    /// no push is under way any more.
    @discardableResult
    public static func finishSyncPushes() -> Bool {
        guard !pushWaitedInVain.load(ordering: .relaxed) else { return pushes.withLock { $0.running.isEmpty } }
        let deadline = Date().addingTimeInterval(pushWaitAsACommandEnds)
        while pushes.withLock({ !$0.running.isEmpty }) {
            guard Date() < deadline else {
                pushWaitedInVain.store(true, ordering: .relaxed)
                return false
            }
            usleep(2_000)
        }
        return true
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
