import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The fault-injection seam of the library's file and database steps.
///
/// Every step that can fail on a real machine (rename, fsync, unlink, mkdir, a commit) passes
/// through `hit(_:)` with a site name such as `save.rename.file`. Tests use it to make a chosen
/// step fail, or to SIGKILL the process at the Nth step, and then check that `recover` leaves
/// rows and files in agreement. With no configuration it does nothing but count.
///
/// Configured with the sites to fail, the step to be killed at, the sites that hang for a while
/// (a folder on a slow stick or a network mount that stops answering), and whether to print each
/// site to stderr as it is reached (test use only; the executable reads them from its environment).
public final class Faults: Sendable {
    private let failing: Set<String>
    private let killAt: Int?
    private let trace: Bool
    /// Seconds each of these sites waits before it goes on.
    private let hanging: [String: Double]
    /// The steps passed so far, in order.
    private let sites = Mutex<[String]>([])

    public init(failing: Set<String> = [], killAt: Int? = nil, trace: Bool = false, hanging: [String: Double] = [:]) {
        self.failing = failing
        self.killAt = killAt
        self.trace = trace
        self.hanging = hanging
    }

    /// No faults; the default for everything but tests.
    public static var none: Faults { Faults() }

    /// The sites reached so far, in order.
    public var reached: [String] { sites.withLock { $0 } }

    /// Passes a step too frequent to be counted (each second's fsync of a take): it only waits
    /// when configured to hang there, and is neither counted, traced nor failed.
    public func holdUp(_ site: String) {
        if let seconds = hanging[site] { Thread.sleep(forTimeInterval: seconds) }
    }

    /// Passes a step; throws `LibraryError.injectedFault` or kills the process if so configured.
    public func hit(_ site: String) throws {
        let count = sites.withLock { sites in
            sites.append(site)
            return sites.count
        }
        let (fail, kill) = (failing.contains(site), killAt == count)
        if trace { try? FileHandle.standardError.write(contentsOf: Data("fault-site \(site)\n".utf8)) }
        if kill { Glibc.kill(getpid(), SIGKILL) }
        if let seconds = hanging[site] { Thread.sleep(forTimeInterval: seconds) }
        if fail { throw LibraryError.injectedFault(site) }
    }
}
