import CraveyLibrary
import CraveyMedia
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Records the microphone into the library: a capture thread reads ALSA, meters the level, and
/// encodes into a fragmented temporary file inside the library (fsynced about once a second, so
/// a crash or power cut loses at most about a second); `finish` finalizes it into a regular
/// `.m4a`, and `save` hands it to the library's atomic save.
///
/// The cap is counted in samples: a recording stops at exactly `maxSeconds` of media.
public final class AudioRecorder: @unchecked Sendable {
    public enum StopReason: Sendable, Equatable {
        case user
        case signal(Int32)
        case cap
        case deviceGone(String)
        case failed(String)
    }

    /// What the live display shows; a snapshot, safe to read from any thread.
    public struct Status: Sendable {
        public var samples = 0
        public var sampleRate = 48_000
        public var maxSamples = 0
        public var level = Level.silence
        /// Peaks (0–255) at `WaveformBuilder.pointsPerSecond`, the newest last.
        public var waveform: [UInt8] = []
        /// Seconds of media the input has been below -60 dBFS without a break.
        public var silentSeconds: Double = 0
        public var clipped = false
        public var stopReason: StopReason?
        /// CLOCK_MONOTONIC times (ns) of the first captured block and of the stop (for benchmarks).
        public var firstBlockAt: UInt64?
        public var stoppedAt: UInt64?

        public var elapsed: Double { Double(samples) / Double(sampleRate) }
        public var remaining: Double { Double(maxSamples - samples) / Double(sampleRate) }
    }

    /// A finished take, finalized but not yet in the library.
    public struct Take: Sendable {
        public let id: UUID
        public let startedAt: Date
        public let duration: Double
        public let info: MediaInfo
        public let waveform: [UInt8]
        public let stopReason: StopReason
        public let finalFile: Library.StagedFile
        fileprivate let part: Library.StagedFile
    }

    public let library: Library
    public let device: String
    public let maxSeconds: Double
    public let id = UUID()
    public private(set) var startedAt = Date()

    private let state = NSLock()
    private var current = Status()
    private var stopRequested: StopReason?
    private var input: AudioInput?
    private var writer: MediaWriter?
    private var part: Library.StagedFile?
    private var builder = WaveformBuilder(sampleRate: 48_000)
    private var thread: Thread?
    private let stopped = DispatchSemaphore(value: 0)
    private var failure: Error?

    public static let silenceThreshold: Double = -60

    public init(library: Library, device: String = "default", maxSeconds: Double = 120) {
        self.library = library
        self.device = device
        self.maxSeconds = min(maxSeconds, Validation.maxDuration)
    }

    /// Opens the microphone and the temporary file, and starts capturing on its own thread.
    /// Throws (leaving nothing behind) when the microphone cannot be opened.
    public func start() throws {
        let input = try AudioInput(device: device)
        let part = try library.makeStagedFile(named: Library.temporaryName(id: id, kind: .audio))
        do {
            writer = try MediaWriter(audioPath: part.path, sampleRate: input.sampleRate)
        } catch {
            library.discard(part)
            throw error
        }
        self.input = input
        self.part = part
        builder = WaveformBuilder(sampleRate: input.sampleRate)
        startedAt = Date()
        state.withLock {
            current.sampleRate = input.sampleRate
            current.maxSamples = Int((maxSeconds * Double(input.sampleRate)).rounded(.down))
        }
        let thread = Thread { [self] in captureLoop() }
        thread.name = "cravey capture"
        thread.qualityOfService = .userInteractive
        self.thread = thread
        thread.start()
    }

    /// Asks the capture thread to stop after the block it is reading; the recording is kept.
    public func requestStop(_ reason: StopReason) {
        state.withLock { if stopRequested == nil { stopRequested = reason } }
    }

    public var status: Status { state.withLock { current } }

    public var isRunning: Bool { state.withLock { current.stopReason == nil } }

    /// Waits for the capture thread to end (by stop request, cap, device loss or failure).
    public func waitUntilStopped() { stopped.wait(); stopped.signal() }

