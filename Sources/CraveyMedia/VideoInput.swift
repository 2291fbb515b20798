internal import CV4L2
internal import CFFmpeg
import Foundation

/// A camera mode: the camera's own pixel format at a size and frame rate.
public struct CameraMode: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var fps: Double
    /// The camera's fourcc, e.g. "YUYV" or "MJPG" (frames reach cravey as YUV 4:2:0 either way).
    public var pixelFormat: String

    /// JPEG pictures (MJPG or JPEG), decoded by cravey with FFmpeg.
    public var isJPEG: Bool { pixelFormat == "MJPG" || pixelFormat == "JPEG" }

    public init(width: Int, height: Int, fps: Double, pixelFormat: String) {
        self.width = width
        self.height = height
        self.fps = fps
        self.pixelFormat = pixelFormat
    }

    public var description: String {
        "\(width)x\(height)@\(fps.rounded() == fps ? String(Int(fps)) : String(format: "%.2f", fps)) \(pixelFormat)"
    }

    public var pixels: Int { width * height }

    /// The largest cravey records: at most 1280×720 (larger camera modes are scaled down).
    public static let maxWidth = 1280
    public static let maxHeight = 720

    public var fitsLimit: Bool { width <= Self.maxWidth && height <= Self.maxHeight }

    /// The mode to record with: the largest at most 1280×720 that runs at 24 fps or more, at the
    /// rate nearest 30 fps (then the
    /// largest at any rate); when the camera offers nothing that small, its smallest larger mode,
    /// to be scaled down. `preferred` caps the size (a request above 1280×720 is capped too).
    public static func best(of modes: [CameraMode], preferred: (width: Int, height: Int)? = nil) -> CameraMode? {
        let capWidth = min(preferred?.width ?? maxWidth, maxWidth)
        let capHeight = min(preferred?.height ?? maxHeight, maxHeight)
        let fitting = modes.filter { $0.width <= capWidth && $0.height <= capHeight }
        // Bigger is better; at the same size, the rate nearest 30 fps (60 fps doubles the
        // encoder's work for a talking head); then raw pictures over JPEG ones (no decoding, no
        // JPEG artifacts). So a webcam's MJPEG 1280×720 at 30 fps wins over its YUYV 1280×720 at
        // 10 fps (below 24 fps), and YUYV wins where both run at 30.
        func rank(_ a: CameraMode, _ b: CameraMode) -> Bool {
            if a.pixels != b.pixels { return a.pixels < b.pixels }
            if abs(a.fps - 30) != abs(b.fps - 30) { return abs(a.fps - 30) > abs(b.fps - 30) }
            return a.isJPEG && !b.isJPEG
        }
        if let smooth = fitting.filter({ $0.fps >= 24 }).max(by: rank) { return smooth }
        if let any = fitting.max(by: rank) { return any }
        return modes.min(by: rank)
    }
}

/// What a V4L2 capture node is.
public struct CameraInfo: Sendable, Equatable, Codable {
    public var path: String
    public var card: String
    public var driver: String
    public var bus: String
    /// The stable `/dev/v4l/by-id/…` link pointing at this node, when udev made one.
    public var byIdPath: String?
    public var modes: [CameraMode]
    public var isDefault = false

    /// Opens `path` only long enough to read its capabilities and modes.
    public init(path: String) throws {
        try SharedLibrary.v4l2.load()
        let device = try CameraDevice(path: path)
        self.path = path
        card = device.card
        driver = device.driver
        bus = device.bus
        modes = try device.modes()
        byIdPath = Self.link(in: "/dev/v4l/by-id", to: path)
    }

