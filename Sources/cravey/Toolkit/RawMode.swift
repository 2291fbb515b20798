import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The terminal in raw mode (keys arrive one by one, unechoed; Ctrl-C still signals) while any
/// `RawMode` is held. Holds nest: the terminal returns to its own settings when the last one is
/// released, when the process exits (exit() from a signal handler too), or when `restore()` is
/// called. Every change goes through one lock, so a signal handler's queue and a screen's thread
/// never race on the terminal's settings.
final class RawMode: @unchecked Sendable {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var saved: termios?
    nonisolated(unsafe) private static var holders = 0
    nonisolated(unsafe) private static var registered = false
    private var held = false

    /// Raw mode on standard input; nil when it is not a terminal.
    init?() {
        let ok = Self.lock.withLock { () -> Bool in
            if Self.holders == 0 {
                var attributes = termios()
                guard tcgetattr(STDIN_FILENO, &attributes) == 0 else { return false }
                Self.saved = attributes
                if !Self.registered {
                    Self.registered = true
                    atexit { RawMode.restore() }
                }
                var raw = attributes
                raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
                tcsetattr(STDIN_FILENO, TCSANOW, &raw)
            }
            Self.holders += 1
            return true
        }
        guard ok else { return nil }
        held = true
    }

    /// Gives this hold back (once; later calls do nothing).
    func release() {
        Self.lock.withLock {
            guard held else { return }
            held = false
            Self.holders = max(0, Self.holders - 1)
            if Self.holders == 0, var attributes = Self.saved {
                tcsetattr(STDIN_FILENO, TCSANOW, &attributes)
            }
        }
    }

    deinit { release() }

    /// Puts the terminal's own settings back now, whoever holds raw mode (on the way out).
    static func restore() {
        lock.withLock {
            guard holders > 0, var attributes = saved else { return }
            tcsetattr(STDIN_FILENO, TCSANOW, &attributes)
        }
    }
}
