import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The home every test runs `cravey` in: a fresh folder per test that HOME and every XDG base
/// directory point at, so nothing a command writes lands in the real home, and anything it
/// writes there is seen. The variables are set in the test process itself for the length of one
/// test (every program a test starts inherits them; a test that sets HOME for a run keeps its
/// own). After the test the folder must hold only what the test allowed (`allow(_:)`); anything
/// else fails the test, named. Other programs the tests run (a browser, ffmpeg, a bus) are given
/// a home of their own by `runProcess`, so they cannot fill the sentinel either.
public enum Sentinel {
    /// The variables that say where a home is, and the sentinel's place for each.
    static let places: [(variable: String, relative: String)] = [
        ("HOME", ""), ("XDG_CONFIG_HOME", "/.config"), ("XDG_DATA_HOME", "/.local/share"),
        ("XDG_CACHE_HOME", "/.cache"), ("XDG_STATE_HOME", "/.local/state"), ("XDG_RUNTIME_DIR", "/.runtime"),
    ]
    /// Variables that would lead a program to a home or a session outside the sentinel; unset
    /// while a test runs (a test that needs a bus starts its own and names it).
    static let unset = ["DBUS_SESSION_BUS_ADDRESS", "XAUTHORITY", "ICEAUTHORITY"]

    struct Active {
        let folder: String
        let elsewhere: String
        var allowed: Set<String> = []
        var saved: [String: String?] = [:]
    }
    nonisolated(unsafe) static var active: Active?

    /// The sentinel folder of the running test (nil between tests).
    public static var folder: String? { active?.folder }

    /// The home given to programs other than cravey (a browser, ffmpeg): made with the sentinel,
    /// removed with it, never checked.
    public static var elsewhere: String? { active?.elsewhere }

    /// The home variables as they were before the test, each one that was not set as its default
    /// under the real HOME (for a build whose caches belong in the real home, as they did before
    /// the sentinel); without a sentinel, none.
    public static var realHome: [String: String] {
        guard let state = active, let home = state.saved["HOME"] ?? nil else { return [:] }
        var real = homeEnvironment(home)
        real["XDG_RUNTIME_DIR"] = state.elsewhere + "/.runtime"
        for (variable, value) in state.saved {
            if let value, real[variable] != nil { real[variable] = value }
        }
        return real
    }

    /// The variables that point a program's home at `folder`.
    public static func homeEnvironment(_ folder: String) -> [String: String] {
        Dictionary(uniqueKeysWithValues: places.map { ($0.variable, folder + $0.relative) })
    }

    /// Paths (relative to the sentinel) a command the test ran exists to write there; their
    /// parent folders are allowed with them.
    public static func allow(_ paths: [String]) {
        for path in paths { active?.allowed.insert(path) }
    }

