import Foundation

/// The library's reserve (`.reserve`, space held back on the disk) for what must get through on a
/// full disk: a delete, which is how space is freed, and a log the person has just typed.
extension Library {
    /// Runs `body`; if it fails because the disk is full, gives the reserve back to the disk and
    /// runs it once more. The next opening of the library takes the space again where it can.
    public func withReserve<T>(_ body: () throws -> T) throws -> T { try files.withReserve(body) }

    /// Whether `error` is a write that failed because the disk is full.
    public static func isDiskFull(_ error: Error) -> Bool { FileStore.isNoSpace(error) }
}
