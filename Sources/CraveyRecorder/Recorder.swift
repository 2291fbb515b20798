import CraveyLibrary
import CraveyMedia
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Records the microphone, the camera, or both into the library.
///
/// One capture thread per device: the sound thread reads ALSA, meters the level and encodes AAC;
/// the picture thread dequeues V4L2 frames and encodes H.264. Both write into one fragmented
/// temporary file inside the library (fsynced about once a second, so a crash or power cut loses at
/// most about a second); `finish` finalizes it into a regular `.m4a` / `.mov` (with a thumbnail),
/// and `save` hands it to the library's atomic save.
///
/// Sound and pictures share the CLOCK_MONOTONIC clock: frames are placed by their V4L2 timestamps
/// relative to the moment of the first sample (see `ClockSync`, which also corrects the
/// microphone's drift). The cap is counted in samples, exact to the sample; a silent video is
/// capped by frame time.
public final class Recorder: @unchecked Sendable {
    public enum StopReason: Sendable, Equatable {
        case user
        case signal(Int32)
        case cap
        case deviceGone(String)
        case failed(String)
    }

    /// The camera to record from, and the mode to ask it for (see `CameraMode.best`).
    public struct Camera: Sendable {
        public var path: String
        public var mode: CameraMode
        public init(path: String, mode: CameraMode) { self.path = path; self.mode = mode }
    }

    /// What the live display shows; a snapshot, safe to read from any thread.
    public struct Status: Sendable {
        public var samples = 0
        public var sampleRate = 48_000
        public var maxSeconds: Double = 120
        public var level = Level.silence
        /// Peaks (0–255) at `WaveformBuilder.pointsPerSecond`, the newest last.
        public var waveform: [UInt8] = []
        /// Seconds of media the input has been below -60 dBFS without a break.
        public var silentSeconds: Double = 0
        public var clipped = false
        public var stopReason: StopReason?
        public var hasAudio = true
        /// The camera mode in use and the size written (nil without a camera).
        public var cameraMode: CameraMode?
        public var videoSize: VideoSize?
        /// Frames written, frames the camera dropped or delivered broken.
        public var frames = 0
        public var droppedFrames = 0
        /// Position of the latest frame in the recording, seconds.
        public var videoSeconds: Double = 0
        /// The sound's current offset from the pictures' clock, seconds (after correction).
        public var avOffset: Double = 0
        /// CLOCK_MONOTONIC times (ns) of the first sound block, the first frame, and the stop.
        public var firstBlockAt: UInt64?
        public var firstFrameAt: UInt64?
        public var stoppedAt: UInt64?

        public var elapsed: Double { hasAudio ? Double(samples) / Double(sampleRate) : videoSeconds }
        public var remaining: Double { max(0, maxSeconds - elapsed) }
    }

    /// A finished take, finalized but not yet in the library.
    public struct Take: Sendable {
        public let id: UUID
        public let kind: Recording.Kind
        public let startedAt: Date
        public let duration: Double
        public let info: MediaInfo
        public let waveform: [UInt8]
        public let stopReason: StopReason
        public let finalFile: Library.StagedFile
        /// The JPEG of the frame at 1.0 s (video), when it could be made.
        public let thumbnail: Library.StagedFile?
        /// Frames in the file, and the worst A/V offset measured while recording (video).
        public let frames: Int
        public let droppedFrames: Int
        public let avOffset: Double?
        fileprivate let part: Library.StagedFile
    }

    public let library: Library
    /// The ALSA microphone, or nil for a silent video.
    public let microphone: String?
    /// The camera, or nil for an audio recording.
    public let camera: Camera?
    public let maxSeconds: Double
    public let encoder: VideoEncoderSettings
    public let id = UUID()
    public var kind: Recording.Kind { camera == nil ? .audio : .video }
    /// What the display calls the devices: the microphone's ALSA name and/or the camera node.
    public var deviceDescription: String {
        [camera.map { "\($0.path)" }, microphone.map { "'\($0)'" }].compactMap { $0 }.joined(separator: " + ")
    }
    public private(set) var startedAt = Date()

    private let state = NSLock()
    private var current = Status()
    private var stopRequested: StopReason?
    private var audioInput: AudioInput?
    private var videoInput: VideoInput?
    private var writer: MediaWriter?
    private var part: Library.StagedFile?
    private var builder = WaveformBuilder(sampleRate: 48_000)
    private var sync = ClockSync(sampleRate: 48_000)
    private var videoAnchor: Int64?
    /// Where the sound ended (µs), once the sound thread is done: the pictures end there too.
    private var soundEndMicroseconds: Int64?
    /// How far (µs) the sound has been captured: frames wait until the sound reaches them.
    private var soundCoveredMicroseconds: Int64 = 0
    private let threads = DispatchGroup()
    private var failure: Error?

