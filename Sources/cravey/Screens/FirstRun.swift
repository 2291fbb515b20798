import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

/// The first run: welcome, the optional tour, the goal and the name — every step skippable, shown
/// once (the library keeps when), and again only after all data is deleted.
enum FirstRun {
    static let tour: [(title: String, line: String, how: String)] = [
        (
            "🧠 Track Cravings", "Log intensity, triggers, location in <10 seconds",
            "c on the home screen, or: cravey craving 7"
        ),
        ("💨 Track Usage", "Track what you use, when, and why", "u on the home screen, or: cravey use vape 3"),
        (
            "🎬 Record Motivational Content", "Create videos/audio to watch during cravings",
            "r on the home screen; 1–3 play your top three at once"
        ),
        (
            "📊 See Your Patterns", "Insights from your first logs, clearer with every week of tracking",
            "p on the home screen, or: cravey progress"
        ),
    ]

    /// Runs the steps; false when the screen was closed part way (the first run shows again).
    static func run(_ screen: FullScreen, library: Library) throws -> Bool {
        switch screen.ask(welcome) {
        case .inputEnded: return false
        case .character("s"), .character("S"), .escape: break
        default: if !runTour(screen) { return false }
        }
        guard let goal = chooseGoal(screen, title: "What brings you here today?", current: nil) else { return false }
        if case let .chosen(chosen) = goal { try library.setSetting(.goal, to: chosen.rawValue) }
        guard let name = askName(screen, current: nil) else { return false }
        if !name.isEmpty { try library.setSetting(.name, to: try Validation.name(name)) }
        try library.setSetting(.welcomed, to: StoredDate.text(Date()))
        return true
    }

    static var welcome: [String] {
        [
            "", "", "   " + Terminal.bold("cravey"), "", "   Private cannabis tracking and support", "",
            "   " + Terminal.dim("All data stays on your device. No cloud sync."), "", "",
            "   " + Terminal.bold("Enter") + "  Get started        " + Terminal.bold("s") + "  Skip tour",
        ]
    }

    static func tourPage(_ index: Int) -> [String] {
        let card = tour[index]
        let dots = tour.indices.map { $0 == index ? "●" : "○" }.joined(separator: " ")
        return [
            "", "", "   " + Terminal.bold(card.title), "", "   " + card.line, "", "   " + Terminal.dim(card.how), "",
            "   " + dots, "",
            "   " + Terminal.bold("←/→") + " cards    " + Terminal.bold("Enter") + " "
                + (index == tour.count - 1 ? "Done" : "Next")
                + "    " + Terminal.bold("Esc") + " skip",
        ]
    }

    /// The four cards; false when the screen was closed.
    static func runTour(_ screen: FullScreen) -> Bool {
        var index = 0
        while true {
            switch screen.ask(tourPage(index)) {
            case .inputEnded: return false
            case .escape, .character("q"), .character("s"): return true
            case .left: index = max(0, index - 1)
            case .right, .character(" "): index = min(tour.count - 1, index + 1)
            case .enter:
                if index == tour.count - 1 { return true }
                index += 1
            default: break
            }
        }
    }

    enum GoalAnswer: Equatable { case chosen(Goal), skipped }

    static func goalPage(title: String, selected: Int, current: Goal?) -> [String] {
        var lines = ["", "   " + Terminal.bold(title), ""]
        for (index, goal) in Goal.allCases.enumerated() {
            let pointer = index == selected ? Terminal.accent("▸") : " "
            let mark = goal == current ? "  ✓" : ""
            lines.append(
                "  \(pointer) \(Terminal.bold(String(index + 1)))  \(goal.emoji) \(Terminal.bold(goal.label))\(mark)")
            lines.append("        " + Terminal.dim(goal.line))
        }
        return lines + [
            "",
            "   " + Terminal.bold("1–5") + " or " + Terminal.bold("↑/↓ Enter") + " choose    "
                + Terminal.bold("s") + " skip",
        ]
    }

    /// The goal chosen, `.skipped`, or nil when the screen was closed.
    static func chooseGoal(_ screen: FullScreen, title: String, current: Goal?) -> GoalAnswer? {
        var selected = current.flatMap { Goal.allCases.firstIndex(of: $0) } ?? 0
        while true {
            let key = screen.ask(goalPage(title: title, selected: selected, current: current))
            switch key {
            case .inputEnded: return nil
            case .escape, .character("s"), .character("q"): return .skipped
            case .up: selected = (selected + Goal.allCases.count - 1) % Goal.allCases.count
            case .down, .tab: selected = (selected + 1) % Goal.allCases.count
            case .enter: return .chosen(Goal.allCases[selected])
            default:
                if let digit = key.digit, (1...Goal.allCases.count).contains(digit) {
                    return .chosen(Goal.allCases[digit - 1])
                }
            }
        }
    }

    /// The name typed ("" when skipped), or nil when the screen was closed.
    static func askName(_ screen: FullScreen, current: String?) -> String? {
        var problem: String?
        while true {
            guard
                let typed = screen.readLine(
                    limit: 40, initial: current ?? "",
                    page: { text in
                        [
                            "", "   " + Terminal.bold("What should we call you?"), "",
                            "   " + Terminal.dim("Optional — the check-in's greeting uses it."), "",
                            "   › " + Terminal.safe(text) + "▏", "", problem.map { "   " + $0 } ?? "",
                            "   " + Terminal.bold("Enter") + " save (empty: skip)    " + Terminal.bold("Esc") + " skip",
                        ]
                    })
            else { return screen.closed ? nil : "" }
            let trimmed = typed.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { return "" }
            do {
                return try Validation.name(trimmed)
            } catch {
                problem = "\(error)"
            }
        }
    }
}
