internal import CFFmpeg
import FoundationEssentials
import Glibc

/// A small RGB picture decoded from an image or a video frame (libavcodec + libswscale), for
/// drawing in a terminal.
public struct Picture: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// RGB24, row after row.
    public let rgb: [UInt8]

    /// The pixel size of an image or of a video's frames.
    public static func size(of path: String) throws -> (width: Int, height: Int) {
        try SharedLibrary.ffmpeg.load()
        let info = try MediaFile.probe(path)
        guard let width = info.width, let height = info.height else {
            throw MediaError.ffmpeg(CFFmpeg_AVERROR_INVALIDDATA, "read picture \(path)")
        }
        return (width, height)
    }

    /// The picture shown at `seconds` of a video (0 for an image), scaled to exactly `width`×`height`.
    public init(path: String, at seconds: Double = 0, width: Int, height: Int) throws {
        try SharedLibrary.ffmpeg.load()
        var pixels = [UInt8](repeating: 0, count: max(1, PixelLayout.rgb24.bytes(width: width, height: height)))
        let result = pixels.withUnsafeMutableBufferPointer {
            CFFmpeg_picture_rgb(path, seconds, Int32(width), Int32(height), $0.baseAddress)
        }
        guard result == 0 else { throw MediaError.ffmpeg(result, "read picture \(path)") }
        self.width = width
        self.height = height
        rgb = pixels
    }

    /// A camera frame (yuv420p, limited-range BT.601 as cravey's cameras deliver it) made small:
    /// `width`×`height`, each pixel the mean of four samples spread over its area (a live preview
    /// redraws this many times a second, so it is sampled, not filtered); `mirrored` flips it left
    /// to right, as a camera facing its user is shown.
    public init(yuv420p frame: VideoFrame, width: Int, height: Int, mirrored: Bool) {
        let (w, h) = (frame.width, frame.height)
        let (cw, ch) = ((w + 1) / 2, (h + 1) / 2)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        if w > 0, h > 0, width > 0, height > 0, frame.data.count >= w * h + 2 * cw * ch {
            frame.data.withUnsafeBufferPointer { yuv in
                let (u, v) = (w * h, w * h + cw * ch)
                func clamp(_ x: Int) -> UInt8 { UInt8(max(0, min(255, x))) }
                for oy in 0..<height {
                    for ox in 0..<width {
                        // Four samples at the quarter points of the area this pixel covers.
                        var (ys, us, vs) = (0, 0, 0)
                        for (fx, fy) in [(1, 1), (3, 1), (1, 3), (3, 3)] {
                            let column = mirrored ? width - 1 - ox : ox
                            let x = min(w - 1, (column * 4 + fx) * w / (width * 4))
                            let y = min(h - 1, (oy * 4 + fy) * h / (height * 4))
                            ys += Int(yuv[y * w + x])
                            us += Int(yuv[u + (y / 2) * cw + x / 2])
                            vs += Int(yuv[v + (y / 2) * cw + x / 2])
                        }
                        // BT.601, limited range, in fixed point (×1024).
                        let c = 1192 * (ys / 4 - 16), d = us / 4 - 128, e = vs / 4 - 128
                        let i = (oy * width + ox) * 3
                        rgb[i] = clamp((c + 1634 * e + 512) >> 10)
                        rgb[i + 1] = clamp((c - 401 * d - 832 * e + 512) >> 10)
                        rgb[i + 2] = clamp((c + 2066 * d + 512) >> 10)
                    }
                }
            }
        }
        self.init(width: width, height: height, rgb: rgb)
    }

    public init(width: Int, height: Int, rgb: [UInt8]) {
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = (y * width + x) * 3
        return (rgb[i], rgb[i + 1], rgb[i + 2])
    }
}
