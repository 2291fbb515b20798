import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where SwiftPM put the built executables (next to the test bundle).
public func productPath(_ name: String) -> String {
    // The program under test as `Tests/run-all.sh` runs it: the release build, made as
    // `Media/install.sh` makes it (CRAVEY_UNDER_TEST); the test bundle's own build otherwise.
    if name == "cravey", let chosen = ProcessInfo.processInfo.environment["CRAVEY_UNDER_TEST"], !chosen.isEmpty {
        return chosen
    }
    return builtProductPath(name)
}

/// A product as the test bundle's own build made it (the debug build), whatever runs the tests.
public func builtProductPath(_ name: String) -> String {
    let bundle = Bundle.main.bundleURL.deletingLastPathComponent().path
    for candidate in [
        bundle + "/" + name, (CommandLine.arguments[0] as NSString).deletingLastPathComponent + "/" + name,
    ] {
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return bundle + "/" + name
}

/// Runs an executable and returns its exit status (or the signal, negated) and output. It gets
/// the test process's environment (a sentinel home while a test runs; another home for the
/// programs that keep one of their own) with `environment` over it.
@discardableResult
public func runProcess(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:],
    input: String? = nil, directory: String? = nil
) throws -> (status: Int32, stdout: String, stderr: String) {
    Sentinel.watch()
    let process = Process()
    let (program, words) = isolated(executable, arguments)
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = words
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    process.environment = CraveyTestSupport.environment(for: executable, environment)
    let out = Pipe(), err = Pipe(), stdin = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    // Read stderr on another thread so neither pipe can fill up and stall the child.
    nonisolated(unsafe) var errData = Data()
    let errDone = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        errData = err.fileHandleForReading.readDataToEndOfFile()
        errDone.signal()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    errDone.wait()
    process.waitUntilExit()
    let status = process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
    return (status, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// Runs a shell command line inside a pseudo-terminal (util-linux `script`), so the program sees a
/// TTY on stdin and stdout; `input` is typed into it. Returns the exit status and what the terminal showed.
public func runInTerminal(_ commandLine: String, input: String = "", environment: [String: String] = [:])
    throws -> (status: Int32, screen: String)
{
    let result = try runProcess(
        "/usr/bin/script", ["-qefc", commandLine, "/dev/null"],
        environment: environment.merging(["TERM": "xterm-256color", "NO_COLOR": ""]) { a, _ in a }, input: input)
    return (result.status, result.stdout)
}

/// Runs a program with posix_spawn and waits for that process alone; returns its exit status.
public func spawnAndWait(_ argv: [String]) throws -> Int32 {
    var pid: pid_t = 0
    let cArgs = argv.map { strdup($0) } + [nil]
    defer { cArgs.forEach { free($0) } }
    let result = posix_spawn(&pid, argv[0], nil, nil, cArgs, environ)
    guard result == 0 else { throw NSError(domain: "posix_spawn", code: Int(result)) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return (status >> 8) & 0xFF
}

/// A file's permission bits (-1 when it has none to read).
public func mode(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
}

/// Quotes a string for a POSIX shell.
public func shellQuote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

/// The repository's root directory (where Package.swift is).
public let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// The ALSA configuration of Media/ that turns files into capture and playback devices.
public var testALSAConfig: String { repositoryRoot + "/Media/alsa/cravey-test.conf" }

/// The spoken-phrase fixture (4.000 s, 48 kHz mono S16_LE raw).
public var phraseFixture: String { repositoryRoot + "/Media/phrase-48k-s16.raw" }

/// Reads raw S16_LE mono samples as floats.
public func readS16(_ path: String) throws -> [Float] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return data.withUnsafeBytes { raw in
        raw.bindMemory(to: Int16.self).map { Float(Int16(littleEndian: $0)) / 32768 }
    }
}

/// Decodes any media file's audio to 48 kHz mono float with the ffmpeg CLI (an independent check);
/// `firstChannel` takes the first channel as it is instead of ffmpeg's downmix.
public func decodeAudio(_ path: String, firstChannel: Bool = false) throws -> [Float] {
    let out = FileManager.default.temporaryDirectory.path + "/decoded-\(UUID().uuidString).f32"
    defer { try? FileManager.default.removeItem(atPath: out) }
    let mix = firstChannel ? ["-af", "pan=mono|c0=c0"] : ["-ac", "1"]
    let result = try runFileTool(
        "/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", path] + mix + ["-ar", "48000", "-f", "f32le", out], writes: [out]
    )
    guard result.status == 0 else {
        throw NSError(domain: "ffmpeg", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr])
    }
    let data = try Data(contentsOf: URL(fileURLWithPath: out))
    return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
}

