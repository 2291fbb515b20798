import CraveyTestSupport
import Foundation
import XCTest

/// A take that lost sound because the computer was busy (the recorder held up while the
/// microphone went on: an overrun) says so when it is saved — one sentence with the seconds, on
/// stderr beside the id a script reads, and `soundLostSeconds` in `--json`. A take that lost
/// nothing says nothing of it. The microphone is ALSA's `file` plugin over a FIFO fed like a
/// sound card: 20 ms of sound every 20 ms from the moment it is opened (the block the recorder
/// reads: the plugin takes a read as whole), into a buffer of 40 ms (what the FIFO holds unread);
/// a block that finds the buffer full is lost (an overrun), never delivered late. The recorder is held up for real (SIGSTOP, then SIGCONT).
final class RecordSaysSoundLostTests: CommandTestCase {
    /// Feeds `source` (48 kHz mono S16) into `fifo` as a sound card captures: a block of 20 ms
    /// every 20 ms on the clock, dropped when 40 ms wait unread; it prints how many it has dropped
    /// at each drop.
    static let feeder = """
        import array, fcntl, os, sys, termios, time
        source, fifo = sys.argv[1], sys.argv[2]
        data = open(source, "rb").read()
        out = os.open(fifo, os.O_WRONLY)
        start, dropped = time.monotonic(), 0
        for i in range(len(data) // 1920):
            delay = start + i * 0.02 - time.monotonic()
            if delay > 0: time.sleep(delay)
            unread = array.array("i", [0])
            fcntl.ioctl(out, termios.FIONREAD, unread)
            if unread[0] + 1920 > 3840:
                dropped += 1
                print(dropped, flush=True)
                continue
            try: os.write(out, data[i * 1920:(i + 1) * 1920])
            except BrokenPipeError: break
        """

    /// The microphone: its FIFO, its feeder, and where the feeder says how many blocks it dropped.
    func microphone() throws -> (fifo: String, feeder: Process, drops: Pipe) {
        let tone = base + "/tone.raw"
        if !FileManager.default.fileExists(atPath: tone) { try makeTone(tone, seconds: 20) }
        let fifo = base + "/mic.fifo"
        unlink(fifo)
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let feeder = Process()
        feeder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        feeder.arguments = ["-c", Self.feeder, tone, fifo]
        let drops = Pipe()
        feeder.standardOutput = drops
        try feeder.run()
        return (fifo, feeder, drops)
    }

    /// `cravey record audio` of 5 s (plus `extra`) from the microphone; `holdUp` seconds of
    /// SIGSTOP two seconds in. Its exit status, stdout and stderr, and the seconds of sound the
    /// microphone dropped because the recorder did not read it in time.
    func record(holdUp: Double, _ extra: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String, dropped: Double
    ) {
        let (fifo, feeder, drops) = try microphone()
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: cravey)
        recorder.arguments =
            ["record", "audio", "--mic", "cravey_file", "--max-seconds", "5", "--title", "Held", "--library", root]
            + extra
        recorder.environment = ProcessInfo.processInfo.environment.merging([
            "ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": fifo, "CRAVEY_TRANSCRIBE": "later",
            "NO_COLOR": "1",
        ]) { $1 }.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        recorder.standardOutput = out
        recorder.standardError = err
        try recorder.run()
        if holdUp > 0 { hold(recorder.processIdentifier, for: holdUp, after: 2) }
        let (stdout, stderr) = (
            out.fileHandleForReading.readDataToEndOfFile(), err.fileHandleForReading.readDataToEndOfFile()
        )
        recorder.waitUntilExit()
        if feeder.isRunning { feeder.terminate() }
        feeder.waitUntilExit()
        let dropped =
            String(decoding: drops.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").last.flatMap { Int($0) } ?? 0
        return (
            recorder.terminationStatus, String(decoding: stdout, as: UTF8.self),
            String(decoding: stderr, as: UTF8.self), Double(dropped) * 0.02
        )
    }

    /// Stops `pid` `after` seconds for `seconds` (SIGSTOP), then lets it go on (SIGCONT).
    func hold(_ pid: Int32, for seconds: Double, after: Double) {
        usleep(useconds_t(after * 1_000_000))
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        usleep(useconds_t(seconds * 1_000_000))
    }

    func testATakeThatLostSoundSaysHowMuch() throws {
        let held = try record(holdUp: 1.0, ["--json"])
        XCTAssertEqual(held.status, 0, held.stderr)
        let row = try XCTUnwrap(try json(held.stdout) as? [String: Any], held.stdout)
        let lost = try XCTUnwrap(row["soundLostSeconds"] as? Double, "--json carries the sound lost: \(held.stdout)")
        // What the microphone dropped: about the hold, less the 40 ms its buffer kept (gaps under
        // 50 ms are the recorder's jitter, not counted).
        XCTAssertGreaterThanOrEqual(held.dropped, 0.9, "the hold made the microphone drop sound")
        XCTAssertEqual(lost, held.dropped, accuracy: 0.15, held.stdout)
        XCTAssertEqual(row["title"] as? String, "Held", "the row is the saved recording's")

        let plain = try record(holdUp: 1.0, [])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertNotNil(
            UUID(uuidString: plain.stdout.trimmingCharacters(in: .whitespacesAndNewlines)),
            "stdout is the id alone, for scripts: \(plain.stdout)")
        let said = plain.stderr.split(separator: "\n").filter { $0.contains("of sound was lost") }
        XCTAssertEqual(said.count, 1, plain.stderr)
        let sentence = String(said.first ?? "")
        XCTAssertNotNil(
            sentence.range(
                of: #"^cravey: [0-9]+\.[0-9] s of sound was lost while the computer was busy\.$"#,
                options: .regularExpression), sentence)
    }

