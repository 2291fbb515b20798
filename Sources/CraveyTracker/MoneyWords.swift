import CraveyLibrary
import Foundation

/// Money kept in words: what was kept and against what, never a word about spending more — a
/// week that cost as much as the first or more shows nothing kept, and says so plainly.
extension MoneyKept {
    public static let title = "💰 Money Kept"

    /// The amount kept ("€25.71"); nil while nothing is.
    public var figure: String? { kept > 0 ? text(kept) : nil }

    /// What the amount is: "in the 4 days since your last logged use", "since Nov 8 (against
    /// your first week, €45.00)".
    public var line: String? {
        guard kept > 0, let since else { return nil }
        switch basis {
        case .lastUse: return "kept in the \(ProgressFigures.days(days)) since your last logged use"
        case .firstWeek: return "kept since \(since.short), against your first week (\(text(baseline)))"
        }
    }

    /// The sentence beneath.
    public var insight: String {
        guard baseline > 0 else {
            return
                "Money kept is figured against your first week, which has no use with a price set — nothing to compare with."
        }
        let perDay = text(baseline / 7)
        switch basis {
        case .lastUse:
            return days > 0
                ? "Your first week cost \(text(baseline)): about \(perDay) a day."
                : "Each day without use keeps about \(perDay) — your first week cost \(text(baseline))."
        case .firstWeek:
            guard days > 0 else {
                return
                    "Your first week so far: \(text(baseline)). From \((firstWeekEnds + 1).short) on, each day is set beside it."
            }
            if let thisWeek, thisWeek > 0 { return "This week: \(text(thisWeek)) less than your first week." }
            if kept > 0 { return "About \(perDay) a day, as in your first week, less what was spent since." }
            return "Money kept shows here when a stretch of days costs less than your first week (\(text(baseline)))."
        }
    }
}

/// `progress --json`'s `money`: the kept amount in the currency's units, the currency's code
/// (null: plain numbers), the first day counted (null: none yet), how it is counted, the first
/// week's cost, this week against the first (null where it does not apply) and the sentence.
extension MoneyKept: Encodable {
    private enum Key: String, CodingKey {
        case kept, currency, since, basis, firstWeek, thisWeek, insight
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(units(kept), forKey: .kept)
        try c.encode(currency.code, forKey: .currency)
        try c.encode(since, forKey: .since)
        try c.encode(basis, forKey: .basis)
        try c.encode(units(baseline), forKey: .firstWeek)
        try c.encode(thisWeek.map(units), forKey: .thisWeek)
        try c.encode(insight, forKey: .insight)
    }
}

/// The first two weeks without cannabis, for someone who set out to quit: what many people
/// feel, said once, calmly (Budney et al. 2003: withdrawal peaks around days 2–6 and mostly
/// eases within 1–2 weeks).
extension ProgressFigures {
    public static let withdrawalLine =
        "For many people, sleep, mood and appetite are hardest around days 2–6 and ease within two weeks."

    /// The line while the goal is to quit and the last use was 1 to 14 days ago; else nil.
    public var withdrawal: String? {
        guard goal == .quit, let days = daysSinceLastUse, (1...14).contains(days) else { return nil }
        return Self.withdrawalLine
    }

    /// `money` and `withdrawal` under their keys (null when there is none).
    func encodeMoney(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encode(money, forKey: JSONKey("money"))
        try c.encode(withdrawal, forKey: JSONKey("withdrawal"))
    }
}
