import Foundation
import TerminalKit
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The one stop signal: a screen that has just begun listening hears a Ctrl-C sent the moment it
/// is drawn, however briefly the screen before it listened, and whether or not one still does.
final class StopSignalsTests: XCTestCase {
    /// A signal sent as soon as the listener exists, many times over, each alone and each with an
    /// enclosing listener alive: never lost.
    func testASignalRightAfterListeningBeganIsHeard() {
        let enclosing = StopSignals()
        defer { enclosing.cancel() }
        var lost = 0
        for round in 0..<400 {
            let inner = round.isMultiple(of: 2) ? nil : StopSignals()
            let signals = StopSignals()
            kill(getpid(), SIGHUP)
            let deadline = Date().addingTimeInterval(2)
            while !signals.stopRequested && Date() < deadline { usleep(1_000) }
            if !signals.stopRequested { lost += 1 }
            signals.cancel()
            inner?.cancel()
        }
        XCTAssertEqual(lost, 0, "signals sent at once and never heard, of 400")
    }
}
