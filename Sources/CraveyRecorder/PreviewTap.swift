import CraveyMedia
import Foundation

/// The camera's latest picture for a live preview, handed from the picture thread to the screen.
///
/// The picture thread must never wait for the screen: it copies a frame here only while a preview
/// is wanted and the screen has taken the previous one (one copy of a 4:2:0 frame, about 0.35 MB at
/// 640×360), and never blocks on a slow terminal or window. The screen takes the picture when it
/// draws; frames that come meanwhile are simply not copied.
public final class PreviewTap: @unchecked Sendable {
    private let lock = NSLock()
    private var wanted = false
    private var waiting: VideoFrame?
    /// Pictures handed over since the preview was first wanted.
    public private(set) var handed = 0

    public init() {}

    /// Whether pictures are copied for a preview (off by default: no preview costs nothing).
    public var isWanted: Bool {
        get { lock.withLock { wanted } }
        set { lock.withLock { wanted = newValue; if !newValue { waiting = nil } } }
    }

    /// Called by the picture thread with each frame as it comes.
    func offer(_ frame: VideoFrameView) {
        guard lock.withLock({ wanted && waiting == nil }) else { return }
        let copy = frame.copied()
        lock.withLock {
            if wanted { waiting = copy }
        }
    }

    /// The newest picture not yet taken, if any.
    public func take() -> VideoFrame? {
        lock.withLock {
            defer { waiting = nil }
            if waiting != nil { handed += 1 }
            return waiting
        }
    }
}
