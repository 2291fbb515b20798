import CraveyLibrary
import CraveyTestSupport
import Foundation
import XCTest

/// `cravey record audio` end to end, through real libasound with the `file`-plugin devices of
/// Media/alsa, checked with the ffmpeg CLI.
final class RecordTests: CommandTestCase {
    static let aacFrame = 1024.0 / 48_000

    override func setUpWithError() throws {
        try super.setUpWithError()
    }

    func alsaEnvironment(infile: String) -> [String: String] {
        ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": infile]
    }

    func record(_ args: [String], infile: String = phraseFixture) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try runProcess(
            cravey, ["record", "audio", "--mic", "cravey_file", "--library", root] + args,
            environment: alsaEnvironment(infile: infile))
    }

    func listed() throws -> [[String: Any]] {
        let result = try runProcess(cravey, ["list", "--json", "--library", root])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: Any]]
    }

    func leftovers() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: root + "/.incoming")) ?? []
    }

    /// Generated once per run: a 125 s tone, longer than the cap.
    static let tone: String = {
        let dir = FileManager.default.temporaryDirectory.path + "/cravey-fixtures"
        _ = try? runProcess("/bin/bash", [repositoryRoot + "/Media/make-fixtures.sh", dir])
        return dir + "/tone-125s.raw"
    }()

    func testRecordingTheFixture() throws {
        let result = try record([
            "--max-seconds", "4", "--title", "Why I started", "--purpose", "motivational", "--json",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let row = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(row["title"] as? String, "Why I started")
        XCTAssertEqual(row["purpose"] as? String, "motivational")
        XCTAssertEqual(row["sampleRate"] as? Int, 48_000)
        let duration = row["duration"] as! Double
        XCTAssertEqual(duration, 4.0, accuracy: Self.aacFrame, "duration = captured samples ± 1 AAC frame")
        let file = root + "/" + (row["filePath"] as! String)
        let probe = try ffprobe(file)
        XCTAssertEqual(probe.codecs, ["aac"])
        XCTAssertEqual(probe.duration, duration, accuracy: 0.001, "the row's duration is the file's")
        let decoded = try decodeAudio(file)
        let source = try readS16(phraseFixture)
        XCTAssertEqual(rmsDecibels(decoded), rmsDecibels(source), accuracy: 1.0)
        let shown = try runProcess(cravey, ["show", row["id"] as! String, "--json", "--library", root])
        let full = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as! [String: Any]
        XCTAssertEqual((full["waveform"] as? [Int])?.count, 80, "20 peaks a second")
        XCTAssertEqual(try mode(file), 0o600)
        XCTAssertEqual(leftovers(), [])
    }

    func testWithoutATerminalItSavesAndPrintsTheId() throws {
        let result = try record(["--max-seconds", "3"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let id = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertNotNil(UUID(uuidString: id), result.stdout)
        let rows = try listed()
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows[0]["id"] as? String, id)
        XCTAssertEqual(rows[0]["duration"] as! Double, 3.0, accuracy: 0.0001)
        XCTAssertTrue((rows[0]["title"] as! String).hasPrefix("Recording "), "blank title → automatic title")
    }

    func testCapStopsAtExactly120Seconds() throws {
        let result = try record(["--yes", "--json"], infile: Self.tone)
        XCTAssertEqual(result.status, 0, result.stderr)
        let row = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(row["duration"] as! Double, 120.0, accuracy: Self.aacFrame)
        let file = root + "/" + (row["filePath"] as! String)
        XCTAssertEqual(try ffprobe(file).duration, 120.0, accuracy: 0.001)
        XCTAssertEqual(Double(try decodeAudio(file).count), 120 * 48_000, accuracy: 1024)
    }

    func testBadInputChangesNothing() throws {
        let cases: [([String], Int32, String)] = [
            (["--max-seconds", "0"], 64, "--max-seconds"),
            (["--max-seconds", "121"], 64, "--max-seconds"),
            (["--max-seconds", "abc"], 64, "abc"),
            (["--title", String(repeating: "x", count: 41)], 1, "at most 40"),
            (["--purpose", "boredom"], 1, "motivational"),
            (["--notes", String(repeating: "n", count: 201)], 1, "at most 200"),
        ]
        for (args, status, fragment) in cases {
            let result = try record(args + ["--yes"])
            XCTAssertEqual(result.status, status, "\(args): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(args): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(fragment), "\(args): \(result.stderr)")
        }
        for (mic, fragment) in [("no_such_mic", "no such device"), ("cravey_speaker_only", "cannot record")] {
            let result = try runProcess(
                cravey, ["record", "audio", "--mic", mic, "--yes", "--library", root],
                environment: alsaEnvironment(infile: phraseFixture))
            XCTAssertEqual(result.status, 1)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains(fragment), result.stderr)
        }
        XCTAssertEqual(try listed().count, 0)
        XCTAssertEqual(leftovers(), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/Recordings"), ["Thumbnails"])
    }

    func testVideoWithoutACameraOffersSoundOnly() throws {
        try XCTSkipIf(
            FileManager.default.fileExists(atPath: "/dev/video0"), "this machine has a camera (the VM suite covers it)")
        let video = ["record", "video", "--mic", "cravey_file", "--max-seconds", "1", "--library", root]
        // Without a terminal: a one-line refusal naming the way out, and nothing recorded.
        var result = try runProcess(cravey, video + ["--yes"], environment: alsaEnvironment(infile: phraseFixture))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("no camera found") && result.stderr.contains("--fallback audio"), result.stderr)
        XCTAssertEqual(try listed().count, 0)
        // At a terminal: the offer, answered no, then yes.
        let line = ([cravey] + video + ["--title", "Sound only"]).map(shellQuote).joined(separator: " ")
        let env = alsaEnvironment(infile: phraseFixture)
        let refused = try runInTerminal(line, input: "n\n", environment: env)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.screen.contains("Record sound only instead?"), refused.screen)
        XCTAssertEqual(try listed().count, 0)
        let accepted = try runInTerminal(line, input: "y\n", environment: env)
        XCTAssertEqual(accepted.status, 0, accepted.screen)
        // With --fallback audio: no question.
        result = try runProcess(cravey, video + ["--fallback", "audio", "--title", "Flag", "--json"], environment: env)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("recording sound only"), result.stderr)
        let rows = try listed()
        XCTAssertEqual(Set(rows.compactMap { $0["title"] as? String }), ["Sound only", "Flag"])
        XCTAssertTrue(
            rows.allSatisfy { $0["kind"] as? String == "audio" && ($0["filePath"] as? String ?? "").hasSuffix(".m4a") })
        // Options that only make sense for video are refused for audio.
        result = try record(["--camera", "/dev/video0"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("for 'cravey record video'"), result.stderr)
    }

    /// A FIFO fed at real-time pace (pv), so the file-plugin device behaves like a live microphone.
    func startPacedRecording(_ extra: [String] = [], environment: [String: String] = [:]) throws -> (
        Process, Pipe, Process
    ) {
        let fifo = base + "/mic.fifo"
        let feeder = try pacedFIFO(fifo, feeding: Self.tone)
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: cravey)
        recorder.arguments = ["record", "audio", "--mic", "cravey_file", "--library", root, "--json"] + extra
        recorder.environment = ProcessInfo.processInfo.environment.merging(alsaEnvironment(infile: fifo)) { $1 }
            .merging(environment) { $1 }
        let out = Pipe()
        recorder.standardOutput = out
        recorder.standardError = FileHandle.nullDevice
        try recorder.run()
        return (recorder, out, feeder)
    }

    /// Waits until the recorder's temporary file holds about `seconds` of audio.
    func waitForRecording(seconds: Double) {
        let deadline = Date() + 15
        while Date() < deadline {
            if let part = leftovers().first(where: { $0.hasPrefix("rec_") }),
                let size = try? FileManager.default.attributesOfItem(atPath: root + "/.incoming/" + part)[.size]
                    as? Int,
                Double(size) > seconds * 12_000
            {
                return
            }
            usleep(50_000)
        }
        XCTFail("the recording did not get going")
    }

    func testSignalsStopAndKeepTheRecording() throws {
        for signo in [SIGINT, SIGTERM, SIGHUP] {
            let (recorder, out, feeder) = try startPacedRecording()
            let started = Date()
            waitForRecording(seconds: 1.5)
            let recordedFor = Date().timeIntervalSince(started)
            kill(recorder.processIdentifier, signo)
            recorder.waitUntilExit()
            feeder.terminate()
            XCTAssertEqual(recorder.terminationStatus, 0, "signal \(signo)")
            let row =
                try JSONSerialization.jsonObject(with: out.fileHandleForReading.readDataToEndOfFile()) as! [String: Any]
            let duration = row["duration"] as! Double
            XCTAssertGreaterThan(duration, 1.5, "signal \(signo)")
            XCTAssertLessThan(duration, recordedFor + 0.5, "signal \(signo): duration is the time recorded")
            let file = root + "/" + (row["filePath"] as! String)
            XCTAssertEqual(try ffprobe(file).duration, duration, accuracy: 0.001)
            XCTAssertEqual(rmsDecibels(try decodeAudio(file)), -9.03, accuracy: 1.0, "the -6 dBFS tone came through")
        }
        XCTAssertEqual(try listed().count, 3)
        XCTAssertEqual(leftovers(), [])
    }

    /// SIGTERM at many moments right after the devices open, while the stop handlers cannot reach
    /// the recorder yet (a window widened to 100 ms by `CRAVEY_TEST_STOP_WINDOW_MS`) and just after:
    /// every stop is honoured at once, never lost or crashed on. Each run exits 0 with its short
    /// take kept — or, stopped before the first sound came (a busy machine's feeder may not have
    /// written it yet), says so in its one line, exits 1 and leaves nothing — and the library
    /// checks out.
    func testStopSignalsRightAfterTheStartAreHonoured() throws {
        let delays = stride(from: 0, through: 150, by: 10).map { $0 }
        var kept = 0
        for delay in delays {
            let fifo = base + "/mic.fifo"
            let feeder = try pacedFIFO(fifo, feeding: Self.tone)
            defer { feeder.terminate() }
            let recorder = Process()
            recorder.executableURL = URL(fileURLWithPath: cravey)
            recorder.arguments = [
                "record", "audio", "--mic", "cravey_file", "--library", root, "--json", "--max-seconds", "8",
            ]
            recorder.environment = ProcessInfo.processInfo.environment.merging(alsaEnvironment(infile: fifo)) { $1 }
                .merging(["CRAVEY_TEST_STOP_WINDOW_MS": "100"]) { $1 }
            let out = Pipe(), err = Pipe()
            recorder.standardOutput = out
            recorder.standardError = err
            try recorder.run()
            // The stop handlers are installed once the window opens; a signal before would kill.
            var said = Data()
            while !String(decoding: said, as: UTF8.self).contains("stop window open") {
                let more = err.fileHandleForReading.availableData
                guard !more.isEmpty else { break }
                said += more
            }
            XCTAssertTrue(
                String(decoding: said, as: UTF8.self).contains("stop window open"),
                "\(delay) ms: \(String(decoding: said, as: UTF8.self))")
            usleep(useconds_t(delay * 1000))
            let sent = Date()
            kill(recorder.processIdentifier, SIGTERM)
            let output = out.fileHandleForReading.readDataToEndOfFile()
            said += err.fileHandleForReading.readDataToEndOfFile()
            recorder.waitUntilExit()
            let stderr = String(decoding: said, as: UTF8.self)
            XCTAssertEqual(recorder.terminationReason, .exit, "\(delay) ms: died of a signal; \(stderr)")
            // At once: what was recorded ends at the stop (below); the wall clock only catches a
            // stop left unhonoured, with room for a loaded machine.
            XCTAssertLessThan(Date().timeIntervalSince(sent), 15, "\(delay) ms: the stop was not honoured at once")
            if stderr.contains("nothing was recorded (stopped before the first sound arrived)") {
                XCTAssertEqual(recorder.terminationStatus, 1, "\(delay) ms: \(stderr)")
                XCTAssertTrue(output.isEmpty, "\(delay) ms: nothing recorded, nothing said kept")
                continue
            }
            XCTAssertEqual(recorder.terminationStatus, 0, "\(delay) ms: \(stderr)")
            kept += 1
            guard let row = try? JSONSerialization.jsonObject(with: output) as? [String: Any] else {
                XCTFail("\(delay) ms: no recording kept; \(stderr)")
                continue
            }
            XCTAssertLessThan(row["duration"] as? Double ?? 99, 1.5, "\(delay) ms: recorded on past the stop")
        }
        let check = try runProcess(cravey, ["check", "--library", root])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertEqual(try listed().count, kept, "every take kept")
        // Only a stop in the first moments can come before the first sound.
        XCTAssertGreaterThanOrEqual(kept, delays.count / 2, "takes kept")
        XCTAssertEqual(leftovers(), [])
    }

    func testKilledWhileRecordingIsRecoveredOnTheNextRun() throws {
        let (recorder, _, feeder) = try startPacedRecording()
        waitForRecording(seconds: 3.2)
        kill(recorder.processIdentifier, SIGKILL)
        recorder.waitUntilExit()
        feeder.terminate()
        XCTAssertEqual(leftovers().filter { $0.hasPrefix("rec_") }.count, 1, "the fragmented file was left")
        let rows = try listed()  // opening the library recovers it
        XCTAssertEqual(rows.count, 1)
        let title = rows[0]["title"] as! String
        XCTAssertTrue(title.hasPrefix("Recovered recording "), title)
        let duration = rows[0]["duration"] as! Double
        XCTAssertGreaterThan(duration, 1.9, "at most about a second lost")
        let shown = try runProcess(cravey, ["show", rows[0]["id"] as! String, "--json", "--library", root])
        let waveform =
            (try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as! [String: Any])["waveform"] as? [Int]
            ?? []
        XCTAssertEqual(Double(waveform.count), duration * 20, accuracy: 2, "the waveform is rebuilt from the file")
        // Peaks of the -6 dBFS tone (the abrupt onset overshoots in AAC's first frame: use the median).
        XCTAssertEqual(Double(waveform.sorted()[waveform.count / 2]), 128, accuracy: 4, "\(waveform)")
        let file = root + "/" + (rows[0]["filePath"] as! String)
        XCTAssertEqual(try ffprobe(file).codecs, ["aac"])
        // A recovered file ends wherever the crash cut it, not on a sample the writer chose:
        // ffprobe's container duration may round it differently by part of a frame.
        XCTAssertEqual(try ffprobe(file).duration, duration, accuracy: Self.aacFrame)
        XCTAssertEqual(leftovers(), [])
        XCTAssertTrue(try runProcess(cravey, ["check", "--library", root]).stdout.contains("Library OK: 1 recording"))
    }

    /// SIGKILL at every step of finalize and of the atomic save: exactly one playable recording
    /// afterwards (recovered or saved), nothing left over.
    func testKilledDuringFinalizeOrSaveIsRecovered() throws {
        var points = 0
        for step in 1...30 {
            try? FileManager.default.removeItem(atPath: root)
            let result = try runProcess(
                cravey,
                [
                    "record", "audio", "--mic", "cravey_file", "--max-seconds", "2",
                    "--title", "Kill \(step)", "--library", root,
                ],
                environment: alsaEnvironment(infile: phraseFixture).merging(["CRAVEY_FAULT_KILL_AT": String(step)]) {
                    $1
                })
            let rows = try listed()
            XCTAssertEqual(rows.count, 1, "killed at step \(step)")
            guard let row = rows.first else { continue }
            XCTAssertEqual(row["duration"] as! Double, 2.0, accuracy: Self.aacFrame, "step \(step)")
            XCTAssertEqual(try ffprobe(root + "/" + (row["filePath"] as! String)).codecs, ["aac"])
            XCTAssertEqual(leftovers(), [], "step \(step)")
            if result.status == -SIGKILL {
                points += 1
            } else {
                XCTAssertEqual(result.status, 0, result.stderr)
                XCTAssertEqual(row["title"] as? String, "Kill \(step)")
                break
            }
        }
        XCTAssertGreaterThanOrEqual(points, 8, "finalize and save have at least 8 steps to die at")
    }
}
