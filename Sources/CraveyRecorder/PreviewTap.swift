import CraveyMedia
import FoundationEssentials
import Glibc
import Synchronization

/// The camera's pictures for a live preview, handed from the picture thread to the screen.
///
/// The picture thread must never wait for the screen, nor copy pictures nobody shows: the screen
/// asks for a picture when it is ready to show one (`request`), the picture thread copies the next
/// frame it gets (a 4:2:0 frame, about 0.35 MB at 640×360, outside the lock) and the screen takes
/// it. So only the pictures shown are copied (15 or 8 a second, not 30), each at most one frame old.
public final class PreviewTap: Sendable {
    private struct State {
        var requested = false
        var waiting: VideoFrame?
    }
    private let state = Mutex(State())

    public init() {}

    /// Asks for the next frame the camera gives (asking again before it came changes nothing).
    public func request() { state.withLock { $0.requested = true } }

    /// No picture wanted any more (the preview hidden or closed).
    public func cancel() {
        state.withLock {
            $0.requested = false; $0.waiting = nil
        }
    }

    /// Called by the picture thread with each frame as it comes. It never waits for the lock: the
    /// screen's thread may run at the lowest priority and be paused while holding it, so a busy
    /// lock means this frame is not offered (the next one will be).
    func offer(_ frame: VideoFrameView) {
        guard state.withLockIfAvailable({ $0.requested }) == true else { return }
        let copy = frame.copied()
        _ = state.withLockIfAvailable { state in
            if state.requested { state.waiting = copy; state.requested = false }
        }
    }

    /// The picture asked for, once it has come.
    public func take() -> VideoFrame? {
        state.withLock { state in
            defer { state.waiting = nil }
            return state.waiting
        }
    }
}
