import CraveyMedia
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Records the microphone, the camera, or both into temporary files of a `RecordingStaging`.
///
/// One capture thread per device: the sound thread reads ALSA, meters the level and encodes AAC;
/// the picture thread dequeues V4L2 frames and encodes H.264. Both write into one fragmented
/// staged temporary file (fsynced about once a second, so a crash or power cut loses at
/// most about a second); `finish` finalizes it into a regular `.m4a` / `.mov` (with a thumbnail),
/// and the staging's owner keeps it (the application layer hands it to the library's atomic save).
///
/// Sound and pictures share the CLOCK_MONOTONIC clock: frames are placed by their V4L2 timestamps
/// relative to the moment of the first sample (see `ClockSync`, which also corrects the
/// microphone's drift). The cap is counted in samples, exact to the sample; a silent video is
/// capped by frame time.
///
/// What the threads share is under `state`; each device is handed to its capture thread, its only
/// user (`spawn`), and the writer is shared as a `CaptureWriter`, one stream a thread.
public final class Recorder: Sendable {
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
        /// Who decodes a webcam's JPEG pictures.
        public var jpeg: VideoInput.JPEGDecoding
        public init(path: String, mode: CameraMode, jpeg: VideoInput.JPEGDecoding = .cravey) {
            self.path = path
            self.mode = mode
            self.jpeg = jpeg
        }
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
        /// Paused: nothing is recorded, and the elapsed time and the cap stand still.
        public var paused = false
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
        /// Times the microphone's buffer filled before it was read (cravey fell behind), and the
        /// sound lost to them, seconds (put back as silence in a video, so the pictures stay in sync).
        public var overruns = 0
        public var soundLostSeconds: Double = 0
        /// CLOCK_MONOTONIC times (ns) of the first sound block, the first frame, and the stop.
        public var firstBlockAt: UInt64?
        public var firstFrameAt: UInt64?
        public var stoppedAt: UInt64?

