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
