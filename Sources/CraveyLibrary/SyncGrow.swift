import Foundation
import GRDB

/// What only grows when two machines share one history: a ride's ratings, the messages played
/// in a craving, and how often each message was played.
///
/// The rules, each the same whatever order the changes arrive in:
/// - **ratings** (`craving.ratings`, `[[seconds, 1-10], …]`) are kept from both machines, in time
///   order: the n-th rating of a second is one rating wherever it was given, and where both
///   machines have it, the later-stamped value counts (the first rating follows the craving's
///   intensity, which an edit changes);
/// - **plays in a craving** (`craving.played`, ids in the order played) are a set: the list
///   stamped earlier keeps its order, the other's new ids follow it;
/// - **a message's plays** are counted per device (`recordingPlays`): each machine counts its own
///   and writes its count as a change line (`plays`); a count from the folder only ever raises
///   that device's count, and `recording.playCount` is the sum over the devices (its last play
///   the latest of theirs), so Quick Play's most-played order is the same everywhere. A count for
///   a message not on this machine (yet) is kept and summed when it arrives. Plays made before a
///   folder was chosen, or counted in a way that did not note the device, are this machine's.
extension Library {
    /// The kind of a change line carrying one device's plays of one message.
    static let playsKind = "plays"
    /// The fields that only grow, by the journal's kind.
    static let growOnlyFields: [String: Set<String>] = ["craving": ["ratings", "played"]]
    /// The most plays a count line may say (a message played every minute for a decade is fewer).
    static let maxPlays: Int64 = 10_000_000

    // MARK: - Ratings and plays in a craving

    /// The fields of a change line that the last writer takes (the grow-only ones left out).
    static func lastWriterFields(_ line: SyncLine) -> [String: JournalValue]? {
        guard let row = line.row, let growing = growOnlyFields[line.kind] else { return line.row }
        return row.filter { !growing.contains($0.key) }
    }

    /// The grow-only fields of a change line merged with what this machine knows: each field whose
    /// union differs from what is known (or whose stamp moves on), with the later of the two
    /// stamps. A value that is not what cravey writes is taken as the last writer would.
    static func grown(_ line: SyncLine, _ known: [String: (value: JournalValue, stamp: SyncStamp)]) -> [String: (
        value: JournalValue, stamp: SyncStamp
    )] {
        guard let row = line.row, let growing = growOnlyFields[line.kind] else { return [:] }
        let stamp = line.stamp
        var out: [String: (value: JournalValue, stamp: SyncStamp)] = [:]
        for field in growing {
            guard let incoming = row[field] else { continue }
            guard let mine = known[field] else {
                out[field] = (incoming, stamp)
                continue
            }
            let merged =
                union(field, mine.value, mine.stamp, incoming, stamp)
                ?? (mine.stamp < stamp ? incoming : mine.value)
            if merged != mine.value || mine.stamp < stamp {
                out[field] = (merged, max(mine.stamp, stamp))
            }
        }
        return out
    }

    /// A row about to be told to the folder, its grow-only fields holding what was taken in from
    /// it too (a ride carried on from a list that did not have them yet): written back to the
    /// database when that adds to it.
    static func keepingGrown(
        _ db: Database, _ kind: String, _ id: String, _ row: [String: JournalValue],
        _ known: [String: (value: JournalValue, stamp: SyncStamp)]
    ) throws -> [String: JournalValue] {
        guard let growing = growOnlyFields[kind], let table = sharedKinds[kind] else { return row }
        // This machine's value is the newest: it is what it is about to tell.
        let local = SyncStamp(clock: SyncClock(milliseconds: .max, tick: 0), device: "")
        var row = row
        for field in growing.sorted() {
            guard let mine = known[field], let here = row[field], here != mine.value,
                let merged = union(field, mine.value, mine.stamp, here, local),
                merged != here
            else { continue }
            row[field] = merged
            try db.execute(
                sql: "UPDATE \(table.table) SET \(field) = ? WHERE \(table.key) = ?",
                arguments: [merged.databaseValue, id])
        }
        return row
    }

