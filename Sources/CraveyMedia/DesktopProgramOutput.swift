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
