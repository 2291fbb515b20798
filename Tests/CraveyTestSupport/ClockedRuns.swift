#if canImport(XCTest)
    import Foundation
    import XCTest

    /// Runs of the built `cravey` on a clock of the test's choosing (`CRAVEY_NOW`), in UTC and
    /// without colour, on the test's library: through a pipe, or in tmux at a size.
    extension CommandTestCase {
        /// The environment of a clocked run at `now` (an ISO time such as 2026-11-20T12:00:00).
        public func clocked(_ now: String) -> [String: String] {
            ["NO_COLOR": "1", "TZ": "UTC", "CRAVEY_TRANSCRIBE": "later", "CRAVEY_NOW": now]
        }

        /// `cravey` with `arguments` at `now` without a terminal; its status held to `status`
        /// unless nil.
        @discardableResult
        public func runClocked(
            _ arguments: [String], now: String, status: Int32? = 0, file: StaticString = #filePath, line: UInt = #line
        ) throws -> (status: Int32, stdout: String, stderr: String) {
            let result = try runProcess(cravey, arguments + ["--library", root], environment: clocked(now))
            if let status {
                XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)", file: file, line: line)
            }
            return result
        }

        /// `cravey` with `arguments` in tmux at a size and at `now`, the library `root`; the
        /// window stays a minute after it ends, its status shown as `EXIT=`.
        public func tmuxClocked(_ arguments: String, now: String, width: Int, height: Int) throws -> TmuxSession {
            try TmuxSession(
                "cd \(shellQuote(base)) && env NO_COLOR=1 TZ=UTC CRAVEY_NOW=\(now) CRAVEY_TRANSCRIBE=later "
                    + "ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) CRAVEY_LIBRARY=\(shellQuote(root)) "
                    + "\(shellQuote(cravey)) \(arguments); echo EXIT=$?; sleep 60", width: width, height: height)
        }

        /// The library past its first run, as Skip tour leaves it (home opens on itself).
        public func pastFirstRun() throws {
            let welcomed = try runProcess(
                "/usr/bin/sqlite3",
                [
                    root + "/library.sqlite",
                    "INSERT INTO setting (key, value) VALUES ('welcomed', '2026-11-20T08:00:00.000Z')",
                ])
            XCTAssertEqual(welcomed.status, 0, welcomed.stderr)
        }
    }
#endif