    /// Everything in the sentinel, as paths relative to it (folders end in "/"), sorted.
    public static func contents() -> [String] {
        guard let folder = active?.folder else { return [] }
        var found: [String] = []
        func walk(_ relative: String) {
            let path = folder + relative
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
            for name in names {
                let child = relative + "/" + name
                var info = stat()
                guard lstat(folder + child, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR {
                    found.append(String(child.dropFirst()) + "/")
                    walk(child)
                } else {
                    found.append(String(child.dropFirst()))
                }
            }
        }
        walk("")
        return found.sorted()
    }

    /// What the sentinel holds that the test did not allow.
    public static func unexpected() -> [String] {
        guard let allowed = active?.allowed else { return [] }
        return contents().filter { entry in
            let path = entry.hasSuffix("/") ? String(entry.dropLast()) : entry
            return !allowed.contains { $0 == path || $0.hasPrefix(path + "/") }
        }
    }

    /// Makes a fresh sentinel (and the other programs' home) and points the test process at it.
    static func begin() {
        finish()
        let temporary = FileManager.default.temporaryDirectory.path
        let tag = UUID().uuidString.prefix(8)
        var state = Active(
            folder: temporary + "/cravey-sentinel-\(tag)", elsewhere: temporary + "/cravey-others-\(tag)")
        for folder in [state.folder, state.elsewhere] { mkdir(folder, 0o700) }
        // updateValue keeps a variable that was not set as nil (a subscript assignment of nil
        // would drop the key, and the variable would never be unset again).
        for variable in places.map(\.variable) + unset {
            state.saved.updateValue(getenv(variable).map { String(cString: $0) }, forKey: variable)
        }
        for (variable, value) in homeEnvironment(state.folder) { setenv(variable, value, 1) }
        for variable in unset { unsetenv(variable) }
        active = state
    }

    /// Puts the test process's variables back and removes the sentinel.
    static func finish() {
        guard let state = active else { return }
        for (variable, value) in state.saved {
            if let value { setenv(variable, value, 1) } else { unsetenv(variable) }
        }
        for folder in [state.folder, state.elsewhere] { try? FileManager.default.removeItem(atPath: folder) }
        active = nil
    }
}

/// `cravey` as the tests run it: the built program, started (where the tests run as root, as CI
/// does, and not inside the VM rig) in a network namespace of its own with no interface up, by a
/// small wrapper that execs `unshare --net` and then cravey itself (one process id throughout,
/// so signals and `$$` reach cravey). Run as another user (a test that drops to `nobody`), who
/// cannot make a namespace, the wrapper execs cravey as it is; without root it is the built
/// program as it is.
public let craveyUnderTest: String = {
    Sentinel.watch()
    let built = productPath("cravey")
    guard geteuid() == 0, ProcessInfo.processInfo.environment["CRAVEY_IN_VM"] != "1",
        FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
    else { return built }
    var template = Array((FileManager.default.temporaryDirectory.path + "/cravey-netns-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template), chmod(made, 0o755) == 0 else { return built }
    let wrapper = String(cString: made) + "/cravey"
    let script = """
        #!/bin/sh
        [ "$(id -u)" = 0 ] || exec \(shellQuote(built)) "$@"
        exec /usr/bin/unshare --net -- \(shellQuote(built)) "$@"

        """
    guard
        FileManager.default.createFile(
            atPath: wrapper, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
    else { return built }
    netnsWrapperFolder = String(cString: made)
    // Removed when the test process exits.
    atexit { if let folder = netnsWrapperFolder { try? FileManager.default.removeItem(atPath: folder) } }
    return wrapper
}()

/// The folder of the network-namespace wrapper (removed when the tests end).
nonisolated(unsafe) var netnsWrapperFolder: String?

/// How `runProcess` starts `executable`: a copy of cravey other than the wrapper (an installed
/// one) is started in a network namespace too, where `craveyUnderTest` uses one.
func isolated(_ executable: String, _ arguments: [String]) -> (String, [String]) {
    guard (executable as NSString).lastPathComponent == "cravey", executable != craveyUnderTest,
        craveyUnderTest != productPath("cravey")
    else { return (executable, arguments) }
    return ("/usr/bin/unshare", ["--net", "--", executable] + arguments)
}

/// Programs the tests run beside cravey that keep files in a home of their own (a browser's
/// profile, a font cache): run by `runProcess` with the other programs' home, so only cravey
/// can fill the sentinel.
let programsWithTheirOwnHome: Set<String> = [
    "chromium", "chromium-browser", "ffmpeg", "ffprobe", "sox", "pdftoppm", "pdftotext", "pdfinfo", "python3",
    "systemd-analyze", "dbus-daemon", "dbus-monitor", "Xvfb", "strip", "espeak-ng", "flite", "aplay", "arecord",
]

/// The environment `runProcess` gives `executable`: the test process's (a sentinel home while a
/// test runs), another home for the programs above, then the caller's `environment` over both.
func environment(for executable: String, _ environment: [String: String]) -> [String: String] {
    var merged = ProcessInfo.processInfo.environment
    if let elsewhere = Sentinel.elsewhere,
        programsWithTheirOwnHome.contains((executable as NSString).lastPathComponent)
    {
        merged.merge(Sentinel.homeEnvironment(elsewhere)) { $1 }
    }
    merged.merge(environment) { $1 }
    return merged
}

#if canImport(XCTest)
    import XCTest

    /// A test class that keeps the real home (the VM rig keeps its machine image in `~/.cache`):
    /// its tests run without a sentinel.
    public protocol KeepsTheRealHome {}

    extension Sentinel {
        /// The test targets that run the built program.
        static let programTargets: Set = [
            "CraveyTests", "CraveyScreenTests", "CraveyFaultTests", "CraveyTranscriptTests", "CraveyVMTests",
        ]

        /// Starts watching every test (once): a sentinel before each, the check after it.
        public static func watch() { _ = observer }

        nonisolated(unsafe) static let observer: Observer = {
            let observer = Observer()
            XCTestObservationCenter.shared.addTestObserver(observer)
            return observer
        }()

        final class Observer: NSObject, XCTestObservation {
            func testCaseWillStart(_ testCase: XCTestCase) {
                // The tests of the built program (the other test targets run no cravey).
                let module = String(reflecting: type(of: testCase)).prefix { $0 != "." }
                guard Sentinel.programTargets.contains(String(module)), !(testCase is KeepsTheRealHome)
                else { return Sentinel.finish() }
                Sentinel.begin()
                testCase.addTeardownBlock {
                    let left = Sentinel.unexpected()
                    if !left.isEmpty {
                        XCTFail(
                            "cravey left files in the sentinel home (\(Sentinel.folder ?? "")): "
                                + left.joined(separator: ", "))
                    }
                }
            }

            func testCaseDidFinish(_ testCase: XCTestCase) { Sentinel.finish() }

            func testBundleDidFinish(_ testBundle: Bundle) { Sentinel.finish() }
        }
    }
#else
    extension Sentinel {
        public static func watch() {}
    }
#endif