/// RMS level in dBFS.
public func rmsDecibels<C: Collection>(_ samples: C) -> Double where C.Element == Float {
    let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
    return 20 * log10(max(1e-12, (sum / Double(max(1, samples.count))).squareRoot()))
}

/// ffprobe's view of a file: codec names and duration (an independent check).
public func ffprobe(_ path: String) throws -> (codecs: [String], duration: Double, streams: [[String: Any]]) {
    let result = try runFileTool(
        "/usr/bin/ffprobe", ["-v", "error", "-print_format", "json", "-show_streams", "-show_format", path])
    let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    let streams = json["streams"] as? [[String: Any]] ?? []
    let format = json["format"] as? [String: Any] ?? [:]
    return (
        streams.compactMap { $0["codec_name"] as? String }, Double(format["duration"] as? String ?? "") ?? -1, streams
    )
}

/// A program running in a detached tmux session: keys are typed with `send(_:)`, the screen is
/// read with `screen()`. Each session has its own tmux server, removed by `close()`.
public final class TmuxSession {
    public let socket = "cravey-test-\(UUID().uuidString.prefix(8))"

    public init(_ commandLine: String, width: Int = 120, height: Int = 30) throws {
        // Foundation's Process waits for the tmux server the client forks (it outlives the
        // client by design), so the client is started with posix_spawn and reaped with waitpid.
        let line =
            ["tmux", "-L", socket, "new-session", "-d", "-x", "\(width)", "-y", "\(height)", commandLine]
            .map(shellQuote).joined(separator: " ") + " </dev/null >/dev/null 2>&1"
        let status = try spawnAndWait(["/bin/sh", "-c", line])
        guard status == 0 else {
            throw NSError(
                domain: "tmux", code: Int(status), userInfo: [NSLocalizedDescriptionKey: "tmux new-session failed"])
        }
    }

    /// Types keys (tmux key names such as "Enter", or literal text with `literal: true`).
    public func send(_ keys: String, literal: Bool = false) throws {
        _ = try runProcess(
            "/usr/bin/tmux", ["-L", socket, "send-keys", "-t", "0"] + (literal ? ["-l", keys] : [keys]))
    }

    /// The visible screen, as text (with `escapes`, its colours and styles as escape sequences).
    public func screen(escapes: Bool = false) throws -> String {
        try runProcess("/usr/bin/tmux", ["-L", socket, "capture-pane", "-p", "-t", "0"] + (escapes ? ["-e"] : []))
            .stdout
    }

    /// Waits until the screen contains `text`; returns the screen (or fails after `timeout`).
    @discardableResult
    public func waitFor(_ text: String, timeout: TimeInterval = 15) throws -> String {
        let deadline = Date() + timeout
        var last = ""
        while Date() < deadline {
            last = try screen()
            if last.contains(text) { return last }
            usleep(50_000)
        }
        throw NSError(
            domain: "tmux", code: 1, userInfo: [NSLocalizedDescriptionKey: "'\(text)' never appeared; screen:\n\(last)"]
        )
    }

