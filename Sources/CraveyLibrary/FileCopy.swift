internal import CFFmpeg
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Whole-file copies and hashes, for snapshots, backups and restores: a copy is made under a name
/// that did not exist (never over another file, never through a link), read and written in large
/// blocks, hashed (SHA-256) as it goes, and fsynced before it is reported done.
enum FileCopy {
    static let blockSize = 1 << 20

    /// Copies `source` to `destination` (created 0600, refusing one that exists); returns its size
    /// and SHA-256 (lower-case hex). `site` names the fault-injection point before the fsync.
    @discardableResult
    static func copy(_ source: String, to destination: String, faults: Faults, site: String) throws -> (
        size: Int64, sha256: String
    ) {
        let input = open(source, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard input >= 0 else { throw systemError("open", source) }
        defer { close(input) }
        return try copy(from: input, named: source, to: destination, faults: faults, site: site)
    }

    /// Copies an open file (read from where it stands) to `destination`, under the same rules.
    @discardableResult
    static func copy(from input: Int32, named source: String, to destination: String, faults: Faults, site: String)
        throws -> (size: Int64, sha256: String)
    {
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard output >= 0 else { throw systemError("create", destination) }
        return try copy(from: input, named: source, into: output, named: destination, faults: faults, site: site)
    }

    /// Copies an open file into a new, empty open file, fsyncs the copy and closes it (always).
    static func copy(
        from input: Int32, named source: String, into output: Int32, named destination: String,
        faults: Faults, site: String
    ) throws -> (size: Int64, sha256: String) {
        var closed = false
        defer { if !closed { close(output) } }
        let (size, hash) = try readThrough(input, path: source) { chunk in
            var written = 0
            while written < chunk.count {
                let n = retryingEINTR { write(output, chunk.baseAddress! + written, chunk.count - written) }
                guard n > 0 else { throw systemError("write", destination) }
                written += n
            }
        }
        try faults.hit(site)
        guard retryingEINTR({ fsync(output) }) == 0 else { throw systemError("fsync", destination) }
        closed = true
        guard close(output) == 0 else { throw systemError("close", destination) }
        return (size, hash)
    }

    /// The size and SHA-256 of a file, read through.
    static func sha256(_ path: String) throws -> (size: Int64, sha256: String) {
        let input = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard input >= 0 else { throw systemError("open", path) }
        defer { close(input) }
        return try readThrough(input, path: path) { _ in }
    }

    /// The size and SHA-256 of an open file, read from where it stands to its end.
    static func sha256(of fd: Int32, named path: String) throws -> (size: Int64, sha256: String) {
        try readThrough(fd, path: path) { _ in }
    }

    /// Reads an open file to its end in large blocks, hashing each block and handing it to `body`.
    private static func readThrough(_ fd: Int32, path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws
        -> (size: Int64, sha256: String)
    {
        let hasher = try SHA256Hash()
        var size: Int64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = retryingEINTR { read(fd, buffer.baseAddress, blockSize) }
            guard count >= 0 else { throw systemError("read", path) }
            if count == 0 { break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            hasher.update(bufferPointer: chunk)
            try body(chunk)
            size += Int64(count)
        }
        return (size, hasher.finish())
    }

    /// fsync of a directory (or file) by path.
    static func sync(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw systemError("open", path) }
        defer { close(fd) }
        guard retryingEINTR({ fsync(fd) }) == 0 else { throw systemError("fsync", path) }
    }
}

/// A SHA-256 being computed, by libavutil's `av_sha` (FFmpeg's own, which cravey already needs):
/// the hash of every file a backup holds. Loading libavutil is the one thing that can fail.
final class SHA256Hash {
    private var hash: OpaquePointer?

    init() throws {
        let status = CFFmpeg_sha256_begin(&hash)
        guard status == 0 else {
            let message = String(cString: CFFmpegHash_load_message())
            throw LibraryError.database(
                message.isEmpty ? "cannot compute a SHA-256 (\(String(cString: strerror(-status))))" : message)
        }
    }

    deinit {
        if let hash {
            var discarded = [UInt8](repeating: 0, count: 32)
            CFFmpeg_sha256_finish(hash, &discarded)
        }
    }

    func update(bufferPointer bytes: UnsafeRawBufferPointer) {
        guard let hash, let base = bytes.baseAddress else { return }
        CFFmpeg_sha256_update(hash, base, bytes.count)
    }

    /// The digest as lower-case hex; the hash is done with.
    func finish() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        if let hash { CFFmpeg_sha256_finish(hash, &digest) }
        hash = nil
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}
