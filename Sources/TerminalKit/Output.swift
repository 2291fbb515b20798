import CStandardOutput
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension FileHandle {
    /// Words and drawing for a person at a terminal: a write that fails — the window closed (a
    /// hang-up leaves the terminal answering every write with EIO), a full disk behind a
    /// redirection of the messages — is dropped, never a crash. (Foundation's own `write(_:)`
    /// stops the program on any failed write.) Data a command exists to write goes through
    /// `StandardOutput` instead, which says a failure.
    public func show(_ text: String) { show(Data(text.utf8)) }

    public func show(_ data: Data) { try? write(contentsOf: data) }
}

/// What a command exists to write on standard output (`--json`, an export to `-`): the bytes go
/// out whole or the first failure is kept (a full disk behind `>`), later writes are skipped, and
/// the command ends with `failure()`'s one line and a failing status instead of a crash or a
/// silent success. `print`'s own buffered writes are not skipped, but `failure()` finds theirs too
/// (stdio keeps the error; when it kept no number the failure reads as an input/output error).
public enum StandardOutput {
    private static let failed = Mutex<Int32?>(nil)

    public static func write(_ data: Data) {
        guard failed.withLock({ $0 == nil }) else { return }
        // What `print` holds in its buffer goes first, so the output keeps its order.
        let flushed = cravey_stdout_flush()
        if flushed != 0 { return failed.withLock { $0 = $0 ?? flushed } }
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(STDOUT_FILENO, base + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    let code = written < 0 ? errno : EIO
                    return failed.withLock { $0 = $0 ?? code }
                }
            }
        }
    }

    public static func write(_ text: String) { write(Data(text.utf8)) }

    /// After a command: why its standard output was not written whole (`print`'s buffer is
    /// written out first), or nil when it was.
    public static func failure() -> String? {
        let flushed = cravey_stdout_flush()
        if flushed != 0 { failed.withLock { $0 = $0 ?? flushed } }
        return failed.withLock { $0 }.map { "the output could not be written whole: " + String(cString: strerror($0)) }
    }
}
