import CraveyLibrary
import CraveyMedia
import CraveyMessages
import Foundation
import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

/// The background transcript worker: a cravey process of its own (`cravey transcribe --worker`)
/// that makes the queued transcripts one at a time, oldest first, and exits when the queue is
/// empty. Started detached after a save (its own session: closing the terminal does not stop it),
/// at low priority (nice 10, the idle I/O class). One per library: a second one finds the
/// worker's lock taken and exits at once. It holds the library's lock only while it stores a
/// finished transcript, so it never blocks a change; a recording deleted meanwhile wins (its
/// transcript is dropped). Killed, or the machine powered off, it leaves the job queued: nothing
/// is stored half-made, and the next cravey command starts a worker again.
enum TranscriptWorker {
    /// Starts a worker for `library` if transcripts wait and none runs. Never fails the command
    /// that asks: a worker that cannot start leaves the queue for the next command.
    static func start(for library: Library) {
        guard TranscriptQueue.wantsWorker(library) else { return }
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return
        }
        // The fault seams are for the command under test, never for the worker it starts.
        let environment = Transcribing.configuration.environment.filter { !$0.key.hasPrefix("CRAVEY_FAULT_") }
        var command = [executable, "transcribe", "--worker", "--library", library.root]
        // Low priority: the idle I/O class and nice 10 (util-linux's ionice and coreutils' nice,
        // on every Debian system; without them the worker runs at the normal priority).
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/ionice")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/nice")
        {
            command = ["/usr/bin/ionice", "-c", "3", "/usr/bin/nice", "-n", "10"] + command
        }
        _ = try? BackgroundProcess.start(command[0], Array(command.dropFirst()), environment: environment)
    }

    /// The worker itself: makes every queued transcript, then exits. Returns at once when another
    /// worker runs. Stopped by a signal, it ends its engine's helper (with the helper's private
    /// folder) before it goes; the job it was on stays queued.
    static func run(_ library: Library) throws {
        let signals = StopSignals(onStop: { signal in
            DataHelpers.endAll()
            _exit(128 + signal)
        })
        defer { signals.cancel() }
        try TranscriptQueue.work(library, engines: Transcribing.configuration.engines())
    }
}
