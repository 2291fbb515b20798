import Foundation

extension DesktopProgram {
    /// Runs `executable` with `arguments` as `run` does (the person's environment without cravey's
    /// variables, none of cravey's files, its own process group) and keeps the lines it writes to
    /// its output; waits at most `seconds` (then it and what it started are killed). Its exit
    /// status and those lines, or nil when it could not start or did not end in time.
    public static func output(
        _ executable: String, _ arguments: [String], environment: [String: String], within seconds: Double = 20
    ) -> (status: Int32, output: String)? {
        let own = environment.filter { !$0.key.hasPrefix("CRAVEY_") }
        guard let helper = try? HelperProcess(executable: executable, arguments: arguments, environment: own) else {
            return nil
        }
        helper.closeInput()
        var lines: [String] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            switch try? helper.readLine(waiting: 100) {
            case let .line(line)?: lines.append(line)
            case .ended?:
                // Its output closed; it may still run (or hang): the same deadline holds.
                while !HelperProcess.hasEnded(helper.pid) && Date() < deadline { usleep(10_000) }
                guard HelperProcess.hasEnded(helper.pid) else { break }
                helper.wait()
                return helper.status.map { ($0, lines.joined(separator: "\n")) }
            case .waiting?: continue
            case nil:
                helper.kill()
                return nil
            }
        }
        helper.kill()
        return nil
    }
}

extension BackgroundProcess {
    /// Starts `executable` as `start` does and watches it for `seconds`: its exit status when it
    /// ended in that time (a program that refused its command line), or nil while it runs on (it
    /// is left to run, reaped when it ends). On a busy machine a program may not have run at all
    /// in `seconds`: it is watched on until it has had 50 ms of the processor, six times
    /// `seconds` at most, so that a refusal is not taken for a start only because it came late.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String], watching seconds: Double
    ) throws -> Int32? {
        let child = try HelperProcess.spawn(executable, arguments, environment, input: -1, output: -1, newSession: true)
        let started = Date()
        func watched() -> Bool {
            let elapsed = Date().timeIntervalSince(started)
            return elapsed >= seconds * 6 || (elapsed >= seconds && processorSeconds(child) >= 0.05)
        }
        while !HelperProcess.hasEnded(child) && !watched() { usleep(10_000) }
        guard HelperProcess.hasEnded(child) else {
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            }
            return nil
        }
        var raw: Int32 = 0
        while waitpid(child, &raw, 0) < 0 && errno == EINTR {}
        return raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }

    /// The processor time `pid` has had (user and system, from /proc), in seconds; 0 when it
    /// cannot be read.
    static func processorSeconds(_ pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return 0 }
        // After the name: the state is field 3, so utime (14) and stime (15) are the 12th and 13th.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
