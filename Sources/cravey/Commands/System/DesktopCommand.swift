import ArgumentParser
import CraveyDesktop
import CraveyMedia
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey desktop`: cravey on the person's desktop, outside a terminal.
    struct DesktopCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "desktop", abstract: "cravey from anywhere on your desktop: a global shortcut.",
            subcommands: [Shortcut.self])
    }
}

extension ShortcutAction: ExpressibleByArgument {}

extension Cravey.DesktopCommand {
    /// `cravey desktop shortcut KEY [--action A] | --remove`: a global key on GNOME, the recipe elsewhere.
    struct Shortcut: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "shortcut",
            abstract: "One key from any window: bind it on GNOME, or print the steps for KDE Plasma, sway/i3 and Xfce.",
            discussion: """
                KEY is written as GNOME writes keys: '<Super><Shift>c', '<Control><Alt>r', '<Super>F9' (quote it \
                for the shell). On GNOME the key is added to your own custom shortcuts (Settings → Keyboard → View \
                and Customize Shortcuts → Custom Shortcuts) under a name starting with 'cravey:'; your other shortcuts are left as they \
                are, running it again changes nothing, and --remove takes back only cravey's. The key runs \
                'cravey launch ACTION' with this cravey's full path. Where GNOME is not there, nothing is changed \
                and the steps for KDE Plasma, sway/i3 and Xfce are printed, translated from KEY.
                """)

        @Argument(help: ArgumentHelp("The key, in GNOME's writing (e.g. '<Super><Shift>c').", valueName: "KEY"))
        var key: String?

        @Option(
            help: "What the key does: ride (ride it out), craving (log one), play (your top message), home or checkin.")
        var action: ShortcutAction?

        @Flag(help: "Take cravey's shortcut back (only --action's, or only KEY's, when given).")
        var remove = false

        @Flag(help: "Print the steps for KDE Plasma, sway/i3 and Xfce only; change nothing.")
        var recipes = false

        func validate() throws {
            if remove && recipes { throw ValidationError("--remove and --recipes do not go together") }
            if key == nil && !remove { throw ValidationError("give a key, e.g. '<Super><Shift>c' (or --remove)") }
            if let key {
                // The refusal repeats the typed key: printed, it is cleaned (Terminal.printNote).
                do { _ = try ShortcutKey(parsing: key) } catch { throw ValidationError(error.description) }
            }
        }

        func run() throws {
            let key = try self.key.map { try ShortcutKey(parsing: $0) }
            let executable =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0]
            let environment = LibraryOptions.configuration.environment
            if recipes, let key { return print(Self.recipes(key, action ?? .ride, executable)) }
            // A desktop that names itself and is not GNOME's would not read the key (taking one
            // back is always done: it may have been bound in a GNOME session).
            let desktop = environment["XDG_CURRENT_DESKTOP"] ?? ""
            let names = desktop.split(separator: ":").map { $0.lowercased() }
            if !remove && !names.isEmpty && !names.contains(where: { ["gnome", "unity", "budgie"].contains($0) }) {
                return noGnome(
                    "this desktop is \(Terminal.safe(String(desktop.prefix(40))))", key: key, executable: executable)
            }
            guard let gsettings = GnomeShortcuts.program(onPath: environment["PATH"]) else {
                return noGnome("no gsettings", key: key, executable: executable)
            }
            let gnome = GnomeShortcuts { arguments in
                DesktopProgram.output(gsettings, arguments, environment: environment, within: 10)
            }
            do {
                if remove {
                    try takeBack(gnome, key: key)
                } else if let key {
                    try bind(gnome, key: key, action: action ?? .ride, executable: executable)
                }
            } catch let failure as GnomeShortcuts.Failure {
                guard failure != .noSchema else {
                    return noGnome("gsettings has no GNOME keybindings", key: key, executable: executable)
                }
                throw CraveyFailure(message: Self.words(failure, key: key))
            }
        }

        func bind(
            _ gnome: GnomeShortcuts, key: ShortcutKey, action: ShortcutAction, executable: String
        ) throws {
            // GNOME runs it as a desktop entry's command line: a % in the path is doubled.
            let command = action.entryCommandLine(executable: executable)
            let outcome = try gnome.bind(action, key: key, name: "cravey: " + action.words, command: command)
            let doing = "“\(action.words)”"
            switch outcome {
            case .added:
                print(
                    "From any window, \(key.gnome) now runs \(doing) (a GNOME shortcut; "
                        + "'cravey desktop shortcut --remove' takes it back).")
            case .unchanged: print("\(key.gnome) already runs \(doing) on GNOME; nothing changed.")
            case let .moved(from): print("\(doing) moved from \(Terminal.safe(from)) to \(key.gnome) on GNOME.")
            case .updated: print("\(key.gnome) runs \(doing) on GNOME, now through \(Terminal.safe(executable)).")
            }
        }

        func takeBack(_ gnome: GnomeShortcuts, key: ShortcutKey?) throws {
            let actions = action.map { [$0] } ?? ShortcutAction.allCases
            let removed = try gnome.remove(actions, key: key)
            guard !removed.isEmpty else {
                let which = key.map { " on \($0.gnome)" } ?? action.map { " for “\($0.words)”" } ?? ""
                return print("cravey has no GNOME shortcut\(which) to take back; nothing changed.")
            }
            for (action, held) in removed {
                let shown = held.isEmpty ? "" : " \(Terminal.safe(held))"
                print("cravey's shortcut\(shown) for “\(action.words)” is gone; your own shortcuts are as they were.")
            }
        }

        /// Where GNOME is not: one line saying so, then the other desktops' steps (nothing to take back).
        func noGnome(_ why: String, key: ShortcutKey?, executable: String) {
            guard !remove, let key else {
                return print(
                    "No GNOME here (\(why)), so cravey has no shortcut to take back: on another desktop, remove the one you added in its settings."
                )
            }
            let action = action ?? .ride
            print(
                "No GNOME here (\(why)), so nothing was changed. To bind \(key.gnome) to “\(action.words)” yourself:\n")
            print(Self.recipes(key, action, executable))
        }

        static func recipes(_ key: ShortcutKey, _ action: ShortcutAction, _ executable: String) -> String {
            ShortcutRecipes.text(key: key, action: action, executable: executable)
        }

        static func words(_ failure: GnomeShortcuts.Failure, key: ShortcutKey?) -> String {
            switch failure {
            case let .taken(by):
                return
                    "\(key?.gnome ?? "That key") is already your shortcut “\(Terminal.safe(by))”; nothing changed. Choose another key."
            case .notAnswering:
                return "GNOME's settings did not answer within 10 seconds; nothing changed. Please try again."
            case .unreadable: return "Your GNOME shortcut list is in a form cravey does not read; it was left as it is."
            case .notKept:
                return
                    "GNOME's settings did not keep the shortcut (is dconf installed, and your desktop session running?)."
            case .noSchema: return "No GNOME here (gsettings has no GNOME keybindings); nothing changed."
            }
        }
    }
}
