import Foundation

/// The words of the two sections about messages and rides: which messages help, and how long
/// cravings last. Encouraging, as every section's.
extension ProgressFigures {
    public static let messagesTitle = "🎧 Your messages that help"
    public static let lengthTitle = "⏳ How long your cravings last"
    /// The seed's tip for someone with no message yet.
    public static let recordMessages = "💡 Tip: Record motivational content to play during cravings"

    /// A message's line: "'Walk first' — played in 3 cravings, 2 passed without a use".
    public static func messageLine(_ message: MessageHelp) -> String {
        "\(message.title) — played in \(message.playedInCravings) cravings, \(message.resistedAfter) passed without a use"
    }

    /// The sentence under the listed messages, or the encouraging one when none is listed yet.
    public var messagesInsight: String {
        guard messages.isEmpty else {
            return "Passed without a use: no use logged within 2 hours of the craving. Keep the ones that help close. 💪"
        }
        if messageCount == 0 { return Self.recordMessages }
        return "Play your messages during cravings: once one has been with you through two, you'll see how it helps. 🎧"
    }

    /// "Typically, a craving falls to half its strength in 8 minutes (from 3 rides)"; nil until
    /// there are enough rides.
    public var cravingLengthText: String? {
        guard let minutes = cravingLength.medianMinutesToHalf else { return nil }
        let time =
            minutes < 1
            ? "under a minute" : minutes.rounded() == 1 ? "1 minute" : "\(Int(minutes.rounded())) minutes"
        return "Typically, a craving falls to half its strength in \(time) (from \(cravingLength.rides) rides)"
    }

    public var cravingLengthInsight: String {
        guard cravingLength.medianMinutesToHalf != nil else {
            let sofar = cravingLength.rides == 0 ? "" : " (\(cravingLength.rides) so far)"
            return "Not enough rides yet\(sofar). Ride out a craving to see how soon yours ease. 🌊"
        }
        return "Every craving rises, peaks and passes: this is what your rides show. 🌊"
    }
}
