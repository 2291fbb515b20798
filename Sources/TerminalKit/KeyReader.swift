import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The one reader of the terminal's keys (standard input in raw mode): every screen asks it for
/// the next key, waiting or not. Bytes are read as they come and decoded into `Key`s; an escape
/// sequence split across reads is waited for briefly (30 ms) before a lone Esc is believed.
package final class KeyReader: Sendable {
    package static let shared = KeyReader(fd: STDIN_FILENO)

    private let fd: Int32
    /// Keys decoded but not asked for yet, and whether the input has ended. Held while reading,
    /// so one caller reads at a time.
    private struct Queue {
        var queued: [Key] = []
        var ended = false
        /// The Enter a hand used to line prompts types after a key that answered a question.
        var afterAnswer = EnterAfterAnswer()
    }
    private let queue = Mutex(Queue())

    package init(fd: Int32) { self.fd = fd }

    /// The next key, waiting up to `milliseconds` (-1: as long as it takes); nil when none came.
    /// Once the input is gone, every call returns `.inputEnded`. An Enter that follows a key
    /// that answered a question (`answered()`) is passed over, whoever reads next: it belongs to
    /// that answer, not to the next screen (a recording it would stop at once).
    package func next(waiting milliseconds: Int32 = -1) -> Key? {
        queue.withLock { queue in
            let deadline = monotonicMilliseconds() + Int(milliseconds)
            while true {
                if queue.queued.isEmpty {
                    fill(&queue, waiting: milliseconds < 0 ? -1 : Int32(max(0, deadline - monotonicMilliseconds())))
                }
                guard !queue.queued.isEmpty else { return nil }
                let key = queue.queued.removeFirst()
                if queue.afterAnswer.swallows(key, at: monotonicMilliseconds()) { continue }
                return key
            }
        }
    }

    /// Notes that a key just answered a question at once. An Enter already here with it (typed
    /// or pasted together with the answer) is taken with it now, however late the next reader
    /// comes; one that comes within `EnterAfterAnswer.window` is passed over when read.
    package func answered() {
        queue.withLock { queue in
            if queue.queued.isEmpty { fill(&queue, waiting: 0) }
            if queue.queued.first == .enter {
                queue.queued.removeFirst()
            } else {
                queue.afterAnswer.answered(at: monotonicMilliseconds())
            }
        }
    }

    /// Every key waiting now, without waiting.
    package func pending() -> [Key] {
        queue.withLock { queue in
            fill(&queue, waiting: 0)
            defer { queue.queued = queue.ended ? [.inputEnded] : [] }
            return queue.queued
        }
    }

    /// Raw bytes of a terminal's reply to a query (not keys), read until `terminator` or until
    /// `milliseconds` have passed.
    package func reply(until terminator: UInt8, within milliseconds: Int) -> [UInt8] {
        queue.withLock { _ in replyLocked(until: terminator, within: milliseconds) }
    }

    private func replyLocked(until terminator: UInt8, within milliseconds: Int) -> [UInt8] {
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

    private func fill(_ queue: inout Queue, waiting milliseconds: Int32) {
        guard !queue.ended else {
            if queue.queued.isEmpty { queue.queued = [.inputEnded] }
            return
        }
        guard wait(milliseconds) else { return }
        var bytes = [UInt8](repeating: 0, count: 64)
        var count = readOnce(&bytes)
        guard count > 0 else {
            queue.ended = true
            queue.queued.append(.inputEnded)
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
        queue.queued += Key.keys(in: Array(bytes[0..<count]))
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
