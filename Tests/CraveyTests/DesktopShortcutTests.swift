import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `cravey desktop shortcut`: a global key on GNOME through gsettings over a real dconf (its
/// service started by a real session bus, its database the sentinel home's
/// `.config/dconf/user`, read back with `dconf dump`), and the steps printed for KDE Plasma,
/// sway/i3 and Xfce, compared as exact text.
final class DesktopShortcutTests: CommandTestCase {
    var bus: Process?

    /// The path the shortcut runs: the built cravey itself (what /proc/self/exe names).
    var executable: String {
        guard let resolved = realpath(productPath("cravey"), nil) else { return productPath("cravey") }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    let folder = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/"
    let schema = "org.gnome.settings-daemon.plugins.media-keys"

    override func tearDownWithError() throws {
        if let bus, bus.isRunning {
            bus.terminate()
            bus.waitUntilExit()
        }
        try super.tearDownWithError()
    }

    /// A session bus of the test's own whose dconf service keeps the sentinel home's settings (its
    /// runtime folder elsewhere, as a desktop session's is); the variables that lead to it.
    func session() throws -> [String: String] {
        let runtime = try XCTUnwrap(Sentinel.elsewhere) + "/.runtime"
        mkdir(runtime, 0o700)
        let address = "unix:path=\(base)/bus"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--session", "--nofork", "--nopidfile", "--address", address]
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        bus = process
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: base + "/bus") { usleep(50_000) }
        return ["DBUS_SESSION_BUS_ADDRESS": address, "XDG_RUNTIME_DIR": runtime, "XDG_CURRENT_DESKTOP": "GNOME"]
    }

    func gsettings(_ arguments: [String], _ env: [String: String]) throws {
        let run = try runProcess("/usr/bin/gsettings", arguments, environment: env)
        XCTAssertEqual(run.status, 0, "gsettings \(arguments): \(run.stderr)")
    }

    /// Everything dconf keeps, as `dconf dump /` writes it.
    func dump(_ env: [String: String]) throws -> String {
        try runProcess("/usr/bin/dconf", ["dump", "/"], environment: env).stdout
    }

    /// A shortcut the person made themselves in GNOME's settings (the path GNOME Settings gives).
    func personsOwnShortcut(_ env: [String: String]) throws {
        try gsettings(["set", schema, "custom-keybindings", "['\(folder)custom0/']"], env)
        let relocatable = schema + ".custom-keybinding:\(folder)custom0/"
        try gsettings(["set", relocatable, "name", "Terminal"], env)
        try gsettings(["set", relocatable, "command", "kgx"], env)
        try gsettings(["set", relocatable, "binding", "<Super>t"], env)
    }

    /// dconf's list of custom shortcuts, as `dconf dump` writes it.
    func list(_ names: [String]) -> String {
        "[org/gnome/settings-daemon/plugins/media-keys]\ncustom-keybindings=["
            + names.map { "'\(folder)\($0)/'" }.joined(separator: ", ") + "]\n"
    }

    /// One of cravey's shortcuts, as `dconf dump` writes it.
    func cravey(_ action: String, _ key: String, _ words: String) -> String {
        """
        [org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/cravey-\(action)]
        binding='\(key)'
        command='\(executable) launch \(action)'
        name='cravey: \(words)'

        """
    }

    let personsShortcut = """
        [org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/custom0]
        binding='<Super>t'
        command='kgx'
        name='Terminal'

        """

    var personsDump: String { [list(["custom0"]), personsShortcut].joined(separator: "\n") }

    func recipes(kde: String, sway: String, xfce: String, action: String) -> String {
        """
        KDE Plasma: System Settings → Shortcuts → Add Command… (Plasma 6: Keyboard → Shortcuts → Add New → Command or Script…)
          Command:  \(executable) launch \(action)
          Shortcut: \(kde)

        sway or i3: add this line to ~/.config/sway/config (or ~/.config/i3/config), then reload (Mod4 is the Super key):
          bindsym \(sway) exec \(executable) launch \(action)

        Xfce: run
          xfconf-query -c xfce4-keyboard-shortcuts -p '/commands/custom/\(xfce)' -n -t string -s '\(executable) launch \(action)'

        """
    }

    /// The steps for the other desktops, translated from the key, word for word; with no GNOME
    /// here, the same steps after one line saying so, and nothing changed.
    func testTheOtherDesktopsStepsAreExactForTwoKeys() throws {
        let superShift = recipes(kde: "Meta+Shift+C", sway: "Mod4+Shift+c", xfce: "<Super><Shift>c", action: "ride")
        let controlAlt = recipes(
            kde: "Ctrl+Alt+F9", sway: "Control+Mod1+F9", xfce: "<Primary><Alt>F9", action: "craving")
        let one = try runProcess(cravey, ["desktop", "shortcut", "<Super><Shift>c", "--recipes"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertEqual(one.stdout, superShift)
        let two = try runProcess(cravey, ["desktop", "shortcut", "<Ctrl><Mod1>f9", "--action", "craving", "--recipes"])
        XCTAssertEqual(two.status, 0, two.stderr)
        XCTAssertEqual(two.stdout, controlAlt)

        // No gsettings on PATH: one line, then the steps.
        let noTool = try runProcess(
            cravey, ["desktop", "shortcut", "<Super><Shift>c"],
            environment: ["PATH": base + "/empty", "XDG_CURRENT_DESKTOP": ""])
        XCTAssertEqual(noTool.status, 0, noTool.stderr)
        XCTAssertEqual(
            noTool.stdout,
            "No GNOME here (no gsettings), so nothing was changed. To bind <Super><Shift>c to “ride it out” yourself:\n\n"
                + superShift)
        // gsettings without GNOME's keybindings (no schemas where it looks).
        mkdir(base + "/data", 0o700)
        let noSchema = try runProcess(
            cravey, ["desktop", "shortcut", "<Control><Alt>F9", "--action", "craving"],
            environment: ["XDG_DATA_DIRS": base + "/data", "XDG_CURRENT_DESKTOP": ""])
        XCTAssertEqual(noSchema.status, 0, noSchema.stderr)
        XCTAssertEqual(
            noSchema.stdout,
            "No GNOME here (gsettings has no GNOME keybindings), so nothing was changed. "
                + "To bind <Control><Alt>F9 to “log a craving” yourself:\n\n" + controlAlt)
        // A desktop that names itself and is not GNOME's: nothing written where it would not be read.
        let kde = try runProcess(
            cravey, ["desktop", "shortcut", "<Super><Shift>c"], environment: ["XDG_CURRENT_DESKTOP": "KDE"])
        XCTAssertEqual(kde.status, 0, kde.stderr)
        XCTAssertEqual(
            kde.stdout,
            "No GNOME here (this desktop is KDE), so nothing was changed. To bind <Super><Shift>c to “ride it out” yourself:\n\n"
                + superShift)
        let removeNothing = try runProcess(
            cravey, ["desktop", "shortcut", "--remove"],
            environment: ["PATH": base + "/empty", "XDG_CURRENT_DESKTOP": ""])
        XCTAssertEqual(removeNothing.status, 0, removeNothing.stderr)
        XCTAssertEqual(removeNothing.stdout.split(separator: "\n").count, 1, removeNothing.stdout)
        XCTAssertEqual(Sentinel.contents(), [], "nothing written in the home")
    }

    /// The person's own shortcut survives adding, re-adding, moving and removing cravey's; dconf
    /// holds exactly what each step says, and at the end exactly what it held before.
    func testThePersonsOwnShortcutSurvivesAddingReaddingAndRemoving() throws {
        let env = try session()
        try personsOwnShortcut(env)
        XCTAssertEqual(try dump(env), personsDump)

        let added = try runProcess(cravey, ["desktop", "shortcut", "<Super><Shift>c"], environment: env)
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(
            added.stdout,
            "From any window, <Super><Shift>c now runs “ride it out” (a GNOME shortcut; "
                + "'cravey desktop shortcut --remove' takes it back).\n")
        let ride = cravey("ride", "<Super><Shift>c", "ride it out")
        let withRide = [list(["custom0", "cravey-ride"]), ride, personsShortcut].joined(separator: "\n")
        XCTAssertEqual(try dump(env), withRide)

        let again = try runProcess(
            cravey, ["desktop", "shortcut", "<Shift><Super>C", "--action", "ride"], environment: env)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "<Super><Shift>c already runs “ride it out” on GNOME; nothing changed.\n")
        XCTAssertEqual(try dump(env), withRide, "re-adding changes nothing")

        // The person's key is theirs: refused in one line, nothing changed.
        let taken = try runProcess(cravey, ["desktop", "shortcut", "<Super>T", "--action", "play"], environment: env)
        XCTAssertEqual(taken.status, 1)
        XCTAssertEqual(
            taken.stderr, "cravey: <Super>t is already your shortcut “Terminal”; nothing changed. Choose another key.\n"
        )
        XCTAssertEqual(try dump(env), withRide)

        let play = try runProcess(cravey, ["desktop", "shortcut", "<Super>m", "--action", "play"], environment: env)
        XCTAssertEqual(play.status, 0, play.stderr)
        let moved = try runProcess(cravey, ["desktop", "shortcut", "<Super>F9", "--action", "play"], environment: env)
        XCTAssertEqual(moved.stdout, "“play my top message” moved from <Super>m to <Super>F9 on GNOME.\n")
        XCTAssertEqual(
            try dump(env),
            [
                list(["custom0", "cravey-ride", "cravey-play"]), cravey("play", "<Super>F9", "play my top message"),
                ride,
                personsShortcut,
            ].joined(separator: "\n"))

        let one = try runProcess(cravey, ["desktop", "shortcut", "--remove", "--action", "play"], environment: env)
        XCTAssertEqual(
            one.stdout,
            "cravey's shortcut <Super>F9 for “play my top message” is gone; your own shortcuts are as they were.\n")
        XCTAssertEqual(try dump(env), withRide)
        let all = try runProcess(cravey, ["desktop", "shortcut", "--remove"], environment: env)
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertEqual(
            try dump(env), personsDump, "the person's shortcut is as it was, and nothing of cravey's is left")
        let none = try runProcess(cravey, ["desktop", "shortcut", "--remove"], environment: env)
        XCTAssertEqual(none.stdout, "cravey has no GNOME shortcut to take back; nothing changed.\n")
        XCTAssertEqual(try dump(env), personsDump)

        XCTAssertEqual(Sentinel.contents(), [".config/", ".config/dconf/", ".config/dconf/user"])
        Sentinel.allow([".config/dconf/user"])
    }

    /// With no shortcut of the person's, taking cravey's back leaves dconf empty, as it was.
    func testAnEmptyListIsLeftAsItWas() throws {
        let env = try session()
        let added = try runProcess(
            cravey, ["desktop", "shortcut", "<Control><Alt>c", "--action", "craving"], environment: env)
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(
            try dump(env),
            [list(["cravey-craving"]), cravey("craving", "<Control><Alt>c", "log a craving")].joined(separator: "\n"))
        // Another key: only the shortcuts on it are taken back.
        let other = try runProcess(cravey, ["desktop", "shortcut", "<Super>x", "--remove"], environment: env)
        XCTAssertEqual(other.stdout, "cravey has no GNOME shortcut on <Super>x to take back; nothing changed.\n")
        let removed = try runProcess(cravey, ["desktop", "shortcut", "<Control><Alt>c", "--remove"], environment: env)
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(try dump(env), "")
        // One left half made (its keys set, its path not yet listed, as when cravey is stopped
        // while binding): taken back too.
        let halfMade = schema + ".custom-keybinding:\(folder)cravey-home/"
        try gsettings(["set", halfMade, "name", "cravey: open cravey"], env)
        try gsettings(["set", halfMade, "binding", "<Super>h"], env)
        let cleaned = try runProcess(cravey, ["desktop", "shortcut", "--remove"], environment: env)
        XCTAssertEqual(
            cleaned.stdout,
            "cravey's shortcut <Super>h for “open cravey” is gone; your own shortcuts are as they were.\n")
        XCTAssertEqual(try dump(env), "")
        // Stopped sooner, with only its name written.
        try gsettings(["set", halfMade, "name", "cravey: open cravey"], env)
        let named = try runProcess(cravey, ["desktop", "shortcut", "--remove", "--action", "home"], environment: env)
        XCTAssertEqual(
            named.stdout, "cravey's shortcut for “open cravey” is gone; your own shortcuts are as they were.\n")
        XCTAssertEqual(try dump(env), "")
        Sentinel.allow([".config/dconf/user"])
    }

    /// Entries of the person's list cravey does not understand (a quote and an accent in a path,
    /// an entry with no keys behind it) are written back exactly as they were.
    func testThePersonsOddEntriesAreKeptAsTheyWere() throws {
        let env = try session()
        try gsettings(["set", schema, "custom-keybindings", #"["\#(folder)it's é\\\"/", '\#(folder)gone/']"#], env)
        let before = try dump(env)
        XCTAssertTrue(before.contains("it's é"), before)
        let added = try runProcess(cravey, ["desktop", "shortcut", "<Super><Alt>r"], environment: env)
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(try dump(env).contains(#""\#(folder)it's é\\\"/", '\#(folder)gone/', '\#(folder)cravey-ride/']"#))
        let removed = try runProcess(cravey, ["desktop", "shortcut", "--remove"], environment: env)
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(try dump(env), before)
        Sentinel.allow([".config/dconf/user"])
    }

    /// A key cravey cannot bind is refused in one line before anything is read or written.
    func testABadKeyIsOneLineAndChangesNothing() throws {
        let env = try session()
        try personsOwnShortcut(env)
        for bad in [
            "c", "<Shift>c", "<Super>", "<Hyper>c", "<Super>nokey", "<Super", "<Super>F25", "", "<Super>cc",
            // Typed escape sequences are not replayed to the terminal.
            "<Super>\u{1b}[2J", "<Hyp\u{1b}]0;x\u{07}er>c", "\u{1b}[31m<Super", "\u{9b}2J",
        ] {
            let refused = try runProcess(cravey, ["desktop", "shortcut", bad], environment: env)
            XCTAssertEqual(refused.status, 64, bad)
            XCTAssertEqual(refused.stdout, "", bad)
            XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, "\(bad): \(refused.stderr)")
            XCTAssertFalse(refused.stderr.contains("\u{1b}"), "\(bad): \(refused.stderr)")
            XCTAssertFalse(refused.stderr.unicodeScalars.contains("\u{9b}"), "\(bad): \(refused.stderr)")
            XCTAssertFalse(refused.stderr.unicodeScalars.contains("\u{07}"), "\(bad): \(refused.stderr)")
        }
        let badAction = try runProcess(
            cravey, ["desktop", "shortcut", "<Super>c", "--action", "sleep"], environment: env)
        XCTAssertEqual(badAction.status, 64)
        let noKey = try runProcess(cravey, ["desktop", "shortcut"], environment: env)
        XCTAssertEqual(noKey.status, 64)
        XCTAssertEqual(try dump(env), personsDump)
        Sentinel.allow([".config/dconf/user"])
    }

    /// gsettings is a program of the person's desktop: their environment without cravey's
    /// variables, started by cravey's one spawn helper.
    func testGsettingsGetsThePersonsEnvironmentAndNothingOfCraveys() throws {
        let env = try session()
        let log = base + "/execve.log"
        let run = try runProcess(
            "/usr/bin/strace",
            [
                "-f", "-qq", "-v", "-s", "4096", "-e", "trace=execve", "-o", log, cravey, "desktop", "shortcut",
                "<Super>r",
            ],
            environment: env.merging(["CRAVEY_LIBRARY": base + "/lib", "PERSON_SETTING": "kept"]) { $1 })
        XCTAssertEqual(run.status, 0, run.stderr)
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter {
            $0.contains("execve(\"/usr/bin/gsettings\"") && !$0.contains("= -1 ")
        }
        XCTAssertGreaterThan(calls.count, 3, "gsettings read, wrote and read back")
        for call in calls {
            XCTAssertFalse(call.contains("CRAVEY_"), String(call))
            XCTAssertTrue(call.contains("\"PERSON_SETTING=kept\""), String(call))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: base + "/lib"), "no library was made")
        Sentinel.allow([".config/dconf/user"])
    }

    /// A gsettings that never answers is given up on: one line, and it is gone.
    func testAGsettingsThatHangsIsGivenUpOn() throws {
        try givenUpOn(gsettings: "exec sleep 600")
    }

    /// A gsettings that closes its output and then hangs is given up on at the same deadline.
    func testAGsettingsThatClosesItsOutputAndHangsIsGivenUpOn() throws {
        try givenUpOn(gsettings: "exec sleep 600 >&- 2>&-")
    }

    /// A stand-in gsettings that runs `line` after writing its process id: cravey gives up on it
    /// within its 10 seconds, in one line, and it is killed and reaped.
    func givenUpOn(gsettings line: String) throws {
        let bin = base + "/bin"
        mkdir(bin, 0o700)
        try "#!/bin/sh\necho $$ > \(base)/pid\n\(line)\n".write(
            toFile: bin + "/gsettings", atomically: true, encoding: .utf8)
        chmod(bin + "/gsettings", 0o700)
        let started = Date()
        // A bound of its own, so the test ends even when cravey does not.
        let run = try runProcess(
            "/usr/bin/timeout", ["40", cravey, "desktop", "shortcut", "<Super>r"],
            environment: ["PATH": bin + ":/usr/bin:/bin", "XDG_CURRENT_DESKTOP": ""])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(
            run.stderr,
            "cravey: GNOME's settings did not answer within 10 seconds; nothing changed. Please try again.\n")
        XCTAssertLessThan(Date().timeIntervalSince(started), 15)
        let pid = try XCTUnwrap(
            Int32(
                String(contentsOfFile: base + "/pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertEqual(kill(pid, 0), -1, "the stand-in was killed and reaped")
    }

    /// GNOME runs a custom shortcut's command as a desktop entry's command line, where `%` starts
    /// a field code: a `%` in cravey's path is doubled there (and in KDE's recipe, not in sway's or
    /// Xfce's), so the key runs that path. The key pressed is played as gnome-settings-daemon runs
    /// it: GLib's g_app_info_create_from_commandline, then launch.
    func testAPercentInThePathReachesTheCommandGnomeRuns() throws {
        let env = try session()
        let folder = base + "/50%done"
        mkdir(folder, 0o700)
        let copy = folder + "/cravey"
        if link(executable, copy) != 0 { try FileManager.default.copyItem(atPath: executable, toPath: copy) }
        let added = try runProcess(
            copy, ["desktop", "shortcut", "<Super><Shift>p", "--action", "play"], environment: env)
        XCTAssertEqual(added.status, 0, added.stderr)
        let bound = try dump(env)
        XCTAssertTrue(bound.contains("command=\"'\(base)/50%%done/cravey' launch play\""), bound)
        let recipes = try runProcess(copy, ["desktop", "shortcut", "<Super>p", "--recipes"]).stdout
        XCTAssertTrue(recipes.contains("  Command:  '\(base)/50%%done/cravey' launch ride\n"), recipes)
        XCTAssertTrue(recipes.contains("  bindsym Mod4+p exec '\(base)/50%done/cravey' launch ride\n"), recipes)
        XCTAssertTrue(recipes.contains("-s ''\\''\(base)/50%done/cravey'\\'' launch ride'"), recipes)

        // In its place, a program that writes how it was run; then the key, as GNOME runs it.
        try FileManager.default.removeItem(atPath: copy)
        try "#!/bin/sh\nprintf '%s\\n' \"$0\" \"$@\" > \(shellQuote(base + "/ran"))\n".write(
            toFile: copy, atomically: true, encoding: .utf8)
        chmod(copy, 0o755)
        let stored = try runProcess(
            "/usr/bin/gsettings", ["get", schema + ".custom-keybinding:\(self.folder)cravey-play/", "command"],
            environment: env)
        XCTAssertEqual(stored.status, 0, stored.stderr)
        let pressed = try runProcess(
            "/usr/bin/python3",
            [
                "-c",
                """
                import sys
                from gi.repository import Gio, GLib
                command = GLib.Variant.parse(None, sys.argv[1], None, None).get_string()
                Gio.AppInfo.create_from_commandline(command, None, 0).launch([], None)
                """,
                stored.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
            ], environment: env)
        XCTAssertEqual(pressed.status, 0, pressed.stderr)
        var ran = ""
        for _ in 0..<100 where !ran.hasSuffix("play\n") {
            usleep(50_000)
            ran = (try? String(contentsOfFile: base + "/ran", encoding: .utf8)) ?? ""
        }
        XCTAssertEqual(ran, "\(copy)\nlaunch\nplay\n", "the key runs cravey at its own path")
        Sentinel.allow([".config/dconf/user"])
    }
}