    public static let silenceThreshold: Double = -60

    public init(library: Library, microphone: String? = "default", camera: Camera? = nil, maxSeconds: Double = 120,
                encoder: VideoEncoderSettings = .default) {
        precondition(microphone != nil || camera != nil, "a recording needs a microphone or a camera")
        self.library = library
        self.microphone = microphone
        self.camera = camera
        self.maxSeconds = min(maxSeconds, Validation.maxDuration)
        self.encoder = encoder
    }

    /// Opens the devices and the temporary file, and starts capturing on their own threads.
    /// Throws `RecorderError.camera` / `.microphone` (leaving nothing behind) when a device cannot
    /// be opened, so that the caller can offer the other kind of recording.
    public func start() throws {
        // The library first: nothing is captured until there is somewhere to keep it (a busy or
        // read-only library is a clear error before any device opens).
        let part = try library.makeStagedFile(named: Library.temporaryName(id: id, kind: kind))
        // The camera next: it is the slow one to start, and its frames before the first sample
        // are simply not used.
        var video: VideoInput?
        var audio: AudioInput?
        do {
            if let camera {
                do { video = try VideoInput(path: camera.path, mode: camera.mode) } catch let error as MediaError {
                    throw RecorderError.camera(error)
                }
            }
            if let microphone {
                do { audio = try AudioInput(device: microphone) } catch let error as MediaError { throw RecorderError.microphone(error) }
            }
        } catch {
            library.discard(part)
            throw error
        }
        do {
            if let video {
                let size = VideoSize.fitting(width: video.width, height: video.height)
                writer = try MediaWriter(videoPath: part.path, inputWidth: video.width, inputHeight: video.height, size: size,
                                         fps: Int(video.fps.rounded()), sampleRate: audio?.sampleRate, encoder: encoder)
                state.withLock {
                    current.cameraMode = CameraMode(width: video.width, height: video.height, fps: video.fps,
                                                    pixelFormat: video.mode.pixelFormat)
                    current.videoSize = size
                }
            } else if let audio {
                writer = try MediaWriter(audioPath: part.path, sampleRate: audio.sampleRate)
            }
        } catch {
            library.discard(part)
            throw error
        }
        audioInput = audio
        videoInput = video
        self.part = part
        let rate = audio?.sampleRate ?? 48_000
        builder = WaveformBuilder(sampleRate: rate)
        sync = ClockSync(sampleRate: rate)
        startedAt = Date()
        state.withLock {
            current.sampleRate = rate
            current.maxSeconds = maxSeconds
            current.hasAudio = audio != nil
        }
        if audio != nil { spawn("cravey sound") { self.soundLoop() } }
        if video != nil { spawn("cravey pictures") { self.pictureLoop() } }
    }

