import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The one place signals are turned into events: Ctrl-C (SIGINT), SIGTERM and SIGHUP ask to
/// stop, and SIGUSR1, where a screen can pause, asks to pause or resume. The handlers run on a
/// dispatch queue, never inside a signal handler, so they may take locks and write. While a
/// `StopSignals` is alive the signals do not kill the process; `cancel` gives them back.
final class StopSignals: @unchecked Sendable {
    private let lock = NSLock()
    private var sources: [DispatchSourceSignal] = []
    private var stopped = false

    /// `onStop` hears the signal's number; `onPause` (when given) hears SIGUSR1.
    init(onStop: @escaping @Sendable (Int32) -> Void = { _ in }, onPause: (@Sendable () -> Void)? = nil) {
        var list: [(Int32, @Sendable () -> Void)] = [SIGINT, SIGTERM, SIGHUP].map { signo in
            (signo, { [weak self] in
                self?.lock.withLock { self?.stopped = true }
                onStop(signo)
            })
        }
        if let onPause { list.append((SIGUSR1, onPause)) }
        for (signo, handler) in list {
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            sources.append(source)
        }
    }

    /// Whether a stop signal has come.
    var stopRequested: Bool { lock.withLock { stopped } }

    /// Stops listening; the signals act as before again.
    func cancel() {
        let taken = lock.withLock { () -> [DispatchSourceSignal] in
            defer { sources = [] }
            return sources
        }
        for source in taken { source.cancel() }
    }

    deinit { cancel() }
}
