import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A data helper's home: a fresh folder (0700) in the temporary directory that its HOME, its XDG
/// folders, its caches and its TMPDIR all point into, so nothing it or its libraries keep lands
/// in the person's home. It is removed when the helper has ended, when cravey exits, and when
/// cravey is stopped by a signal; a folder left by a cravey that was killed is removed by a later
/// one, once that can prove its owner is gone (the folder's name holds the owner's process id and
/// start time, and no process has both now).
struct HelperFolder: Sendable {
    let path: String

    static let prefix = "cravey-helper-"

    /// The folders of the helpers running now, by the helper's process id.
    static let live = Mutex<[pid_t: HelperFolder]>([:])

    /// The variables that point the helper's home and caches into the folder.
    var environment: [String: String] {
        [
            "HOME": path, "XDG_CONFIG_HOME": path + "/config", "XDG_DATA_HOME": path + "/data",
            "XDG_CACHE_HOME": path + "/cache", "XDG_STATE_HOME": path + "/state", "XDG_RUNTIME_DIR": path,
            "TMPDIR": path + "/tmp", "HF_HOME": path + "/cache/huggingface", "CRAVEY_HELPER_FOLDER": path,
        ]
    }

    /// Makes a fresh folder (after removing those of helpers whose cravey is gone).
    static func make() throws -> HelperFolder {
        _ = removedAtExit
        let temporary = temporaryDirectory
        removeStale(in: temporary)
        let me = getpid()
        let name = prefix + "\(me)-\(startTime(of: me) ?? "0")-XXXXXX"
        var template = Array((temporary + "/" + name).utf8CString)
        guard let made = mkdtemp(&template) else {
            throw HelperError("cannot make the helper's private folder: \(String(cString: strerror(errno)))")
        }
        let folder = HelperFolder(path: String(cString: made))
        guard mkdir(folder.path + "/tmp", 0o700) == 0 else {
            let reason = String(cString: strerror(errno))
            folder.remove()
            throw HelperError("cannot make the helper's private folder: \(reason)")
        }
        return folder
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// TMPDIR when it names a directory by an absolute path, else /tmp.
    static var temporaryDirectory: String {
        var isDirectory: ObjCBool = false
        if let named = ProcessInfo.processInfo.environment["TMPDIR"], named.hasPrefix("/"),
            FileManager.default.fileExists(atPath: named, isDirectory: &isDirectory), isDirectory.boolValue
        {
            return named.count > 1 && named.hasSuffix("/") ? String(named.dropLast()) : named
        }
        return "/tmp"
    }

    /// A process's start time (clock ticks since boot, field 22 of /proc/PID/stat), or nil when
    /// no such process runs.
    static func startTime(of pid: pid_t) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, so the start time (22) is the 20th.
        return fields.count > 19 ? String(fields[19]) : nil
    }

    /// Removes this user's helper folders whose cravey is gone: no process runs with the process
    /// id and start time in the folder's name.
    static func removeStale(in temporary: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary) else { return }
        for name in names where name.hasPrefix(prefix) {
            let parts = name.dropFirst(prefix.count).split(separator: "-")
            guard parts.count == 3, let owner = pid_t(parts[0]) else { continue }
            var info = stat()
            let path = temporary + "/" + name
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else { continue }
            if startTime(of: owner) == String(parts[1]) { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Kills every data helper still running (with what it started) and removes its folder.
    static func endAll() {
        let helpers = live.withLock { live in
            defer { live = [:] }
            return live
        }
        for (pid, folder) in helpers {
            _ = kill(-pid, SIGKILL)
            _ = kill(pid, SIGKILL)
            folder.remove()
        }
    }

    /// The helpers are ended and their folders removed when cravey exits (normally or with an error).
    private static let removedAtExit: Void = { atexit { HelperFolder.endAll() } }()
}

/// The helpers that work on the person's data (the Whisper transcriber).
public enum DataHelpers {
    /// Ends every data helper now, with what it started, and removes their private folders (a
    /// stop signal that ends cravey calls this first).
    public static func endAll() { HelperFolder.endAll() }
}