    /// Waits until the screen satisfies `condition` (a screen to come that the one before it
    /// would also pass for by a word it has: home with its note gone); returns the screen (or
    /// fails after `timeout`, naming `what`).
    @discardableResult
    public func waitUntil(_ what: String, timeout: TimeInterval = 15, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date() + timeout
        var last = ""
        while Date() < deadline {
            last = try screen()
            if condition(last) { return last }
            usleep(50_000)
        }
        throw NSError(
            domain: "tmux", code: 1, userInfo: [NSLocalizedDescriptionKey: "never \(what); screen:\n\(last)"])
    }

    public func close() { _ = try? runProcess("/usr/bin/tmux", ["-L", socket, "kill-server"]) }

    deinit { close() }
}

/// Writes a 48 kHz mono S16_LE raw 440 Hz tone (`volume` 0.5 = -6 dBFS peak; 0 = silence), made
/// once in a test process and copied after.
public func makeTone(_ path: String, seconds: Int, volume: Double = 0.5) throws {
    try madeOnce(key: "tone-\(seconds)-\(volume)", path) {
        try soxTone($0, raw: true, seconds: seconds, volume: volume)
    }
}

/// Writes a WAV file of the same tone (48 kHz mono, 16-bit), ready to import as a message.
public func makeToneWAV(_ path: String, seconds: Int) throws {
    try madeOnce(key: "tone-wav-\(seconds)", path) { try soxTone($0, raw: false, seconds: seconds, volume: 0.5) }
}

/// sox's 440 Hz tone at 48 kHz, mono, 16-bit, into `path`: raw samples or a WAV file.
private func soxTone(_ path: String, raw: Bool, seconds: Int, volume: Double) throws {
    let result = try runFileTool(
        "/usr/bin/sox",
        ["-n", "-r", "48000", "-c", "1", "-b", "16", "-e", "signed-integer"] + (raw ? ["-t", "raw"] : [])
            + [path, "synth", String(seconds), "sine", "440", "vol", String(volume)], writes: [path])
    guard result.status == 0 else {
        throw NSError(domain: "sox", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr])
    }
}

/// Writes a short H.264 + AAC video made with the ffmpeg CLI: `picture` is an ffmpeg source
/// (`testsrc2`, `color=c=green`), with a tone under it, ready to import as a message.
public func makeTestVideo(_ path: String, picture: String = "testsrc2", seconds: Int) throws {
    let source = picture + (picture.contains("=") ? ":" : "=") + "s=320x180:r=25:d=\(seconds)"
    let result = try runProcess(
        "/usr/bin/ffmpeg",
        [
            "-v", "error", "-y", "-f", "lavfi", "-i", source, "-f", "lavfi", "-i",
            "sine=f=440:d=\(seconds)", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", path,
        ])
    guard result.status == 0 else {
        throw NSError(domain: "ffmpeg", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr])
    }
}

/// A FIFO at `fifo` moved at real-time pace (48 kHz mono S16 = 96000 bytes/s) by pv: fed from
/// `source` (a paced microphone for the `file` plugin's infile), or, without a source, drained
/// to /dev/null (a paced speaker for its outfile). With `repeating`, the source is fed again each
/// time the FIFO is opened anew (a discarded take, then a new one). Terminate the returned process
/// when done (a repeating feeder's pv is found by the FIFO's path in its command line).
public func pacedFIFO(_ fifo: String, feeding source: String? = nil, repeating: Bool = false) throws -> Process {
    unlink(fifo)
    guard mkfifo(fifo, 0o600) == 0 else { throw NSError(domain: "mkfifo", code: Int(errno)) }
    let pv = Process()
    pv.executableURL = URL(fileURLWithPath: "/bin/sh")
    // pv's pace is the microphone's clock (ALSA's null device has none): it runs ahead of other
    // work (nice -10, as root) so that a busy machine does not starve the microphone, which
    // hears silence where pv was late.
    let feed = source.map { "nice -n -10 pv -q -L 96000 \(shellQuote($0)) > \(shellQuote(fifo))" }
    // The speaker's side: the shell opens the FIFO before pv starts, so pv's clock starts with
    // the player's first write. pv opening it itself counts its pace from its own start, and
    // then lets through at once as many seconds as the player took to start (2.9 s of sound in
    // 91 ms after 2 s waiting): a player slow to start on a loaded machine heard its sound's
    // first seconds "played" in a blink. Opened by the shell, the lead is the pipe's 64 KiB
    // (0.7 s) however long the player took; at nice -10 as the microphone's pv, so that a busy
    // machine does not hold the speaker back.
    pv.arguments = [
        "-c",
        feed.map { repeating ? "while :; do \($0) || sleep 0.05; done" : "exec " + $0 }
            ?? "exec nice -n -10 pv -q -B 4096 -L 96000 < \(shellQuote(fifo)) > /dev/null",
    ]  // a small buffer: what is drained is what is "heard"
    try pv.run()
    return pv
}

