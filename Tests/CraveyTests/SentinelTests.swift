import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The sentinel home and the network namespace, seen from a running cravey: its HOME and XDG
/// folders are the sentinel's, and (as root) its network is a namespace of its own with no
/// interface up; a file left in the sentinel is named by the check.
final class SentinelTests: CommandTestCase {
    /// A cravey that waits (home, on a terminal in tmux), its process id once it is cravey itself.
    func runningCravey() throws -> (TmuxSession, pid_t) {
        let pidFile = base + "/pid"
        let inner =
            "echo $$ > \(shellQuote(pidFile)); exec env NO_COLOR=1 CRAVEY_TRANSCRIBE=later CRAVEY_LIBRARY=\(shellQuote(root)) \(shellQuote(cravey))"
        let tmux = try TmuxSession("sh -c \(shellQuote(inner)); sleep 30")
        let built = (productPath("cravey") as NSString).resolvingSymlinksInPath
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == built,
                // The program is named before its exec has laid out the environment (read empty till then).
                ((try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ")))?.isEmpty == false)
            {
                return (tmux, pid)
            }
            usleep(50_000)
        }
        tmux.close()
        throw NSError(domain: "sentinel", code: 1, userInfo: [NSLocalizedDescriptionKey: "cravey did not start"])
    }

    func testARunningCraveyHasTheSentinelHomeAndNoNetwork() throws {
        let (tmux, pid) = try runningCravey()
        defer { tmux.close() }
        let raw = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
        let variables = Dictionary(
            raw.split(separator: 0).compactMap { entry -> (String, String)? in
                let text = String(decoding: entry, as: UTF8.self)
                guard let equals = text.firstIndex(of: "=") else { return nil }
                return (String(text[..<equals]), String(text[text.index(after: equals)...]))
            }, uniquingKeysWith: { $1 })
        let sentinel = try XCTUnwrap(Sentinel.folder)
        for name in ["HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"]
        {
            XCTAssertTrue(variables[name]?.hasPrefix(sentinel) == true, "\(name)=\(variables[name] ?? "unset")")
        }
        XCTAssertNil(variables["DBUS_SESSION_BUS_ADDRESS"])
        guard geteuid() == 0 else { return }
        let own = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/net")
        let its = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/net")
        XCTAssertNotEqual(its, own, "cravey runs in a network namespace of its own")
        let links = try String(contentsOfFile: "/proc/\(pid)/net/dev", encoding: .utf8)
            .split(separator: "\n").dropFirst(2).map {
                $0.split(separator: ":")[0].trimmingCharacters(in: .whitespaces)
            }
        XCTAssertEqual(links, ["lo"], "only a loopback")
        let route = try String(contentsOfFile: "/proc/\(pid)/net/route", encoding: .utf8)
        XCTAssertLessThanOrEqual(
            route.split(separator: "\n").count, 1, "no route anywhere (a header at most): \(route)")
    }

    /// Between tests the variables are back as they were: the real home handed to a build is
    /// never a sentinel of an earlier test (nor this one's).
    func testTheRealHomeIsNoSentinel() throws {
        let real = Sentinel.realHome
        XCTAssertNotNil(real["HOME"])
        for (variable, value) in real where variable != "XDG_RUNTIME_DIR" {
            XCTAssertFalse(value.contains("cravey-sentinel-"), "\(variable)=\(value)")
        }
    }

    /// What a command leaves in the sentinel is seen, by name; only what the test allows passes.
    func testAFileLeftInTheSentinelIsNamed() throws {
        let sentinel = try XCTUnwrap(Sentinel.folder)
        XCTAssertEqual(Sentinel.unexpected(), [])
        let result = try runProcess(
            "/bin/sh", ["-c", "mkdir -p \"$XDG_CONFIG_HOME/left\" && echo x > \"$XDG_CONFIG_HOME/left/behind\""])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: sentinel + "/.config/left/behind"))
        XCTAssertEqual(Sentinel.unexpected(), [".config/", ".config/left/", ".config/left/behind"])
        Sentinel.allow([".config/left/behind"])
        XCTAssertEqual(Sentinel.unexpected(), [])
    }
}
