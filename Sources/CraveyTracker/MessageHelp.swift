import CraveyLibrary
import Foundation

extension Tracker {
    /// The messages to offer in a craving with these triggers, in turn: those made for one of its
    /// triggers first, then those that helped most, then the most played (check-ins are never
    /// offered).
    public func messageOrder(for triggers: [Trigger]) throws -> [Recording] {
        let names = Set(triggers.map(\.rawValue))
        let messages = try library.top(Int.max)
        return messages.filter { !names.isDisjoint(with: $0.forTriggers) }
            + messages.filter { names.isDisjoint(with: $0.forTriggers) }
    }
}
