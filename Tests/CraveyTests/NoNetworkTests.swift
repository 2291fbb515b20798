import CraveyTestSupport
import Foundation
import XCTest

/// Nothing leaves this computer: each command family runs once under `strace -f`, which follows
/// every process it starts (the Whisper helper, ffmpeg's libraries in process, a browser if one
/// were started), and no process opens or connects an AF_INET, AF_INET6 or AF_NETLINK socket.
/// Programs started to act on the person's desktop (systemctl) are outside the check.
final class NoNetworkTests: CommandTestCase {
    /// Programs of the person's desktop: their sockets are theirs, not cravey's.
    static let desktopPrograms: Set<String> = ["/usr/bin/systemctl", "/usr/bin/gsettings"]

    struct Traced {
        let status: Int32
        let stdout: String
        let stderr: String
        /// Every program a process of the run started.
        let programs: [String]
        /// The socket and connect calls of a network family, by processes other than the desktop's.
        let network: [String]
    }

    /// `cravey ARGS` under `strace -f -e trace=socket,connect,execve`.
    func traced(_ arguments: [String], environment: [String: String] = [:]) throws -> Traced {
        let log = base + "/strace-\(UUID().uuidString.prefix(6)).log"
        let run = try runProcess(
            "/usr/bin/strace",
            ["-f", "-qq", "-s", "200", "-e", "trace=socket,connect,execve", "-o", log, cravey] + arguments,
            environment: ["NO_COLOR": "1", "CRAVEY_TRANSCRIBE": "later", "CRAVEY_LIBRARY": root].merging(environment) {
                $1
            })
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        var programOf: [String: String] = [:]
        var programs: [String] = []
        var network: [String] = []
        for line in lines {
            let pid = String(line.prefix { $0.isNumber })
            if let start = line.range(of: "execve(\""), !line.contains("= -1 ") {
                let program = String(line[start.upperBound...].prefix { $0 != "\"" })
                programOf[pid] = program
                programs.append(program)
            }
            let family = ["AF_INET", "AF_INET6", "AF_NETLINK"].contains { family in
                line.contains("socket(\(family),") || line.contains("sa_family=\(family),")
            }
            if family, !Self.desktopPrograms.contains(programOf[pid] ?? "") { network.append(line) }
        }
        return Traced(status: run.status, stdout: run.stdout, stderr: run.stderr, programs: programs, network: network)
    }

    /// Runs `arguments` traced; asserts it succeeded (unless `status` says otherwise) and opened no
    /// network socket.
    @discardableResult
    func assertNoNetwork(
        _ arguments: [String], environment: [String: String] = [:], status: Int32? = 0, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> Traced {
        let run = try traced(arguments, environment: environment)
        if let status { XCTAssertEqual(run.status, status, "\(arguments): \(run.stderr)", file: file, line: line) }
        XCTAssertEqual(run.network, [], "\(arguments.prefix(2)) opened network sockets", file: file, line: line)
        return run
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
            throw XCTSkip("strace is not installed (Tests/install-deps.sh installs it)")
        }
    }

    /// The check can fail: a program that resolves a name opens a network socket, and is seen.
    func testTheCheckSeesANetworkSocket() throws {
        let log = base + "/getent.log"
        _ = try runProcess(
            "/usr/bin/strace",
            [
                "-f", "-qq", "-e", "trace=socket,connect", "-o", log, "/usr/bin/python3", "-c",
                "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM)",
            ])
        XCTAssertTrue(try String(contentsOfFile: log, encoding: .utf8).contains("socket(AF_INET,"))
    }

