import Foundation

/// A slow breathing guide: in for 4 seconds, out for 6, over and over. Drawn as a line that grows
/// while the breath comes in and shrinks while it goes out, or, where nothing should move (calm
/// screens, no colour), as words with a countdown of the seconds left.
package enum Breathing {
    package static let inhale = 4.0
    package static let exhale = 6.0

    /// Where a breath is, `seconds` after the guide began.
    package struct Moment: Equatable, Sendable {
        /// Breathing in (else out).
        package var inhaling: Bool
        /// How full the breath is, 0 (empty) to 1 (full), eased at both ends.
        package var fullness: Double
        /// Whole seconds left in this half of the breath (4…1 in, 6…1 out).
        package var secondsLeft: Int
    }

    package static func moment(at seconds: Double) -> Moment {
        let cycle = inhale + exhale
        let t = max(0, seconds).truncatingRemainder(dividingBy: cycle)
        let eased = { (part: Double) in (1 - cos(Double.pi * part)) / 2 }
        if t < inhale {
            return Moment(inhaling: true, fullness: eased(t / inhale), secondsLeft: Int((inhale - t).rounded(.up)))
        }
        let out = t - inhale
        return Moment(inhaling: false, fullness: 1 - eased(out / exhale), secondsLeft: Int((exhale - out).rounded(.up)))
    }

    /// The line at `seconds`: centred in `width` columns, from a few columns (empty) to all of
    /// them (full).
    package static func line(at seconds: Double, width: Int) -> String {
        let width = max(4, width)
        let shortest = max(2, width / 10)
        let length = shortest + Int((moment(at: seconds).fullness * Double(width - shortest)).rounded())
        return String(repeating: " ", count: (width - length) / 2) + String(repeating: "━", count: length)
    }

    /// The words for `seconds`: "Breathe in… 3", "Breathe out… 6".
    package static func words(at seconds: Double) -> String {
        let now = moment(at: seconds)
        return (now.inhaling ? "Breathe in… " : "Breathe out… ") + String(now.secondsLeft)
    }

    /// The words for the half of the breath `seconds` fall in, the same all through it (a calm
    /// screen prints each half once): "Breathe in… (4 seconds)", "Breathe out… (6 seconds)".
    package static func phase(at seconds: Double) -> String {
        moment(at: seconds).inhaling
            ? "Breathe in… (\(Int(inhale)) seconds)" : "Breathe out… (\(Int(exhale)) seconds)"
    }
}