    private func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) {
        threads.enter()
        let thread = Thread { body(); self.threads.leave() }
        thread.name = name
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Asks the capture threads to stop after the block or frame they are reading; the recording is kept.
    public func requestStop(_ reason: StopReason) {
        state.withLock { if stopRequested == nil { stopRequested = reason } }
    }

    public var status: Status { state.withLock { current } }

    public var isRunning: Bool { state.withLock { current.stopReason == nil } }

    /// Waits for the capture threads to end (by stop request, cap, device loss or failure).
    public func waitUntilStopped() { threads.wait() }

    private func fail(_ error: Error) {
        state.withLock { if failure == nil { failure = error } }
        requestStop(.failed("\(error)"))
    }

    /// Marks the end of the recording once every capture thread is done.
    private func finishThread(_ reason: StopReason) {
        state.withLock {
            if stopRequested == nil { stopRequested = reason }
            current.stopReason = stopRequested
            current.stoppedAt = monotonicNanoseconds()
        }
    }

    // MARK: - Sound

    private func soundLoop() {
        guard let input = audioInput, let writer, let part else { return }
        let maxSamples = Int((maxSeconds * Double(input.sampleRate)).rounded(.down))
        let withVideo = camera != nil
        var sinceSync = 0
        var silentSamples = 0
        var written = 0
        var reason: StopReason = .user
        while true {
            if let requested = state.withLock({ stopRequested }) { reason = requested; break }
            if written >= maxSamples { reason = .cap; break }
            var block: ArraySlice<Float>
            do {
                block = try input.read()
            } catch {
                fail(error)
                break
            }
            if block.isEmpty {
                if let gone = input.deviceGone { reason = .deviceGone("the microphone went away (\(gone.message))"); break }
                continue
            }
            var silence = 0
            var clock: (nanoseconds: Int64, delay: Int)?
            if withVideo {
                // The sound follows the pictures' clock; the first block fixes the recording's zero.
                let now = input.clock()
                clock = now
                let plan = sync.plan(frames: block.count, nanoseconds: now.nanoseconds, delay: now.delay)
                silence = plan.silence
                if plan.adjust != 0 { block = ClockSync.resample(block, to: block.count + plan.adjust)[...] }
            }
            var samples = [Float](repeating: 0, count: min(silence, maxSamples - written))
            samples += block.prefix(maxSamples - written - samples.count)
            if let clock, let anchor = sync.anchorNanoseconds {
                // How far the sound reaches on the pictures' clock: when the last sample kept was
                // captured (so a drifting microphone cannot stretch the pictures); for a device
                // without a usable clock, the samples written.
                let unused = silence + block.count - samples.count
                let reach = sync.clocked
                    ? (clock.nanoseconds - Int64(Double(clock.delay + unused) / Double(input.sampleRate) * 1e9) - anchor) / 1000
                    : Int64(written + samples.count) * 1_000_000 / Int64(input.sampleRate)
                state.withLock {
                    if videoAnchor == nil { videoAnchor = anchor }
                    soundCoveredMicroseconds = reach
                }
            }
            do {
                try writer.write(samples)
                sinceSync += samples.count
                if sinceSync >= input.sampleRate {  // about once a second: make it durable
                    try writer.flush()
                    try part.sync()
                    sinceSync = 0
                }
            } catch {
                fail(error)
                break
            }
            written += samples.count
            builder.add(samples)
            let level = Level(of: block)
            silentSamples = level.peak < Self.silenceThreshold ? silentSamples + block.count : 0
            let points = builder.points
            let offset = sync.offset / sync.sampleRate
            state.withLock {
                if current.firstBlockAt == nil { current.firstBlockAt = monotonicNanoseconds() }
                current.samples = written
                current.level = level
                current.clipped = current.clipped || level.clipped
                current.silentSeconds = Double(silentSamples) / Double(input.sampleRate)
                current.avOffset = offset
                if points.count != current.waveform.count { current.waveform = points }
            }
        }
        if written >= maxSamples, case .user = reason { reason = .cap }
        audioInput = nil  // closes the microphone now, not at deinit
        // The pictures end where the sound reached.
        state.withLock { soundEndMicroseconds = soundCoveredMicroseconds }
        finishThread(reason)
    }

    // MARK: - Pictures

    private func pictureLoop() {
        guard let input = videoInput, let writer, let part else { return }
        let withAudio = microphone != nil
        let maxMicroseconds = Int64(maxSeconds * 1_000_000)
        var reason: StopReason = .user
        var lastSync = monotonicNanoseconds()
        var frameInterval = Int64(1_000_000 / max(1, input.fps))
        var lastPosition: Int64 = -1
        var stopSeenAt: UInt64?
        while true {
            let (requested, soundEnd) = state.withLock { (stopRequested, soundEndMicroseconds) }
            if let requested {
                // Without sound, stop now. With sound, finish the pictures up to where the sound
                // ended (frames already captured are still on their way), but never wait long.
                reason = requested
                if !withAudio { break }
                let now = monotonicNanoseconds()
                if stopSeenAt == nil { stopSeenAt = now }
                if now - stopSeenAt! > 1_000_000_000 { break }
                if let soundEnd, lastPosition + frameInterval >= soundEnd { break }
            }
            let frame: VideoFrame?
            do {
                frame = try input.next(timeout: 0.25)
            } catch {
                fail(error)
                break
            }
            guard let frame else {
                if let gone = input.ended {
                    reason = .deviceGone("the camera went away (\(gone.message))")
                    requestStop(reason)
                    break
                }
                continue
            }
            // Zero is the first sample's time; without sound, the first frame's.
            let anchor: Int64? = state.withLock {
                if !withAudio && videoAnchor == nil { videoAnchor = frame.timestampNanoseconds }
                return videoAnchor
            }
            guard let anchor else { continue }  // the sound has not started yet
            let position = (frame.timestampNanoseconds - anchor) / 1000
            if position < 0 { continue }
            if !withAudio && position + frameInterval / 2 > maxMicroseconds {
                reason = .cap
                requestStop(.cap)
                break
            }
            if withAudio {
                // The sound decides where the recording ends: a frame is written once the sound
                // has reached its time (at most one ALSA period later), and not at all past the end.
                let waitStart = monotonicNanoseconds()
                var end: Int64?
                while true {
                    let (covered, soundEnd) = state.withLock { (soundCoveredMicroseconds, soundEndMicroseconds) }
                    end = soundEnd
                    if soundEnd != nil || covered >= position || monotonicNanoseconds() - waitStart > 500_000_000 { break }
                    usleep(2_000)
                }
                if let end, position >= end { break }
                if position >= maxMicroseconds { continue }
            }
            do {
                try writer.writeVideo(frame.data, at: position)
                if !withAudio && monotonicNanoseconds() - lastSync > 1_000_000_000 {
                    try writer.flush()
                    try part.sync()
                    lastSync = monotonicNanoseconds()
                }
            } catch {
                fail(error)
                break
            }
            if lastPosition >= 0 { frameInterval = (frameInterval * 7 + (position - lastPosition)) / 8 }
            lastPosition = position
            let written = writer.videoFramesWritten
            let dropped = input.framesDropped + input.corruptFrames
            state.withLock {
                if current.firstFrameAt == nil { current.firstFrameAt = monotonicNanoseconds() }
                current.frames = written
                current.droppedFrames = dropped
                current.videoSeconds = Double(position) / 1e6
            }
        }
        let dropped = input.framesDropped + input.corruptFrames
        state.withLock { current.droppedFrames = dropped }
        videoInput = nil  // closes the camera
        finishThread(reason)
    }

    // MARK: - After recording

    /// Finalizes the stopped recording: drains the encoders, remuxes the fragmented file into a
    /// regular `.m4a` / `.mov` (in the library's temporary area), reads its real duration, and for
    /// a video makes the thumbnail.
    public func finish() throws -> Take {
        waitUntilStopped()
        guard let writer, let part else { throw RecorderError.notStarted }
        let (reason, status, failure) = state.withLock { (current.stopReason ?? .user, current, self.failure) }
        let empty = camera != nil ? writer.videoFramesWritten == 0 : writer.samplesWritten == 0
        if empty {
            library.discard(part)
            if let failure { throw failure }
            throw RecorderError.nothingRecorded(camera != nil)
        }
        // On any failure below the fragmented file stays: the next run recovers what it holds.
        try writer.finish()
        try library.faults.hit("record.finalize.encoded")
        let final = try library.makeStagedFile(named: "save_\(id.uuidString).\(kind.fileExtension)")
        var thumbnail: Library.StagedFile?
        do {
            try MediaFile.remux(part.path, to: final.path)
            try library.faults.hit("record.finalize.remuxed")
            let info = try MediaFile.probe(final.path)
            if kind == .video { thumbnail = library.stageThumbnail(of: final.path, id: id) }
            return Take(id: id, kind: kind, startedAt: startedAt, duration: info.duration, info: info,
                        waveform: builder.finish(), stopReason: reason, finalFile: final, thumbnail: thumbnail,
                        frames: writer.videoFramesWritten, droppedFrames: status.droppedFrames,
                        avOffset: camera != nil && microphone != nil ? sync.reportedWorstOffset : nil, part: part)
        } catch {
            library.discard(final)
            if let thumbnail { library.discard(thumbnail) }
            throw error
        }
    }

    /// Where the recording is written while it is captured (kept there if finishing or saving
    /// fails: the next cravey command recovers it).
    public var temporaryFile: String? { part?.path }

    /// Saves a take into the library atomically, then removes the temporary recording.
    public func save(_ take: Take, draft: Library.Draft) throws -> Recording {
        let info = take.info
        let saved = try library.save(
            take.finalFile, thumbnail: take.thumbnail, kind: take.kind, draft: draft, duration: take.duration,
            media: MediaFacts(width: info.width, height: info.height, fps: info.fps, sampleRate: info.sampleRate,
                              channels: info.channels, waveform: take.waveform, avOffset: take.avOffset),
            id: take.id, createdAt: take.startedAt)
        try library.faults.hit("record.saved")
        library.discard(take.part)
        return saved
    }

    /// Throws the take away (after the user confirmed): nothing of it stays in the library.
    public func discard(_ take: Take) {
        library.discard(take.finalFile)
        if let thumbnail = take.thumbnail { library.discard(thumbnail) }
        library.discard(take.part)
    }
}

public enum RecorderError: Error, CustomStringConvertible {
    case notStarted
    case nothingRecorded(Bool)
    case camera(MediaError)
    case microphone(MediaError)

    public var description: String {
        switch self {
        case .notStarted: return "the recorder was not started"
        case let .nothingRecorded(video):
            return video ? "nothing was recorded (stopped before the first frame arrived)"
                : "nothing was recorded (stopped before the first sound arrived)"
        case let .camera(error): return "cannot record from the camera: \(error.message)"
        case let .microphone(error): return "cannot record from the microphone: \(error.message)"
        }
    }
}