    func testLogsStatusPagesAndLibraryCommandsOpenNoNetworkSocket() throws {
        try assertNoNetwork(["craving", "6", "--notes", "after lunch"])
        try assertNoNetwork(["use", "vape", "3"])
        try assertNoNetwork(["status"])
        try assertNoNetwork(["progress"])
        try assertNoNetwork(["progress", "--html", base + "/progress.html"])
        try assertNoNetwork(["report", "--html", base + "/report.html"])
        let wav = base + "/tone.wav"
        try makeToneWAV(wav, seconds: 2)
        try assertNoNetwork(["import", wav, "--title", "Tone"])
        try assertNoNetwork(["export", "--format", "csv", "--output", base + "/logs.csv"])
        try assertNoNetwork(["export", "--format", "json", "--output", base + "/logs.json"])
        try assertNoNetwork(["backup", base + "/stick"])
        try assertNoNetwork(["restore", base + "/stick"], environment: ["CRAVEY_LIBRARY": base + "/restored"])
        try assertNoNetwork(["check"])
        try FileManager.default.createDirectory(atPath: base + "/shared", withIntermediateDirectories: true)
        try assertNoNetwork(["sync", "--folder", base + "/shared"])
        try assertNoNetwork(["craving", "4"])  // written to the folder too
        try assertNoNetwork(["sync"])
        try assertNoNetwork(["doctor", "--mic", "null"], status: nil)
    }

    func testRecordPlayCheckInAndTheReminderOpenNoNetworkSocket() throws {
        let alsa = ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": phraseFixture]
        let recorded = try assertNoNetwork(
            ["record", "audio", "--mic", "cravey_file", "--max-seconds", "2", "--title", "Phrase"], environment: alsa)
        let id = recorded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try assertNoNetwork(
            ["play", id, "--speaker", "cravey_capture"],
            environment: ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_OUTFILE": base + "/speaker.raw"])
        try assertNoNetwork(
            ["checkin", "--mood", "okay", "--mic", "cravey_file", "--max-seconds", "1"],
            environment: alsa.merging(["CRAVEY_NOW": "2026-11-21T21:00:00"]) { $1 })
        // The reminder: its units in the sentinel home; systemctl is the desktop's (outside the check).
        try assertNoNetwork(["checkin", "remind", "21:30"])
        try assertNoNetwork(["checkin", "notify"], status: nil)
        try assertNoNetwork(["checkin", "remind", "--off"])
        Sentinel.allow(["\(".config")/systemd/user/timers.target.wants"])
    }

    func testTranscribingWithPocketSphinxAndWhisperOpensNoNetworkSocket() throws {
        let speech = base + "/speech.wav"
        _ = try makeSpeech(speech, sentences: 2)
        let imported = try assertNoNetwork(["import", speech, "--title", "Two sentences", "--json"])
        let id = try XCTUnwrap(try jsonObject(imported.stdout)["id"] as? String)
        let sphinx = try assertNoNetwork(["transcribe", id, "--engine", "pocketsphinx", "--wait"])
        XCTAssertFalse(sphinx.programs.contains { $0.hasSuffix("python") }, "PocketSphinx runs in cravey's process")
        let whisperDirectory = URL(fileURLWithPath: productPath("cravey")).deletingLastPathComponent()
            .appendingPathComponent("../../whisper").standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: whisperDirectory + "/model/model.bin") else {
            throw XCTSkip("no Whisper engine next to the build: bash Whisper/install.sh .build/whisper")
        }
        // The background worker (its own session, detached) is followed too: strace waits for it.
        let worker = try assertNoNetwork(
            ["import", speech, "--title", "Again", "--json"], environment: ["CRAVEY_TRANSCRIBE": "background"])
        XCTAssertTrue(
            worker.programs.contains { $0.contains("/venv/bin/python") }, "the worker ran Whisper: \(worker.programs)")
        let whisper = try assertNoNetwork(["transcribe", id, "--engine", "whisper", "--wait"])
        XCTAssertTrue(
            whisper.programs.contains { $0.contains("/venv/bin/python") },
            "the Whisper helper ran, traced: \(whisper.programs)")
    }

    func testTheReportAsPDFOpensNoNetworkSocket() throws {
        try assertNoNetwork(["craving", "6"])
        let run = try traced(["report", "--pdf", base + "/report.pdf"])
        XCTAssertEqual(run.programs.filter { $0.contains("chromium") }, [], "the PDF is drawn in cravey itself")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.network, [])
    }
}
