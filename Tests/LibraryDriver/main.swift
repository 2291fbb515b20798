// library-driver: runs one library operation in its own process, so tests can kill it with
// SIGKILL at a chosen step (CRAVEY_FAULT_KILL_AT) or make a step fail (CRAVEY_FAULT_FAIL).
//
//   library-driver LIBRARY save FILE KIND TITLE [THUMB]   prints the new id
//   library-driver LIBRARY delete ID
//   library-driver LIBRARY purge
//   library-driver LIBRARY open                           just opens (and so recovers)
//   library-driver LIBRARY play ID
//   library-driver LIBRARY save-loop FILE COUNT           saves COUNT copies (concurrency test)
import CraveyLibraryFixtures
import CraveyLibrary
import Foundation

let args = CommandLine.arguments
guard args.count >= 3 else {
    FileHandle.standardError.write(Data("usage: library-driver LIBRARY save|delete|purge|play …\n".utf8))
    exit(2)
}
do {
    let env = ProcessInfo.processInfo.environment
    let faults = Faults(
        failing: Set((env["CRAVEY_FAULT_FAIL"] ?? "").split(separator: ",").map(String.init)),
        killAt: env["CRAVEY_FAULT_KILL_AT"].flatMap { Int($0) }, trace: env["CRAVEY_FAULT_TRACE"] == "1")
    let library = try Library(root: args[1], faults: faults)
    switch args[2] {
    case "save":
        let kind = Recording.Kind(rawValue: args[4])!
        let saved = try library.save(
            copying: args[3], thumbnail: args.count > 6 ? args[6] : nil, kind: kind,
            draft: .init(title: args[5]), duration: 1.5, media: MediaFacts(waveform: [1, 2, 3]))
        print(saved.id.uuidString)
    case "delete":
        try library.delete(try library.recording(matching: args[3]))
    case "open":
        break  // opening recovers whatever an interrupted run left
    case "purge":
        try library.purge()
    case "play":
        try library.recordPlay(try library.recording(matching: args[3]).id, at: Date())
    case "save-loop":
        for i in 0..<Int(args[4])! {
            _ = try library.save(
                copying: args[3], kind: .audio, draft: .init(title: "Loop \(i)"),
                duration: 2, media: MediaFacts())
        }
    default:
        FileHandle.standardError.write(Data("unknown operation \(args[2])\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("library-driver: \(error)\n".utf8))
    exit(1)
}
