import FoundationEssentials
import GRDB

/// A milestone as stored: what was counted (`kind`: daysInProgress, cravingsResisted,
/// messagesRecorded, checkIns, daysSinceUse), how many (`count`), the local day it was reached
/// (`reachedOn`, YYYY-MM-DD) and when home showed it (nil until it has).
public struct MilestoneRow: Sendable, Equatable {
    public var kind: String
    public var count: Int
    public var reachedOn: String
    public var shownAt: String?

    public init(kind: String, count: Int, reachedOn: String, shownAt: String? = nil) {
        (self.kind, self.count, self.reachedOn, self.shownAt) = (kind, count, reachedOn, shownAt)
    }

    /// The row's key: kind ':' count.
    public var id: String { kind + ":" + String(count) }
}

/// Milestones that were true never break: one reached is stored once with its day, and nothing
/// changes it but being shown (a later use, a deleted log or a deleted message leave it); only
/// `check --repair` removes one the logs say was never reached.
extension Library {
    /// Every milestone stored, in the order reached (then by kind and count).
    public func milestones() throws -> [MilestoneRow] {
        try readLogs { db in try Self.milestoneRows(db, where: "") }
    }

    /// Stores the milestones in `reached` that are not stored yet (a stored one is kept as it is:
    /// its day never moves). Journaled as logs are. Nothing is written when all are stored, or
    /// when the library can only be read. Returns how many were new.
    @discardableResult
    public func noteMilestonesReached(_ reached: [MilestoneRow]) throws -> Int {
        guard isWritable, !reached.isEmpty else { return 0 }
        let stored = Set(try milestones().map(\.id))
        let new = reached.filter { !stored.contains($0.id) }
        guard !new.isEmpty else { return 0 }
        return try writeLogs(step: "milestone.note", lockWait: Self.logLockWait) { db in
            var added = 0
            for row in new {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO milestone (id, kind, count, reachedOn) VALUES (?, ?, ?, ?)",
                    arguments: [row.id, row.kind, row.count, row.reachedOn])
                added += db.changesCount
            }
            return added
        }
    }

    /// Removes these milestones (ones the logs say were never reached), journaled as logs are: the
    /// journal keeps a line marking each removed, so a replay or a restore does not bring it back.
    public func removeMilestones(_ rows: [MilestoneRow]) throws {
        guard !rows.isEmpty else { return }
        try writeLogs(step: "milestone.remove") { db in
            for row in rows { try db.execute(sql: "DELETE FROM milestone WHERE id = ?", arguments: [row.id]) }
        }
    }

    /// Notes that home has shown these milestones (each is shown once).
    public func markMilestoneShown(_ rows: [MilestoneRow], at date: Date) throws {
        guard isWritable, !rows.isEmpty else { return }
        try writeLogs(step: "milestone.shown", lockWait: Self.logLockWait) { db in
            for row in rows {
                try db.execute(
                    sql: "UPDATE milestone SET shownAt = ? WHERE id = ? AND shownAt IS NULL",
                    arguments: [StoredDate.text(date), row.id])
            }
        }
    }

    /// What the milestones of messages and check-ins are counted from: when each message was
    /// added (oldest first) and each check-in's day (earliest first).
    public func milestoneCounts() throws -> (messagesAdded: [String], checkInDays: [String]) {
        try readLogs { db in
            (
                try String.fetchAll(
                    db, sql: "SELECT createdAt FROM recording WHERE checkinDay IS NULL ORDER BY createdAt"),
                try String.fetchAll(
                    db,
                    sql: "SELECT DISTINCT checkinDay FROM recording WHERE checkinDay IS NOT NULL ORDER BY checkinDay")
            )
        }
    }

    static func milestoneRows(_ db: Database, where clause: String) throws -> [MilestoneRow] {
        try Row.fetchAll(
            db, sql: "SELECT kind, count, reachedOn, shownAt FROM milestone \(clause) ORDER BY reachedOn, kind, count"
        ).map { MilestoneRow(kind: $0[0], count: $0[1], reachedOn: $0[2], shownAt: $0[3]) }
    }
}
