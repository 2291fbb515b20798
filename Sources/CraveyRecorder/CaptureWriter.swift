import CraveyMedia

/// The recording's writer, shared by the two capture threads and then `Recorder.finish`.
// Unchecked: `MediaWriter` owns a C handle, which the compiler cannot see is safe to share. It is
// because of how it is used: the C writer locks its muxer, so the sound thread may write the sound
// while the picture thread writes the pictures (each stream from its own thread only), and
// `finish` runs only once both threads have ended (`Recorder.waitUntilStopped`).
struct CaptureWriter: @unchecked Sendable {
    private let writer: MediaWriter

    init(_ writer: MediaWriter) { self.writer = writer }

    /// The sound thread's: encodes mono samples.
    func write(_ samples: [Float]) throws { try writer.write(samples) }

    /// The picture thread's: encodes a frame shown at `microseconds`.
    func writeVideo(_ frame: UnsafeRawBufferPointer, at microseconds: Int64) throws {
        try writer.writeVideo(frame, at: microseconds)
    }

    /// Pushes what was written to the file (before an fsync).
    func flush() throws { try writer.flush() }

    var videoFramesWritten: Int { writer.videoFramesWritten }
    var samplesWritten: Int { writer.samplesWritten }

    /// After both threads: drains the encoders and closes the file.
    func finish() throws { try writer.finish() }
}
