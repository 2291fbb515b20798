internal import CSDL
internal import CFFmpeg
import FoundationEssentials
import Glibc

/// A window showing video frames (SDL2) — a video played, or the camera while recording: yuv420p
/// frames scaled to the window with their aspect kept; keys pressed in it and its close button
/// come back as events (what a key does is the caller's business). Use from one thread.
public final class VideoWindow {
    public enum Event: Sendable, Equatable {
        case close
        case key(Key)
    }

    /// A key pressed in the window: its character, or an arrow.
    public enum Key: Sendable, Equatable {
        case character(Character)
        case left, right
        case other
    }

    private let window: OpaquePointer
    /// The size of the frames it shows.
    public private(set) var width: Int
    public private(set) var height: Int

    /// Whether this session has a display a window could open on.
    public static var displayAvailable: Bool {
        let env = ProcessInfo.processInfo.environment
        return !(env["DISPLAY"] ?? "").isEmpty || !(env["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    /// Opens a window for `width`×`height` frames, `size` on the screen (the frames' size when nil);
    /// `mirrored` flips every frame left to right, as a camera looking at its user is shown.
    public init(title: String, width: Int, height: Int, size: VideoSize? = nil, mirrored: Bool = false) throws {
        try SharedLibrary.sdl.load()
        var pointer: OpaquePointer?
        guard
            CSDL_window_open(
                title, Int32(width), Int32(height), Int32(size?.width ?? 0), Int32(size?.height ?? 0),
                mirrored ? 1 : 0, &pointer) == 0, let pointer
        else {
            throw MediaError(
                source: .system, code: -ENODEV, operation: "open a window", message: String(cString: CSDL_error()))
        }
        window = pointer
        self.width = width
        self.height = height
    }

    deinit { CSDL_window_close(window) }

    /// Takes frames of `width`×`height` from now on, `size` on the screen (unchanged when nil): a
    /// window opened before the frames' size was known.
    public func setFrameSize(width: Int, height: Int, size: VideoSize? = nil) throws {
        guard
            CSDL_window_set_frame_size(
                window, Int32(width), Int32(height), Int32(size?.width ?? 0), Int32(size?.height ?? 0)) == 0
        else {
            throw MediaError(
                source: .system, code: -ENOMEM, operation: "resize a window", message: String(cString: CSDL_error()))
        }
        self.width = width
        self.height = height
    }

    /// Shows a yuv420p frame of the window's size.
    public func show(_ frame: [UInt8]) {
        guard frame.count >= PixelLayout.yuv420p.bytes(width: width, height: height) else { return }
        _ = frame.withUnsafeBufferPointer { CSDL_window_show(window, $0.baseAddress, Int64($0.count)) }
    }

    /// The next key or close, if any (never waits).
    public func poll() -> Event? {
        let code = Int(CSDL_window_poll(window))
        switch code {
        case Int(CSDL_EVENT_NONE): return nil
        case Int(CSDL_EVENT_CLOSE): return .close
        case Int(CSDL_KEY_LEFT): return .key(.left)
        case Int(CSDL_KEY_RIGHT): return .key(.right)
        case 1..<0x80: return .key(.character(Character(Unicode.Scalar(UInt8(code)))))
        default: return .key(.other)
        }
    }
}
