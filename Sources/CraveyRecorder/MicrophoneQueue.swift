import CraveyMedia
import Dispatch
import Synchronization

/// The microphone, read on a thread that does nothing else, into a queue the sound thread takes
/// blocks from.
///
/// ALSA keeps 2 s of sound for a reader that falls behind. The sound thread does more than read:
/// it encodes, waits for the muxer it shares with the pictures and makes the file durable once a
/// second, and when any of that was held up longer than 2 s (a slow disk's fsync, a loaded
/// machine) the microphone overran and the sound was lost. The reader only reads and stamps each
/// block with the capture clock, so the sound thread may fall up to `capacity` samples behind and
/// lose nothing. A full queue holds the reader back (the device's own buffer then fills, and an
/// overrun is counted as before), so a device that delivers at once — ALSA's `file` plugin — is
/// read no further ahead than that.
final class MicrophoneQueue: Sendable {
    /// What the sound thread takes, in the order the reader met it. The last one is
    /// `ended`, `gone` or `failed`, after the microphone was closed.
    enum Event: Sendable {
        /// Mono samples, with the capture clock read right after them, and the device's overruns so far.
        case block([Float], clock: (nanoseconds: Int64, delay: Int), overruns: Int)
        /// The device went away during a read.
        case gone(MediaError)
        /// A read failed for another reason.
        case failed(any Error)
        /// The reader was asked to stop.
        case ended
    }

    private struct Queue {
        var events: [Event] = []
        var samples = 0
        var stopping = false
    }

    let sampleRate: Int
    /// Samples the queue holds before the reader waits for the sound thread.
    let capacity: Int
    private let queue = Mutex(Queue())
    /// One signal per event queued.
    private let arrived = DispatchSemaphore(value: 0)
    /// Signalled when the sound thread took a block (the reader may have room again).
    private let taken = DispatchSemaphore(value: 0)

    init(sampleRate: Int, seconds: Double) {
        self.sampleRate = sampleRate
        capacity = max(1, Int(seconds * Double(sampleRate)))
    }

    /// The reader thread's loop: reads until asked to stop or the device ends, closes the
    /// microphone, then queues the last event.
    func read(from input: consuming AudioInput) {
        var last = Event.ended
        while !queue.withLock({ $0.stopping }) {
            let block: ArraySlice<Float>
            do {
                block = try input.read()
            } catch {
                last = .failed(error)
                break
            }
            if block.isEmpty {
                if let gone = input.deviceGone {
                    last = .gone(gone)
                    break
                }
                continue  // a signal interrupted the wait
            }
            let clock = input.clock()
            push(.block(Array(block), clock: clock, overruns: input.overruns))
            while queue.withLock({ $0.samples >= capacity && !$0.stopping }) {
                _ = taken.wait(timeout: .now() + .milliseconds(100))
            }
        }
        _ = consume input  // closes the microphone
        push(last)
    }

    /// Asks the reader to stop after the block it is reading; what it queued is still taken.
    func stop() {
        queue.withLock { $0.stopping = true }
        taken.signal()
    }

    /// The next event, or nil when none came within `seconds`.
    func next(waiting seconds: Double) -> Event? {
        guard arrived.wait(timeout: .now() + .milliseconds(Int(seconds * 1000))) == .success else { return nil }
        let event = queue.withLock { queue in
            let event = queue.events.removeFirst()
            if case let .block(samples, _, _) = event { queue.samples -= samples.count }
            return event
        }
        taken.signal()
        return event
    }

    private func push(_ event: Event) {
        queue.withLock { queue in
            if case let .block(samples, _, _) = event { queue.samples += samples.count }
            queue.events.append(event)
        }
        arrived.signal()
    }
}
