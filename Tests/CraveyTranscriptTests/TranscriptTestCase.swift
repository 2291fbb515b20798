import CraveyTestSupport
import Foundation
import XCTest

/// What the transcript tests share: six spoken sentences at known places (flite,
/// Media/make-speech.py), the built binary run on the test's library with `timing` as
/// CRAVEY_TRANSCRIBE, and the processes transcripts are made in.
class TranscriptTestCase: CommandTestCase {
    var sentences: [SpokenSentence] = []
    var speech: String { base + "/speech.wav" }
    /// How the commands make transcripts after a save (CRAVEY_TRANSCRIBE).
    var timing: String { "now" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        sentences = try makeSpeech(speech, sentences: 6)
    }

    override func tearDownWithError() throws {
        _ = try? runProcess("/usr/bin/pkill", ["-f", base + "/mic"])
        _ = try? runProcess("/usr/bin/pkill", ["-KILL", "-f", "transcribe --worker --library \(root)"])
        try super.tearDownWithError()
    }

    func run(_ arguments: [String], _ environment: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try runProcess(
            cravey, arguments + ["--library", root],
            environment: ["CRAVEY_TRANSCRIBE": timing, "NO_COLOR": "1"].merging(environment) { $1 })
    }

    /// `cravey ARGS` in the background (output dropped), to be killed.
    func start(_ arguments: [String], _ environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cravey)
        process.arguments = arguments + ["--library", root]
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["CRAVEY_TRANSCRIBE": timing].merging(environment) { $1 }
        ) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    func json(_ arguments: [String], _ environment: [String: String] = [:]) throws -> Any {
        let out = try run(arguments + ["--json"], environment)
        XCTAssertEqual(out.status, 0, out.stderr)
        return try json(out.stdout)
    }

    func importSpeech(_ extra: [String] = [], _ environment: [String: String] = [:], file: String? = nil) throws
        -> String
    {
        let row =
            try json(["import", file ?? speech, "--title", "Six sentences"] + extra, environment) as! [String: Any]
        return row["id"] as! String
    }

    func transcript(_ id: String) throws -> [String: Any]? {
        (try json(["show", id]) as! [String: Any])["transcript"] as? [String: Any]
    }

    func sql(_ query: String) throws -> String {
        // Waits for a writer as cravey's own readers do (its busy timeout), instead of failing at once.
        let out = try runProcess("/usr/bin/sqlite3", ["-cmd", ".timeout 5000", root + "/library.sqlite", query])
        XCTAssertEqual(out.status, 0, out.stderr)
        return out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The Whisper helpers running now (their process ids): of one parent, or of any cravey that
    /// runs on this test's library (the tests in the other lane of a whole run start helpers of
    /// their own, on their own libraries).
    func whisperHelpers(parent: Int32? = nil) -> [Int32] {
        let found =
            (try? runProcess(
                "/usr/bin/pgrep", ["-f", "cravey-whisper.py"] + (parent.map { ["-P", String($0)] } ?? [])
            ).stdout) ?? ""
        let helpers = found.split(separator: "\n").compactMap { Int32($0) }
        return parent != nil ? helpers : helpers.filter { runsOnThisLibrary(parentOf: $0) }
    }

    /// Whether the parent of process `pid` is a cravey whose arguments name this test's library.
    func runsOnThisLibrary(parentOf pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.range(of: ")", options: .backwards)
        else { return false }
        // After the name: state, then the parent's id.
        let fields = stat[end.upperBound...].split(separator: " ")
        guard fields.count > 1, let parent = Int32(fields[1]),
            let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(parent)/cmdline"))
        else { return false }
        return line.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == root }
    }

    /// The background workers of this test's library that run now.
    func workers() -> [Int32] {
        ((try? runProcess("/usr/bin/pgrep", ["-f", "transcribe --worker --library \(root)"]).stdout) ?? "").split(
            separator: "\n"
        ).compactMap { Int32($0) }
    }

    func waitForWhisperHelper(of parent: Int32) throws -> Int32 {
        for _ in 0..<100 {
            if let helper = whisperHelpers(parent: parent).first { return helper }
            usleep(50_000)
        }
        throw XCTSkip("no Whisper helper appeared")
    }

    /// Polls `condition` every 50 ms for up to `seconds`.
    func eventually(_ seconds: Double = 30, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }

    /// The interactive check-in of `day` in tmux, from `microphone` (ALSA's file plugin), answered
    /// with mood 4 and the day's question, recorded until the clock shows `recordFor`: the session
    /// (to close) and its close screen.
    func checkInToItsClose(microphone: String, day: String, recordFor: String, _ environment: [String] = []) throws -> (
        TmuxSession, String
    ) {
        let env =
            ([
                "CRAVEY_TRANSCRIBE=\(timing)", "NO_COLOR=1", "ALSA_CONFIG_PATH=" + shellQuote(testALSAConfig),
                "CRAVEY_ALSA_INFILE=" + shellQuote(microphone),
                "CRAVEY_NOW=\(day)T10:00:00",
            ] + environment).joined(separator: " ")
        let tmux = try TmuxSession(
            "env \(env) \(shellQuote(cravey)) checkin --mic cravey_file --library \(shellQuote(root)); echo EXIT=$?; sleep 60"
        )
        do {
            try tmux.waitFor("Take a moment for yourself")
            try tmux.send("Enter")
            try tmux.waitFor("How does today feel")
            try tmux.send("4", literal: true)
            try tmux.send("Enter")
            try tmux.waitFor("Just one question for today")
            try tmux.send("Enter")
            try tmux.waitFor(recordFor, timeout: 30)
            usleep(500_000)  // the clock shows the nearest second: half a second on, the whole of it is recorded
            try tmux.send("Enter")
            return (tmux, try tmux.waitFor("Listen back", timeout: 30))
        } catch {
            tmux.close()
            throw error
        }
    }

    /// Whether `pid` ends within two seconds.
    func waitUntilGone(_ pid: Int32) -> Bool { eventually(2) { kill(pid, 0) != 0 } }
}
