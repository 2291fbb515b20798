import CraveyMedia
import FoundationEssentials
import Glibc

/// The player's keys (the terminal's are mapped to them by the command line; the video window's here): space pauses and
/// resumes, ← and → skip 15 seconds, q or Esc stops.
public enum PlayerKey: Sendable, Equatable {
    case pauseResume, back, forward, stop

    /// How far ← and → skip.
    public static let skipSeconds: Double = 15

    /// The key pressed in a video window, if it is one of the player's.
    public init?(window key: VideoWindow.Key) {
        switch key {
        case .character(" "): self = .pauseResume
        case .character("q"), .character("Q"), .character("\u{1B}"): self = .stop
        case .left: self = .back
        case .right: self = .forward
        default: return nil
        }
    }

    /// Does what the key says to a playback.
    public func apply(to player: any Playback) {
        switch self {
        case .pauseResume: player.togglePause()
        case .back: player.skip(-Self.skipSeconds)
        case .forward: player.skip(Self.skipSeconds)
        case .stop: player.dismiss()
        }
    }
}
