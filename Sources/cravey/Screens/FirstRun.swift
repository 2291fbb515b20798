import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

/// The first run: welcome, the optional tour, the goal and the name — every step skippable, shown
/// once (the library keeps when), and again only after all data is deleted. "Skip tour" goes
/// straight home (goal and name stay in settings). Someone's first open may be in a craving: on
/// the welcome, the tour and the goal `c` logs one, `o` rides it out and `1`–`3` play a message,
/// as on home (on the name screen, where letters are typed, Tab rides it out); `q` leaves.
enum FirstRun {
    static let tour: [(title: String, line: String, how: String)] = [
        (
            "🧠 Track Cravings", "Log intensity, triggers, location in <10 seconds",
            "c on the home screen, or: cravey craving 7"
        ),
        ("💨 Track Usage", "Track what you use, when, and why", "u on the home screen, or: cravey use vape 3"),
        (
            "🎥 Record Motivational Content", "Create videos/audio to watch during cravings",
            "r on the home screen; 1–3 play your top three at once"
        ),
        (
            "📊 See Your Patterns", "Insights emerge after 7 days of tracking",
            "p on the home screen, or: cravey progress"
        ),
    ]

    /// What `1`–`3` say while there are no messages to play.
    static let noMessages =
        "No messages yet — record motivational content to play during cravings: r on the home screen, or: cravey record audio"

    /// Runs the steps; false when the screen was closed part way or `q` left (the first run shows
    /// again). A log or a play on the way runs as home's would, in `session`. `note` is said on the
    /// welcome (home's last note: "All data deleted"). `toured` says whether the tour was taken
    /// through to the name (not skipped).
    static func run(_ screen: FullScreen, session: Session, note: String? = nil, toured: inout Bool) throws -> Bool {
        let library = session.library
        var note = note
        var touring = false
        while !touring {
            let folder = try library.syncFolder()
            let key = screen.ask(page: { welcome(note: note, folder: folder) })
            note = nil
            switch key {
            case .inputEnded, .character("q"), .character("Q"): return false
            case .character("s"), .character("S"), .escape:
                try library.setSetting(.welcomed, to: StoredDate.text(session.now()))
                return true
            case .enter: touring = true
            default: note = try HelpNow(screen: screen, session: session)(key, logs: true)
            }
        }
        let help = HelpNow(screen: screen, session: session)
        guard try runTour(screen, session: session) else { return false }
        guard let goal = try chooseGoal(screen, title: "What brings you here today?", current: nil, help: help) else {
            return false
        }
        if case let .chosen(chosen) = goal { try library.setSetting(.goal, to: chosen.rawValue) }
        guard let name = try askName(screen, current: nil, help: help) else { return false }
        if case let .named(chosen) = name { try library.setSetting(.name, to: chosen) }
        try library.setSetting(.welcomed, to: StoredDate.text(session.now()))
        toured = true
        return true
    }

    /// The keys for a hard moment, under the welcome and every card, and what the last one did.
    static func helpLines(note: String?, quit: Bool = true) -> [String] {
        [HelpNow.line(quit: quit), ""]
            + Terminal.wrap(note ?? "", width: max(20, Terminal.columns - 5)).map { "   " + Terminal.accent($0) }
    }

    /// The welcome. With a sync folder chosen (a machine joining another), where the data is
    /// then and who can read the folder's files, under the name: kept in view in a small window.
    static func welcome(note: String?, folder: String? = nil) -> Page {
        let shared = folder.map {
            Terminal.wrap(
                Privacy.headline(folder: $0) + " " + Privacy.folderReadable, width: max(20, Terminal.columns - 5)
            ).map { "   " + Terminal.dim($0) }
        }
        return Page(
            title: ["", "   " + Terminal.bold("cravey")] + (shared.map { [""] + $0 } ?? []),
            body: ["", "   Private cannabis tracking and support", ""]
                + (shared == nil ? ["   " + Terminal.dim("All data stays on your device. No cloud sync."), ""] : []),
            keys: ["   " + Terminal.bold("Enter") + "  Get started        " + Terminal.bold("s") + "  Skip tour", ""]
                + helpLines(note: note))
    }

    static func tourPage(_ index: Int, note: String?) -> Page {
        let card = tour[index]
        let dots = tour.indices.map { $0 == index ? "●" : "○" }.joined(separator: " ")
        return Page(
            title: ["", "   " + Terminal.bold(card.title)],
            body: ["", "   " + card.line, "", "   " + Terminal.dim(card.how), "", "   " + dots], focusLine: 1,
            keys: [
                "",
                "   " + Terminal.bold("←/→") + " cards    " + Terminal.bold("Enter") + " "
                    + (index == tour.count - 1 ? "Done" : "Next")
                    + "    " + Terminal.bold("Esc") + " skip",
                "",
            ] + helpLines(note: note))
    }

