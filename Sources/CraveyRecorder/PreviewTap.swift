import CraveyMedia
import Foundation

/// The camera's latest picture for a live preview, handed from the picture thread to the screen.
///
/// The picture thread must never wait for the screen: while a preview is wanted it copies each
/// frame here (a 4:2:0 frame, about 0.35 MB at 640×360: a memory copy, outside the lock), the
/// newest replacing one not yet taken, so the screen always shows the newest picture; it never
/// blocks on a slow terminal or window. With no preview wanted it copies nothing.
public final class PreviewTap: @unchecked Sendable {
    private let lock = NSLock()
    private var wanted = false
    private var waiting: VideoFrame?

    public init() {}

    /// Whether pictures are copied for a preview (off by default: no preview costs nothing).
    public var isWanted: Bool {
        get { lock.withLock { wanted } }
        set { lock.withLock { wanted = newValue; if !newValue { waiting = nil } } }
    }

    /// Called by the picture thread with each frame as it comes.
    func offer(_ frame: VideoFrameView) {
        guard lock.withLock({ wanted }) else { return }
        let copy = frame.copied()
        lock.withLock {
            if wanted { waiting = copy }
        }
    }

    /// The newest picture not yet taken, if any.
    public func take() -> VideoFrame? {
        lock.withLock {
            defer { waiting = nil }
            return waiting
        }
    }
}
