import Foundation

/// A process that holds the library in `root` (its lock file, exclusively) for up to 30 seconds,
/// as another cravey would: logs made meanwhile wait for the library. It is held in the holder's
/// own process, so that ending it (`terminate`, then `waitUntilExit`) lets the library go.
public func holdLibraryLock(root: String) throws -> Process {
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    holder.arguments = [
        "-c",
        "import fcntl, os, sys, time\nf = os.open(sys.argv[1], os.O_RDWR)\nfcntl.flock(f, fcntl.LOCK_EX)\ntime.sleep(30)",
        root + "/library.lock",
    ]
    try holder.run()
    usleep(300_000)
    return holder
}
