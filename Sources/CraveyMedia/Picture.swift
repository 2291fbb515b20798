internal import CFFmpeg
import Foundation

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