    /// Every video capture node (`/dev/video*` that can capture), the default marked: the
    /// front/integrated webcam (an internal-bus uvcvideo camera, or one named "Integrated"/"Front"),
    /// else the first.
    public static func all() -> [CameraInfo] {
        let nodes = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? [])
            .filter { $0.hasPrefix("video") }
            .sorted { (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0) }
        var cameras = nodes.compactMap { try? CameraInfo(path: "/dev/" + $0) }
        let front =
            cameras.firstIndex { camera in
                let name = camera.card.lowercased()
                return name.contains("integrated") || name.contains("front") || name.contains("internal")
            } ?? cameras.firstIndex { $0.driver == "uvcvideo" && !$0.bus.contains("usb-0000:00:14") }
            ?? cameras.indices.first
        if let front { cameras[front].isDefault = true }
        return cameras
    }

    /// The front (integrated) webcam, else the first camera: what cravey records from by default.
    public static var front: CameraInfo? { all().first(where: \.isDefault) }

    /// The camera at a node path, a by-id/by-path link, or a card name (case-insensitive start).
    public static func find(_ key: String) throws -> CameraInfo {
        if key.hasPrefix("/") { return try CameraInfo(path: key) }
        let cameras = all()
        if let match = cameras.first(where: { $0.card.lowercased().hasPrefix(key.lowercased()) }) { return match }
        throw CameraTrouble.noSuchCamera(key)
    }

    /// The camera a `--camera` value names (or the default front webcam, for nil) and the mode to
    /// record in. Throws a clear error when there is no such camera or it offers no usable mode.
    /// `largest` caps the size (e.g. 640x360 for smaller files).
    public static func choose(_ key: String?, largest: (width: Int, height: Int)? = nil) throws -> (
        camera: CameraInfo, mode: CameraMode
    ) {
        try SharedLibrary.v4l2.load()
        let info: CameraInfo
        if let key {
            info = try find(key)
        } else {
            guard let front else { throw CameraTrouble.noneFound }
            info = front
        }
        guard let mode = CameraMode.best(of: info.modes, preferred: largest) else {
            throw CameraTrouble.noUsableMode(info.path)
        }
        return (info, mode)
    }

    private static func link(in dir: String, to node: String) -> String? {
        let target = URL(fileURLWithPath: node).resolvingSymlinksInPath().path
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
            let link = dir + "/" + name
            if URL(fileURLWithPath: link).resolvingSymlinksInPath().path == target { return link }
        }
        return nil
    }
}

/// An open V4L2 capture node (through libv4l2, which converts every camera format).
final class CameraDevice {
    let pointer: OpaquePointer
    let path: String

    init(path: String) throws {
        var device: OpaquePointer?
        let result = CV4L2_open(path, &device)
        guard result == 0, let device else { throw VideoInput.openError(result, path) }
        pointer = device
        self.path = path
    }

    deinit { CV4L2_close(pointer) }

    var card: String { String(cString: CV4L2_card(pointer)) }
    var driver: String { String(cString: CV4L2_driver(pointer)) }
    var bus: String { String(cString: CV4L2_bus(pointer)) }

    func modes() throws -> [CameraMode] {
        var list: UnsafeMutablePointer<CV4L2_mode>?
        var count = 0
        let result = CV4L2_modes(pointer, &list, &count)
        guard result == 0 else { throw MediaError.system(result, "list modes of \(path)") }
        defer { free(list) }
        var modes: [CameraMode] = []
        for i in 0..<count {
            let m = list![i]
            let fps = m.interval_numerator > 0 ? Double(m.interval_denominator) / Double(m.interval_numerator) : 30
            let mode = CameraMode(
                width: Int(m.width), height: Int(m.height), fps: (fps * 100).rounded() / 100,
                pixelFormat: fourcc(m.pixel_format))
            if !modes.contains(mode) { modes.append(mode) }
        }
        return modes
    }
}

/// One captured frame, YUV 4:2:0 planar (Y, then U, then V), with the driver's timing.
public struct VideoFrame: Sendable {
    public var data: [UInt8]
    public var width: Int
    public var height: Int
    /// CLOCK_MONOTONIC time of the frame, from the V4L2 buffer.
    public var timestampNanoseconds: Int64
    /// The driver's frame counter.
    public var sequence: UInt32
}

/// A captured frame where it lies: the camera's mmap buffer (a raw format, converted in place by
/// libv4l2), or the MJPEG decoder's picture. Valid until the next call to `nextView` (the buffer
/// goes back to the driver then): the recorder hands it to the encoder's converter without copying.
public struct VideoFrameView {
    public var bytes: UnsafeRawBufferPointer
    public var width: Int
    public var height: Int
    public var timestampNanoseconds: Int64
    public var sequence: UInt32

