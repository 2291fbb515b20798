import Glibc

/// cravey's global shortcuts on GNOME, through `gsettings`: each is a custom keybinding of
/// gnome-settings-daemon at a path of cravey's own (`…/custom-keybindings/cravey-ride/`), its
/// `name`, `command` and `binding` set first, then its path appended to the person's list.
/// The person's own shortcuts are never changed: their entries are written back exactly as they
/// were read, and taking cravey's back removes only cravey's paths and keys.
public struct GnomeShortcuts {
    /// Runs `gsettings` with these arguments: its exit status and output, or nil when it could
    /// not run or did not end in time.
    public typealias Settings = (_ arguments: [String]) -> (status: Int32, output: String)?

    static let schema = "org.gnome.settings-daemon.plugins.media-keys"
    static let listKey = "custom-keybindings"
    static let folder = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/"

    let gsettings: Settings

    public init(gsettings: @escaping Settings) { self.gsettings = gsettings }

    /// The path of cravey's shortcut for `action`.
    public static func path(of action: ShortcutAction) -> String { folder + "cravey-\(action.rawValue)/" }

    /// Why a shortcut could not be bound or taken back; nothing was changed.
    public enum Failure: Error, Equatable {
        /// gsettings ran, but this system has no GNOME keybindings to hold one.
        case noSchema
        /// gsettings could not run, or did not answer in time.
        case notAnswering
        /// The list of shortcuts is in a form cravey does not read (it is left alone).
        case unreadable
        /// Another shortcut (named so) already uses the key.
        case taken(by: String)
        /// GNOME's settings did not keep what was written (no dconf to keep them in).
        case notKept
    }

    /// What binding did.
    public enum Bound: Equatable {
        /// The key is new.
        case added
        /// The same key already ran the same command.
        case unchanged
        /// cravey's shortcut for the action had another key (this one).
        case moved(from: String)
        /// The same key ran another command (another copy of cravey): it runs this one now.
        case updated
    }

    /// Binds `key` to `command`, named `name`, at the action's path.
    public func bind(_ action: ShortcutAction, key: ShortcutKey, name: String, command: String) throws(Failure)
        -> Bound
    {
        let list = try readList()
        let own = Self.path(of: action)
        for entry in list where entry.value != own {
            guard let held = value(entry.value, "binding"), let other = try? ShortcutKey(parsing: held),
                other.sameKey(as: key)
            else { continue }
            let otherName = value(entry.value, "name") ?? ""
            throw .taken(by: otherName.isEmpty ? held : otherName)
        }
        let listed = list.contains { $0.value == own }
        let before = listed ? (value(own, "binding"), value(own, "command"), value(own, "name")) : (nil, nil, nil)
        if before.0 == key.gnome && before.1 == command && before.2 == name { return .unchanged }
        do throws(Failure) {
            try set(own, "name", name)
            try set(own, "command", command)
            try set(own, "binding", key.gnome)
            if !listed {
                try write(list.map(\.printed) + [GVariantText.literal(own)])
            }
            guard try readList().contains(where: { $0.value == own }), value(own, "binding") == key.gnome else {
                throw .notKept
            }
        } catch {
            // A shortcut that was not there before is not left half made.
            if !listed { try? run(["reset-recursively", Self.relocatable(own)]) }
            throw error
        }
        guard listed, let old = before.0, !old.isEmpty else { return .added }
        return old == key.gnome ? .updated : .moved(from: old)
    }

    /// Takes back cravey's shortcuts for `actions` (only those on `key`, when given): their paths
    /// leave the list (the rest stays as it was; an empty list is reset to GNOME's default) and
    /// their keys are reset. Returns each one taken back, with the key it had.
    public func remove(_ actions: [ShortcutAction], key: ShortcutKey? = nil) throws(Failure) -> [(
        action: ShortcutAction, key: String
    )] {
        let list = try readList()
        var taken: [(action: ShortcutAction, key: String)] = []
        var paths: [String] = []
        for action in actions {
            let path = Self.path(of: action)
            let held = value(path, "binding") ?? ""
            if let key, (try? ShortcutKey(parsing: held)).map({ $0.sameKey(as: key) }) != true { continue }
            // One left half made (cravey stopped while binding it: its name is written first, the
            // list last) is not listed: its keys go too.
            let listed = list.contains { $0.value == path }
            guard listed || !held.isEmpty || !(value(path, "name") ?? "").isEmpty else { continue }
            paths.append(path)
            taken.append((action, held))
        }
        let rest = list.filter { !paths.contains($0.value) }
        if rest.count < list.count {
            if rest.isEmpty {
                try run(["reset", Self.schema, Self.listKey])
            } else {
                try write(rest.map(\.printed))
            }
        }
        for path in paths {
            try run(["reset-recursively", Self.relocatable(path)])
        }
        return taken
    }

    /// The person's list of custom keybindings.
    func readList() throws(Failure) -> [GVariantText.Entry] {
        guard let result = gsettings(["get", Self.schema, Self.listKey]) else { throw .notAnswering }
        guard result.status == 0 else { throw .noSchema }
        guard let list = GVariantText.strings(result.output) else { throw .unreadable }
        return list
    }

    func write(_ printed: [String]) throws(Failure) {
        try run(["set", Self.schema, Self.listKey, GVariantText.array(printed)])
    }

    /// One key of the keybinding at `path` (nil when it cannot be read).
    func value(_ path: String, _ key: String) -> String? {
        guard let result = gsettings(["get", Self.relocatable(path), key]), result.status == 0 else { return nil }
        return GVariantText.string(result.output)
    }

    func set(_ path: String, _ key: String, _ value: String) throws(Failure) {
        try run(["set", Self.relocatable(path), key, GVariantText.literal(value)])
    }

    func run(_ arguments: [String]) throws(Failure) {
        guard let result = gsettings(arguments) else { throw .notAnswering }
        guard result.status == 0 else { throw .notKept }
    }

    /// The keybinding schema at `path`, as gsettings names a relocatable one.
    static func relocatable(_ path: String) -> String { schema + ".custom-keybinding:" + path }

    /// Where `gsettings` is on `searchPath` (a PATH value), or nil.
    public static func program(onPath searchPath: String?) -> String? {
        for folder in (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where folder.hasPrefix("/") {
            let candidate = String(folder) + "/gsettings"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}

extension ShortcutKey {
    /// Whether `other` is the same key with the same modifiers, however each was written.
    public func sameKey(as other: ShortcutKey) -> Bool {
        key == other.key && Set(modifiers) == Set(other.modifiers)
    }
}
