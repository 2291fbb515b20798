import CraveyMedia
import Foundation

/// The camera's pictures for a live preview, handed from the picture thread to the screen.
///
/// The picture thread must never wait for the screen, nor copy pictures nobody shows: the screen
/// asks for a picture when it is ready to show one (`request`), the picture thread copies the next
/// frame it gets (a 4:2:0 frame, about 0.35 MB at 640×360, outside the lock) and the screen takes
/// it. So only the pictures shown are copied (15 or 8 a second, not 30), each at most one frame old.
public final class PreviewTap: @unchecked Sendable {
    private let lock = NSLock()
    private var requested = false
    private var waiting: VideoFrame?

    public init() {}

    /// Asks for the next frame the camera gives (asking again before it came changes nothing).
    public func request() { lock.withLock { requested = true } }

    /// No picture wanted any more (the preview hidden or closed).
    public func cancel() { lock.withLock { requested = false; waiting = nil } }

    /// Called by the picture thread with each frame as it comes. It never waits for the lock: the
    /// screen's thread may run at the lowest priority and be paused while holding it, so a busy
    /// lock means this frame is not offered (the next one will be).
    func offer(_ frame: VideoFrameView) {
        guard lock.try() else { return }
        let wanted = requested
        lock.unlock()
        guard wanted else { return }
        let copy = frame.copied()
        guard lock.try() else { return }
        if requested { waiting = copy; requested = false }
        lock.unlock()
    }

    /// The picture asked for, once it has come.
    public func take() -> VideoFrame? {
        lock.withLock {
            defer { waiting = nil }
            return waiting
        }
    }
}
