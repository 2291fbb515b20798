import CraveyLibrary
import Foundation

/// The transcript queue's rules: what a save queues and in which order, when a worker is wanted,
/// whether a transcript is on its way, and the worker's round. Starting the worker's process is
/// the executable's.
public enum TranscriptQueue {
    /// After a save: the saved recording's transcript first (made again with `redo`, a trim),
    /// then every other the library is still waiting for (skipped, failed, or recovered ones),
    /// queued in that order. Returns the queue (empty: nothing waits).
    public static func queue(after saved: Recording?, redo: Bool = false, in library: Library) -> [Recording] {
        let waiting = (try? library.recordingsNeedingTranscripts()) ?? []
        let first = redo ? [saved].compactMap { $0 } : waiting.filter { $0.id == saved?.id }
        let queue = first + waiting.filter { $0.id != saved?.id }
        guard !queue.isEmpty else { return [] }
        try? library.queueTranscripts(queue.map(\.id))
        return queue
    }

    /// Whether a worker should start for `library`: transcripts wait and none runs.
    public static func wantsWorker(_ library: Library) -> Bool {
        !library.transcriptWorkerRuns && ((try? library.transcriptQueue().count) ?? 0) > 0
    }

    /// Whether the recording's transcript is on its way: queued, with a worker to make it (one
    /// runs, or the background worker is how transcripts are made). Otherwise a queued one waits
    /// for a transcribe command and is "not made yet".
    public static func onItsWay(_ id: UUID, in library: Library, timing: Transcriber.Timing) -> Bool {
        workerComing(library, timing) && ((try? library.isTranscriptQueued(id)) ?? false)
    }

    /// The recordings whose transcripts are on their way.
    public static func onItsWay(in library: Library, timing: Transcriber.Timing) -> Set<UUID> {
        workerComing(library, timing) ? (try? library.queuedTranscriptIds()) ?? [] : []
    }

    private static func workerComing(_ library: Library, _ timing: Transcriber.Timing) -> Bool {
        timing == .background || library.transcriptWorkerRuns
    }

    /// The worker's round: makes every queued transcript, oldest first, each once (one that fails
    /// stays failed until it is queued again), then returns. Returns at once when another worker
    /// holds the library's worker lock.
    public static func work(_ library: Library, engines: Transcriber.Engines) throws {
        var lock: AnyObject? = try library.takeTranscriptWorkerLock()
        guard lock != nil else { return }
        var transcribers: [Transcriber.Engine?: Transcriber] = [:]
        defer { transcribers.values.forEach { $0.finish() } }
        var tried = Set<UUID>()
        while true {
            guard let job = try library.queuedTranscripts().first(where: { !tried.contains($0.recording.id) }) else {
                // Queued just as this worker found nothing: a new command's worker saw this one
                // still holding the lock and left. Take it on, unless another worker has.
                lock = nil
                guard try library.queuedTranscripts().contains(where: { !tried.contains($0.recording.id) }),
                    let again = try library.takeTranscriptWorkerLock()
                else { return }
                lock = again
                continue
            }
            tried.insert(job.recording.id)
            let engine = job.engine.flatMap(Transcriber.Engine.init(rawValue:))
            let transcriber = transcribers[engine] ?? Transcriber(library: library, engine: engine, engines: engines)
            transcribers[engine] = transcriber
            _ = transcriber.transcribe(job.recording)
        }
    }
}
