/// What brings a person to cravey: chosen on the first run, changed any time in settings (goals are
/// flexible, never judged). Kept in the library's settings as `rawValue`.
public enum Goal: String, CaseIterable, Sendable, Codable {
    case quit
    case cutDown = "cut-down"
    case monitor
    case harmReduction = "harm-reduction"
    case exploring

    public var emoji: String {
        switch self {
        case .quit: "🎯"
        case .cutDown: "📉"
        case .monitor: "📊"
        case .harmReduction: "🤝"
        case .exploring: "👀"
        }
    }

    public var label: String {
        switch self {
        case .quit: "Quit completely"
        case .cutDown: "Cut down"
        case .monitor: "Monitor use"
        case .harmReduction: "Harm reduction"
        case .exploring: "Just exploring"
        }
    }

    /// In the person's own words.
    public var line: String {
        switch self {
        case .quit: "I want to stop using cannabis"
        case .cutDown: "I want to reduce my usage"
        case .monitor: "I want to understand my patterns"
        case .harmReduction: "I want to use more intentionally"
        case .exploring: "I'm checking this out"
        }
    }
}