    /// The frame copied out of the buffer it lies in.
    public func copied() -> VideoFrame {
        VideoFrame(
            data: [UInt8](bytes), width: width, height: height, timestampNanoseconds: timestampNanoseconds,
            sequence: sequence)
    }
}

/// A camera streaming frames: negotiated mode, small mmap ring, frames with monotonic timestamps.
/// Dropped frames show as gaps in the sequence numbers; frames the driver marks as corrupt are
/// skipped and counted. MJPEG cameras are read in their own format and decoded with FFmpeg's
/// MJPEG decoder; every other format reaches cravey as YUV 4:2:0 through libv4l2. When the camera
/// goes away, or sends nothing usable for a while, the stream just ends (`ended` says why).
public final class VideoInput {
    private let device: CameraDevice
    public let mode: CameraMode
    public let width: Int
    public let height: Int
    public let fps: Double
    /// Whether frames are JPEG pictures decoded here (MJPG/JPEG modes).
    private let decodesJPEG: Bool
    public private(set) var framesDropped = 0
    public private(set) var corruptFrames = 0
    /// Pictures that did not decode (a JPEG the decoder refused).
    public private(set) var undecodableFrames = 0
    /// Why the stream ended, once it has.
    public enum Ending: Sendable {
        /// The camera went away (unplugged, driver gone).
        case gone(MediaError)
        /// It sent no picture that decodes for `stallSeconds` (or none at all for twice that).
        case stalled(CameraTrouble)
    }

    /// Set when the stream ended.
    public private(set) var ended: Ending?
    private var lastSequence: UInt32?
    private var held: UInt32?
    private var jpeg: OpaquePointer?
    /// When the last good picture came (the stream's first read, before one has).
    private var lastPicture: Date?
    private var lastDecodeError: Int32?
    /// How long the stream may go without a good picture: pictures that arrive but do not decode
    /// end it after `stallSeconds`, and no picture at all after twice that (a camera may take a
    /// moment to send its first frame).
    private let stallSeconds: TimeInterval = 2

    /// Who turns a webcam's JPEG pictures into frames.
    public enum JPEGDecoding: Sendable {
        /// cravey, with FFmpeg's decoder (the usual way).
        case cravey
        /// libv4l2's conversion, as before cravey decoded them itself: the webcam benchmark's
        /// comparison (libv4l2 refuses many webcams' pictures).
        case libv4l2
    }

    /// Opens `path` and starts streaming `mode` (see `CameraMode.best`).
    public init(path: String, mode: CameraMode, buffers: Int = 6, jpeg decoding: JPEGDecoding = .cravey) throws {
        try SharedLibrary.v4l2.load()
        device = try CameraDevice(path: path)
        decodesJPEG = mode.isJPEG && decoding == .cravey
        let native = mode.pixelFormat == "JPEG" ? CV4L2_PIX_FMT_JPEG : CV4L2_PIX_FMT_MJPEG
        var format = CV4L2_format()
        var result = CV4L2_set_format(
            device.pointer, UInt32(mode.width), UInt32(mode.height),
            decodesJPEG ? native : CV4L2_PIX_FMT_YUV420, UInt32(mode.fps.rounded()), &format)
        guard result == 0 else { throw MediaError.system(result, "set camera mode \(mode) on \(path)") }
        width = Int(format.width)
        height = Int(format.height)
        fps =
            format.interval_numerator > 0
            ? Double(format.interval_denominator) / Double(format.interval_numerator) : mode.fps
        self.mode = mode
        if decodesJPEG {
            var decoder: OpaquePointer?
            result = CFFmpeg_camera_jpeg_open(Int32(width), Int32(height), &decoder)
            guard result == 0 else { throw MediaError.ffmpeg(result, "open an MJPEG decoder for \(path)") }
            jpeg = decoder
        }
        result = CV4L2_start(device.pointer, UInt32(buffers))
        guard result == 0 else { throw VideoInput.openError(result, path, starting: true) }
    }

    deinit { CFFmpeg_camera_jpeg_free(jpeg) }

    /// The next good frame, copied (see `nextView` for the frame where it lies), or nil on timeout
    /// or when the stream ended.
    public func next(timeout: TimeInterval = 1) throws -> VideoFrame? {
        try nextView(timeout: timeout)?.copied()
    }

