import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

/// Settings on a terminal: the goal, the name and Quick Play's order, data management (export, delete all), support
/// (privacy, contact) and about (version and build). One key per row; Esc or q goes back.
struct SettingsScreen {
    let session: Session
    let screen: FullScreen
    var library: Library { session.library }

    static let deleted = "All data deleted"

    /// Said on the settings screen itself, not only on the privacy page: where the data is (with
    /// a sync folder chosen, that folder too, and who can read its files).
    static func privateLine(folder: String?) -> String {
        Privacy.headline(folder: folder) + (folder == nil ? "" : " " + Privacy.folderReadable)
    }

    func page(toast: String?) throws -> Page {
        let goal = try library.setting(.goal).flatMap(Goal.init(rawValue:))
        let name = try library.setting(.name)
        func row(_ key: String, _ text: String) -> String { "  " + Terminal.bold(key) + "  " + text }
        let limits = try Tracker(library: library).limitsOffered() ? "   " + LimitScreen.settingsRow(library) : ""
        let body = [
            Terminal.dim("GOAL"), row("g", goal.map { "\($0.emoji) \($0.label) — \"\($0.line)\"" } ?? "not chosen"),
            row("s", "Self-screen: 8 questions, about 2 minutes, only for you"),
            Terminal.dim("NAME"), row("n", name.map(Terminal.safe) ?? "not set"),
            Terminal.dim("QUICK PLAY ORDER"), row("a", try quickPlayRow()), try PriceWords.row(library),
            try PlanScreen.settingsRow(library) + limits, "",
            Terminal.dim("DATA MANAGEMENT"), row("e", "Export data"), row("d", "Delete all data"), "",
            Terminal.dim("SUPPORT"), row("p", "Privacy"), row("f", "Contact & feedback"), "",
            Terminal.dim("ABOUT"), "     Version \(Version.text)",
        ]
        let folder = try library.syncFolder()
        return Page(
            title: [Terminal.bold("⚙️ Settings") + "   " + Terminal.dim(Self.privateLine(folder: folder)), ""],
            body: body,
            keys: ["", Terminal.dim("Esc back") + HelpNow.line(logs: false)]
                + (toast.map { [Terminal.accent($0)] } ?? []))
    }

    /// Runs until Esc; returns the note for the home screen ("All data deleted" after Delete all
    /// data, which said so here first: home then shows the first run).
    func run() throws -> String? {
        var toast: String?
        var deleted = false
        var scroll = PageScroll()
        let help = HelpNow(screen: screen, session: session)
        while true {
            let shown = try page(toast: toast)
            let key = screen.ask(scroll.apply(to: shown))
            if scroll.move(key, over: shown) { continue }
            toast = nil
            switch key.letter {
            case "g":
                if case let .chosen(goal) = try FirstRun.chooseGoal(
                    screen, title: "Flexible goals — change yours any time, no judgement.",
                    current: try library.setting(.goal).flatMap(Goal.init(rawValue:)), help: help)
                {
                    try library.setSetting(.goal, to: goal.rawValue)
                    toast = "Goal: \(goal.label) ✓"
                }
            case "n":
                switch try FirstRun.askName(screen, current: try library.setting(.name), help: help) {
                case let .named(name):
                    try library.setSetting(.name, to: name)
                    toast = "Name: \(Terminal.safe(name)) ✓"
                case .cleared:
                    try library.setSetting(.name, to: nil)
                    toast = "Name cleared"
                case .kept, nil: break
                }
            case "a": toast = try switchQuickPlay()
            case "i": toast = try PlanScreen(session: session, screen: screen).run()
            case "l": toast = try LimitScreen.fromSettings(session: session, screen: screen)
            case "m": toast = try setPrice()
            case "e": toast = try export()
            case "s": toast = SelfScreenScreen(session: session, screen: screen).run()
            case "d":
                if try deleteAll() {
                    deleted = true
                    toast = Self.deleted
                }
            case "p":
                read(
                    Terminal.bold("Privacy"),
                    Privacy.statement(libraryPath: session.root, folder: try library.syncFolder()))
            case "f": read(Terminal.bold(Privacy.contact[0]), Array(Privacy.contact.dropFirst(2)))
            default:
                if key.isQuit || key == .inputEnded { return deleted ? Self.deleted : nil }
                toast = try help(key)
            }
            if screen.closed { return deleted ? Self.deleted : nil }
        }
    }

    /// A page to read (privacy, contact): its lines joined into paragraphs that wrap to the
    /// window, ↑/↓ scroll, any other key goes back.
    func read(_ title: String, _ lines: [String]) {
        let body = Privacy.paragraphs(lines)
        var scroll = PageScroll()
        let page = Page(title: [title, ""], body: body, keys: ["", Terminal.dim("↑/↓ scroll · any other key: back")])
        while scroll.move(screen.ask(scroll.apply(to: page)), over: page) {}
    }

    /// Quick Play's order as its row shows it.
    func quickPlayRow() throws -> String {
        let order = try Tracker(library: library).quickPlayOrder()
        return order == .mostPlayed ? "Most played first" : "Helped most first, then the most played"
    }

    /// a switches Quick Play's order between the most played and those that helped most.
    func switchQuickPlay() throws -> String {
        let tracker = Tracker(library: library)
        let order: QuickPlayOrder = try tracker.quickPlayOrder() == .mostPlayed ? .helpedMost : .mostPlayed
        try tracker.setQuickPlayOrder(order)
        return "Quick Play: \(order.label) ✓"
    }