/// Integrated loudness (LUFS) and true peak (dBTP) of a file, by the ffmpeg CLI's ebur128 filter.
public func ebur128(_ path: String) throws -> (lufs: Double, truePeak: Double) {
    let result = try runProcess(
        "/usr/bin/ffmpeg", ["-hide_banner", "-nostats", "-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"])
    let summary = result.stderr.components(separatedBy: "Summary:").last ?? ""
    func value(after label: String) throws -> Double {
        guard let range = summary.range(of: label),
            let number = Double(
                summary[range.upperBound...].trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        else {
            throw NSError(
                domain: "ebur128", code: 1, userInfo: [NSLocalizedDescriptionKey: "no \(label) in: \(summary)"])
        }
        return number
    }
    return (try value(after: "I:"), try value(after: "Peak:"))
}

/// A display without a screen: Xvfb at 640x480 on a free display number, its socket waited for.
/// Terminate the process when done.
public func startXvfb() throws -> (process: Process, display: String) {
    let display = ":\(Int.random(in: 200...900))"
    let xvfb = Process()
    xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
    // In the VM rig /tmp is read-only (only /tmp/.X11-unix is its own): no display lock file there.
    let lockless = ProcessInfo.processInfo.environment["CRAVEY_IN_VM"] == "1" ? ["-nolock"] : []
    xvfb.arguments = [display, "-screen", "0", "640x480x24", "-nolisten", "tcp"] + lockless
    xvfb.environment = environment(for: "Xvfb", [:])
    xvfb.standardError = FileHandle.nullDevice
    try xvfb.run()
    let socket = "/tmp/.X11-unix/X\(display.dropFirst())"
    for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(100_000) }
    return (xvfb, display)
}

/// The screen of `display` as RGB24 pixels, 640x480 (ffmpeg's x11grab).
public func grabScreen(_ display: String, to path: String) throws -> [UInt8] {
    let grab = try runProcess(
        "/usr/bin/ffmpeg",
        [
            "-v", "error", "-y", "-f", "x11grab", "-video_size", "640x480", "-i", display,
            "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", path,
        ])
    guard grab.status == 0 else {
        throw NSError(domain: "x11grab", code: Int(grab.status), userInfo: [NSLocalizedDescriptionKey: grab.stderr])
    }
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// Waits (30 s at most) until a take being recorded into the library at `root` has its first
/// bytes in `.incoming/` (`growing`: and has grown since, its sound being written): what a test
/// times a signal or a kill from.
public func waitForTakeFile(in root: String, growing: Bool = false) -> Bool {
    let deadline = Date() + 30
    var first: Int?
    while Date() < deadline {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/.incoming")) ?? []
        let size =
            names.map {
                (try? FileManager.default.attributesOfItem(atPath: root + "/.incoming/" + $0)[.size] as? Int) ?? 0
            }.max() ?? 0
        if size > 0 {
            guard growing else { return true }
            if let first, size > first { return true }
            first = first ?? size
        }
        usleep(50_000)
    }
    return false
}
