import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A helper program cravey runs and talks to through two pipes (its stdin and stdout; its stderr
/// goes nowhere). It gets none of cravey's other open files, a clean signal state and its own
/// process group (Ctrl-C at the terminal is cravey's to handle, not the helper's), and it is
/// killed and reaped when this object goes. A data helper (`privateFolder`) also gets a home of
/// its own — HOME, the XDG folders, its cache and TMPDIR in a fresh 0700 folder — which is
/// removed with it; its whole process group is killed when it ends, so no descendant stays.
final class HelperProcess {
    let pid: pid_t
    private var input: Int32
    private let output: Int32
    private var pending: [UInt8] = []
    /// The data helper's own folder (removed once it has ended).
    private(set) var folder: HelperFolder?

    /// What waiting for a line gave.
    enum Read: Equatable {
        case line(String)
        /// Nothing yet within the wait.
        case waiting
        /// The helper closed its output: it ended.
        case ended
    }

    init(executable: String, arguments: [String], environment: [String: String], privateFolder: Bool = false) throws {
        var environment = environment
        let folder = privateFolder ? try HelperFolder.make() : nil
        if let folder { environment.merge(folder.environment) { $1 } }
        var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0 else {
            folder?.remove()
            throw HelperError("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0]); close(toChild[1])
            folder?.remove()
            throw HelperError("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        // cravey's own ends stay cravey's (no later child gets them).
        for fd in [toChild[1], fromChild[0]] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        defer { close(toChild[0]); close(fromChild[1]) }
        let child: pid_t
        do {
            child = try Self.spawn(
                executable, arguments, environment, input: toChild[0], output: fromChild[1], newSession: false)
        } catch {
            close(toChild[1]); close(fromChild[0])
            folder?.remove()
            throw error
        }
        pid = child
        input = toChild[1]
        output = fromChild[0]
        self.folder = folder
        if let folder { HelperFolder.live.withLock { $0[child] = folder } }
    }

    deinit {
        kill()
        if input >= 0 { close(input) }
        close(output)
    }

    /// Starts `executable` with `input` and `output` as its stdin and stdout (-1: /dev/null), its
    /// stderr to /dev/null, none of cravey's other descriptors, no blocked or caught signals, and
    /// either its own process group or (`newSession`) its own session, detached from the terminal.
    /// The one way cravey starts another program: a data helper with a private home (this class),
    /// a desktop program waited for a while at most (`DesktopProgram`) and cravey's own worker in
    /// the background (`BackgroundProcess`) are all started here.
    static func spawn(
        _ executable: String, _ arguments: [String], _ environment: [String: String],
        input: Int32, output: Int32, newSession: Bool
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input >= 0 {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if output >= 0 {
            posix_spawn_file_actions_adddup2(&actions, output, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else of cravey's crosses over (the library's database, its lock, the devices):
        // every other descriptor open now is closed in the child.
        let open =
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
        for fd in open.sorted() where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if newSession {
            // glibc's POSIX_SPAWN_SETSID (a GNU extension Swift does not see): setsid() in the child.
            flags |= 0x80
        } else {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw HelperError("cannot start \(executable): \(String(cString: strerror(result)))") }
        return child
    }

    /// Writes all of `bytes` to the helper's input. A helper that ended is an error, never a
    /// SIGPIPE that would end cravey: the signal is held back for this thread while it writes.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var pipeSignal = sigset_t(), previous = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            // A SIGPIPE this write raised is taken off before the mask is restored.
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var zero = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &zero)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(input, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw HelperError(
                    errno == EPIPE
                        ? "the helper ended" : "cannot write to the helper: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// Ends the helper's input (it then finishes and exits by itself).
    func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// The next line the helper writes, waiting at most `milliseconds` for it.
    func readLine(waiting milliseconds: Int32) throws -> Read {
        if let line = takeLine() { return .line(line) }
        var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, milliseconds)
        if ready < 0 {
            if errno == EINTR { return .waiting }
            throw HelperError("cannot read from the helper: \(String(cString: strerror(errno)))")
        }
        if ready == 0 { return .waiting }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { return .waiting }
            throw HelperError("cannot read from the helper: \(String(cString: strerror(errno)))")
        }
        if count == 0 {
            if let line = takeLine() { return .line(line) }
            return .ended
        }
        pending += chunk[0..<count]
        return takeLine().map(Read.line) ?? .waiting
    }

    private func takeLine() -> String? {
        guard let newline = pending.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        return line
    }

    private var reaped = false
    /// How the helper ended, once it has: its exit status, or 128 + the signal that ended it.
    private(set) var status: Int32?

    /// Kills the helper and everything it started (if they still run) and reaps it.
    func kill() {
        guard !reaped else { return }
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
        wait()
    }

    /// Ends the helper's input and lets it exit by itself; killed if it has not within `seconds`.
    func finish(within seconds: Double) {
        closeInput()
        let deadline = Date().addingTimeInterval(seconds)
        while !reaped && Date() < deadline {
            if Self.hasEnded(pid) { return wait() }
            usleep(10_000)
        }
        kill()
    }

    /// Waits for the helper to end and reaps it, with whatever of its process group is left
    /// (killed first: nothing it started outlives it), then removes its folder.
    func wait() {
        guard !reaped else { return }
        // Ended but not yet reaped, its process group still exists: its stragglers are killed by it.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        _ = Glibc.kill(-pid, SIGKILL)
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        reaped(raw)
    }

    /// Whether `pid` (a child) has ended; it is left to be reaped.
    static func hasEnded(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
        return result < 0 ? errno != EINTR : info._sifields._sigchld.si_pid == pid
    }

    /// Notes the helper as reaped with waitpid's `raw` status (WIFEXITED / WEXITSTATUS / WTERMSIG,
    /// which Swift does not import: they are macros), and removes its folder.
    private func reaped(_ raw: Int32) {
        reaped = true
        status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        if let folder {
            HelperFolder.live.withLock { _ = $0.removeValue(forKey: pid) }
            folder.remove()
            self.folder = nil
        }
    }
}

/// A program started to act on the person's desktop (systemctl, gsettings): the person's own
/// environment without anything of cravey's (no CRAVEY_ variables), none of cravey's open files,
/// no pipes, its own process group. cravey waits for it, a while at most.
public enum DesktopProgram {
    /// Runs `executable` with `arguments` and waits at most `seconds` for it (then it and what it
    /// started are killed); its exit status, or nil when it could not start or was killed.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], within seconds: Double = 20
    ) -> Int32? {
        let own = environment.filter { !$0.key.hasPrefix("CRAVEY_") }
        guard
            let child = try? HelperProcess.spawn(
                executable, arguments, own, input: -1, output: -1, newSession: false)
        else { return nil }
        let deadline = Date().addingTimeInterval(seconds)
        while !HelperProcess.hasEnded(child) && Date() < deadline { usleep(5_000) }
        let ended = HelperProcess.hasEnded(child)
        _ = kill(-child, SIGKILL)
        var raw: Int32 = 0
        while waitpid(child, &raw, 0) < 0 && errno == EINTR {}
        return ended && raw & 0x7f == 0 ? (raw >> 8) & 0xff : nil
    }
}

/// A program of cravey's own started in the background: its own session (no terminal, so closing
/// the terminal does not stop it), no pipes, nothing of cravey's open. cravey does not wait for it.
public enum BackgroundProcess {
    /// Starts `executable` with `arguments` and `environment`; returns its process id.
    public static func start(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> Int32
    {
        let child = try HelperProcess.spawn(executable, arguments, environment, input: -1, output: -1, newSession: true)
        // Reaped by a thread of its own if cravey lives on (no zombie); else init takes it.
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        }
        return child
    }
}

/// A helper program could not be run or talked to.
struct HelperError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