    private func captureLoop() {
        guard let input, let writer, let part else { return }
        let maxSamples = state.withLock { current.maxSamples }
        var written = 0
        var sinceSync = 0
        var silentSamples = 0
        var reason: StopReason = .user
        while true {
            if let requested = state.withLock({ stopRequested }) { reason = requested; break }
            if written >= maxSamples { reason = .cap; break }
            let block: ArraySlice<Float>
            do {
                block = try input.read(limit: maxSamples - written)
            } catch {
                reason = .failed("\(error)")
                break
            }
            if block.isEmpty {
                if let gone = input.deviceGone { reason = .deviceGone(gone.message); break }
                continue
            }
            do {
                try writer.write(block)
                sinceSync += block.count
                if sinceSync >= input.sampleRate {  // about once a second: make it durable
                    try writer.flush()
                    try part.sync()
                    sinceSync = 0
                }
            } catch {
                reason = .failed("\(error)")
                break
            }
            written += block.count
            builder.add(block)
            let level = Level(of: block)
            silentSamples = level.peak < Self.silenceThreshold ? silentSamples + block.count : 0
            let points = builder.points
            state.withLock {
                if current.firstBlockAt == nil { current.firstBlockAt = monotonicNanoseconds() }
                current.samples = written
                current.level = level
                current.clipped = current.clipped || level.clipped
                current.silentSeconds = Double(silentSamples) / Double(input.sampleRate)
                if points.count != current.waveform.count { current.waveform = points }
            }
        }
        if case .failed = reason { failure = RecorderError.captureFailed(reason) }
        self.input = nil  // closes the microphone now, not at deinit
        state.withLock {
            current.stopReason = reason
            current.stoppedAt = monotonicNanoseconds()
        }
        stopped.signal()
    }

    /// Finalizes the stopped recording: drains the encoder, remuxes the fragmented file into a
    /// regular `.m4a` (in the library's temporary area) and reads its real duration.
    public func finish() throws -> Take {
        waitUntilStopped()
        guard let writer, let part else { throw RecorderError.notStarted }
        let reason = state.withLock { current.stopReason ?? .user }
        if let failure, writer.samplesWritten == 0 { library.discard(part); throw failure }
        guard writer.samplesWritten > 0 else {
            library.discard(part)
            throw RecorderError.nothingRecorded
        }
        // On any failure below the fragmented file stays: the next run recovers what it holds.
        try writer.finish()
        try library.faults.hit("record.finalize.encoded")
        let final = try library.makeStagedFile(named: "save_\(id.uuidString).m4a")
        do {
            try MediaFile.remux(part.path, to: final.path)
            try library.faults.hit("record.finalize.remuxed")
            let info = try MediaFile.probe(final.path)
            return Take(id: id, startedAt: startedAt, duration: info.duration, info: info,
                        waveform: builder.finish(), stopReason: reason, finalFile: final, part: part)
        } catch {
            library.discard(final)
            throw error
        }
    }

    /// Saves a take into the library atomically, then removes the temporary recording.
    public func save(_ take: Take, draft: Library.Draft) throws -> Recording {
        let saved = try library.save(
            take.finalFile, kind: .audio, draft: draft, duration: take.duration,
            media: MediaFacts(sampleRate: take.info.sampleRate, channels: take.info.channels, waveform: take.waveform),
            id: take.id, createdAt: take.startedAt)
        try library.faults.hit("record.saved")
        library.discard(take.part)
        return saved
    }

    /// Throws the take away (after the user confirmed): nothing of it stays in the library.
    public func discard(_ take: Take) {
        library.discard(take.finalFile)
        library.discard(take.part)
    }
}

public enum RecorderError: Error, CustomStringConvertible {
    case notStarted
    case nothingRecorded
    case captureFailed(AudioRecorder.StopReason)

    public var description: String {
        switch self {
        case .notStarted: return "the recorder was not started"
        case .nothingRecorded: return "nothing was recorded (stopped before the first sound arrived)"
        case let .captureFailed(reason):
            if case let .failed(message) = reason { return "recording failed: \(message)" }
            return "recording failed"
        }
    }
}
