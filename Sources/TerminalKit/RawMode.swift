import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal in raw mode (keys arrive one by one, unechoed; Ctrl-C still signals) while any
/// `RawMode` is held. Holds nest: the terminal returns to its own settings when the last one is
/// released, when the process exits (exit() from a signal handler too), or when `restore()` is
/// called. Every change goes through one lock, so a signal handler's queue and a screen's thread
/// never race on the terminal's settings.
package final class RawMode: Sendable {
    /// The terminal's own settings, how many holds there are, and whether `restore` runs at exit.
    private struct TerminalState {
        var saved: termios?
        var holders = 0
        var registered = false
    }
    private static let terminal = Mutex(TerminalState())
    private let held = Atomic(false)

    /// Raw mode on standard input; nil when it is not a terminal.
    package init?() {
        let ok = Self.terminal.withLock { terminal -> Bool in
            if terminal.holders == 0 {
                var attributes = termios()
                guard tcgetattr(STDIN_FILENO, &attributes) == 0 else { return false }
                terminal.saved = attributes
                if !terminal.registered {
                    terminal.registered = true
                    atexit { RawMode.restore() }
                }
                var raw = attributes
                raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
                tcsetattr(STDIN_FILENO, TCSANOW, &raw)
            }
            terminal.holders += 1
            return true
        }
        guard ok else { return nil }
        held.store(true, ordering: .relaxed)
    }

    /// Gives this hold back (once; later calls do nothing).
    package func release() {
        Self.terminal.withLock { terminal in
            guard held.exchange(false, ordering: .relaxed) else { return }
            terminal.holders = max(0, terminal.holders - 1)
            if terminal.holders == 0, var attributes = terminal.saved {
                tcsetattr(STDIN_FILENO, TCSANOW, &attributes)
            }
        }
    }

    deinit { release() }

    /// Puts the terminal's own settings back now, whoever holds raw mode (on the way out).
    package static func restore() {
        terminal.withLock { terminal in
            guard terminal.holders > 0, var attributes = terminal.saved else { return }
            tcsetattr(STDIN_FILENO, TCSANOW, &attributes)
        }
    }
}