    /// The four cards; false when the screen was closed or `q` left.
    static func runTour(_ screen: FullScreen, session: Session) throws -> Bool {
        var index = 0
        var note: String?
        while true {
            let key = screen.ask(page: { tourPage(index, note: note) })
            note = nil
            switch key {
            case .inputEnded, .character("q"), .character("Q"): return false
            case .escape, .character("s"): return true
            case .left: index = max(0, index - 1)
            case .right, .character(" "): index = min(tour.count - 1, index + 1)
            case .enter:
                if index == tour.count - 1 { return true }
                index += 1
            default: note = try HelpNow(screen: screen, session: session)(key, logs: true)
            }
        }
    }

    enum GoalAnswer: Equatable { case chosen(Goal), skipped }

    static func goalPage(title: String, selected: Int, current: Goal?, note: String? = nil) -> Page {
        var lines = [""]
        for (index, goal) in Goal.allCases.enumerated() {
            let pointer = index == selected ? Terminal.accent("▸") : " "
            let mark = goal == current ? "  ✓" : ""
            lines.append("  \(pointer) \(goal.emoji) \(Terminal.bold(goal.label))\(mark)")
            lines.append("        " + Terminal.dim(goal.line))
        }
        return Page(
            title: ["", "   " + Terminal.bold(title)], body: lines, focus: (1 + selected * 2)..<(3 + selected * 2),
            keys: [
                "",
                "   " + Terminal.bold("↑/↓") + " move    " + Terminal.bold("Enter") + " choose    " + Terminal.bold("s")
                    + " skip",
                "",
            ] + helpLines(note: note, quit: false))
    }

    /// The goal chosen (↑/↓ and Enter; a digit plays a message, as everywhere), `.skipped`, or nil
    /// when the screen was closed.
    static func chooseGoal(_ screen: FullScreen, title: String, current: Goal?, help: HelpNow) throws -> GoalAnswer? {
        var selected = current.flatMap { Goal.allCases.firstIndex(of: $0) } ?? 0
        var note: String?
        while true {
            let key = screen.ask(page: { goalPage(title: title, selected: selected, current: current, note: note) })
            note = nil
            switch key {
            case .inputEnded: return nil
            case .escape, .character("s"), .character("q"): return .skipped
            case .up: selected = (selected + Goal.allCases.count - 1) % Goal.allCases.count
            case .down, .tab: selected = (selected + 1) % Goal.allCases.count
            case .enter: return .chosen(Goal.allCases[selected])
            default: note = try help(key, logs: true)
            }
        }
    }

    /// What the name screen answered: the name typed, the name as it was (Enter on an empty field,
    /// or Esc), or forgotten (Del, when there is one).
    enum NameAnswer: Equatable { case named(String), kept, cleared }

    /// The name screen; nil when the screen was closed. The field starts empty: Enter alone keeps
    /// `current` (or skips when there is none), typing replaces it, Del forgets it, Tab rides a
    /// craving out (letters are the name's).
    static func askName(_ screen: FullScreen, current: String?, help: HelpNow) throws -> NameAnswer? {
        var problem: String?
        var text = ""
        while true {
            let key = screen.askTyping(page: { namePage(text, current: current, problem: problem) })
            problem = nil
            if key == .delete, current != nil { return .cleared }
            if key == .tab {
                problem = try help(.character("o"))
                continue
            }
            guard let ended = key.edit(&text, limit: 40) else { continue }
            guard ended else { return screen.closed ? nil : .kept }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { return .kept }
            do {
                return .named(try Validation.name(trimmed))
            } catch {
                problem = "\(error)"
            }
        }
    }

    static func namePage(_ text: String, current: String?, problem: String?) -> Page {
        let keys =
            if let current {
                Terminal.bold("Enter") + " save (empty: keep \(Terminal.safe(current)))    " + Terminal.bold("Del")
                    + " forget the name    " + Terminal.bold("Esc") + " back"
            } else {
                Terminal.bold("Enter") + " save (empty: skip)    " + Terminal.bold("Esc") + " skip"
            }
        return Page(
            title: ["", "   " + Terminal.bold("What should we call you?")],
            body: [
                "", "   " + Terminal.dim("Optional — the check-in's greeting uses it."),
                current.map { "   Now: " + Terminal.safe($0) } ?? "", "", "   › " + Terminal.safe(text) + "▏", "",
                problem.map { "   " + $0 } ?? "",
            ], focusLine: 4,
            keys: [
                "   " + keys, "",
                "  " + Terminal.dim("In a craving now?") + "  " + Terminal.bold("Tab") + " Ride it out",
            ])
    }
}