    /// m sets the price of one unit of a method (money kept is figured from it): the method by its
    /// first letter, then the price typed and checked as `cravey settings price` checks it; Esc
    /// leaves it as it was.
    func setPrice() throws -> String? {
        let methods = Method.allCases
        let key = screen.ask(
            Page(
                title: [Terminal.bold("Money kept"), ""],
                body: ["The price of one unit of which method?", ""]
                    + methods.map {
                        "  " + Terminal.bold(String($0.rawValue.prefix(1))) + "  " + $0.rawValue
                            + " (per \(Prices.unit($0)))"
                    }, keys: ["", Terminal.dim("Esc back")]))
        guard let method = methods.first(where: { $0.rawValue.first == key.letter }) else { return nil }
        var problem: String?
        while true {
            let typed = screen.readLine(
                limit: 12,
                fitting: { text in
                    Page(
                        title: [Terminal.bold("Money kept"), ""],
                        body: [
                            "Price per \(Prices.unit(method)) (\(method.rawValue)):", "",
                            "   › " + Terminal.safe(text) + "▏",
                            "", problem.map { "   " + Terminal.safe($0) } ?? "",
                        ], focusLine: 2, keys: [Terminal.dim("Enter save · Esc back")])
                })
            guard let typed else { return nil }
            do {
                let tracker = Tracker(library: library)
                try tracker.setPrice(try Prices.parse(typed), for: method)
                return "Price: " + PriceWords.text(method, try tracker.prices(), try tracker.currency())
                    + " ✓"
            } catch {
                problem = "\(error)"
            }
        }
    }

    /// Export data: CSV chosen (↑/↓, c or j choose), Enter exports to the folder shown (f types
    /// another). When today's export is already there, r replaces it and Enter keeps both.
    func export() throws -> String? {
        var format = LibraryExport.Format.csv
        var folder = FileManager.default.currentDirectoryPath
        while true {
            let key = screen.ask(exportPage(format, folder: folder))
            switch key {
            case .enter: return try write(format, in: folder)
            case .up, .down, .tab: format = format == .csv ? .json : .csv
            default:
                switch key.letter {
                case "c": format = .csv
                case "j": format = .json
                case "f":
                    guard let typed = askFolder(format) else { break }
                    if !typed.isEmpty { folder = session.configuration.expandingTilde(typed) }
                default: if key.isQuit || key == .inputEnded { return nil }
                }
            }
            if screen.closed { return nil }
        }
    }

    func exportPage(_ format: LibraryExport.Format, folder: String) -> Page {
        func radio(_ choice: LibraryExport.Format, _ key: String, _ label: String) -> String {
            "  " + (choice == format ? Terminal.accent("●") : "○") + " " + label + "  " + Terminal.dim("(\(key))")
        }
        return Page(
            title: [Terminal.bold("Export data"), ""],
            body: [
                "Choose format:", "", radio(.csv, "c", "CSV"), radio(.json, "j", "JSON"), "",
                "Every craving and usage log and your recordings' details (not the media files).", "",
                "To: " + Terminal.safe(folder),
            ], focus: 2..<4,
            keys: [
                "",
                Terminal.bold("Enter") + " Export    " + Terminal.bold("f") + " another folder    "
                    + Terminal.bold("Esc") + " cancel",
            ])
    }

    /// Another folder to write to; "" keeps the one shown, nil cancels.
    func askFolder(_ format: LibraryExport.Format) -> String? {
        screen.readLine(
            limit: 4_000,
            fitting: { text in
                Page(
                    title: [Terminal.bold("Export data") + " (\(format.rawValue.uppercased()))", ""],
                    body: [
                        "Folder to write to (Enter alone: the one shown before):", "› " + Terminal.safe(text) + "▏",
                    ],
                    focusLine: 1, keys: ["", Terminal.dim("Esc cancel")])
            })
    }

    /// Writes today's export in `folder`; when it is already there, asks: replace it, or keep
    /// both (the new one numbered). The toast, or nil when cancelled.
    func write(_ format: LibraryExport.Format, in folder: String) throws -> String? {
        let today = (folder as NSString).appendingPathComponent(LibraryExport.fileName(format))
        var path = LibraryExport.unusedPath(in: folder, format)
        var replacing = false
        if path != today {
            let key = screen.ask(
                Page(
                    title: [Terminal.bold("Export data"), ""],
                    body: [
                        "Today's export is already there: " + Terminal.safe(today), "",
                        "  " + Terminal.bold("Enter") + "  Keep both (writes "
                            + Terminal.safe((path as NSString).lastPathComponent) + ")",
                        "  " + Terminal.bold("r") + "  Replace it",
                    ], focus: 2..<4, keys: ["", Terminal.dim("Esc cancel")]))
            if key.letter == "r" {
                (path, replacing) = (today, true)
            } else if key != .enter {
                return nil
            }
        }
        do {
            try LibraryExport(format, of: library).write(
                to: path, replacing: replacing, another: "choose another folder", replace: nil)
            return "Data exported ✓ \(Terminal.safe(path))"
        } catch {
            return "cravey: " + (Problem.of(error)?.message ?? "\(error)")
        }
    }

    /// Delete all data, after the one question: d deletes, Esc cancels.
    func deleteAll() throws -> Bool {
        while true {
            let key = screen.ask(
                Page(
                    title: [Terminal.bold(Questions.deleteAll), ""], body: [Questions.deleteAllWarning],
                    keys: ["", "  " + Terminal.bold("d") + "  Delete        " + Terminal.bold("Esc") + "  Cancel"]))
            if key.letter == "d" {
                try library.purge()
                return true
            }
            if key.isQuit || key == .inputEnded || key == .enter { return false }
        }
    }
}
