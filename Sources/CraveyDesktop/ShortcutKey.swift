/// A global key, written in GNOME's accelerator syntax (`<Super><Shift>c`; `<Shift><Super>C` is
/// the same key, written back in that one way), and the same key as each other desktop writes it: KDE Plasma (`Meta+Shift+C`), sway and i3 (`Mod4+Shift+c`) and
/// Xfce (`<Super><Shift>c`, with `<Primary>` for Control).
public struct ShortcutKey: Equatable, Sendable {
    /// A modifier, in the order KDE writes them.
    public enum Modifier: Int, Comparable, Sendable {
        case `super`, control, alt, shift

        public static func < (a: Modifier, b: Modifier) -> Bool { a.rawValue < b.rawValue }

        /// The names GTK's accelerator parser takes for each (compared without case).
        static let names: [String: Modifier] = [
            "super": .super, "mod4": .super, "shift": .shift, "control": .control, "ctrl": .control,
            "ctl": .control, "primary": .control, "alt": .alt, "mod1": .alt,
        ]

        var gnome: String {
            switch self {
            case .super: "<Super>"
            case .control: "<Control>"
            case .alt: "<Alt>"
            case .shift: "<Shift>"
            }
        }
        var kde: String {
            switch self {
            case .super: "Meta"
            case .control: "Ctrl"
            case .alt: "Alt"
            case .shift: "Shift"
            }
        }
        var sway: String {
            switch self {
            case .super: "Mod4"
            case .control: "Control"
            case .alt: "Mod1"
            case .shift: "Shift"
            }
        }
    }

    /// The modifiers, each once, in one order however they were written (Super, Control, Alt, Shift).
    public let modifiers: [Modifier]
    /// The key's X keysym name (`c`, `F9`, `Return`, `space`), letters in lower case.
    public let key: String

    /// Why a key was refused.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads `text` (`<Super><Shift>c`, `<Control><Alt>F9`); a key anyone types while writing (a
    /// letter, a digit, a space with no modifier, or only Shift) is refused: it would be taken
    /// from every window.
    public init(parsing text: String) throws(Refusal) {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        var rest = Substring(text)
        var modifiers: [Modifier] = []
        while rest.hasPrefix("<") {
            guard let close = rest.firstIndex(of: ">") else {
                throw Refusal(description: "'\(shown)' has a '<' with no '>' (write keys like '<Super><Shift>c')")
            }
            let name = rest[rest.index(after: rest.startIndex)..<close]
            guard let modifier = Modifier.names[name.lowercased()] else {
                throw Refusal(
                    description:
                        "'<\(name.prefix(20))>' is not a modifier cravey knows: use <Super>, <Control>, <Alt> or <Shift>"
                )
            }
            if !modifiers.contains(modifier) { modifiers.append(modifier) }
            rest = rest[rest.index(after: close)...]
        }
        guard !rest.isEmpty else {
            throw Refusal(
                description: "'\(shown)' names no key after its modifiers (write keys like '<Super><Shift>c')")
        }
        guard let key = Self.keyName(String(rest)) else {
            throw Refusal(
                description:
                    "'\(rest.prefix(20))' is not a key cravey knows: use a letter, a digit, F1–F24 or a named key such as space, Return or Page_Up"
            )
        }
        let typing = key.count == 1 || key == "space" || key == "Return" || key == "Tab" || key == "BackSpace"
        if typing && modifiers.allSatisfy({ $0 == .shift }) {
            throw Refusal(
                description: "'\(shown)' is a key you type with; add <Super>, <Control> or <Alt> so it is a shortcut")
        }
        self.modifiers = modifiers.sorted()
        self.key = key
    }

    /// The keys besides letters, digits and F1–F24, by their keysym names; each with KDE's name.
    static let named: [String: String] = [
        "space": "Space", "Return": "Return", "Tab": "Tab", "BackSpace": "Backspace", "Escape": "Esc",
        "Delete": "Del", "Insert": "Ins", "Home": "Home", "End": "End", "Page_Up": "PgUp", "Page_Down": "PgDown",
        "Up": "Up", "Down": "Down", "Left": "Left", "Right": "Right", "Pause": "Pause", "Print": "Print",
        "minus": "-", "equal": "=", "comma": ",", "period": ".", "slash": "/", "semicolon": ";",
        "apostrophe": "'", "grave": "`", "bracketleft": "[", "bracketright": "]", "backslash": "\\",
    ]

    /// The keysym name `text` stands for (a letter in lower case; named keys without case), or nil.
    static func keyName(_ text: String) -> String? {
        if text.count == 1, let c = text.unicodeScalars.first, c.isASCII,
            ("a"..."z").contains(Character(c)) || ("A"..."Z").contains(Character(c))
                || ("0"..."9").contains(Character(c))
        {
            return text.lowercased()
        }
        if text.first == "F" || text.first == "f", let number = Int(text.dropFirst()), (1...24).contains(number),
            !text.dropFirst().hasPrefix("0")
        {
            return "F\(number)"
        }
        return named.keys.first { $0.lowercased() == text.lowercased() }
    }

    /// As GNOME's settings hold it: `<Super><Shift>c`.
    public var gnome: String { modifiers.map(\.gnome).joined() + key }

    /// As KDE Plasma writes it: `Meta+Shift+C`.
    public var kde: String {
        let name = Self.named[key] ?? (key.count == 1 ? key.uppercased() : key)
        return (modifiers.map(\.kde) + [name]).joined(separator: "+")
    }

    /// As a sway or i3 `bindsym` takes it: `Mod4+Shift+c`.
    public var sway: String { (modifiers.map(\.sway) + [key]).joined(separator: "+") }

    /// As Xfce's keyboard shortcuts hold it: `<Super><Shift>c` (Control is `<Primary>`).
    public var xfce: String { modifiers.map { $0 == .control ? "<Primary>" : $0.gnome }.joined() + key }
}