    /// The union of two values of a grow-only field (nil: one is not what cravey writes).
    static func union(
        _ field: String, _ a: JournalValue, _ aStamp: SyncStamp, _ b: JournalValue, _ bStamp: SyncStamp
    ) -> JournalValue? {
        let (older, newer) = aStamp < bStamp ? (a, b) : (b, a)
        switch field {
        case "ratings":
            guard let old = ratings(older), let new = ratings(newer) else { return nil }
            // By second, the n-th rating of a second in either list is one rating (a ride may
            // rate twice in one second); where both have it, the later-stamped value.
            var (oldBySecond, newBySecond): ([Int64: [Int64]], [Int64: [Int64]]) = ([:], [:])
            for (second, value) in old { oldBySecond[second, default: []].append(value) }
            for (second, value) in new { newBySecond[second, default: []].append(value) }
            let seconds = Set(oldBySecond.keys).union(newBySecond.keys).sorted()
            guard !seconds.isEmpty else { return newer }
            let pairs = seconds.flatMap { second in
                let (o, n) = (oldBySecond[second] ?? [], newBySecond[second] ?? [])
                return (0..<max(o.count, n.count)).map { "[\(second),\($0 < n.count ? n[$0] : o[$0])]" }
            }
            return .text("[" + pairs.joined(separator: ",") + "]")
        default:
            guard let old = played(older), let new = played(newer) else { return nil }
            var ids = old
            for id in new where !ids.contains(id) { ids.append(id) }
            return ids.isEmpty ? newer : .text(ids.joined(separator: ","))
        }
    }

    /// What is wrong with a change line's grow-only fields (nil: nothing): ratings are a ride's,
    /// `[[seconds, 1-10], …]` in time order, and the plays in a craving are messages' ids.
    static func grownLineProblem(_ line: SyncLine) -> String? {
        guard let row = line.row, let growing = growOnlyFields[line.kind] else { return nil }
        for field in growing.sorted() {
            guard let value = row[field] else { continue }
            switch field {
            case "ratings":
                guard let pairs = ratings(value), pairs.count <= maxRatings,
                    pairs.allSatisfy({ $0.0 >= 0 && $0.0 <= 10_000_000 && (1...10).contains($0.1) }),
                    zip(pairs, pairs.dropFirst()).allSatisfy({ $0.0.0 <= $0.1.0 })
                else { return "its ratings are not a ride's [[seconds, 1-10], …] in time order" }
            default:
                guard let ids = played(value), ids.count <= maxRatings,
                    ids.allSatisfy(isCraveyId)
                else { return "its played is not a list of messages' ids" }
            }
        }
        return nil
    }

    /// The most ratings (or messages played) a craving's line may hold.
    static let maxRatings = 1000

    /// A ride's ratings as stored: `[[seconds, value], …]` (none: null); nil when not that.
    private static func ratings(_ value: JournalValue) -> [(Int64, Int64)]? {
        switch value {
        case .null: return []
        case .text(let text): return pairs(text)
        default: return nil
        }
    }

