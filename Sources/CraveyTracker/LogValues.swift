import Foundation

/// What may have set a craving or a use off (any number of them): the HALT-based set of the
/// tracker, in its fixed order.
public enum Trigger: String, CaseIterable, Sendable, Codable {
    case hungry, angry, anxious, lonely, tired, sad, bored, social, habit, paraphernalia

    public var label: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// Triggers as stored: the names in the set's order, comma-separated ('' for none).
    static func text(_ triggers: Set<Trigger>) -> String {
        allCases.filter(triggers.contains).map(\.rawValue).joined(separator: ",")
    }

    /// The triggers of a stored text, in the set's order; names not in the set are left out.
    static func set(_ text: String) -> [Trigger] {
        let names = Set(text.split(separator: ",").map(String.init))
        return allCases.filter { names.contains($0.rawValue) }
    }
}

/// Where it happened: a named place only (cravey never detects a location).
public enum Location: String, CaseIterable, Sendable, Codable {
    case home, work, social, outside, car

    public var label: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

/// How cannabis was used, each with its amounts and unit.
public enum Method: String, CaseIterable, Sendable, Codable {
    /// Bowls, joints and blunts: one method, counted in halves.
    case bowls, vape, dab, edible

    /// The method named `name` (any case; joints and blunts are bowls, singulars accepted).
    public init?(name: String) {
        switch name.lowercased() {
        case "bowls", "bowl", "joints", "joint", "blunts", "blunt": self = .bowls
        case "vape", "vapes", "pulls": self = .vape
        case "dab", "dabs": self = .dab
        case "edible", "edibles": self = .edible
        default: return nil
        }
    }

    /// The amounts the form offers, smallest first (the first is the default).
    public var amounts: [Double] {
        switch self {
        case .bowls: stride(from: 0.5, through: 5.0, by: 0.5).map { $0 }
        case .vape: (1...10).map(Double.init)
        case .dab: (1...5).map(Double.init)
        case .edible: stride(from: 5, through: 100, by: 5).map(Double.init)
        }
    }

    /// The unit as the form labels it and exports name it: "bowls/joints", "pulls", "dabs", "mg THC".
    public var unit: String {
        switch self {
        case .bowls: "bowls/joints"
        case .vape: "pulls"
        case .dab: "dabs"
        case .edible: "mg THC"
        }
    }

    /// The unit for `amount` in words: in the singular for exactly one ("1 pull", "1 bowl/joint").
    public func unit(for amount: Double) -> String {
        guard amount == 1 else { return unit }
        switch self {
        case .bowls: return "bowl/joint"
        case .vape: return "pull"
        case .dab: return "dab"
        case .edible: return unit
        }
    }

    public var label: String {
        switch self {
        case .bowls: "Bowls / Joints / Blunts"
        case .vape: "Vape"
        case .dab: "Dab"
        case .edible: "Edible"
        }
    }

    /// "1.5 bowls/joints", "1 pull", "3 pulls", "10 mg THC".
    public func amountText(_ amount: Double) -> String { "\(Self.number(amount)) \(unit(for: amount))" }

    /// 1.5 as "1.5", 3 as "3".
    public static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// "5–100 mg THC in steps of 5": what an amount of this method may be.
    public var rangeText: String {
        let step = self == .bowls ? " in steps of 0.5" : self == .edible ? " in steps of 5" : ""
        return "\(Self.number(amounts.first!))–\(Self.number(amounts.last!)) \(unit)\(step)"
    }

    /// Whether `amount` is one the method offers.
    public func allows(_ amount: Double) -> Bool { amounts.contains { abs($0 - amount) < 1e-9 } }
}

/// A craving's intensity, 1–10, and the band it falls in.
public enum Intensity {
    public static let range = 1...10
    public static let standard = 5

    /// The intensity a digit key gives on a screen that asks for one: 1–9 as they are, 0 is 10
    /// (nil for anything but a digit).
    public static func value(ofDigit digit: Int) -> Int? {
        (0...9).contains(digit) ? (digit == 0 ? 10 : digit) : nil
    }

    public enum Band: String, Sendable {
        case mild, moderate, strong, overwhelming

        /// The colour the form draws it in.
        public var colour: String {
            switch self {
            case .mild: "green"
            case .moderate: "yellow"
            case .strong: "orange"
            case .overwhelming: "red"
            }
        }
    }

    /// 1–3 mild, 4–6 moderate, 7–9 strong, 10 overwhelming.
    public static func band(_ value: Int) -> Band {
        switch value {
        case ...3: .mild
        case 4...6: .moderate
        case 7...9: .strong
        default: .overwhelming
        }
    }
}

/// How the user felt after a use, 1–10 (optional).
public enum MoodAfter {
    public static let range = 1...10
}
