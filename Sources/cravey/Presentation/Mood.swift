import CraveyLibrary
import CraveyMessages
import Foundation
import TerminalKit

/// How moods are shown: a colour on a terminal (never with NO_COLOR), a letter otherwise.
enum Mood {
    static func color(_ mood: CheckIn.Mood) -> String {
        switch mood {
        case .low: return "34"  // blue
        case .down: return "36"  // cyan
        case .okay: return "37"  // white
        case .happy: return "32"  // green
        case .amazing: return "33"  // yellow
        }
    }

    static func letter(_ mood: CheckIn.Mood) -> Character { Character(mood.label.prefix(1).uppercased()) }

    static func colored(_ mood: CheckIn.Mood, _ text: String) -> String { Terminal.style(text, color(mood)) }
}