    /// "[[0,7],[180,5]]" (white space allowed) as pairs of whole numbers; nil for anything else.
    /// Read by hand: a first sync reads tens of thousands of these.
    static func pairs(_ text: String) -> [(Int64, Int64)]? {
        var bytes = Array(text.utf8.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) })[...]
        func eat(_ byte: UInt8) -> Bool {
            guard bytes.first == byte else { return false }
            bytes.removeFirst()
            return true
        }
        func number() -> Int64? {
            let negative = eat(0x2D)
            var (value, digits): (Int64, Int) = (0, 0)
            while let byte = bytes.first, (0x30...0x39).contains(byte), digits < 12 {
                value = value * 10 + Int64(byte - 0x30)
                digits += 1
                bytes.removeFirst()
            }
            return digits == 0 ? nil : negative ? -value : value
        }
        guard eat(0x5B) else { return nil }
        if eat(0x5D) { return bytes.isEmpty ? [] : nil }
        var pairs: [(Int64, Int64)] = []
        repeat {
            guard eat(0x5B), let first = number(), eat(0x2C), let second = number(), eat(0x5D) else { return nil }
            pairs.append((first, second))
        } while eat(0x2C)
        return eat(0x5D) && bytes.isEmpty ? pairs : nil
    }

    /// The messages played in a craving as stored: ids with commas between (none: null or empty).
    private static func played(_ value: JournalValue) -> [String]? {
        switch value {
        case .null: return []
        case .text(let text): return text.split(separator: ",").map(String.init)
        default: return nil
        }
    }

    // MARK: - A message's plays, per device

    /// The play counts per device (migration v19).
    static let playsSchema = """
        -- How often each device played each message (this machine's under its device id, or ''
        -- before a folder is chosen); recording.playCount is their sum. No link to the recording:
        -- a count from another machine may come before the message does.
        CREATE TABLE recordingPlays (
          recordingId TEXT NOT NULL,
          device TEXT NOT NULL,
          count INTEGER NOT NULL CHECK (count >= 0),
          lastPlayedAt TEXT,
          PRIMARY KEY (recordingId, device)
        ) WITHOUT ROWID;
        -- A message that arrives after counts of its plays did: they are its count.
        CREATE TRIGGER recordingPlays_arrive AFTER INSERT ON recording
        WHEN EXISTS (SELECT 1 FROM recordingPlays WHERE recordingId = NEW.id)
        BEGIN
          UPDATE recording SET
            playCount = (SELECT sum(count) FROM recordingPlays WHERE recordingId = NEW.id),
            lastPlayedAt = coalesce((SELECT max(lastPlayedAt) FROM recordingPlays WHERE recordingId = NEW.id), NEW.lastPlayedAt)
          WHERE id = NEW.id;
        END;
        """

    /// This machine's device id, '' before a folder is chosen.
    private static func ownDevice(_ db: Database) throws -> String {
        try String.fetchOne(db, sql: "SELECT value FROM syncState WHERE key = 'device'") ?? ""
    }

    /// A `recordingPlays` insert's ending that adds to a device's count of a message what is
    /// inserted, keeping the later of the two last plays.
    private static let addingToTheCount = """
        ON CONFLICT (recordingId, device) DO UPDATE SET count = count + excluded.count,
          lastPlayedAt = CASE WHEN lastPlayedAt IS NULL OR lastPlayedAt < excluded.lastPlayedAt
                         THEN excluded.lastPlayedAt ELSE lastPlayedAt END
        """

    /// Credits to this machine the plays of message `id` (all messages: nil) that no device's
    /// count holds yet: those counted here since the last time (a play), or before counts were
    /// kept per device.
    private static func creditOwnPlays(_ db: Database, _ id: String?, device: String) throws {
        let unheld = "playCount - (SELECT coalesce(sum(count), 0) FROM recordingPlays WHERE recordingId = recording.id)"
        try db.execute(
            sql: """
                INSERT INTO recordingPlays (recordingId, device, count, lastPlayedAt)
                SELECT id, ?1, \(unheld), lastPlayedAt FROM recording WHERE \(unheld) > 0 AND (?2 IS NULL OR id = ?2)
                \(addingToTheCount)
                """,
            arguments: [device, id])
    }

    /// Message `id`'s count as the sum over the devices, and its last play the later of this
    /// machine's own (`own`) and the others'.
    private static func sumPlays(_ db: Database, _ id: String, own: String) throws {
        try db.execute(
            sql: """
                UPDATE recording SET
                  playCount = (SELECT coalesce(sum(count), 0) FROM recordingPlays WHERE recordingId = ?1),
                  lastPlayedAt = nullif(max(coalesce(lastPlayedAt, ''), coalesce((SELECT max(lastPlayedAt)
                    FROM recordingPlays WHERE recordingId = ?1 AND device <> ?2), '')), '')
                WHERE id = ?1 AND EXISTS (SELECT 1 FROM recordingPlays WHERE recordingId = ?1)
                """,
            arguments: [id, own])
    }

    /// After a play of message `id` was counted here (playCount + 1), in the same transaction:
    /// this machine's count takes it, and with a folder chosen its count goes to the folder.
    static func notePlay(_ db: Database, recordingId id: String, wall: Date) throws {
        let device = try ownDevice(db)
        try creditOwnPlays(db, id, device: device)
        try sumPlays(db, id, own: device)
        guard var state = try SyncState.load(db) else { return }
        try notePlayCounts(db, &state, ids: [id], wall: wall)
        try state.save(db)
    }

    /// Writes this machine's count of each message in `ids` as a change line, stamped now.
    private static func notePlayCounts(_ db: Database, _ state: inout SyncState, ids: [String], wall: Date) throws {
        for id in ids {
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT count, lastPlayedAt FROM recordingPlays WHERE recordingId = ? AND device = ?",
                    arguments: [id, state.device])
            else { continue }
            let change: [String: JournalValue] = [
                "count": .integer(row["count"] as Int64),
                "lastPlayedAt": JournalValue(row["lastPlayedAt"] as DatabaseValue),
            ]
            let stamp = Self.stampChange(&state.clock, wall: milliseconds(wall), carrying: change)
            state.counter += 1
            try keepOutgoing(
                db,
                SyncLine(
                    kind: playsKind, id: id, row: change, counter: state.counter,
                    clock: [stamp.milliseconds, stamp.tick], device: state.device))
        }
    }

    /// Once a folder is chosen: the plays counted before it are this machine's, under its new
    /// device id, and each count goes to the folder.
    static func shareOwnPlays(_ db: Database, wall: Date) throws {
        guard var state = try SyncState.load(db) else { return }
        // Plays counted before the id (device '') join those counted under it since (a first sync
        // cut short after the folder was chosen, then a play): both are this machine's.
        try db.execute(
            sql: """
                INSERT INTO recordingPlays (recordingId, device, count, lastPlayedAt)
                SELECT recordingId, ?1, count, lastPlayedAt FROM recordingPlays WHERE device = ''
                \(addingToTheCount)
                """, arguments: [state.device])
        try db.execute(sql: "DELETE FROM recordingPlays WHERE device = ''")
        try creditOwnPlays(db, nil, device: state.device)
        let ids = try String.fetchAll(
            db, sql: "SELECT recordingId FROM recordingPlays WHERE device = ? ORDER BY recordingId",
            arguments: [state.device])
        try notePlayCounts(db, &state, ids: ids, wall: wall)
        try state.save(db)
    }

    /// What is wrong with a plays line, held to the rules typed input meets (nil: nothing).
    static func playsLineProblem(_ line: SyncLine) -> String? {
        guard isCraveyId(line.id) else { return "its id is not one cravey makes" }
        guard let row = line.row, Set(row.keys).isSubset(of: ["count", "lastPlayedAt"]),
            case .integer(let count)? = row["count"], (0...maxPlays).contains(count)
        else { return "it is not a count of plays cravey would keep" }
        switch row["lastPlayedAt"] {
        case nil, .null?: return nil
        case .text(let text)? where StoredDate.date(text) != nil: return nil
        default: return "its lastPlayedAt is not a time"
        }
    }

    /// Takes in another device's count of a message's plays: that device's count only rises;
    /// the message's count is the sum again. True when something changed.
    static func applyPlays(_ line: SyncLine, _ db: Database) throws -> Bool {
        guard case .integer(let count)? = line.row?["count"] else { return false }
        var last: String?
        if case .text(let text)? = line.row?["lastPlayedAt"] { last = text }
        let own = try ownDevice(db)
        try creditOwnPlays(db, line.id, device: own)
        try db.execute(
            sql: """
                INSERT INTO recordingPlays (recordingId, device, count, lastPlayedAt) VALUES (?, ?, ?, ?)
                ON CONFLICT (recordingId, device) DO UPDATE SET count = max(count, excluded.count),
                  lastPlayedAt = CASE WHEN lastPlayedAt IS NULL OR lastPlayedAt < excluded.lastPlayedAt
                                 THEN excluded.lastPlayedAt ELSE lastPlayedAt END
                WHERE count < excluded.count OR coalesce(lastPlayedAt, '') < coalesce(excluded.lastPlayedAt, '')
                """,
            arguments: [line.id, line.device, count, last])
        guard db.changesCount > 0 else { return false }
        try sumPlays(db, line.id, own: own)
        return true
    }
}
