import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The launcher `Media/install.sh` installs (through `Media/install-desktop.sh`): a desktop entry
/// that desktop-file-validate accepts, whose every Exec line names the installed program by its
/// absolute path (a prefix with a space and a `$` in it too) and runs; and the icon beside it.
final class DesktopEntryTests: CommandTestCase {
    func testTheEntryValidatesAndEveryActionRuns() throws {
        let prefix = base + "/pre fix $HOME"
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: prefix + "/bin/cravey", withDestinationPath: productPath("cravey"))
        let installed = try runProcess("/bin/bash", [repositoryRoot + "/Media/install-desktop.sh", prefix])
        XCTAssertEqual(installed.status, 0, installed.stderr)
        let entry = prefix + "/share/applications/cravey.desktop"
        let icon = prefix + "/share/icons/hicolor/scalable/apps/cravey.svg"
        let shared = try FileManager.default.subpathsOfDirectory(atPath: prefix + "/share").sorted()
        XCTAssertEqual(
            shared,
            [
                "applications", "applications/cravey.desktop", "icons", "icons/hicolor", "icons/hicolor/scalable",
                "icons/hicolor/scalable/apps", "icons/hicolor/scalable/apps/cravey.svg",
            ], "the entry and the icon, nothing else")
        let valid = try runProcess("/usr/bin/desktop-file-validate", [entry])
        XCTAssertEqual(valid.status, 0, valid.stdout + valid.stderr)
        XCTAssertEqual(valid.stdout + valid.stderr, "", "no warning either")
        XCTAssertEqual(try mode(entry), 0o644)
        XCTAssertEqual(
            FileManager.default.contents(atPath: icon),
            FileManager.default.contents(atPath: repositoryRoot + "/Media/cravey.svg"))

        // The Exec lines as a desktop reads them (GLib: the entry's escapes, then the shell's quoting).
        let read = try runProcess(
            "/usr/bin/python3",
            [
                "-c",
                """
                import sys, json, xml.dom.minidom
                from gi.repository import GLib
                k = GLib.KeyFile()
                k.load_from_file(sys.argv[1], GLib.KeyFileFlags.NONE)
                groups = ["Desktop Entry"] + ["Desktop Action " + a for a in k.get_string_list("Desktop Entry", "Actions")]
                print(json.dumps({g: GLib.shell_parse_argv(k.get_string(g, "Exec"))[1] for g in groups}))
                print(k.get_string("Desktop Entry", "Icon"), k.get_string("Desktop Entry", "Terminal"))
                print(xml.dom.minidom.parse(sys.argv[2]).documentElement.tagName)
                """,
                entry, icon,
            ])
        XCTAssertEqual(read.status, 0, read.stderr)
        let lines = read.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines.dropFirst(), ["cravey false", "svg"], "its icon, drawn in SVG; no terminal of the desktop's own")
        let commands = try XCTUnwrap(try jsonObject(lines[0]) as? [String: [String]])
        let program = prefix + "/bin/cravey"
        XCTAssertEqual(
            commands,
            [
                "Desktop Entry": [program, "launch", "home"], "Desktop Action ride": [program, "launch", "ride"],
                "Desktop Action craving": [program, "launch", "craving"],
                "Desktop Action play": [program, "launch", "play"],
                "Desktop Action checkin": [program, "launch", "checkin"],
            ])

        // Each runs as the desktop would run it: PATH without the prefix, a terminal on it.
        let terminals = base + "/terminals"
        try FileManager.default.createDirectory(atPath: terminals, withIntermediateDirectories: true)
        FileManager.default.createFile(
            atPath: terminals + "/xterm", contents: Data("#!/bin/sh\nexit 0\n".utf8),
            attributes: [.posixPermissions: 0o755])
        let desktop = ["PATH": terminals, "DISPLAY": ":0", "CRAVEY_LIBRARY": root, "TERMINAL": ""]
        for (group, argv) in commands.sorted(by: { $0.key < $1.key }) {
            let ran = try runProcess(
                "/usr/bin/unshare", ["--net", "--"] + argv, environment: desktop)
            if argv.last == "play" {
                XCTAssertEqual(ran.status, 1, group)
                XCTAssertTrue(ran.stderr.contains("no recordings yet"), "\(group): \(ran.stderr)")
            } else {
                XCTAssertEqual(ran.status, 0, "\(group): \(ran.stderr)")
                XCTAssertTrue(ran.stdout.hasPrefix("Opened ") && ran.stdout.hasSuffix(" in xterm.\n"), ran.stdout)
            }
        }
        // install.sh installs it, for the program it installed.
        let script = try String(contentsOfFile: repositoryRoot + "/Media/install.sh", encoding: .utf8)
        XCTAssertTrue(script.contains("bash Media/install-desktop.sh \"$prefix\""), "install.sh runs it")
    }
}