    /// On a terminal, the saved line is followed by the sentence.
    func testTheSavedLineOnATerminalSaysIt() throws {
        let (fifo, feeder, _) = try microphone()
        defer { if feeder.isRunning { feeder.terminate() } }
        let tmux = try TmuxSession(
            "env ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) CRAVEY_ALSA_INFILE=\(shellQuote(fifo)) NO_COLOR=1 "
                + "CRAVEY_TRANSCRIBE=later CRAVEY_ALSA_OUTFILE=\(shellQuote(base + "/speaker.raw")) "
                + "\(shellQuote(cravey)) record audio --mic cravey_file --max-seconds 5 --speaker cravey_capture "
                + "--library \(shellQuote(root)); echo EXIT=$?; sleep 60")
        defer { tmux.close() }
        try tmux.waitFor("dBFS")
        let found = try runProcess("/usr/bin/pgrep", ["-f", "record audio --mic cravey_file .*--library \(root)$"])
        let pid = try XCTUnwrap(found.stdout.split(separator: "\n").compactMap { Int32($0) }.first, found.stdout)
        hold(pid, for: 1, after: 1)
        try tmux.waitFor("Title (Enter for", timeout: 30)
        // Every detail as it is offered, then Save.
        for (prompt, answer) in [("Title (Enter for", ""), ("Notes", ""), ("Purpose", ""), ("Save or discard?", "s")] {
            try tmux.waitFor(prompt)
            if !answer.isEmpty { try tmux.send(answer, literal: true) }
            try tmux.send("Enter")
        }
        let done = try tmux.waitFor("EXIT=", timeout: 20).components(separatedBy: "\n")
        let saved = try XCTUnwrap(done.firstIndex { $0.hasPrefix("Saved '") }, done.joined(separator: "\n"))
        XCTAssertNotNil(
            done[saved + 1].range(
                of: #"^[0-9]+\.[0-9] s of sound was lost while the computer was busy\.$"#, options: .regularExpression),
            done.joined(separator: "\n"))
        XCTAssertTrue(done.contains("EXIT=0"), done.joined(separator: "\n"))
    }

    /// A slow disk: the take's second once-a-second fsync held for 2 s (the fault seam) while
    /// the microphone, with its 40 ms buffer, goes on. The microphone is read on a thread of its
    /// own into a queue, so the hold drops nothing: what is dropped is only what a machine too busy
    /// to read in time drops (as below), and the take says just that. Before that thread, the
    /// microphone dropped the whole hold (1.96 s) and the take said "2.0 s of sound was lost".
    func testASlowFsyncLosesNoSound() throws {
        let slow = try record(holdUp: 0, ["--json"], environment: ["CRAVEY_FAULT_HANG": "record.sync.2:2"])
        XCTAssertEqual(slow.status, 0, slow.stderr)
        let row = try XCTUnwrap(try json(slow.stdout) as? [String: Any], slow.stdout)
        XCTAssertEqual(row["duration"] as? Double ?? 0, 5, accuracy: 0.05, "the whole take is kept")
        let lost = try XCTUnwrap(row["soundLostSeconds"] as? Double, slow.stdout)
        XCTAssertLessThan(slow.dropped, 1, "the microphone was read through the 2 s hold")
        XCTAssertEqual(lost, slow.dropped, accuracy: 0.1, slow.stdout)
    }

    /// Without a hold nothing is lost, unless the machine itself was too busy to read in time: then
    /// what the microphone dropped is what is said (a busy machine is the case this is for).
    func testATakeThatLostNothingSaysNothingOfIt() throws {
        for extra in [["--json"], []] {
            let steady = try record(holdUp: 0, extra)
            XCTAssertEqual(steady.status, 0, steady.stderr)
            if extra.isEmpty {
                if steady.dropped == 0 { XCTAssertFalse(steady.stderr.contains("lost"), steady.stderr) }
            } else {
                let row = try XCTUnwrap(try json(steady.stdout) as? [String: Any], steady.stdout)
                let lost = try XCTUnwrap(row["soundLostSeconds"] as? Double, steady.stdout)
                XCTAssertEqual(lost, steady.dropped, accuracy: 0.1, steady.stdout)
                if steady.dropped == 0 { XCTAssertEqual(lost, 0) }
            }
        }
    }
}
