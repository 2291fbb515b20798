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
    /// is left to run, reaped when it ends).
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String], watching seconds: Double
    ) throws -> Int32? {
        let child = try HelperProcess.spawn(executable, arguments, environment, input: -1, output: -1, newSession: true)
        let deadline = Date().addingTimeInterval(seconds)
        while !HelperProcess.hasEnded(child) && Date() < deadline { usleep(10_000) }
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
}
