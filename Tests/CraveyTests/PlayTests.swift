import CraveyLibrary
import CraveyTestSupport
import Foundation
import XCTest

/// `cravey play` through real libasound: the speaker is ALSA's `file` plugin (`cravey_capture`),
/// which writes what reaches it to a file — or to a FIFO read at real-time pace, which makes it
/// behave like a real speaker for key and signal tests.
final class PlayTests: XCTestCase {
    var base = ""
    var root: String { base + "/lib" }
    let cravey = productPath("cravey")

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-play-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: base) }

    func env(_ extra: [String: String] = [:]) -> [String: String] {
        ["ALSA_CONFIG_PATH": testALSAConfig].merging(extra) { $1 }
    }

    /// Records `infile` (seconds long at most) into the library and returns its id.
    func recordFixture(_ infile: String = phraseFixture, seconds: String = "4", title: String = "Phrase") throws -> String {
        let result = try runProcess(cravey, ["record", "audio", "--mic", "cravey_file", "--max-seconds", seconds,
                                             "--title", title, "--library", root],
                                    environment: env(["CRAVEY_ALSA_INFILE": infile]))
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func row(_ id: String) throws -> [String: Any] {
        let out = try runProcess(cravey, ["show", id, "--json", "--library", root]).stdout
        return try JSONSerialization.jsonObject(with: Data(out.utf8)) as! [String: Any]
    }

    func testSamplesReachingTheSpeakerMatchTheRecording() throws {
        let id = try recordFixture()
        let out = base + "/speaker.raw"
        let result = try runProcess(cravey, ["play", id, "--speaker", "cravey_capture", "--library", root],
                                    environment: env(["CRAVEY_ALSA_OUTFILE": out]))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "Played 'Phrase' (0:04)\n")
        let heard = try readS16(out)
        let decoded = try decodeAudio(root + "/" + (try row(id)["filePath"] as! String))
        XCTAssertEqual(Double(heard.count), Double(decoded.count), accuracy: 960, "length within one ALSA period")
        XCTAssertEqual(rmsDecibels(heard), rmsDecibels(decoded), accuracy: 1.0)
        XCTAssertEqual(rmsDecibels(heard), rmsDecibels(try readS16(phraseFixture)), accuracy: 1.0)
        XCTAssertEqual(try row(id)["playCount"] as? Int, 1, "a completed play counts once")
        XCTAssertNotNil(try row(id)["lastPlayedAt"] as? String)
    }

    func testTopPlaysTheMostPlayedAndTitlesWork() throws {
        let first = try recordFixture(title: "Morning walk")
        let second = try recordFixture(title: "Evening call")
        for _ in 0..<2 {
            XCTAssertEqual(try runProcess(cravey, ["play", "evening", "--speaker", "cravey_capture", "--library", root], environment: env()).status, 0)
        }
        let top = try runProcess(cravey, ["play", "--top", "--speaker", "cravey_capture", "--library", root], environment: env())
        XCTAssertEqual(top.stdout, "Played 'Evening call' (0:04)\n")
        let second2 = try runProcess(cravey, ["play", "--top", "--rank", "2", "--speaker", "cravey_capture", "--library", root], environment: env())
        XCTAssertEqual(second2.stdout, "Played 'Morning walk' (0:04)\n")
        XCTAssertEqual(try row(second)["playCount"] as? Int, 3)
        XCTAssertEqual(try row(first)["playCount"] as? Int, 1)
        let unknown = try runProcess(cravey, ["play", "nothing like this", "--library", root], environment: env())
        XCTAssertEqual(unknown.status, 1)
        XCTAssertEqual(unknown.stderr, "cravey: no recording matches 'nothing like this'\n")
        _ = try recordFixture(title: "Evening run")
        let ambiguous = try runProcess(cravey, ["play", "Evening", "--library", root], environment: env())
        XCTAssertEqual(ambiguous.status, 1)
        XCTAssertTrue(ambiguous.stderr.contains("matches 2 recordings"), ambiguous.stderr)
    }

    func testPlayTopOnAnEmptyLibraryPointsToRecord() throws {
        let result = try runProcess(cravey, ["play", "--top", "--library", root], environment: env())
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
        XCTAssertTrue(result.stderr.contains("cravey record"), result.stderr)
    }

    func testTwoPlaysAtOnceBothCount() throws {
        let id = try recordFixture()
        let group = DispatchGroup()
        let (cravey, root, environment) = (self.cravey, self.root, env())
        for _ in 0..<2 {
            group.enter()
            DispatchQueue.global().async {
                _ = try? runProcess(cravey, ["play", id, "--speaker", "cravey_capture", "--library", root], environment: environment)
                group.leave()
            }
        }
        group.wait()
        XCTAssertEqual(try row(id)["playCount"] as? Int, 2)
    }

    /// A speaker paced like a real one: the file plugin writes into a FIFO that pv drains at 96000 B/s.
    func pacedSpeaker() throws -> (fifo: String, drain: Process) {
        let fifo = base + "/speaker.fifo"
        return (fifo, try pacedFIFO(fifo))
    }

    func testDismissedPlayCountsOnce() throws {
        let tone = base + "/tone.raw"
        try makeTone(tone, seconds: 20)
        let id = try recordFixture(tone, seconds: "20", title: "Long")
        let (fifo, drain) = try pacedSpeaker()
        defer { drain.terminate() }
        let player = Process()
        player.executableURL = URL(fileURLWithPath: cravey)
        player.arguments = ["play", id, "--speaker", "cravey_capture", "--library", root]
        player.environment = ProcessInfo.processInfo.environment.merging(env(["CRAVEY_ALSA_OUTFILE": fifo])) { $1 }
        let out = Pipe()
        player.standardOutput = out
        try player.run()
        sleep(2)
        XCTAssertTrue(player.isRunning, "a 20 s recording is still playing after 2 s")
        kill(player.processIdentifier, SIGTERM)
        player.waitUntilExit()
        XCTAssertEqual(player.terminationStatus, 0)
        XCTAssertEqual(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "Stopped 'Long' (0:20)\n")
        XCTAssertEqual(try row(id)["playCount"] as? Int, 1, "a dismissed play counts once")
    }

    func testKeysPauseSkipAndQuitInATerminal() throws {
        let tone = base + "/tone.raw"
        try makeTone(tone, seconds: 60)
        let id = try recordFixture(tone, seconds: "60", title: "Minute")
        let (fifo, drain) = try pacedSpeaker()
        defer { drain.terminate() }
        let command = "env ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) CRAVEY_ALSA_OUTFILE=\(shellQuote(fifo)) "
            + "\(shellQuote(cravey)) play \(id) --speaker cravey_capture --library \(shellQuote(root)); "
            + "echo EXIT=$?; stty -a | grep -o -- '-\\?icanon' | sed 's/^/MODE=/'; sleep 60"
        let tmux = try TmuxSession(command)
        let screen = try tmux.waitFor("/ 1:00")
        XCTAssertTrue(screen.contains("Minute") && screen.contains("space pause"), screen)
        /// The position shown, in seconds (what is heard; the speaker's buffers put it ahead at first).
        func shown() throws -> Int {
            let text = try tmux.screen()
            guard let range = text.range(of: #"\d+:\d\d / 1:00"#, options: .regularExpression) else { return -1 }
            let parts = text[range].split(separator: " ")[0].split(separator: ":")
            return Int(parts[0])! * 60 + Int(parts[1])!
        }
        func waitUntil(_ condition: (Int) -> Bool, _ what: String) throws {
            let deadline = Date() + 10
            while Date() < deadline {
                if condition(try shown()) { return }
                usleep(50_000)
            }
            XCTFail("\(what): position stayed at \(try shown())")
        }
        let start = try shown()
        XCTAssertLessThan(start, 10)
        try tmux.send("Right")
        try waitUntil({ $0 >= start + 15 }, "→ skips 15 s")
        let skipped = try shown()
        try tmux.send("Left")
        try waitUntil({ $0 <= skipped - 10 }, "← skips back 15 s")
        try tmux.send("Space")
        try tmux.waitFor("paused")
        let paused = try shown()
        sleep(2)
        XCTAssertEqual(try shown(), paused, "paused: the position stays")
        try tmux.send("Space")
        try tmux.send("q", literal: true)
        let done = try tmux.waitFor("EXIT=")
        XCTAssertTrue(done.contains("EXIT=0"), done)
        XCTAssertTrue(try tmux.waitFor("MODE=").contains("MODE=icanon"), "terminal restored")
        XCTAssertEqual(try row(id)["playCount"] as? Int, 1)
    }
}