    /// The next good frame where it lies (valid until the next call), or nil on timeout or when the
    /// stream ended (then `ended` is set).
    public func nextView(timeout: TimeInterval = 1) throws -> VideoFrameView? {
        if let index = held {
            held = nil
            CV4L2_requeue(device.pointer, index)
        }
        let deadline = Date() + timeout
        if lastPicture == nil { lastPicture = Date() }
        while ended == nil {
            if let stalled = stall() {
                ended = .stalled(stalled)
                return nil
            }
            var frame = CV4L2_frame()
            let wait = max(0, Int32(min(deadline.timeIntervalSinceNow, 0.25) * 1000))
            let result = CV4L2_dequeue(device.pointer, wait, &frame)
            if result == -EINTR { continue }
            if result == 0 {
                if Date() >= deadline { return nil }
                continue
            }
            if result < 0 {
                let error = MediaError.system(result, "read camera \(device.path)")
                guard error.isDeviceGone else { throw error }
                ended = .gone(error)
                return nil
            }
            if let last = lastSequence, frame.sequence > last + 1 { framesDropped += Int(frame.sequence - last - 1) }
            lastSequence = frame.sequence
            guard frame.error == 0, let bytes = picture(of: frame) else {
                if frame.error != 0 { corruptFrames += 1 }
                CV4L2_requeue(device.pointer, frame.index)
                continue
            }
            held = frame.index
            lastPicture = Date()
            return VideoFrameView(
                bytes: bytes, width: width, height: height, timestampNanoseconds: frame.timestamp_ns,
                sequence: frame.sequence)
        }
        return nil
    }

    /// The frame's YUV 4:2:0 picture: the buffer itself, or the JPEG decoded (nil when it does not).
    private func picture(of frame: CV4L2_frame) -> UnsafeRawBufferPointer? {
        guard let jpeg else {
            let size = PixelLayout.yuv420p.bytes(width: width, height: height)
            let bytes = min(Int(frame.bytes_used == 0 ? UInt32(size) : frame.bytes_used), size)
            return UnsafeRawBufferPointer(start: frame.data, count: bytes)
        }
        var picture: UnsafePointer<UInt8>?
        var count: Int64 = 0
        let result = CFFmpeg_camera_jpeg_decode(jpeg, frame.data, Int(frame.bytes_used), frame.length, &picture, &count)
        guard result == 0, let picture else {
            undecodableFrames += 1
            lastDecodeError = result
            return nil
        }
        return UnsafeRawBufferPointer(start: picture, count: Int(count))
    }

    /// Why the stream must end for want of pictures, once it has gone too long without one.
    private func stall() -> CameraTrouble? {
        let quiet = Date().timeIntervalSince(lastPicture ?? Date())
        if let code = lastDecodeError, undecodableFrames > 0, quiet > stallSeconds {
            let why = MediaError.ffmpeg(code, "decode").message
            return .undecodable(path: device.path, format: mode.pixelFormat, seconds: Int(quiet), reason: why)
        }
        if quiet > 2 * stallSeconds { return .silent(path: device.path, seconds: Int(quiet)) }
        return nil
    }

    static func openError(_ code: Int32, _ path: String, starting: Bool = false) -> MediaError {
        let operation = starting ? "start camera \(path)" : "open camera \(path)"
        let message: String
        switch -code {
        case ENOENT: message = "no such device node"
        case EACCES, EPERM: message = "permission denied"
        case EBUSY: message = "the camera is busy (another program is using it)"
        case ENOTTY: message = "not a V4L2 device"
        case ENODEV: message = "this V4L2 node cannot capture video"
        default: return MediaError.system(code, operation)
        }
        return MediaError(source: .system, code: code, operation: operation, message: message)
    }
}

func fourcc(_ value: UInt32) -> String {
    let code = value & 0x7FFF_FFFF  // bit 31 marks big-endian variants
    return String(decoding: (0..<4).map { UInt8((code >> (8 * $0)) & 0xFF) }, as: UTF8.self)
        .trimmingCharacters(in: .whitespaces)
}
