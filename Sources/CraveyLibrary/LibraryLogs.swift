import FoundationEssentials
import Glibc
import GRDB

/// How the logs' store (`LibraryLogStore.swift`) reaches the database (the craving and use logs
/// live in the same database and are bound by the same rules): writes under the library's lock
/// in one transaction, fsynced before it returns, with the fault seam around each commit.
extension Library {
    /// Runs `body` in one write transaction under the library lock; the fault seam is passed at
    /// `step.commit` (before the commit) and `step.committed` (after it). Errors that `body` throws
    /// itself (a log that is not there, a refused link: `LogStoreRefusal`) come back as they are; the database's
    /// own are worded as the library words them.
    func writeLogs<T>(step: String, lockWait: Double? = nil, _ body: (Database) throws -> T) throws -> T {
        var own: Error?
        do {
            return try translatingDatabaseErrors {
                let lock = try lockLibrary(waitingAtMost: lockWait)
                defer { lock.release() }
                let result = try store.writer.write { db in
                    do {
                        let result = try body(db)
                        try faults.hit(step + ".commit")
                        return result
                    } catch let error where !(error is DatabaseError) && !(error is LibraryError) {
                        own = error
                        throw error
                    }
                }
                try faults.hit(step + ".committed")
                // The log's second copy, fsynced before the command reports it (on a disk too
                // full for it, the database holds the log and the next command appends it).
                flushJournalAfterCommit()
                // A deleted log leaves the snapshots too (what is left is done by the next command).
                _ = scrubSnapshots()
                return result
            }
        } catch {
            throw own ?? error
        }
    }

    /// Reads from a snapshot of the database (readers never wait for the lock).
    func readLogs<T>(_ body: (Database) throws -> T) throws -> T {
        var own: Error?
        do {
            return try translatingDatabaseErrors {
                try store.writer.read { db in
                    do { return try body(db) } catch let error
                        where !(error is DatabaseError) && !(error is LibraryError)
                    {
                        own = error
                        throw error
                    }
                }
            }
        } catch {
            throw own ?? error
        }
    }
}
