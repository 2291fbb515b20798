import Foundation

/// How long cravings last, from rides: for each ride, the minutes from the craving's time to its
/// first rating at or below half its starting strength (the first rating, the logged intensity);
/// the median over the rides that got there, and how many they are. A ride that never fell to
/// half (stopped early, or a craving that stayed strong) is left out: when it would have halved
/// is not known, and counting it as its length would say it halved when it had not.
public struct CravingLength: Sendable, Equatable {
    /// The median minutes to half (the mean of the middle two for an even count), to a tenth;
    /// nil with fewer than `enough` rides that halved.
    public var medianMinutesToHalf: Double?
    /// The rides that fell to half.
    public var rides: Int

    /// The rides needed for a typical figure.
    public static let enough = 3

    public init(medianMinutesToHalf: Double?, rides: Int) {
        (self.medianMinutesToHalf, self.rides) = (medianMinutesToHalf, rides)
    }

    /// From each ride's ratings (an empty list is no ride).
    init(rides: [[Craving.Rating]]) {
        let minutes = rides.compactMap(Self.minutesToHalf).sorted()
        self.rides = minutes.count
        guard minutes.count >= Self.enough else {
            medianMinutesToHalf = nil
            return
        }
        let middle = minutes.count / 2
        let median = minutes.count % 2 == 1 ? minutes[middle] : (minutes[middle - 1] + minutes[middle]) / 2
        medianMinutesToHalf = (median * 10).rounded() / 10
    }

    /// The minutes from the craving's time to the first rating at or below half the first
    /// rating; nil when none is.
    static func minutesToHalf(_ ratings: [Craving.Rating]) -> Double? {
        guard let start = ratings.first else { return nil }
        return ratings.dropFirst().first { $0.value * 2 <= start.value }.map { Double($0.seconds) / 60 }
    }
}
