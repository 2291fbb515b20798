import CraveyTestSupport
import Foundation
import XCTest

/// `Media/install.sh`, the README's install command: cravey, its manual page, its shell
/// completions, its guides and its transcript engine under a prefix, each used the way a person
/// would use them.
final class InstallTests: XCTestCase {
    /// A built cravey, not installed, names the notes in its source folder.
    func testDoctorNamesTheSourceFoldersNotes() throws {
        let base = FileManager.default.temporaryDirectory.path + "/cravey-notes-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: base) }
        let doctor = try runProcess(
            craveyUnderTest, ["doctor", "--mic", "cravey_no_such_microphone", "--library", base + "/lib", "--json"])
        XCTAssertTrue(
            doctor.stdout.contains(repositoryRoot + "/udev-notes.md, \\\"Microphones and ALSA names\\\""), doctor.stdout
        )
    }

    func testInstallUnderAPrefix() throws {
        let base = FileManager.default.temporaryDirectory.path + "/cravey-install-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: base) }
        let prefix = base + "/prefix"
        // A debug build, in a scratch folder of its own: `swift test` holds the suite's own build
        // folder. A whole run (`Tests/run-all.sh`, which runs the test bundle itself and holds no
        // folder) names the suite's own in CRAVEY_INSTALL_SCRATCH, where it is already built:
        // nothing is compiled twice. The build's caches (the toolchain's) stay in the real home,
        // not the sentinel.
        let scratch =
            ProcessInfo.processInfo.environment["CRAVEY_INSTALL_SCRATCH"] ?? repositoryRoot + "/.build-install"
        let installed = try runProcess(
            "/bin/bash", [repositoryRoot + "/Media/install.sh", prefix],
            environment: Sentinel.realHome.merging([
                "CRAVEY_INSTALL_CONFIGURATION": "debug", "CRAVEY_INSTALL_SCRATCH": scratch,
            ]) { $1 })
        XCTAssertEqual(installed.status, 0, installed.stderr)
        XCTAssertTrue(installed.stdout.contains("Installed cravey in \(prefix)/bin"), installed.stdout)

        // The installed binary runs.
        let cravey = prefix + "/bin/cravey"
        XCTAssertTrue(
            try runProcess(cravey, ["--version"]).stdout.hasPrefix("0.1.0 (build "), "the version names its build")
        let listed = try runProcess(cravey, ["list", "--library", base + "/lib"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.hasPrefix("No recordings yet"), listed.stdout)

        // Its launcher names it by its absolute path (DesktopEntryTests checks the entry itself).
        let entry = try String(contentsOfFile: prefix + "/share/applications/cravey.desktop", encoding: .utf8)
        XCTAssertTrue(entry.contains("\nExec=\"\(cravey)\" launch ride\n"), entry)

        // It finds its transcript engine next to it, in PREFIX/lib/cravey/whisper.
        let doctor = try runProcess(cravey, ["doctor", "--mic", "null", "--library", base + "/lib"])
        XCTAssertTrue(
            doctor.stdout.contains("✓ transcripts: Whisper tiny.en (faster-whisper")
                && doctor.stdout.contains(prefix + "/lib/cravey/whisper"), doctor.stdout)

        // It carries its guides, laid out as in the source, and doctor points at the installed notes.
        let guides = prefix + "/share/doc/cravey"
        for document in [
            "README.md", "udev-notes.md", "docs/GUIDE.md", "docs/ARCHITECTURE.md", "docs/TESTING.md",
            "docs/BENCHMARKS.md",
        ] {
            XCTAssertEqual(
                FileManager.default.contents(atPath: guides + "/" + document),
                FileManager.default.contents(atPath: repositoryRoot + "/" + document), "\(document) installed as it is")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: guides + "/docs/pending"), "only finished documents")
        let noMicrophone = try runProcess(
            cravey, ["doctor", "--mic", "cravey_no_such_microphone", "--library", base + "/lib"])
        XCTAssertTrue(
            noMicrophone.stdout.contains(guides + "/udev-notes.md, \"Microphones and ALSA names\""), noMicrophone.stdout
        )
        let notes = try String(contentsOfFile: guides + "/udev-notes.md", encoding: .utf8)
        XCTAssertTrue(notes.contains("\n## Microphones and ALSA names\n"), "the section doctor names is there")

        // man renders the page: its name, its synopsis and every command.
        let page = prefix + "/share/man/man1/cravey.1"
        let man = try runProcess("/usr/bin/man", ["-l", "-P", "cat", page], environment: ["MANWIDTH": "100"])
        XCTAssertEqual(man.status, 0, man.stderr)
        for text in ["cravey", "SYNOPSIS", "record", "play", "check", "--library"] {
            XCTAssertTrue(man.stdout.contains(text), "the manual page mentions \(text): \(man.stdout.prefix(400))")
        }

        // bash completes a subcommand from its first letters (with extglob on, as the
        // bash-completion package sets it in an interactive shell; bash passes the command, the word
        // being completed and the one before it).
        let completion = prefix + "/share/bash-completion/completions/cravey"
        let script =
            "shopt -s extglob; source \(shellQuote(completion)); COMP_WORDS=(cravey imp); COMP_CWORD=1; COMP_LINE='cravey imp'; COMP_POINT=10; _cravey cravey imp cravey; printf '%s\\n' \"${COMPREPLY[@]}\""
        let completed = try runProcess("/bin/bash", ["-c", script])
        XCTAssertEqual(completed.status, 0, completed.stderr)
        XCTAssertEqual(completed.stdout.split(separator: "\n").map(String.init), ["import"], completed.stdout)
        for shell in ["/share/zsh/site-functions/_cravey", "/share/fish/vendor_completions.d/cravey.fish"] {
            let text = (try? String(contentsOfFile: prefix + shell, encoding: .utf8)) ?? ""
            XCTAssertTrue(text.contains("record"), shell)
        }
    }
}
