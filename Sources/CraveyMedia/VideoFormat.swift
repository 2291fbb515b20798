internal import CFFmpeg
import FoundationEssentials
import Glibc

/// How a frame's pixels are laid out in memory, always tightly packed.
public enum PixelLayout: Sendable {
    /// Y, then U, then V; chroma planes of ⌈w/2⌉×⌈h/2⌉.
    case yuv420p
    case rgb24
    /// Packed 4:2:2 as many webcams deliver it.
    case yuyv

    /// Bytes of one `width`×`height` frame, as FFmpeg lays it out (odd sides included); 0 for an
    /// impossible size.
    public func bytes(width: Int, height: Int) -> Int {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else { return 0 }
        let layout =
            switch self {
            case .yuv420p: CFFmpeg_PIXELS_YUV420P
            case .rgb24: CFFmpeg_PIXELS_RGB24
            case .yuyv: CFFmpeg_PIXELS_YUYV
            }
        return max(0, Int(CFFmpeg_frame_bytes(layout, Int32(width), Int32(height))))
    }
}

/// A video frame size.
public struct VideoSize: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }

    /// `width`×`height` scaled down, keeping the aspect ratio, to fit 1280×720 (even sides, as
    /// H.264 wants); unchanged when it fits.
    public static func fitting(width: Int, height: Int, maxWidth: Int = 1280, maxHeight: Int = 720) -> VideoSize {
        let scale = min(1, min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height)))
        func even(_ v: Double) -> Int { max(2, Int(v.rounded()) & ~1) }
        return VideoSize(width: even(Double(width) * scale), height: even(Double(height) * scale))
    }
}

/// x264 settings. The defaults (veryfast, two frame threads, a 5-frame lookahead) were chosen by
/// measurement with Tests/bench/video.sh, which prints the figures: speed, CPU, memory and size.
public struct VideoEncoderSettings: Sendable {
    public var preset: String
    public var crf: Int
    public var threads: Int
    /// Extra x264 options ("key=value:…").
    public var x264Params: String
    public init(preset: String, crf: Int, threads: Int, x264Params: String = "") {
        self.preset = preset
        self.crf = crf
        self.threads = threads
        self.x264Params = x264Params
    }
    public static let `default` = VideoEncoderSettings(
        preset: "veryfast", crf: 23, threads: 2, x264Params: "rc-lookahead=5")
}
