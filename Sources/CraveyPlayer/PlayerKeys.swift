import CraveyMedia
import Foundation

/// The player's keys, defined once for the terminal and the video window: space pauses and
/// resumes, ← and → skip 15 seconds, q or Esc stops.
public enum PlayerKey: Sendable, Equatable {
    case pauseResume, back, forward, stop

    /// How far ← and → skip.
    public static let skipSeconds: Double = 15

    /// The keys in bytes read from a terminal in raw mode (several can arrive in one read;
    /// arrows are `ESC [ D` and `ESC [ C`).
    public static func keys(inTerminalInput bytes: [UInt8]) -> [PlayerKey] {
        var keys: [PlayerKey] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x1B, i + 2 < bytes.count, bytes[i + 1] == 0x5B {
                if bytes[i + 2] == 0x43 { keys.append(.forward) }
                if bytes[i + 2] == 0x44 { keys.append(.back) }
                i += 3
                continue
            }
            switch bytes[i] {
            case 0x20: keys.append(.pauseResume)
            case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x1B: keys.append(.stop)
            default: break
            }
            i += 1
        }
        return keys
    }

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
