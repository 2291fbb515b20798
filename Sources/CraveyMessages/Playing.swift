import CraveyLibrary
import CraveyMedia
import CraveyPlayer
import Foundation

/// Playing a saved recording: its file, the level it plays at, and a player opened with the facts
/// the row already holds (whether it has sound, its length), so the file is opened once for sound.
public struct Playing {
    public let path: String
    public let level: PlaybackLevel
    public let player: any Playback

    /// Opens `recording` at the common level (or as recorded, with `originalLevel`) on `speaker`,
    /// waiting for the speaker until its deadline or until `stopping` says to stop.
    public init(
        _ recording: Recording, in library: Library, speaker: String, originalLevel: Bool = false,
        stopping: () -> Bool = { false }
    ) throws {
        path = try library.file(of: recording)
        level = originalLevel ? .original : PlaybackLevel.of(recording, in: library)
        player = try Player.open(
            path: path, duration: recording.duration, hasSound: recording.media.sampleRate != nil,
            speaker: speaker, level: level, stopping: stopping)
    }
}
