/// What a global shortcut runs: one of cravey's five actions, through `cravey launch ACTION`.
public enum ShortcutAction: String, CaseIterable, Sendable {
    case ride, craving, play, home, checkin

    /// The action in a few words, as a shortcut's name says it.
    public var words: String {
        switch self {
        case .ride: "ride it out"
        case .craving: "log a craving"
        case .play: "play my top message"
        case .home: "open cravey"
        case .checkin: "check in"
        }
    }

    /// The command line a desktop runs for it: `EXECUTABLE launch ACTION`, the executable's path
    /// quoted as a shell word when it needs to be.
    public func commandLine(executable: String) -> String {
        ShellWord.quoted(executable) + " launch " + rawValue
    }

    /// `commandLine` as a desktop entry's Exec key holds it, `%` doubled (else read as a field
    /// code and dropped): what GNOME's custom shortcuts (run as a desktop entry's command line)
    /// and KDE Plasma's commands are given.
    public func entryCommandLine(executable: String) -> String {
        commandLine(executable: executable).replacing("%", with: "%%")
    }
}

/// One word of a shell command line (GNOME's and Xfce's shortcuts split theirs the same way).
public enum ShellWord {
    /// `text` as it is when every character is plain (letters, digits, `/._+-`), else in single
    /// quotes (a quote inside as `'\''`).
    public static func quoted(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { c in
                c.isASCII
                    && (("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
                        || "/._+-".unicodeScalars.contains(c))
            }
        return plain ? text : "'" + text.replacing("'", with: "'\\''") + "'"
    }
}

/// The steps to bind a key on the desktops cravey cannot bind one on itself, each translated
/// from the one key: KDE Plasma, sway and i3, Xfce.
public enum ShortcutRecipes {
    /// The recipes for `key` running `action` through `executable`, one block a desktop.
    public static func text(key: ShortcutKey, action: ShortcutAction, executable: String) -> String {
        let command = action.commandLine(executable: executable)
        return """
            KDE Plasma: System Settings → Shortcuts → Add Command… (Plasma 6: Keyboard → Shortcuts → Add New → Command or Script…)
              Command:  \(action.entryCommandLine(executable: executable))
              Shortcut: \(key.kde)

            sway or i3: add this line to ~/.config/sway/config (or ~/.config/i3/config), then reload (Mod4 is the Super key):
              bindsym \(key.sway) exec \(command)

            Xfce: run
              xfconf-query -c xfce4-keyboard-shortcuts -p \(ShellWord.quoted("/commands/custom/" + key.xfce)) -n -t string -s \(ShellWord.quoted(command))
            """
    }
}
