import ArgumentParser
import CraveyDesktop
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey launch SCREEN`: a screen opened from the desktop (a launcher, a key) in a
    /// terminal window of its own; `play` needs none.
    struct Launch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "launch",
            abstract:
                "Open a screen in a new terminal window, from a launcher or a key: home, ride, craving, checkin, use; play needs no window.",
            discussion: """
                The terminal is the first found of: xdg-terminal-exec, $TERMINAL, x-terminal-emulator, then \
                kitty, gnome-terminal, konsole, xfce4-terminal, alacritty, foot (under Wayland) and xterm. \
                Its window is titled cravey. An activation token in XDG_ACTIVATION_TOKEN or \
                DESKTOP_STARTUP_ID is passed on, so the desktop brings the window to the front. 'cravey \
                launch play' is 'cravey play --top': it plays your top message without a window, and where \
                the speaker cannot open, its words come in a notification with "Ride it out".
                """)

        @OptionGroup var library: LibraryOptions

        @Argument(help: ArgumentHelp("What to open.", valueName: "home|ride|craving|checkin|use|play"))
        var screen: String

        func validate() throws {
            guard screen == "play" || LaunchFlow.Screen(rawValue: screen) != nil else {
                throw ValidationError(
                    "'\(Terminal.safe(String(screen.prefix(20))))' is not a screen to open; give home, ride, craving, checkin, use or play"
                )
            }
        }

        func run() throws {
            guard let opening = LaunchFlow.Screen(rawValue: screen) else {
                return try Play.parse(["--top"] + (library.library.map { ["--library", $0] } ?? [])).run()
            }
            let environment = LibraryOptions.configuration.environment
            switch try LaunchFlow.open(opening, root: library.root, environment: environment) {
            case let .success(terminal):
                return print("Opened \(opening.words) in \(Self.named(terminal)).")
            case let .failure(refusal):
                throw CraveyFailure(message: LaunchFlow.notOpened(opening, refusal, environment: environment))
            }
        }

        /// The terminal as the line names it: which program, and how it was found.
        static func named(_ terminal: TerminalChoice) -> String {
            switch terminal.source {
            case .xdgTerminalExec: "your default terminal (xdg-terminal-exec)"
            case .variable: "\(Terminal.safe(terminal.name)) ($TERMINAL)"
            case .debianAlternative:
                terminal.name == "x-terminal-emulator"
                    ? "x-terminal-emulator" : "\(terminal.name) (x-terminal-emulator)"
            case .known: terminal.name
            }
        }
    }
}
