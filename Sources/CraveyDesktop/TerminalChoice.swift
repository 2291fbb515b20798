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
        /// Every terminal found ended at once with an error (it refused its command line); the
        /// last one tried and its exit status.
        case endedAtOnce(name: String, status: Int32)
    }

    /// Chooses the terminal that runs `command` (an absolute path and its arguments) for the
    /// environment `env` (its PATH, TERMINAL, DISPLAY and WAYLAND_DISPLAY): the first candidate.
    public static func choose(
        for command: [String], environment env: [String: String], isExecutable: (String) -> Bool = Self.isExecutable
    ) -> Result<TerminalChoice, Refusal> {
        candidates(for: command, environment: env, isExecutable: isExecutable).map { $0[0] }
    }

    /// Every terminal that could run `command`, in the order they are tried (each program once): a
    /// terminal that refuses its command line at once gives way to the next.
    public static func candidates(
        for command: [String], environment env: [String: String], isExecutable: (String) -> Bool = Self.isExecutable
    ) -> Result<[TerminalChoice], Refusal> {
        let wayland = !(env["WAYLAND_DISPLAY"] ?? "").isEmpty
        guard wayland || !(env["DISPLAY"] ?? "").isEmpty else { return .failure(.noDisplay) }
        let path = (env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        func find(_ name: String) -> String? {
            if name.contains("/") { return isExecutable(name) ? name : nil }
            return path.lazy.filter { $0.hasPrefix("/") }.map { $0 + "/" + name }.first(where: isExecutable)
        }
        var found: [TerminalChoice] = []
        func add(_ choice: TerminalChoice) {
            if !found.contains(where: { $0.executable == choice.executable }) { found.append(choice) }
        }
        if let program = find("xdg-terminal-exec") {
            // Its own options (from version 0.10): the app id and the title, then the command.
            add(
                TerminalChoice(
                    executable: program, arguments: ["--app-id=\(title)", "--title=\(title)"] + command,
                    name: "xdg-terminal-exec", source: .xdgTerminalExec))
        }
        // $TERMINAL: a program, perhaps with options of the person's own.
        let words = (env["TERMINAL"] ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
        if let first = words.first, let program = find(first) {
            let name = Self.baseName(first)
            add(
                TerminalChoice(
                    executable: program, arguments: Array(words.dropFirst()) + Self.arguments(name, command),
                    name: name, source: .variable))
        }
        if let program = find("x-terminal-emulator") {
            // The alternative points at a terminal: a known one is run as itself, with its own options.
            let real = Self.resolved(program)
            let name = Self.baseName(real)
            // Debian's policy: every x-terminal-emulator takes -T title and -e command.
            add(
                known.contains(name)
                    ? TerminalChoice(
                        executable: real, arguments: Self.arguments(name, command), name: name,
                        source: .debianAlternative)
                    : TerminalChoice(
                        executable: program, arguments: ["-T", title, "-e"] + command, name: "x-terminal-emulator",
                        source: .debianAlternative))
        }
        for name in known where name != "foot" || wayland {
            if let program = find(name) {
                add(
                    TerminalChoice(
                        executable: program, arguments: Self.arguments(name, command), name: name, source: .known))
            }
        }
        return found.isEmpty ? .failure(.noTerminal) : .success(found)
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

    /// The environment the terminal starts with: the person's own, with nothing of cravey's tests
    /// or fault injection (only the `CRAVEY_` settings a person sets, `personVariables`), the mark
    /// that says the screen runs in a window of its own (`launchedVariable`), and the activation
    /// token so the desktop brings its window to the front (XDG_ACTIVATION_TOKEN on Wayland,
    /// DESKTOP_STARTUP_ID on X11). With `inheritingToken` false (a window opened later, from a
    /// notification's button) a token in `env` was already used by the start of this run: only
    /// `activationToken` is passed on, or none.
    public static func environment(
        _ env: [String: String], activationToken: String? = nil, inheritingToken: Bool = true
    ) -> [String: String] {
        var own = env.filter { !$0.key.hasPrefix("CRAVEY_") || personVariables.contains($0.key) }
        own[launchedVariable] = "1"
        if let activationToken, !activationToken.isEmpty {
            own["XDG_ACTIVATION_TOKEN"] = activationToken
            own["DESKTOP_STARTUP_ID"] = activationToken
        } else if !inheritingToken {
            own["XDG_ACTIVATION_TOKEN"] = nil
            own["DESKTOP_STARTUP_ID"] = nil
        }
        return own
    }

    /// The person's own settings (where the library is, transcripts, how screens look), kept for
    /// the screen the terminal runs.
    public static let personVariables: Set<String> = [
        "CRAVEY_LIBRARY", "CRAVEY_WHISPER", "CRAVEY_TRANSCRIBE", "CRAVEY_SPEECH_MODEL", "CRAVEY_REDUCED_MOTION",
        "CRAVEY_GRAPHICS", "CRAVEY_CHECKIN_TRANSCRIPT_WAIT",
    ]

    /// Set (to 1) only in the environment of a window `cravey launch` opened: its screen's last
    /// words wait for a key there, since the window closes when the screen ends.
    public static let launchedVariable = "CRAVEY_LAUNCHED"

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
