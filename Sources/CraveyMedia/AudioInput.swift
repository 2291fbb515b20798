internal import CALSA
import Foundation

/// A microphone: an ALSA capture stream delivering mono float samples.
///
/// Opened by any ALSA name (`default` reaches PipeWire/PulseAudio; `hw:…`, `plughw:…` and the
/// names of `cravey devices` work too). Not thread-safe: one reader at a time.
public final class AudioInput {
    private let capture: OpaquePointer
    public let device: String
    public let sampleRate: Int
    /// Channels the device delivers (downmixed to mono).
    public let deviceChannels: Int
    public let formatName: String
    public let periodFrames: Int
    private var buffer: [Float]

    /// Opens and starts capturing from `device` at `sampleRate` (or the nearest rate it offers).
    public init(device: String = "default", sampleRate: Int = 48_000) throws {
        try SharedLibrary.alsa.load()
        var pointer: OpaquePointer?
        let result = CALSA_capture_open(device, UInt32(sampleRate), &pointer)
        guard result == 0, let pointer else {
            let operation = "open microphone '\(device)'"
            switch -result {
            case EBUSY:
                throw MediaError(
                    source: .alsa, code: result, operation: operation,
                    message: "the device is busy (another program is using it)")
            case ENOENT:
                throw MediaError(
                    source: .alsa, code: result, operation: operation,
                    message: "ALSA has no such device")
            case EINVAL:
                throw MediaError(
                    source: .alsa, code: result, operation: operation,
                    message: "the device cannot record (it has no capture side, or no format cravey can use)")
            case EACCES, EPERM:
                throw MediaError(
                    source: .alsa, code: result, operation: operation,
                    message: "permission denied")
            default:
                throw MediaError.alsa(result, operation)
            }
        }
        capture = pointer
        self.device = device
        self.sampleRate = Int(CALSA_capture_rate(pointer))
        deviceChannels = Int(CALSA_capture_channels(pointer))
        formatName = String(cString: CALSA_capture_format_name(pointer))
        periodFrames = Int(CALSA_capture_period_frames(pointer))
        buffer = [Float](repeating: 0, count: max(periodFrames, 256))
    }

    deinit { CALSA_capture_close(capture) }

    /// The next block of mono samples (one ALSA period at most, `limit` at most).
    /// An empty block means a signal interrupted the wait, or the device went away (then
    /// `deviceGone` is set and the recording ends with what it has). Throws for other failures.
    public func read(limit: Int = .max) throws -> ArraySlice<Float> {
        let want = min(limit, buffer.count)
        let n = buffer.withUnsafeMutableBufferPointer { CALSA_capture_read(capture, $0.baseAddress, UInt(want)) }
        if n == -Int(EINTR) { return [] }
        if n < 0 {
            let error = MediaError.alsa(Int32(n), "read microphone '\(device)'")
            guard error.isDeviceGone else { throw error }
            deviceGone = error
            return []
        }
        return buffer[0..<n]
    }

    /// Times the device's buffer filled before cravey read it: each one lost sound.
    public var overruns: Int { Int(CALSA_capture_overruns(capture)) }

    /// Set when the device went away during a read; the stream is over.
    public private(set) var deviceGone: MediaError?

    /// The capture clock: at CLOCK_MONOTONIC time `nanoseconds`, the device was capturing the
    /// sample `delay` samples after the last one read.
    public func clock() -> (nanoseconds: Int64, delay: Int) {
        var ns: Int64 = 0
        var delay = 0
        _ = CALSA_capture_clock(capture, &ns, &delay)
        return (ns, delay)
    }
}

/// An ALSA PCM from the device hints.
public struct AudioDevice: Sendable, Equatable, Codable {
    public var name: String
    public var description: String
    public var canCapture: Bool
    public var canPlay: Bool
    public var isDefault: Bool

    /// All PCMs ALSA knows (cards, plugins, `default`), from snd_device_name_hint.
    public static func all() throws -> [AudioDevice] {
        try SharedLibrary.alsa.load()
        var list: UnsafeMutablePointer<CALSA_hint>?
        var count = 0
        let result = CALSA_hints(&list, &count)
        guard result == 0, let list else { throw MediaError.alsa(result, "list sound devices") }
        defer { CALSA_hints_free(list, count) }
        return (0..<count).map { i in
            let hint = list[i]
            let name = String(cString: hint.name)
            return AudioDevice(
                name: name, description: String(cString: hint.description).replacingOccurrences(of: "\n", with: " — "),
                canCapture: hint.input != 0, canPlay: hint.output != 0, isDefault: name == "default")
        }
    }

    /// Devices that can record; `default` (PipeWire/PulseAudio, or the first card) always first.
    public static func microphones() throws -> [AudioDevice] {
        var mics = try all().filter { $0.canCapture && $0.name != "null" }
        if !mics.contains(where: \.isDefault) {
            mics.insert(
                AudioDevice(
                    name: "default",
                    description: "the system's default microphone (PipeWire, PulseAudio or the first sound card)",
                    canCapture: true, canPlay: true, isDefault: true), at: 0)
        }
        return mics
    }
}
