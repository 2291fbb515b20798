import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `cravey launch`: a screen opened from the desktop in a terminal window of its own. The terminal
/// is chosen in turn from xdg-terminal-exec (a stand-in that reads its command line as the real
/// one does), $TERMINAL, x-terminal-emulator, the known list, and none; the ride is drawn in a real
/// xterm under Xvfb (read through xterm's own log); `q` typed into it ends the ride, whose closing
/// words wait for a key before the window closes (home left with q closes at once).
final class LaunchTests: BackgroundTestCase {
    var xvfb: Process?
    /// The terminals the tests opened (their process ids, found by their own log file).
    var logs: [String] = []

    override func tearDownWithError() throws {
        for log in logs { for pid in Self.processes(mentioning: log) { kill(pid, SIGKILL) } }
        if let xvfb, xvfb.isRunning { xvfb.terminate(); xvfb.waitUntilExit() }
        try super.tearDownWithError()
    }

    /// The processes whose command line mentions `text` (the terminal this test started, by its
    /// log's unique path).
    static func processes(mentioning text: String) -> [pid_t] {
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        return ids.filter { pid in
            let line = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            return String(decoding: line, as: UTF8.self).contains(text) && !state.contains(") Z ")
        }
    }

    /// A folder of stand-in programs for PATH.
    func bin(_ name: String) throws -> String {
        let folder = base + "/" + name
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A stand-in terminal that writes its arguments (one a line), its environment, its session
    /// and its open descriptors to `record`, then runs `then` (a shell line) or nothing.
    func standIn(_ path: String, record: String, then: String = "") throws {
        let script = """
            #!/bin/sh
            printf '%s\\n' "$@" > \(shellQuote(record)).args
            /usr/bin/env > \(shellQuote(record)).env
            (for fd in /proc/$$/fd/*; do /usr/bin/readlink "$fd"; done) > \(shellQuote(record)).fds
            /usr/bin/awk '{ print $6 }' /proc/$$/stat > \(shellQuote(record)).session
            echo $$ > \(shellQuote(record)).pid
            \(then)

            """
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: path, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755]))
    }

    /// Whether the terminal writing `log` is gone within `seconds`.
    func closes(log: String, within seconds: Double = 15) -> Bool {
        let deadline = Date() + seconds
        while !Self.processes(mentioning: log).isEmpty && Date() < deadline { usleep(100_000) }
        return Self.processes(mentioning: log).isEmpty
    }

    /// A record of a stand-in, read once the stand-in has written them all (its `.pid` comes last:
    /// cravey does not wait for the terminal it starts).
    func lines(_ path: String) -> [String] {
        _ = waitForFile((path as NSString).deletingPathExtension + ".pid", containing: "\n")
        return ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The built program the terminal is asked to run (not the tests' network wrapper).
    var built: String { productPath("cravey") }

    /// `cravey launch …` with `environment`, in a network namespace of its own (the tests' wrapper
    /// finds its tools on a PATH these runs take away).
    func launch(_ arguments: [String], environment: [String: String]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try runProcess("/usr/bin/unshare", ["--net", "--", built, "launch"] + arguments, environment: environment)
    }

    /// What every launch is run with: a desktop, the library, a test variable that must not
    /// reach the terminal, a look the screen keeps, an activation token.
    func env(_ path: String, _ extra: [String: String] = [:]) -> [String: String] {
        [
            "PATH": path, "DISPLAY": ":0", "WAYLAND_DISPLAY": "", "TERMINAL": "", "CRAVEY_LIBRARY": root,
            "CRAVEY_LOCK_WAIT": "3", "CRAVEY_REDUCED_MOTION": "1", "XDG_ACTIVATION_TOKEN": "token-from-the-launcher",
        ].merging(extra) { $1 }
    }

    func testEachTerminalChoiceInTurn() throws {
        // xdg-terminal-exec first, with its own options for the title and the app id.
        let first = try bin("first")
        for name in ["xdg-terminal-exec", "kitty", "x-terminal-emulator"] {
            try standIn(first + "/" + name, record: base + "/" + name)
        }
        // The person's own settings reach the screen; the tests' and the fault injection's do not.
        let settings = [
            "CRAVEY_WHISPER": "off", "CRAVEY_NOW": "2026-11-20T10:00:00", "CRAVEY_FAULT_FAIL": "sqlite.open",
            "CRAVEY_TEST_STOP_WINDOW_MS": "5", "CRAVEY_TIMINGS": "1", "CRAVEY_RIDE_MINUTE_SECONDS": "1",
            "CRAVEY_TRANSCRIBE": "later",
        ]
        var out = try launch(
            ["ride"], environment: env(first, ["TERMINAL": first + "/kitty"]).merging(settings) { $1 })
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stdout, "Opened the ride in your default terminal (xdg-terminal-exec).\n")
        XCTAssertEqual(
            lines(base + "/xdg-terminal-exec.args"),
            ["--app-id=cravey", "--title=cravey", built, "ride", "--library", root])
        let own = lines(base + "/xdg-terminal-exec.env")
        XCTAssertEqual(
            own.filter { $0.hasPrefix("CRAVEY_") }.sorted(),
            [
                "CRAVEY_LAUNCHED=1", "CRAVEY_LIBRARY=\(root)", "CRAVEY_REDUCED_MOTION=1", "CRAVEY_TRANSCRIBE=later",
                "CRAVEY_WHISPER=off",
            ], "only the person's own settings, and the mark of a window of its own")
        XCTAssertTrue(own.contains("XDG_ACTIVATION_TOKEN=token-from-the-launcher"), "the token is passed on")
        XCTAssertEqual(
            Set(lines(base + "/xdg-terminal-exec.fds")), ["/dev/null", first + "/xdg-terminal-exec"],
            "nothing of cravey's open")
        XCTAssertEqual(
            lines(base + "/xdg-terminal-exec.session"), lines(base + "/xdg-terminal-exec.pid"), "a session of its own")

        // $TERMINAL next (a known terminal gets its own options; the person's options stay first).
        try FileManager.default.removeItem(atPath: first + "/xdg-terminal-exec")
        out = try launch(["craving"], environment: env(first, ["TERMINAL": "kitty --single-instance"]))
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stdout, "Opened a craving's log in kitty ($TERMINAL).\n")
        XCTAssertEqual(
            lines(base + "/kitty.args"),
            ["--single-instance", "--class=cravey", "--title=cravey", built, "craving", "--library", root])

        // Then Debian's x-terminal-emulator: -T and -e, as its policy says every one takes.
        out = try launch(["checkin"], environment: env(first, ["TERMINAL": "no-such-terminal"]))
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stdout, "Opened the check-in in x-terminal-emulator.\n")
        XCTAssertEqual(
            lines(base + "/x-terminal-emulator.args"), ["-T", "cravey", "-e", built, "checkin", "--library", root])
        // An alternative that points at a known terminal runs it as itself.
        let alternative = try bin("alternative")
        try standIn(alternative + "/xterm", record: base + "/alternative")
        try FileManager.default.removeItem(atPath: first + "/x-terminal-emulator")
        try FileManager.default.createSymbolicLink(
            atPath: first + "/x-terminal-emulator", withDestinationPath: alternative + "/xterm")
        out = try launch(["home"], environment: env(first))
        XCTAssertEqual(out.stdout, "Opened the home screen in xterm (x-terminal-emulator).\n", out.stderr)
        XCTAssertEqual(
            lines(base + "/alternative.args"),
            ["-name", "cravey", "-T", "cravey", "-e", built, "home", "--library", root])

        // Then the known list, in its order; foot only under Wayland.
        try FileManager.default.removeItem(atPath: first + "/x-terminal-emulator")
        let known = try bin("known")
        for name in ["foot", "xterm"] { try standIn(known + "/" + name, record: base + "/known-" + name) }
        out = try launch(["ride"], environment: env(known))
        XCTAssertEqual(out.stdout, "Opened the ride in xterm.\n", out.stderr)
        out = try launch(["ride"], environment: env(known, ["WAYLAND_DISPLAY": "wayland-0"]))
        XCTAssertEqual(out.stdout, "Opened the ride in foot.\n", out.stderr)
        XCTAssertEqual(
            lines(base + "/known-foot.args"),
            ["--app-id=cravey", "--title=cravey", built, "ride", "--library", root])

        // None at all: why, and how to name one; nothing is made.
        let none = try bin("none")
        out = try launch(["ride"], environment: env(none))
        XCTAssertEqual(out.status, 1)
        XCTAssertEqual(out.stdout, "")
        XCTAssertEqual(out.stderr.split(separator: "\n").count, 1, out.stderr)
        XCTAssertTrue(out.stderr.contains("no terminal program was found to open the ride in"), out.stderr)
        XCTAssertTrue(out.stderr.contains("name yours in TERMINAL, e.g. TERMINAL=kitty"), out.stderr)
        // From a key, where nobody reads the error: it comes as a notification.
        let address = try startSessionBus()
        let served = try startNotificationServer(at: address)
        let quiet = try runProcess(
            "/bin/sh", ["-c", "exec /usr/bin/unshare --net -- \(shellQuote(built)) launch ride 0<&- 1>&- 2>&-"],
            environment: env(none, ["DBUS_SESSION_BUS_ADDRESS": address]))
        XCTAssertEqual(quiet.status, 1)
        XCTAssertTrue(
            waitForFile(served, containing: "NOTIFY").contains(
                "NOTIFY cravey | cravey could not open a window | no terminal program was found to open the ride in"))
        // No desktop: said, and nothing is tried.
        out = try launch(["ride"], environment: env(known, ["DISPLAY": ""]))
        XCTAssertEqual(out.status, 1)
        XCTAssertTrue(out.stderr.contains("there is no desktop to open a window on"), out.stderr)
        // A screen it does not know: refused in one line.
        out = try launch(["rid\u{1b}[2J"], environment: env(known))
        XCTAssertEqual(out.status, 64)
        XCTAssertTrue(
            out.stderr.contains("is not a screen to open; give home, ride, craving, checkin, use or play"), out.stderr)
        XCTAssertFalse(out.stderr.contains("\u{1b}"), "the typed escape is not replayed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "no launch makes a library")
    }

    /// A session bus that takes the connection and never says hello (a wedged desktop) holds the
    /// notification that stands in for a window a few seconds at most, not sd-bus's 90: the
    /// launch still ends with its one line.
    func testASilentBusDoesNotHoldTheLaunch() throws {
        let socket = base + "/silent-bus"
        try start(
            "/usr/bin/python3",
            [
                "-c",
                "import socket,sys,time\ns=socket.socket(socket.AF_UNIX)\ns.bind(sys.argv[1])\ns.listen(4)\n"
                    + "held=[]\nwhile True: held.append(s.accept())",
                socket,
            ], output: base + "/silent-bus.out")
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(50_000) }
        let started = Date()
        let out = try launch(
            ["ride"], environment: env(try bin("none"), ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + socket]))
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(out.status, 1, out.stderr)
        XCTAssertTrue(out.stderr.contains("no terminal program was found to open the ride in"), out.stderr)
        XCTAssertLessThan(seconds, 30, "a silent bus held the launch for \(seconds) s")
    }

    /// A terminal that refuses its command line (an unknown option; no -e) ends at once: the next
    /// one found is tried, and when every one does, cravey says it could not open a window.
    func testATerminalThatStopsAtOnceGivesWayToTheNext() throws {
        let folder = try bin("refusing")
        // An old xdg-terminal-exec takes --app-id=cravey for the command and fails to run it.
        try standIn(
            folder + "/xdg-terminal-exec", record: base + "/old-xdg",
            then: "echo 'cannot run --app-id=cravey' >&2; exit 2")
        try standIn(folder + "/kitty", record: base + "/kitty")
        var out = try launch(["ride"], environment: env(folder, ["TERMINAL": "kitty"]))
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stdout, "Opened the ride in kitty ($TERMINAL).\n")
        XCTAssertEqual(lines(base + "/old-xdg.args").first, "--app-id=cravey", "the old one was tried first")
        XCTAssertEqual(lines(base + "/kitty.args").suffix(3), ["ride", "--library", root])

        // Every one refuses: said in one line, and from a key as a notification.
        try standIn(folder + "/kitty", record: base + "/kitty-too", then: "exit 1")
        out = try launch(["ride"], environment: env(folder, ["TERMINAL": "kitty"]))
        XCTAssertEqual(out.status, 1)
        XCTAssertEqual(out.stdout, "")
        XCTAssertEqual(out.stderr.split(separator: "\n").count, 1, out.stderr)
        XCTAssertTrue(
            out.stderr.contains("no terminal could open the ride: kitty stopped at once (exit status 1)"), out.stderr)
        let address = try startSessionBus()
        let served = try startNotificationServer(at: address)
        let quiet = try runProcess(
            "/bin/sh", ["-c", "exec /usr/bin/unshare --net -- \(shellQuote(built)) launch craving 0<&- 1>&- 2>&-"],
            environment: env(folder, ["TERMINAL": "kitty", "DBUS_SESSION_BUS_ADDRESS": address]))
        XCTAssertEqual(quiet.status, 1)
        XCTAssertTrue(
            waitForFile(served, containing: "NOTIFY").contains(
                "NOTIFY cravey | cravey could not open a window | no terminal could open a craving's log: kitty stopped at once"
            ))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "no launch makes a library")
    }

    /// The ride in a real xterm, twice: through the xdg-terminal-exec stand-in (which follows its
    /// command line and opens xterm) and through $TERMINAL. A 7, then q: the craving is kept, the
    /// ride's closing words wait for a key, and the key closes the window. Home left with q closes
    /// its window at once.
    func testTheRideOpensInXtermAndQClosesIt() throws {
        let started = try startXvfb()
        xvfb = started.process
        let display = started.display
        let through = try bin("through")
        let standInLog = base + "/through-xdg.log"
        let xdg = """
            #!/bin/sh
            # A stand-in for xdg-terminal-exec: its options, then the command, as the real one reads them.
            title= appid=
            while [ $# -gt 0 ]; do
              case "$1" in
                --title=*) title=${1#--title=} ;;
                --app-id=*) appid=${1#--app-id=} ;;
                --dir=*|--hold) ;;
                --) shift; break ;;
                -*) echo "xdg-terminal-exec: unknown option $1" >&2; exit 2 ;;
                *) break ;;
              esac
              shift
            done
            exec /usr/bin/xterm -l -lf \(shellQuote(standInLog)) -name "$appid" -T "$title" -e "$@"

            """
        FileManager.default.createFile(
            atPath: through + "/xdg-terminal-exec", contents: Data(xdg.utf8), attributes: [.posixPermissions: 0o755])
        let variableLog = base + "/through-variable.log"
        for (path, terminal, log) in [
            (through, "", standInLog), ("/usr/bin:/bin", "/usr/bin/xterm -l -lf \(variableLog)", variableLog),
        ] {
            logs.append(log)
            let out = try launch(
                ["ride"],
                environment: env(path, ["DISPLAY": display, "TERMINAL": terminal, "CRAVEY_REDUCED_MOTION": ""]))
            XCTAssertEqual(out.status, 0, out.stderr)
            XCTAssertTrue(
                waitForFile(log, containing: "How strong is it?", timeout: 20).contains("Ride it out"),
                "the ride is drawn")
            // Keys typed as a person would (XTEST), into the window given the focus.
            let window = try runProcess(
                "/usr/bin/xdotool", ["search", "--sync", "--name", "^cravey$", "windowfocus", "--sync"],
                environment: ["DISPLAY": display])
            XCTAssertEqual(window.status, 0, window.stderr)
            XCTAssertEqual(
                try runProcess("/usr/bin/xdotool", ["key", "7"], environment: ["DISPLAY": display]).status, 0)
            XCTAssertTrue(
                waitForFile(log, containing: "breathe with me", timeout: 20).contains("breathe with me"),
                "the ride is on")
            _ = try runProcess("/usr/bin/xdotool", ["key", "q"], environment: ["DISPLAY": display])
            // The ride's closing words stay: the window waits for a key before it closes.
            XCTAssertTrue(
                waitForFile(log, containing: "Press any key to close this window.", timeout: 20).contains(
                    "Press any key to close this window."), "the last words wait for a key")
            usleep(500_000)
            XCTAssertNotEqual(Self.processes(mentioning: log), [], "still open to be read")
            _ = try runProcess("/usr/bin/xdotool", ["key", "space"], environment: ["DISPLAY": display])
            XCTAssertTrue(closes(log: log), "a key closed the window")
        }
        // Home left with q has nothing to keep: its window closes at once.
        let homeLog = base + "/home.log"
        logs.append(homeLog)
        let home = try launch(
            ["home"],
            environment: env(
                "/usr/bin:/bin", ["DISPLAY": display, "TERMINAL": "/usr/bin/xterm -l -lf \(homeLog)"]))
        XCTAssertEqual(home.status, 0, home.stderr)
        XCTAssertTrue(waitForFile(homeLog, containing: "Private cannabis", timeout: 20).contains("Private cannabis"))
        _ = try runProcess(
            "/usr/bin/xdotool", ["search", "--sync", "--name", "^cravey$", "windowfocus", "--sync"],
            environment: ["DISPLAY": display])
        _ = try runProcess("/usr/bin/xdotool", ["key", "q"], environment: ["DISPLAY": display])
        XCTAssertTrue(closes(log: homeLog, within: 5), "q closed home's window at once")
        let homeShown = (try? String(contentsOfFile: homeLog, encoding: .isoLatin1)) ?? ""
        XCTAssertFalse(homeShown.contains("Press any key to close"), homeShown.suffix(600).debugDescription)
        let cravings = try runProcess(cravey, ["log", "--json", "--library", root])
        XCTAssertEqual(cravings.status, 0, cravings.stderr)
        XCTAssertEqual(cravings.stdout.components(separatedBy: "\"intensity\":7").count - 1, 2, cravings.stdout)
    }
}
