import FoundationEssentials
import Glibc

/// The terminal window a screen of cravey's opens in when it is started from the desktop (a
/// launcher, a key, a notification's button): which terminal program, and the command line that
/// makes it run the screen with the window titled `cravey`. Chosen in this order:
/// `xdg-terminal-exec` where installed, `$TERMINAL`, Debian's `x-terminal-emulator`, then the
/// first of a short known list on PATH (foot only under Wayland).
public struct TerminalChoice: Equatable, Sendable {
    /// How the terminal was found, for the line that says which one opened.
    public enum Source: Equatable, Sendable {
        case xdgTerminalExec, variable, debianAlternative, known
    }

    /// The program started (an absolute path).
    public let executable: String
    /// Its arguments: the terminal's own, then the command it runs.
    public let arguments: [String]
    /// Its name as the person knows it (`xterm`, `kitty`; `x-terminal-emulator` when the
    /// alternative points at a program this list does not know).
    public let name: String
    public let source: Source

    /// The window's title and, where the terminal sets one, its app id (Wayland) or class (X11).
    public static let title = "cravey"

    /// The known terminals, in the order they are tried when nothing else names one.
    public static let known = [
        "kitty", "gnome-terminal", "konsole", "xfce4-terminal", "alacritty", "foot", "xterm",
    ]

    /// Why no terminal could be chosen.
    public enum Refusal: Error, Equatable, Sendable {
        /// Neither DISPLAY nor WAYLAND_DISPLAY: no desktop to open a window on.
        case noDisplay
        /// No terminal program was found.
        case noTerminal
    }

    /// Chooses the terminal that runs `command` (an absolute path and its arguments) for the
    /// environment `env` (its PATH, TERMINAL, DISPLAY and WAYLAND_DISPLAY).
    public static func choose(
        for command: [String], environment env: [String: String], isExecutable: (String) -> Bool = Self.isExecutable
    ) -> Result<TerminalChoice, Refusal> {
        let wayland = !(env["WAYLAND_DISPLAY"] ?? "").isEmpty
        guard wayland || !(env["DISPLAY"] ?? "").isEmpty else { return .failure(.noDisplay) }
        let path = (env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        func find(_ name: String) -> String? {
            if name.contains("/") { return isExecutable(name) ? name : nil }
            return path.lazy.filter { $0.hasPrefix("/") }.map { $0 + "/" + name }.first(where: isExecutable)
        }
        if let found = find("xdg-terminal-exec") {
            // Its own options (from version 0.10): the app id and the title, then the command.
            return .success(
                TerminalChoice(
                    executable: found, arguments: ["--app-id=\(title)", "--title=\(title)"] + command,
                    name: "xdg-terminal-exec", source: .xdgTerminalExec))
        }
        // $TERMINAL: a program, perhaps with options of the person's own.
        let words = (env["TERMINAL"] ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
        if let first = words.first, let found = find(first) {
            let name = Self.baseName(first)
            return .success(
                TerminalChoice(
                    executable: found, arguments: Array(words.dropFirst()) + Self.arguments(name, command),
                    name: name, source: .variable))
        }
        if let found = find("x-terminal-emulator") {
            // The alternative points at a terminal: a known one is run as itself, with its own options.
            let real = Self.resolved(found)
            let name = Self.baseName(real)
            if known.contains(name) {
                return .success(
                    TerminalChoice(
                        executable: real, arguments: Self.arguments(name, command), name: name,
                        source: .debianAlternative))
            }
            // Debian's policy: every x-terminal-emulator takes -T title and -e command.
            return .success(
                TerminalChoice(
                    executable: found, arguments: ["-T", title, "-e"] + command, name: "x-terminal-emulator",
                    source: .debianAlternative))
        }
        for name in known where name != "foot" || wayland {
            if let found = find(name) {
                return .success(
                    TerminalChoice(
                        executable: found, arguments: Self.arguments(name, command), name: name, source: .known))
            }
        }
        return .failure(.noTerminal)
    }

    /// The options that make terminal `name` run `command` in a window titled `cravey` (and
    /// with that app id or class where it sets one); an unknown terminal gets `-e command`.
    static func arguments(_ name: String, _ command: [String]) -> [String] {
        switch name {
        case "kitty": return ["--class=\(title)", "--title=\(title)"] + command
        case "gnome-terminal": return ["--title=\(title)", "--"] + command
        case "konsole": return ["-p", "tabtitle=\(title)", "-e"] + command
        case "xfce4-terminal": return ["--title=\(title)", "-x"] + command
        case "alacritty": return ["--class", title, "--title", title, "-e"] + command
        case "foot": return ["--app-id=\(title)", "--title=\(title)"] + command
        case "xterm": return ["-name", title, "-T", title, "-e"] + command
        default: return ["-e"] + command
        }
    }

    /// The environment the terminal starts with: the person's own, with nothing of cravey's
    /// (no CRAVEY_ variable but the two that change how a screen looks), and the activation token
    /// it was given (XDG_ACTIVATION_TOKEN on Wayland, DESKTOP_STARTUP_ID on X11) so the desktop
    /// brings its window to the front.
    public static func environment(_ env: [String: String], activationToken: String? = nil) -> [String: String] {
        var own = env.filter { !$0.key.hasPrefix("CRAVEY_") || screenVariables.contains($0.key) }
        if let activationToken, !activationToken.isEmpty {
            own["XDG_ACTIVATION_TOKEN"] = activationToken
            own["DESKTOP_STARTUP_ID"] = activationToken
        }
        return own
    }

    /// The person's own choices for how screens look, kept for the screen the terminal runs.
    public static let screenVariables: Set<String> = ["CRAVEY_REDUCED_MOTION", "CRAVEY_GRAPHICS"]

    /// Whether `path` is a file this user may run.
    public static func isExecutable(_ path: String) -> Bool {
        var info = stat()
        return access(path, X_OK) == 0 && stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The last part of `path`.
    static func baseName(_ path: String) -> String { String(path.split(separator: "/").last ?? Substring(path)) }

    /// `path` with its symbolic links followed (Debian's alternatives are two links deep).
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }
}
