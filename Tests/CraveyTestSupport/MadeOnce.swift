import Foundation

/// The fixtures this test process made, by key: a folder of its own, removed as the process exits.
private let madeFolder: String = {
    let folder = FileManager.default.temporaryDirectory.path + "/cravey-fixtures-\(getpid())"
    try? FileManager.default.removeItem(atPath: folder)
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: madeFolder) }
    return folder
}()
private let madeLock = NSLock()

/// Makes `path` with `make` the first time `key` is asked for in this test process, and copies
/// that first file after — with the files beside it whose extensions `companions` names (`json`:
/// `x.json` beside `x.wav`). For fixtures a program makes the same each time (flite, sox): the
/// emulated machine of the VM rig takes seconds for each run of them.
public func madeOnce(key: String, _ path: String, companions: [String] = [], _ make: (String) throws -> Void) throws {
    madeLock.lock()
    defer { madeLock.unlock() }
    let ext = (path as NSString).pathExtension
    let kept = madeFolder + "/" + key + (ext.isEmpty ? "" : "." + ext)
    let keptStem = (kept as NSString).deletingPathExtension, stem = (path as NSString).deletingPathExtension
    let files = [(kept, path)] + companions.map { (keptStem + "." + $0, stem + "." + $0) }
    if !files.allSatisfy({ FileManager.default.fileExists(atPath: $0.0) }) {
        for (made, _) in files { try? FileManager.default.removeItem(atPath: made) }
        try make(kept)
    }
    for (made, copy) in files {
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: made, toPath: copy)
    }
}
