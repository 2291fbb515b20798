import CraveyTestSupport
import Foundation
import XCTest

/// The library commands start without the media libraries: the executable links none of FFmpeg,
/// SDL2, ALSA, V4L2, libebur128, sd-bus or PocketSphinx, and a shim opens its libraries on its
/// first call. Checked with the dynamic loader's own log (LD_DEBUG=files names every object it
/// opens), so an import — which needs FFmpeg — is the control that the log shows them.
final class StartupTests: CommandTestCase {
    static let media = [
        "libavformat", "libavcodec", "libavutil", "libswscale", "libswresample", "libasound",
        "libv4l2", "libSDL2", "libebur128", "libsystemd", "libpocketsphinx", "libsphinxbase",
    ]

    override func setUpWithError() throws {
        try super.setUpWithError()
    }

    /// The media libraries the dynamic loader opened while running `cravey args`.
    func loaded(_ args: [String], env: [String: String] = [:]) throws -> (
        status: Int32, libraries: Set<String>, stdout: String
    ) {
        var environment = env
        environment["LD_DEBUG"] = "files"
        let result = try runProcess(cravey, args + ["--library", root], environment: environment, directory: base)
        var names = Set<String>()
        for line in result.stderr.split(separator: "\n") where line.contains("file=") {
            guard let file = line.split(separator: " ").first(where: { $0.hasPrefix("file=") }) else { continue }
            let path = file.dropFirst("file=".count)
            let name = path.split(separator: "/").last.map(String.init) ?? String(path)
            if let lib = Self.media.first(where: { name.hasPrefix($0 + ".") || name.hasPrefix($0 + "-") }) {
                names.insert(lib)
            }
        }
        return (result.status, names, result.stdout)
    }

    func tone(seconds: Int) throws -> String {
        let path = base + "/tone.wav"
        let sox = try runProcess(
            "/usr/bin/sox", ["-n", "-r", "48000", "-c", "1", path, "synth", "\(seconds)", "sine", "440"])
        XCTAssertEqual(sox.status, 0, sox.stderr)
        return path
    }

    func testLibraryCommandsOpenNoMediaLibraryAndImportOpensFFmpeg() throws {
        let wav = try tone(seconds: 2)
        let imported = try loaded(["import", wav, "--title", "A tone to find"], env: ["CRAVEY_TRANSCRIBE": "later"])
        XCTAssertEqual(imported.status, 0)
        XCTAssertTrue(
            imported.libraries.isSuperset(of: ["libavformat", "libavcodec", "libebur128"]),
            "the control: an import opens FFmpeg and libebur128 (\(imported.libraries))")
        XCTAssertFalse(imported.libraries.contains("libSDL2"), "an import opens no window library")
        let listed =
            try JSONSerialization.jsonObject(with: Data(try loaded(["list", "--json"]).stdout.utf8)) as? [[String: Any]]
        let id = try XCTUnwrap(listed?.first?["id"] as? String)
        // (`edit` is not among them: it writes the recording's file again with its new tags.)
        let commands: [[String]] = [
            ["list"], ["list", "--json"], ["top"], ["top", "--json"], ["show", id], ["show", id, "--json"],
            ["search", "tone"], ["check"], ["check", "--repair"],
            ["export", "--format", "csv", "--output", base + "/out.csv"], ["checkin", "list"], ["checkin", "calendar"],
            ["craving", "7", "--trigger", "bored"], ["use", "vape", "2", "--after-craving", "last"], ["log"],
            ["log", "--json"], ["progress"], ["progress", "--json", "--range", "all"],
            ["progress", "--html", base + "/progress.html"],
            ["search", "tone"], ["delete", id, "--yes"], ["purge", "--yes"],
        ]
        for command in commands {
            let run = try loaded(command)
            XCTAssertEqual(run.status, 0, command.joined(separator: " "))
            XCTAssertEqual(
                run.libraries, [], "cravey \(command.joined(separator: " ")) opened \(run.libraries.sorted())")
        }
    }

    /// A directory holding a shared object named `soname` with none of the library's functions,
    /// to put first on LD_LIBRARY_PATH: the shim opens it and finds nothing it calls.
    func fakeLibrary(_ soname: String) throws -> String {
        let fake = base + "/fake-" + soname
        try FileManager.default.createDirectory(atPath: fake, withIntermediateDirectories: true)
        try "int not_the_library = 1;\n".write(toFile: fake + "/empty.c", atomically: true, encoding: .utf8)
        let cc = try runProcess(
            "/usr/bin/cc", ["-shared", "-fPIC", "-o", fake + "/" + soname, "-Wl,-soname," + soname, fake + "/empty.c"])
        XCTAssertEqual(cc.status, 0, cc.stderr)
        return fake
    }

    /// A display but no usable SDL2: the video plays without its window (the sound, and the
    /// pictures in the terminal where there is one), and the play counts.
    func testAVideoPlaysWithoutAWindowWhenSDLCannotLoad() throws {
        let clip = base + "/clip.mp4"
        let made = try runProcess(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=1",
                "-f", "lavfi", "-i", "sine=d=1", "-c:v", "libx264", "-c:a", "aac", "-shortest", clip,
            ])
        XCTAssertEqual(made.status, 0, made.stderr)
        let imported = try runProcess(
            cravey, ["import", clip, "--title", "Clip", "--library", root], environment: ["CRAVEY_TRANSCRIBE": "later"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let run = try runProcess(
            cravey, ["play", "Clip", "--speaker", "cravey_capture", "--library", root],
            environment: [
                "LD_LIBRARY_PATH": try fakeLibrary("libSDL2-2.0.so.0"), "DISPLAY": ":7",
                "ALSA_CONFIG_PATH": testALSAConfig,
                "CRAVEY_ALSA_OUTFILE": base + "/speaker.raw",
            ])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("no window (cannot load SDL2 ("), run.stderr)
        XCTAssertTrue(run.stdout.contains("Played 'Clip'"), run.stdout)
        XCTAssertGreaterThan(
            (try? FileManager.default.attributesOfItem(atPath: base + "/speaker.raw")[.size] as? Int) ?? 0, 0)
    }

    func testAMissingMediaLibraryIsOneLineAndChangesNothing() throws {
        let wav = try tone(seconds: 1)
        XCTAssertEqual(try loaded(["list"]).status, 0)  // makes the library
        let fake = try fakeLibrary("libavformat.so.59")
        let run = try runProcess(
            cravey, ["import", wav, "--title", "Never", "--library", root],
            environment: ["LD_LIBRARY_PATH": fake, "CRAVEY_TRANSCRIBE": "later"])
        XCTAssertEqual(run.status, 1)
        let lines = run.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("cravey: cannot load FFmpeg ("), run.stderr)
        XCTAssertTrue(run.stderr.contains("undefined symbol: av"), run.stderr)
        XCTAssertTrue(run.stderr.contains("install libavformat59"), run.stderr)
        // Nothing changed: no row, no file.
        XCTAssertEqual(
            try runProcess(cravey, ["list", "--json", "--library", root]).stdout.trimmingCharacters(
                in: .whitespacesAndNewlines), "[]")
        let files = (FileManager.default.enumerator(atPath: root + "/Recordings")?.allObjects as? [String] ?? [])
            .filter { !$0.hasSuffix("Thumbnails") }
        XCTAssertEqual(files, [])
        let check = try runProcess(cravey, ["check", "--library", root])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        // The library commands still work with the broken FFmpeg on the path.
        XCTAssertEqual(
            try runProcess(cravey, ["list", "--library", root], environment: ["LD_LIBRARY_PATH": fake]).status, 0)
    }
}
