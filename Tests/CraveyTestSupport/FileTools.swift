import Foundation

/// Runs a program that reads and writes files and needs no device — a check (ffprobe, ffmpeg, a
/// `Media/*.py` check) or a fixture's maker (sox, ffmpeg). Inside the VM rig it runs on the host
/// (`Tests/vm/host-checks.py`): a program's start costs the emulated machine seconds. The files
/// of the test's scratch folder among `arguments` are copied out to the rig's share and named
/// there; those in `writes` are copied back once the program has written them. Elsewhere it is
/// `runProcess`.
@discardableResult
public func runFileTool(_ executable: String, _ arguments: [String], input: String? = nil, writes: Set<String> = [])
    throws -> (status: Int32, stdout: String, stderr: String)
{
    guard let share = HostChecks.share else { return try runProcess(executable, arguments, input: input) }
    let fileManager = FileManager.default
    let folder = share + "/" + UUID().uuidString
    try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: false)
    defer { try? fileManager.removeItem(atPath: folder) }
    var copiedBack: [(there: String, here: String)] = []
    var argv = [executable]
    for (index, argument) in arguments.enumerated() {
        guard argument.hasPrefix(HostChecks.scratch) else {
            argv.append(argument)
            continue
        }
        let name = "\(index)-" + (argument as NSString).lastPathComponent
        if writes.contains(argument) {
            copiedBack.append((folder + "/" + name, argument))
        } else if fileManager.fileExists(atPath: argument) {
            try fileManager.copyItem(atPath: argument, toPath: folder + "/" + name)
        } else {
            argv.append(argument)
            continue
        }
        argv.append(name)
    }
    let request = try JSONSerialization.data(withJSONObject: [
        "argv": argv, "input": input.map { $0 as Any } ?? NSNull(),
    ])
    try request.write(to: URL(fileURLWithPath: folder + "/request.json"), options: .atomic)
    let answerPath = folder + "/answer.json"
    let deadline = Date() + 600
    while !fileManager.fileExists(atPath: answerPath) {
        guard Date() < deadline else {
            throw NSError(
                domain: "host-checks", code: 1,
                userInfo: [NSLocalizedDescriptionKey: "the host ran no \(executable) in 600 s"])
        }
        usleep(20_000)
    }
    let answer =
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: answerPath))) as? [String: Any]
        ?? [:]
    for (there, here) in copiedBack where fileManager.fileExists(atPath: there) {
        try? fileManager.removeItem(atPath: here)
        try fileManager.copyItem(atPath: there, toPath: here)
    }
    return (
        Int32(answer["status"] as? Int ?? 127), answer["stdout"] as? String ?? "", answer["stderr"] as? String ?? ""
    )
}

enum HostChecks {
    /// The rig's folder of checks, when the host serves them (`ready` in it).
    static let share: String? = {
        guard ProcessInfo.processInfo.environment["CRAVEY_IN_VM"] == "1",
            let results = ProcessInfo.processInfo.environment["CRAVEY_VM_RESULTS"],
            FileManager.default.fileExists(atPath: results + "/checks/ready")
        else { return nil }
        return results + "/checks"
    }()

    /// The test's scratch folder (the emulated machine's own memory, which the host cannot see).
    static let scratch: String = {
        let path = FileManager.default.temporaryDirectory.path
        return path.hasSuffix("/") ? path : path + "/"
    }()
}
