import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

/// Settings on a terminal: the goal and the name, data management (export, delete all), support
/// (privacy, contact) and about (version and build). One key per row; Esc or q goes back.
struct SettingsScreen {
    let library: Library
    let root: String
    let screen: FullScreen

    static let deleteQuestion = "Delete All Data?"
    static let deleteWarning =
        "This will permanently delete all cravings, usage logs, and recordings. This cannot be undone."

    func page(toast: String?) throws -> [String] {
        let goal = try library.setting(.goal).flatMap(Goal.init(rawValue:))
        let name = try library.setting(.name)
        func row(_ key: String, _ text: String) -> String { "  " + Terminal.bold(key) + "  " + text }
        return [
            Terminal.bold("⚙️ Settings"), "",
            Terminal.dim("GOAL"), row("g", goal.map { "\($0.emoji) \($0.label) — \"\($0.line)\"" } ?? "not chosen"),
            Terminal.dim("NAME"), row("n", name.map(Terminal.safe) ?? "not set"), "",
            Terminal.dim("DATA MANAGEMENT"), row("e", "Export data"), row("d", "Delete all data"), "",
            Terminal.dim("SUPPORT"), row("p", "Privacy"), row("f", "Contact & feedback"), "",
            Terminal.dim("ABOUT"), "     Version \(Cravey.configuration.version)", "",
            Terminal.dim("Esc back"), toast.map { Terminal.accent($0) } ?? "",
        ]
    }

    /// Runs until Esc; returns the note for the home screen ("All data deleted" sends it to the
    /// first run).
    func run() throws -> String? {
        var toast: String?
        while true {
            let key = screen.ask(try page(toast: toast))
            toast = nil
            switch key.letter {
            case "g":
                if case let .chosen(goal) = FirstRun.chooseGoal(
                    screen, title: "Flexible goals — change yours any time, no judgement.",
                    current: try library.setting(.goal).flatMap(Goal.init(rawValue:)))
                {
                    try library.setSetting(.goal, to: goal.rawValue)
                    toast = "Goal: \(goal.label) ✓"
                }
            case "n":
                if let name = FirstRun.askName(screen, current: try library.setting(.name)) {
                    try library.setSetting(.name, to: name.isEmpty ? nil : name)
                    toast = name.isEmpty ? "Name cleared" : "Name: \(Terminal.safe(name)) ✓"
                }
            case "e": toast = try export()
            case "d":
                if try deleteAll() { return "All data deleted" }
            case "p":
                _ = screen.ask(
                    [Terminal.bold("Privacy"), ""] + Privacy.statement(libraryPath: root) + [
                        "", Terminal.dim("any key: back"),
                    ])
            case "f": _ = screen.ask(Privacy.contact + ["", Terminal.dim("any key: back")])
            default:
                if key.isQuit || key == .inputEnded { return nil }
            }
            if screen.closed { return nil }
        }
    }

    /// Export data: the format, then the folder (Enter: the current one).
    func export() throws -> String? {
        let format: LibraryExport.Format
        switch screen.ask([
            Terminal.bold("Export data"), "", "Choose format:", "  " + Terminal.bold("c") + "  CSV",
            "  " + Terminal.bold("j") + "  JSON", "",
            "Every craving and usage log and your recordings' details (not the media files).", "",
            Terminal.dim("Esc cancel"),
        ]).letter {
        case "c": format = .csv
        case "j": format = .json
        default: return nil
        }
        let here = FileManager.default.currentDirectoryPath
        guard
            let typed = screen.readLine(
                limit: 4_000,
                page: { text in
                    [
                        Terminal.bold("Export data") + " (\(format.rawValue.uppercased()))", "",
                        "Folder to write to (Enter: \(Terminal.safe(here))):", "› " + Terminal.safe(text) + "▏", "",
                        Terminal.dim("Esc cancel"),
                    ]
                })
        else { return nil }
        let folder = typed.isEmpty ? here : (typed as NSString).expandingTildeInPath
        let path = (folder as NSString).appendingPathComponent(LibraryExport.fileName(format))
        do {
            try LibraryExport(format, of: library).write(
                to: path, replacing: false, another: "choose another folder", replace: nil)
            return "Data exported ✓ \(Terminal.safe(path))"
        } catch {
            return "cravey: " + (Cravey.problem(error)?.message ?? "\(error)")
        }
    }

    /// Delete all data, after the one question: d deletes, Esc cancels.
    func deleteAll() throws -> Bool {
        while true {
            let key = screen.ask([
                Terminal.bold(Self.deleteQuestion), "", Self.deleteWarning, "",
                "  " + Terminal.bold("d") + "  Delete        " + Terminal.bold("Esc") + "  Cancel",
            ])
            if key.letter == "d" {
                try library.purge()
                return true
            }
            if key.isQuit || key == .inputEnded || key == .enter { return false }
        }
    }
}
