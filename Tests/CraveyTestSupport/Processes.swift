import Foundation

/// Where SwiftPM put the built executables (next to the test bundle).
public func productPath(_ name: String) -> String {
    let bundle = Bundle.main.bundleURL.deletingLastPathComponent().path
    for candidate in [bundle + "/" + name, (CommandLine.arguments[0] as NSString).deletingLastPathComponent + "/" + name] {
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return bundle + "/" + name
}

/// Runs an executable and returns its exit status (or the signal, negated) and output.
@discardableResult
public func runProcess(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                       input: String? = nil, directory: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
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
    let result = try runProcess("/usr/bin/script", ["-qefc", commandLine, "/dev/null"],
                                environment: environment.merging(["TERM": "xterm-256color", "NO_COLOR": ""]) { a, _ in a }, input: input)
    return (result.status, result.stdout)
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

/// Decodes any media file's audio to 48 kHz mono float with the ffmpeg CLI (an independent check).
public func decodeAudio(_ path: String) throws -> [Float] {
    let out = FileManager.default.temporaryDirectory.path + "/decoded-\(UUID().uuidString).f32"
    defer { try? FileManager.default.removeItem(atPath: out) }
    let result = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", path, "-ac", "1", "-ar", "48000", "-f", "f32le", out])
    guard result.status == 0 else { throw NSError(domain: "ffmpeg", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
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
    let result = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-print_format", "json", "-show_streams", "-show_format", path])
    let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    let streams = json["streams"] as? [[String: Any]] ?? []
    let format = json["format"] as? [String: Any] ?? [:]
    return (streams.compactMap { $0["codec_name"] as? String }, Double(format["duration"] as? String ?? "") ?? -1, streams)
}
