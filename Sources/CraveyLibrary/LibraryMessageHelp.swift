import Foundation
import GRDB

/// A craving during which a message was played or that was ridden out, as the figures of which
/// messages help and how long cravings last read it: numbers worked out by SQLite, and the two
/// lists as stored.
package struct PlayedCravingRow: Sendable {
    package var ms: Int64
    package var utcOffset: Int
    /// A use names this craving as the one it followed.
    package var linked: Bool
    /// Recordings' ids separated by commas ('' for none).
    package var played: String
    /// The ride's ratings as stored (`[[seconds, value], …]`), nil when not ridden.
    package var ratings: String?
}

extension Library {
    /// The cravings from `since` on (stored time text; "" for all) with a message played in them
    /// or ratings, oldest first; every use's time in milliseconds, oldest first (when asked for);
    /// and every message's id and title (check-ins are never played in a craving). One snapshot.
    package func playedCravingRows(since: String, useTimes: Bool) throws -> (
        cravings: [PlayedCravingRow], useTimes: [Int64], titles: [(id: String, title: String)]
    ) {
        try readLogs { db in
            let milliseconds = "CAST(round((julianday(at) - 2440587.5) * 86400000.0) AS INTEGER)"
            let cravings = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(milliseconds), utcOffset,
                      EXISTS (SELECT 1 FROM usage WHERE usage.cravingId = craving.id), played, ratings
                    FROM craving WHERE at >= ? AND (played != '' OR ratings IS NOT NULL) ORDER BY at
                    """, arguments: [since]
            ).map { row in
                PlayedCravingRow(ms: row[0], utcOffset: row[1], linked: row[2], played: row[3] ?? "", ratings: row[4])
            }
            let times =
                useTimes ? try Int64.fetchAll(db, sql: "SELECT \(milliseconds) FROM usage ORDER BY at") : []
            let titles = try Row.fetchAll(
                db, sql: "SELECT id, title FROM recording WHERE checkinDay IS NULL"
            ).map { (id: $0[0] as String, title: $0[1] as String? ?? "") }
            return (cravings, times, titles)
        }
    }
}
