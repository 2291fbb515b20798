import FoundationEssentials
import Glibc

/// One recording as the library stores it: one row of the `recording` table.
///
/// Dates are kept to the millisecond, which is what SQLite stores, so a row read back
/// compares equal to the row that was written.
public struct Recording: Sendable, Equatable, Identifiable {
    public enum Kind: String, Sendable, CaseIterable, Codable {
        case audio, video

        /// The file extension the library uses for this kind.
        public var fileExtension: String { self == .audio ? "m4a" : "mov" }
    }

    /// Why the message was recorded; optional.
    public enum Purpose: String, Sendable, CaseIterable, Codable {
        case motivational, milestone, reflection, craving

        /// The name a person reads: "Motivational", …, "During Craving".
        public var name: String {
            switch self {
            case .motivational: "Motivational"
            case .milestone: "Milestone"
            case .reflection: "Reflection"
            case .craving: "During Craving"
            }
        }

        /// What it is for, in a line.
        public var line: String {
            switch self {
            case .motivational: "Why you're taking a break"
            case .milestone: "Celebrate progress (e.g., 30 days)"
            case .reflection: "How you're feeling today"
            case .craving: "Record during a craving moment"
            }
        }
    }

    public var id: UUID
    public var createdAt: Date
    public var kind: Kind
    public var title: String
    public var notes: String?
    public var purpose: Purpose?
    /// Seconds of media, read from the finished file (0 < duration ≤ 120).
    public var duration: Double
    /// Path of the media file, relative to the library root.
    public var filePath: String
    /// Path of the JPEG thumbnail (video only), relative to the library root.
    public var thumbnailPath: String?
    public var playCount: Int
    public var lastPlayedAt: Date?
    public var modifiedAt: Date
    public var media: MediaFacts
    /// Set when this recording is a day's check-in (kept apart from the messages).
    public var checkIn: CheckIn?
    /// The triggers the message was made for (names as a craving's triggers are written, in
    /// their set's order): played first in a craving with one of them.
    public var forTriggers: [String] = []

    public init(
        id: UUID, createdAt: Date, kind: Kind, title: String, notes: String?, purpose: Purpose?,
        duration: Double, filePath: String, thumbnailPath: String?, playCount: Int = 0,
        lastPlayedAt: Date? = nil, modifiedAt: Date, media: MediaFacts, checkIn: CheckIn? = nil
    ) {
        self.id = id
        self.createdAt = createdAt.truncatedToMilliseconds
        self.kind = kind
        self.title = title
        self.notes = notes
        self.purpose = purpose
        self.duration = duration
        self.filePath = filePath
        self.thumbnailPath = thumbnailPath
        self.playCount = playCount
        self.lastPlayedAt = lastPlayedAt?.truncatedToMilliseconds
        self.modifiedAt = modifiedAt.truncatedToMilliseconds
        self.media = media
        self.checkIn = checkIn
    }

    /// The library's file name for a recording: `audio_<UUID>.m4a` / `video_<UUID>.mov`.
    public static func fileName(id: UUID, kind: Kind) -> String {
        "\(kind.rawValue)_\(id.uuidString).\(kind.fileExtension)"
    }

    /// The thumbnail's file name: `video_<UUID>_thumb.jpg`.
    public static func thumbnailName(id: UUID, kind: Kind) -> String {
        "\(kind.rawValue)_\(id.uuidString)_thumb.jpg"
    }

    /// The recording a file name belongs to, if it is one of cravey's own names (a media file or a
    /// thumbnail, as `fileName` and `thumbnailName` spell them). cravey removes or moves only files
    /// whose names it can read back this way.
    public static func owner(ofFileName name: String) -> (id: UUID, kind: Kind, isThumbnail: Bool)? {
        for kind in Kind.allCases {
            let prefix = kind.rawValue + "_"
            guard name.hasPrefix(prefix) else { continue }
            let rest = name.dropFirst(prefix.count)
            guard rest.count > 36, let id = UUID(uuidString: String(rest.prefix(36))),
                String(rest.prefix(36)) == id.uuidString
            else { return nil }
            switch String(rest.dropFirst(36)) {
            case "." + kind.fileExtension: return (id, kind, false)
            case "_thumb.jpg" where kind == .video: return (id, kind, true)
            default: return nil
            }
        }
        return nil
    }

    /// Where this recording's file must be: `Recordings/<fileName>`.
    public var canonicalFilePath: String { "Recordings/" + Self.fileName(id: id, kind: kind) }

    /// Where its thumbnail must be: `Recordings/Thumbnails/<thumbnailName>`.
    public var canonicalThumbnailPath: String { "Recordings/Thumbnails/" + Self.thumbnailName(id: id, kind: kind) }
}

/// Facts about the media file, read from the file itself.
public struct MediaFacts: Sendable, Equatable {
    public var sizeBytes: Int64
    public var width: Int?
    public var height: Int?
    public var fps: Double?
    public var sampleRate: Int?
    public var channels: Int?
    /// Peak levels for display, one byte per point (0 = silence, 255 = full scale).
    public var waveform: [UInt8]
    /// Worst audio/video offset measured while recording, in seconds (video only).
    public var avOffset: Double?
    /// Integrated loudness (EBU R128, LUFS); nil when not measured yet, or too quiet to have one.
    public var loudness: Double?
    /// True peak (dBTP); nil when not measured yet (a recording measured once always has one).
    public var truePeak: Double?
    /// The gain (dB) that plays it at the common level through the limiter; nil when not worked out.
    public var playbackGain: Double?

    /// Whether the sound has been measured (`truePeak` is set by every measurement).
    public var isMeasured: Bool { truePeak != nil }

    public init(
        sizeBytes: Int64 = 0, width: Int? = nil, height: Int? = nil, fps: Double? = nil,
        sampleRate: Int? = nil, channels: Int? = nil, waveform: [UInt8] = [], avOffset: Double? = nil,
        loudness: Double? = nil, truePeak: Double? = nil, playbackGain: Double? = nil
    ) {
        self.sizeBytes = sizeBytes
        self.width = width
        self.height = height
        self.fps = fps
        self.sampleRate = sampleRate
        self.channels = channels
        self.waveform = waveform
        self.avOffset = avOffset
        self.loudness = loudness
        self.truePeak = truePeak
        self.playbackGain = playbackGain
    }
}

extension Date {
    /// This date with sub-millisecond precision dropped (what the store keeps).
    public var truncatedToMilliseconds: Date { Date(millisecondsSince1970: millisecondsSince1970) }

    /// Whole milliseconds since 1970 (rounded down).
    public var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }

    public init(millisecondsSince1970 ms: Int64) {
        self.init(timeIntervalSince1970: Double(ms) / 1000)
    }
}
