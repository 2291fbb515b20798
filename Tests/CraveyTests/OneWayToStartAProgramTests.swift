import CraveyTestSupport
import Foundation
import XCTest

/// cravey starts another program one way: `HelperProcess.spawn` (posix_spawn with none of
/// cravey's open files, a clean signal state, its own process group or session), under the three
/// uses built on it — a data helper with a private home (`HelperProcess`), a program of the
/// person's desktop waited for a while at most (`DesktopProgram`), and cravey's own worker
/// detached in the background (`BackgroundProcess`). No other file of the sources starts one.
final class OneWayToStartAProgramTests: XCTestCase {
    static let theOneWay = "Sources/CraveyMedia/HelperProcess.swift"

    /// What starts a program: Foundation's Process, the C library's spawn, fork, exec and shell
    /// calls (a call, not a function or case of that name, such as `MediaError.system(…)`).
    static let starts =
        #"Foundation\.Process\b|\bProcess\(\)|(?<![.\w])(fork|vfork|execv|execve|execvp|execl|execlp|popen|system|posix_spawnp?)\s*\("#

    func testNoSourceButTheHelperStartsAProgram() throws {
        let root = repositoryRoot + "/Sources"
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: root)).compactMap { $0 as? String }
            .filter { file in [".swift", ".c", ".h"].contains { file.hasSuffix($0) } }
        XCTAssertGreaterThan(files.count, 50, "the sources are read")
        var found: [String] = []
        for file in files where "Sources/" + file != Self.theOneWay {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for (number, line) in text.components(separatedBy: "\n").enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") || code.hasPrefix("///") || code.hasPrefix("*") { continue }
                if code.range(of: #"\b(func|case)\s+\w+\("#, options: .regularExpression) != nil { continue }
                if code.range(of: Self.starts, options: .regularExpression) != nil {
                    found.append("Sources/\(file):\(number + 1): \(code)")
                }
            }
        }
        XCTAssertEqual(found, [], "start programs through HelperProcess.spawn (\(Self.theOneWay))")
        let helper = try String(contentsOfFile: repositoryRoot + "/" + Self.theOneWay, encoding: .utf8)
        XCTAssertEqual(
            helper.components(separatedBy: "posix_spawn(&").count - 1, 1, "the helper spawns in one place")
    }
}
