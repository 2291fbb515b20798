import CraveyMedia
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The recorder's two capture threads: sound from the microphone (the clock everything follows)
/// and pictures from the camera, placed by their own timestamps against it.
extension Recorder {
    // MARK: - Sound

    /// The sound thread: takes the microphone's blocks from its reader (`MicrophoneQueue`),
    /// encodes them and makes the file durable once a second; asks the reader to stop when the
    /// sound ends, and goes on with what it had queued before the stop.
    func soundLoop(_ microphone: MicrophoneQueue, writer: CaptureWriter, part: any StagedRecordingFile) {
        let sampleRate = microphone.sampleRate
        var builder = WaveformBuilder(sampleRate: sampleRate)
        var sync = ClockSync(sampleRate: sampleRate)
        let maxSamples = Int((maxSeconds * Double(sampleRate)).rounded(.down))
        let withVideo = camera != nil
        var sinceSync = 0
        var syncs = 0
        var silentSamples = 0
        var written = 0
        var reason: StopReason = .user
        var stopping: StopReason?
        // Pauses: blocks read while paused are dropped, and the time paused is taken out of the
        // capture clock (`pausedTotal`), so the sync (and the pictures) never see it.
        var paused = false
        var pausedTotal: Int64 = 0
        var lastKeptEnd: Int64?
        capture: while true {
            let (requested, wantsPause) = state.withLock { ($0.stopRequested, $0.pauseRequested) }
            if let requested, stopping == nil {
                stopping = requested
                microphone.stop()
            }
            if written >= maxSamples { reason = .cap; break }
            var block: ArraySlice<Float>
            let now: (nanoseconds: Int64, delay: Int)
            let overruns: Int
            switch microphone.next(waiting: 0.25) {
            case nil: continue
            case .ended:
                reason = stopping ?? .user
                break capture
            case let .gone(gone):
                reason = .deviceGone("the microphone went away (\(gone.message))")
                break capture
            case let .failed(error):
                fail(error)
                break capture
            case let .block(samples, clock, count):
                (block, now, overruns) = (samples[...], clock, count)
            }
            // The capture clock, the time paused taken out: what the pictures follow in a video,
            // and what tells how much sound an overrun lost in every take.
            let blockEnd = now.nanoseconds - Int64(Double(now.delay) / Double(sampleRate) * 1e9)
            if wantsPause {
                if !paused && withVideo { handOff.pauseBegan(at: lastKeptEnd ?? blockEnd) }
            } else if paused {
                let blockStart = blockEnd - Int64(Double(block.count) / Double(sampleRate) * 1e9)
                pausedTotal += max(0, blockStart - (lastKeptEnd ?? blockStart))
                if withVideo { handOff.pauseEnded(at: blockStart) }
            }
            if !wantsPause { lastKeptEnd = blockEnd }
            let clock = (nanoseconds: now.nanoseconds - pausedTotal, delay: now.delay)
            if wantsPause != paused {
                paused = wantsPause
                state.withLock {
                    $0.current.paused = wantsPause; $0.current.level = .silence
                }
            }
            if paused { continue }
            var silence = 0
            // The first block fixes the recording's zero. In a video the sound follows the
            // pictures' clock (sound lost comes back as silence); sound alone is kept as it was
            // heard, and the sync only measures what an overrun lost.
            let plan = sync.plan(frames: block.count, nanoseconds: clock.nanoseconds, delay: clock.delay)
            if withVideo {
                silence = plan.silence
                if plan.adjust != 0 { block = ClockSync.resample(block, to: block.count + plan.adjust)[...] }
            }
            var samples = [Float](repeating: 0, count: min(silence, maxSamples - written))
            samples += block.prefix(maxSamples - written - samples.count)
            if withVideo, let anchor = sync.anchorNanoseconds {
                // How far the sound reaches on the pictures' clock: when the last sample kept was
                // captured (so a drifting microphone cannot stretch the pictures); for a device
                // without a usable clock, the samples written.
                let unused = silence + block.count - samples.count
                let reach =
                    sync.clocked
                    ? (clock.nanoseconds - Int64(Double(clock.delay + unused) / Double(sampleRate) * 1e9) - anchor)
                        / 1000
                    : Int64(written + samples.count) * 1_000_000 / Int64(sampleRate)
                handOff.soundReached(reach, zero: anchor)
            }
            do {
                try writer.write(samples)
                sinceSync += samples.count
                if sinceSync >= sampleRate {  // about once a second: make it durable
                    syncs += 1
                    staging.holdUp("record.sync.\(syncs)")
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
            let offset = withVideo ? sync.offset / sync.sampleRate : 0
            let silentSeconds = Double(silentSamples) / Double(sampleRate)
            state.withLock {
                if $0.current.firstBlockAt == nil { $0.current.firstBlockAt = monotonicNanoseconds() }
                $0.current.samples = written
                $0.current.level = level
                $0.current.clipped = $0.current.clipped || level.clipped
                $0.current.silentSeconds = silentSeconds
                $0.current.avOffset = offset
                $0.current.overruns = overruns
                $0.current.soundLostSeconds = sync.lostSeconds
                if points.count != $0.current.waveform.count { $0.current.waveform = points }
            }
        }
        if written >= maxSamples, case .user = reason { reason = .cap }
        let sound = (waveform: builder.finish(), worstOffset: withVideo ? sync.reportedWorstOffset : nil)
        state.withLock { $0.sound = sound }
        microphone.stop()  // the reader closes the microphone after the block it is reading
        // The pictures end where the sound reached.
        handOff.soundEnded()
        finishThread(reason)
    }

    // MARK: - Pictures

    /// The picture thread: owns the camera, and closes it when the pictures end.
    func pictureLoop(_ input: consuming VideoInput, writer: CaptureWriter, part: any StagedRecordingFile) {
        let withAudio = microphone != nil
        let maxMicroseconds = Int64(maxSeconds * 1_000_000)
        var reason: StopReason = .user
        var lastSync = monotonicNanoseconds()
        var frameInterval = Int64(1_000_000 / max(1, input.fps))
        var lastPosition: Int64 = -1
        var stopSeenAt: UInt64?
        var silentPaused: (now: Bool, lastKept: Int64?, total: Int64) = (false, nil, 0)
        while true {
            let requested = state.withLock { $0.stopRequested }
            let soundEnd = handOff.soundEnd
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
            // The frame stays in the camera's buffer (or the MJPEG decoder's picture) until the next
            // call: the writer's converter reads it there.
            let frame: VideoFrameView?
            do {
                frame = try input.nextView(timeout: 0.25)
            } catch {
                fail(error)
                break
            }
            guard let frame else {
                if let ending = input.ended {
                    switch ending {
                    case let .gone(error): reason = .deviceGone("the camera went away (\(error.message))")
                    case let .stalled(trouble): reason = .deviceGone("the camera stopped: \(trouble.message)")
                    }
                    requestStop(reason)
                    break
                }
                continue
            }
            // The preview sees every picture, paused or not, before the sound has started too.
            preview.offer(frame)
            // Pauses: with sound, the sound thread marks them on the clock and frames inside one
            // are left out; a silent video pauses here, taking the time paused out of its clock.
            var captured = frame.timestampNanoseconds
            if withAudio {
                var clock = handOff.recordingClock(ofFrameAt: captured)
                if clock == nil, handOff.pauseIsOpen, !state.withLock({ $0.pauseRequested }) {
                    // Resuming: the sound marks where the pause ended with its next block; wait for
                    // it (briefly) rather than drop the frames that follow the resume.
                    let start = monotonicNanoseconds()
                    while clock == nil, handOff.pauseIsOpen, monotonicNanoseconds() - start < 500_000_000 {
                        usleep(2_000)
                        clock = handOff.recordingClock(ofFrameAt: captured)
                    }
                    clock = handOff.recordingClock(ofFrameAt: captured)
                }
                guard let clock else { continue }
                captured = clock
            } else {
                let wantsPause = state.withLock { $0.pauseRequested }
                if wantsPause != silentPaused.now {
                    silentPaused.now = wantsPause
                    if !wantsPause, let last = silentPaused.lastKept {
                        // Resumed: this frame follows the last one kept by one frame interval.
                        silentPaused.total += max(0, captured - last - frameInterval * 1000)
                    }
                    state.withLock { $0.current.paused = wantsPause }
                }
                if wantsPause { continue }
                silentPaused.lastKept = captured
                captured -= silentPaused.total
            }
            // Zero is the first sample's time; without sound, the first frame's.
            guard let zero = handOff.zero(orFirstFrame: withAudio ? nil : captured) else {
                continue  // the sound has not started yet
            }
            let position = CaptureHandOff.position(ofFrameAt: captured, zero: zero)
            if position < 0 { continue }
            if !withAudio && position + frameInterval / 2 > maxMicroseconds {
                reason = .cap
                requestStop(.cap)
                break
            }
            if withAudio {
                // The sound decides where the recording ends: a frame is written once the sound
                // has reached its time (at most one ALSA period later), and not at all past the end.
                let end = handOff.waitForSound(reaching: position, timeoutNanoseconds: 500_000_000)
                if let end, position >= end { break }
                if position >= maxMicroseconds { continue }
            }
            do {
                try writer.writeVideo(frame.bytes, at: position)
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
            let dropped = input.framesDropped + input.corruptFrames + input.undecodableFrames
            state.withLock {
                if $0.current.firstFrameAt == nil { $0.current.firstFrameAt = monotonicNanoseconds() }
                $0.current.frames = written
                $0.current.droppedFrames = dropped
                $0.current.videoSeconds = Double(position) / 1e6
            }
        }
        let dropped = input.framesDropped + input.corruptFrames + input.undecodableFrames
        state.withLock { $0.current.droppedFrames = dropped }
        _ = consume input  // closes the camera
        finishThread(reason)
    }
}
