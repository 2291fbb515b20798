import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The one reader of the terminal's keys (standard input in raw mode): every screen asks it for
/// the next key, waiting or not. Bytes are read as they come and decoded into `Key`s; an escape
/// sequence split across reads is waited for briefly (30 ms) before a lone Esc is believed.
final class KeyReader: @unchecked Sendable {
    static let shared = KeyReader(fd: STDIN_FILENO)

    private let fd: Int32
    private let lock = NSLock()
    private var queued: [Key] = []
    private var ended = false

    init(fd: Int32) { self.fd = fd }

    /// The next key, waiting up to `milliseconds` (-1: as long as it takes); nil when none came.
    /// Once the input is gone, every call returns `.inputEnded`.
    func next(waiting milliseconds: Int32 = -1) -> Key? {
        lock.lock()
        defer { lock.unlock() }
        if queued.isEmpty { fill(waiting: milliseconds) }
        return queued.isEmpty ? nil : queued.removeFirst()
    }

    /// Every key waiting now, without waiting.
    func pending() -> [Key] {
        lock.lock()
        defer { lock.unlock() }
        fill(waiting: 0)
        defer { queued = ended ? [.inputEnded] : [] }
        return queued
    }

    /// Raw bytes of a terminal's reply to a query (not keys), read until `terminator` or until
    /// `milliseconds` have passed.
    func reply(until terminator: UInt8, within milliseconds: Int) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        var reply = [UInt8]()
        let deadline = monotonicMilliseconds() + milliseconds
        while monotonicMilliseconds() < deadline {
            guard wait(Int32(max(1, deadline - monotonicMilliseconds()))) else { continue }
            var byte: UInt8 = 0
            guard read(fd, &byte, 1) == 1 else { break }
            reply.append(byte)
            if byte == terminator { break }
        }
        return reply
    }

    private func fill(waiting milliseconds: Int32) {
        guard !ended else {
            if queued.isEmpty { queued = [.inputEnded] }
            return
        }
        guard wait(milliseconds) else { return }
        var bytes = [UInt8](repeating: 0, count: 64)
        var count = readOnce(&bytes)
        guard count > 0 else {
            ended = true
            queued.append(.inputEnded)
            return
        }
        // An escape sequence cut by the read: its rest is on its way.
        while count < bytes.count - 8, isIncompleteEscape(bytes[0..<count]), wait(30) {
            var more = [UInt8](repeating: 0, count: bytes.count - count)
            let extra = readOnce(&more)
            guard extra > 0 else { break }
            bytes.replaceSubrange(count..<(count + extra), with: more[0..<extra])
            count += extra
        }
        queued += Key.keys(in: Array(bytes[0..<count]))
    }

    private func readOnce(_ buffer: inout [UInt8]) -> Int {
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }

    private func wait(_ milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let n = poll(&poller, 1, milliseconds)
            if n < 0 && errno == EINTR { continue }
            return n > 0
        }
    }

    private func isIncompleteEscape(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let start = bytes.lastIndex(of: 0x1B) else { return false }
        let rest = bytes[(start + 1)...]
        if rest.isEmpty { return true }
        guard rest.first == UInt8(ascii: "[") || rest.first == UInt8(ascii: "O") else { return false }
        return rest.dropFirst().allSatisfy { $0 >= 0x30 && $0 <= 0x3F }
    }

    private func monotonicMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
