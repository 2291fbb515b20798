import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The library's reserve (`.reserve`, space held back on the disk) for what must get through on a
/// full disk: a delete, which is how space is freed, and a log the person has just typed.
extension Library {
    /// Runs `body`; if it fails because the disk is full, gives the reserve back to the disk and
    /// runs it once more. The next opening of the library takes the space again where it can.
    public func withReserve<T>(_ body: () throws -> T) throws -> T { try files.withReserve(body) }

    /// Opens the library at `root` with `open`, giving the reserve back and opening it once more
    /// when even that fails for want of space (SQLite makes its shared-memory and log files as it
    /// opens the database, and says only "disk I/O error" when it cannot: a disk with no block
    /// left is taken to be why).
    public static func opening(_ root: String, withReserve open: () throws -> Library) throws -> Library {
        try FileStore(root: root, faults: .none).withReserve {
            do {
                return try open()
            } catch  where !isDiskFull(error) && noSpaceLeft(at: root) {
                throw LibraryError.system(operation: "open", path: root + "/library.sqlite", errno: ENOSPC)
            }
        }
    }

    /// Whether `error` is a write that failed because the disk is full.
    public static func isDiskFull(_ error: Error) -> Bool { FileStore.isNoSpace(error) }

    /// Whether the disk holding `root` has no block left for this user.
    static func noSpaceLeft(at root: String) -> Bool {
        var info = statvfs()
        return statvfs(root, &info) == 0 && info.f_bavail == 0
    }
}
