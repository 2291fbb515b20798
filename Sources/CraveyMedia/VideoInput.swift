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

    public init(width: Int, height: Int, fps: Double, pixelFormat: String) {
        self.width = width
        self.height = height
        self.fps = fps
        self.pixelFormat = pixelFormat
    }

    public var description: String { "\(width)x\(height)@\(fps.rounded() == fps ? String(Int(fps)) : String(format: "%.2f", fps)) \(pixelFormat)" }

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
        // encoder's work for a talking head).
        func rank(_ a: CameraMode, _ b: CameraMode) -> Bool {
            if a.pixels != b.pixels { return a.pixels < b.pixels }
            return abs(a.fps - 30) > abs(b.fps - 30)
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
        let front = cameras.firstIndex { camera in
            let name = camera.card.lowercased()
            return name.contains("integrated") || name.contains("front") || name.contains("internal")
        } ?? cameras.firstIndex { $0.driver == "uvcvideo" && !$0.bus.contains("usb-0000:00:14") } ?? cameras.indices.first
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
        throw MediaError(source: .system, code: -ENOENT, operation: "find camera '\(key)'",
                         message: "no camera has that node or name (see 'cravey devices')")
    }

    /// The camera a `--camera` value names (or the default front webcam, for nil) and the mode to
    /// record in. Throws a clear error when there is no such camera or it offers no usable mode.
    /// `largest` caps the size (e.g. 640x360 for smaller files).
    public static func choose(_ key: String?, largest: (width: Int, height: Int)? = nil) throws -> (camera: CameraInfo, mode: CameraMode) {
        let info: CameraInfo
        if let key {
            info = try find(key)
        } else {
            guard let front else {
                throw MediaError(source: .system, code: -ENOENT, operation: "find a camera",
                                 message: "no camera found (no V4L2 capture device; see 'cravey devices' and 'cravey doctor')")
            }
            info = front
        }
        guard let mode = CameraMode.best(of: info.modes, preferred: largest) else {
            throw MediaError(source: .system, code: -EINVAL, operation: "choose a mode of \(info.path)",
                             message: "the camera offers no mode cravey can record")
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
            let mode = CameraMode(width: Int(m.width), height: Int(m.height), fps: (fps * 100).rounded() / 100,
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

/// A camera streaming frames: negotiated mode, small mmap ring, frames with monotonic timestamps.
/// Dropped frames show as gaps in the sequence numbers; frames the driver marks as corrupt are
/// skipped and counted. When the camera goes away the stream just ends.
public final class VideoInput: @unchecked Sendable {
    private let device: CameraDevice
    public let mode: CameraMode
    public let width: Int
    public let height: Int
    public let fps: Double
    public private(set) var framesDelivered = 0
    public private(set) var framesDropped = 0
    public private(set) var corruptFrames = 0
    /// Set when the camera went away (unplugged, disconnected): no more frames will come.
    public private(set) var ended: MediaError?
    private var lastSequence: UInt32?

    /// Opens `path` and starts streaming `mode` (see `CameraMode.best`) as YUV 4:2:0.
    public init(path: String, mode: CameraMode, buffers: Int = 4) throws {
        device = try CameraDevice(path: path)
        var format = CV4L2_format()
        var result = CV4L2_set_format(device.pointer, UInt32(mode.width), UInt32(mode.height), CV4L2_PIX_FMT_YUV420,
                                      UInt32(mode.fps.rounded()), &format)
        guard result == 0 else { throw MediaError.system(result, "set camera mode \(mode) on \(path)") }
        width = Int(format.width)
        height = Int(format.height)
        fps = format.interval_numerator > 0 ? Double(format.interval_denominator) / Double(format.interval_numerator) : mode.fps
        self.mode = mode
        result = CV4L2_start(device.pointer, UInt32(buffers))
        guard result == 0 else { throw VideoInput.openError(result, path, starting: true) }
    }

    /// The next good frame, or nil on timeout or when the camera went away (then `ended` is set).
    public func next(timeout: TimeInterval = 1) throws -> VideoFrame? {
        let deadline = Date() + timeout
        while ended == nil {
            var frame = CV4L2_frame()
            let wait = max(0, Int32(deadline.timeIntervalSinceNow * 1000))
            let result = CV4L2_dequeue(device.pointer, wait, &frame)
            if result == -EINTR { continue }
            if result == 0 { return nil }
            if result < 0 {
                let error = MediaError.system(result, "read camera \(device.path)")
                guard error.isDeviceGone else { throw error }
                ended = error
                return nil
            }
            defer { CV4L2_requeue(device.pointer, frame.index) }
            if let last = lastSequence, frame.sequence > last + 1 { framesDropped += Int(frame.sequence - last - 1) }
            lastSequence = frame.sequence
            if frame.error != 0 {
                corruptFrames += 1
                continue
            }
            let size = PixelLayout.yuv420p.bytes(width: width, height: height)
            let bytes = min(Int(frame.bytes_used == 0 ? UInt32(size) : frame.bytes_used), size)
            let data = [UInt8](UnsafeRawBufferPointer(start: frame.data, count: bytes))
            framesDelivered += 1
            return VideoFrame(data: data, width: width, height: height, timestampNanoseconds: frame.timestamp_ns,
                              sequence: frame.sequence)
        }
        return nil
    }

    static func openError(_ code: Int32, _ path: String, starting: Bool = false) -> MediaError {
        let operation = starting ? "start camera \(path)" : "open camera \(path)"
        let message: String
        switch -code {
        case ENOENT: message = "no such device node"
        case EACCES, EPERM: message = "permission denied (see udev-notes.md: the 'video' group and uaccess)"
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