        public var elapsed: Double { hasAudio ? Double(samples) / Double(sampleRate) : videoSeconds }
        public var remaining: Double { max(0, maxSeconds - elapsed) }
    }

    /// A finished capture: the fragmented file finalized into a regular `.m4a` / `.mov` in the
    /// staging area, with what only the capture knows. Not kept yet: the fragmented file stays
    /// until the take is saved or discarded, so a crash meanwhile recovers it.
    public struct Capture: Sendable {
        public let id: UUID
        /// A video (with a camera), or sound only.
        public let isVideo: Bool
        public let startedAt: Date
        public let info: MediaInfo
        /// Peaks measured while recording (see `WaveformBuilder`).
        public let waveform: [UInt8]
        public let stopReason: StopReason
        /// The finalized file.
        public let file: any StagedRecordingFile
        /// The fragmented file it was captured into.
        public let part: any StagedRecordingFile
        /// Frames in the file, frames the camera dropped, and the worst A/V offset measured (video).
        public let frames: Int
        public let droppedFrames: Int
        public let avOffset: Double?
        /// Whether a microphone was recorded.
        public let hasSound: Bool
        /// Times the microphone's buffer overran, and the sound lost to them, seconds.
        public let overruns: Int
        public let soundLostSeconds: Double
    }

    /// Where the temporary files are staged.
    public let staging: any RecordingStaging
    /// The ALSA microphone, or nil for a silent video.
    public let microphone: String?
    /// The camera, or nil for an audio recording.
    public let camera: Camera?
    public let maxSeconds: Double
    public let encoder: VideoEncoderSettings
    public let id = UUID()
    /// The camera's pictures for a live preview, copied when a screen asks (`PreviewTap.request`).
    public let preview = PreviewTap()
    /// A video (with a camera), or sound only.
    public var isVideo: Bool { camera != nil }
    /// What the display calls the devices: the microphone's ALSA name and/or the camera node.
    public var deviceDescription: String {
        [camera.map { "\($0.path)" }, microphone.map { "'\($0)'" }].compactMap { $0 }.joined(separator: " + ")
    }
    public var startedAt: Date { state.withLock { $0.startedAt } }

    /// What the caller and the capture threads share.
    struct State {
        var current = Status()
        var stopRequested: StopReason?
        var pauseRequested = false
        var failure: Error?
        var startedAt = Date()
        /// Set by `start`, before the capture threads.
        var writer: CaptureWriter?
        var part: (any StagedRecordingFile)?
        /// What the sound thread leaves for `finish` when it ends: the waveform and the worst A/V offset.
        var sound: (waveform: [UInt8], worstOffset: Double?)?
    }
    let state = Mutex(State())
    /// The sound thread's word to the picture thread: zero, reach, end.
    let handOff = CaptureHandOff()
    let threads = DispatchGroup()

    public static let silenceThreshold: Double = -60
    /// How far the sound thread may fall behind the microphone (encoding, the muxer, a slow
    /// fsync) without losing sound: its reader queues up to this much, on top of the device's
    /// own 2 s.
    public static let soundQueueSeconds: Double = 20

    /// `maxSeconds` is the cap as given: the longest a recording may be is the caller's rule.
    public init(
        staging: any RecordingStaging, microphone: String? = "default", camera: Camera? = nil, maxSeconds: Double = 120,
        encoder: VideoEncoderSettings = .default
    ) {
        precondition(microphone != nil || camera != nil, "a recording needs a microphone or a camera")
        self.staging = staging
        self.microphone = microphone
        self.camera = camera
        self.maxSeconds = maxSeconds
        self.encoder = encoder
    }

    /// Opens the devices and the temporary file, and starts capturing on their own threads.
    /// Throws `RecorderError.camera` / `.microphone` (leaving nothing behind) when a device cannot
    /// be opened, so that the caller can offer the other kind of recording.
    public func start() throws {
        // The staged file first: nothing is captured until there is somewhere to keep it (a busy or
        // read-only staging area is a clear error before any device opens). Then the media libraries,
        // before a camera starts streaming into its few buffers.
        let part = try staging.stage(.part, id: id, video: isVideo)
        do { try MediaLibraries.openForRecording(video: camera != nil) } catch {
            staging.discard(part)
            throw error
        }
        // The camera next: it is the slow one to start, and its frames before the first sample
        // are simply not used.
        var video: VideoInput?
        var audio: AudioInput?
        do {
            if let camera {
                do { video = try VideoInput(path: camera.path, mode: camera.mode, jpeg: camera.jpeg) } catch let error
                    as MediaError
                {
                    throw RecorderError.camera(error)
                }
            }
            if let microphone {
                do { audio = try AudioInput(device: microphone) } catch let error as MediaError {
                    throw RecorderError.microphone(error)
                }
            }
        } catch {
            staging.discard(part)
            throw error
        }
        let writer: CaptureWriter
        do {
            if let video {
                let size = VideoSize.fitting(width: video.width, height: video.height)
                writer = CaptureWriter(
                    try MediaWriter(
                        videoPath: part.path, inputWidth: video.width, inputHeight: video.height,
                        size: size, fps: Int(video.fps.rounded()), sampleRate: audio?.sampleRate,
                        encoder: encoder))
                let mode = CameraMode(
                    width: video.width, height: video.height, fps: video.fps, pixelFormat: video.mode.pixelFormat)
                state.withLock {
                    $0.current.cameraMode = mode
                    $0.current.videoSize = size
                }
            } else if let audio {
                writer = CaptureWriter(try MediaWriter(audioPath: part.path, sampleRate: audio.sampleRate))
            } else {
                preconditionFailure("a recording needs a microphone or a camera")
            }
        } catch {
            staging.discard(part)
            throw error
        }
        let rate = audio?.sampleRate ?? 48_000
        state.withLock {
            $0.writer = writer
            $0.part = part
            $0.startedAt = Date()
            $0.current.sampleRate = rate
            $0.current.maxSeconds = maxSeconds
            $0.current.hasAudio = audio != nil
        }
        if let audio {
            let microphone = MicrophoneQueue(sampleRate: audio.sampleRate, seconds: Self.soundQueueSeconds)
            spawn("cravey microphone", with: audio) { microphone.read(from: $0) }
            spawn("cravey sound", with: microphone) { self.soundLoop($0, writer: writer, part: part) }
        }
        if let video { spawn("cravey pictures", with: video) { self.pictureLoop($0, writer: writer, part: part) } }
    }

    /// Starts `body` on a capture thread with `device`, which the caller gives up (`sending`): the
    /// thread is the device's only user, and closes it when done.
    func spawn<Device>(
        _ name: String, with device: consuming sending Device,
        _ body: @escaping @Sendable (consuming Device) -> Void
    ) {
        let handOver = Mutex<Device?>(device)
        threads.enter()
        let thread = Thread {
            body(handOver.withLock { $0.take() }!)
            self.threads.leave()
        }
        thread.name = name
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Asks the capture threads to stop after the block or frame they are reading; the recording is kept.
    public func requestStop(_ reason: StopReason) {
        state.withLock { if $0.stopRequested == nil { $0.stopRequested = reason } }
    }

    /// Pauses or resumes the recording: the file has no gap, the time paused is not counted, and
    /// sound and pictures stay together across it. Returns whether it is now paused.
    @discardableResult
    public func togglePause() -> Bool {
        state.withLock {
            $0.pauseRequested.toggle()
            return $0.pauseRequested
        }
    }

    public var status: Status { state.withLock { $0.current } }

    public var isRunning: Bool { state.withLock { $0.current.stopReason == nil } }

    /// Waits for the capture threads to end (by stop request, cap, device loss or failure).
    public func waitUntilStopped() { threads.wait() }

    func fail(_ error: Error) {
        state.withLock { if $0.failure == nil { $0.failure = error } }
        requestStop(.failed("\(error)"))
    }

    /// Marks the end of the recording once every capture thread is done.
    func finishThread(_ reason: StopReason) {
        state.withLock {
            if $0.stopRequested == nil { $0.stopRequested = reason }
            $0.current.stopReason = $0.stopRequested
            $0.current.stoppedAt = monotonicNanoseconds()
        }
    }

    // MARK: - After recording

    /// Finalizes the stopped recording: drains the encoders and remuxes the fragmented file into a
    /// regular `.m4a` / `.mov` (in the staging area); the remux tells the file's facts
    /// (its real duration, codecs, size and rate) from what it wrote.
    public func finish() throws -> Capture {
        waitUntilStopped()
        let (writer, part, reason, status, failure, sound) = state.withLock {
            ($0.writer, $0.part, $0.current.stopReason ?? .user, $0.current, $0.failure, $0.sound)
        }
        guard let writer, let part else { throw RecorderError.notStarted }
        let startedAt = self.startedAt
        let empty = camera != nil ? writer.videoFramesWritten == 0 : writer.samplesWritten == 0
        if empty {
            staging.discard(part)
            if let failure { throw failure }
            throw RecorderError.nothingRecorded(camera != nil)
        }
        // On any failure below the fragmented file stays: the next run recovers what it holds.
        try writer.finish()
        try staging.hit("record.finalize.encoded")
        let final = try staging.stage(.final, id: id, video: isVideo)
        do {
            let (_, info) = try MediaFile.remux(part.path, to: final.path)
            try staging.hit("record.finalize.remuxed")
            return Capture(
                id: id, isVideo: isVideo, startedAt: startedAt, info: info, waveform: sound?.waveform ?? [],
                stopReason: reason, file: final, part: part, frames: writer.videoFramesWritten,
                droppedFrames: status.droppedFrames,
                avOffset: camera != nil && microphone != nil ? sound?.worstOffset : nil,
                hasSound: microphone != nil, overruns: status.overruns, soundLostSeconds: status.soundLostSeconds)
        } catch {
            staging.discard(final)
            throw error
        }
    }

    /// Where the recording is written while it is captured (kept there if finishing or saving
    /// fails: the next cravey command recovers it).
    public var temporaryFile: String? { state.withLock { $0.part?.path } }
}
