internal import CSDL
internal import CFFmpeg
import Foundation

/// A window showing video frames (SDL2): yuv420p frames scaled to the window with their aspect
/// kept; the keys of the player and the close button come back as events. Use from one thread.
public final class VideoWindow: @unchecked Sendable {
    public enum Event: Sendable, Equatable { case close, pause, back, forward, quit }

    private let window: OpaquePointer
    public let width: Int
    public let height: Int

    /// Whether this session has a display a window could open on.
    public static var displayAvailable: Bool {
        let env = ProcessInfo.processInfo.environment
        return !(env["DISPLAY"] ?? "").isEmpty || !(env["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    /// Opens a window for `width`×`height` frames.
    public init(title: String, width: Int, height: Int) throws {
        var pointer: OpaquePointer?
        guard CSDL_window_open(title, Int32(width), Int32(height), &pointer) == 0, let pointer else {
            throw MediaError(source: .system, code: -ENODEV, operation: "open a window", message: String(cString: CSDL_error()))
        }
        window = pointer
        self.width = width
        self.height = height
    }

    deinit { CSDL_window_close(window) }

    /// Shows a yuv420p frame of the window's size.
    public func show(_ frame: [UInt8]) {
        guard frame.count >= PixelLayout.yuv420p.bytes(width: width, height: height) else { return }
        _ = frame.withUnsafeBufferPointer { CSDL_window_show(window, $0.baseAddress, Int64($0.count)) }
    }

    /// The next key or close, if any (never waits).
    public func poll() -> Event? {
        switch Int(CSDL_window_poll(window)) {
        case Int(CSDL_EVENT_CLOSE): return .close
        case Int(CSDL_EVENT_PAUSE): return .pause
        case Int(CSDL_EVENT_BACK): return .back
        case Int(CSDL_EVENT_FORWARD): return .forward
        case Int(CSDL_EVENT_QUIT): return .quit
        default: return nil
        }
    }
}
