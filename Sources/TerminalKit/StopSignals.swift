import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The one place signals are turned into events: Ctrl-C (SIGINT), SIGTERM and SIGHUP ask to
/// stop, and SIGUSR1, where a screen can pause, asks to pause or resume. The handlers run on a
/// dispatch queue, never inside a signal handler, so they may take locks and write. While a
/// `StopSignals` is alive the signals do not kill the process; `cancel` gives them back.
package final class StopSignals: Sendable {
    private struct State {
        var sources: [DispatchSourceSignal] = []
        var stopped = false
    }
    private let state = Mutex(State())
    /// Where the handlers run: a serial queue of their own, which always gets a thread (the
    /// shared pool's few threads may all be busy or blocked on a loaded machine, and a stop must
    /// never wait for them).
    private static let queue = DispatchQueue(label: "stop-signals")

    /// `onStop` hears the signal's number; `onPause` (when given) hears SIGUSR1.
    package init(onStop: @escaping @Sendable (Int32) -> Void = { _ in }, onPause: (@Sendable () -> Void)? = nil) {
        var list: [(Int32, @Sendable () -> Void)] = [SIGINT, SIGTERM, SIGHUP].map { signo in
            (
                signo,
                { [weak self] in
                    self?.state.withLock { $0.stopped = true }
                    onStop(signo)
                }
            )
        }
        if let onPause { list.append((SIGUSR1, onPause)) }
        // A source listens only once the dispatch manager has registered it, a moment after it is
        // resumed: a signal sent in that moment (a Ctrl-C typed as the screen is drawn) would go
        // to the listeners before it alone, or nowhere. So listening begins when each one says it
        // is registered (the handler runs on the signal queue, never this one's caller).
        let registered = DispatchGroup()
        // Made inside the lock, so the sources never leave the state that owns them.
        state.withLock { state in
            state.sources = list.map { signo, handler in
                // Ignored until the source's own handler is in place; a handler already there (the
                // dispatch source's, from an earlier or an enclosing `StopSignals`) is left as it
                // is, since ignoring the signal again would lose it for every source.
                var current = sigaction()
                if sigaction(signo, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil {
                    signal(signo, SIG_IGN)
                }
                let source = DispatchSource.makeSignalSource(signal: signo, queue: Self.queue)
                source.setEventHandler(handler: handler)
                registered.enter()
                source.setRegistrationHandler { registered.leave() }
                source.resume()
                return source
            }
        }
        _ = registered.wait(timeout: .now() + .seconds(2))
    }

    /// Whether a stop signal has come.
    package var stopRequested: Bool { state.withLock { $0.stopped } }

    /// Stops listening; the signals act as before again.
    package func cancel() {
        let taken = state.withLock { state -> [DispatchSourceSignal] in
            defer { state.sources = [] }
            return state.sources
        }
        for source in taken { source.cancel() }
    }

    deinit { cancel() }
}
