#if canImport(XCTest)
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #endif

    extension BackgroundTestCase {
        /// A stand-in for xdg-terminal-exec, in a folder of the test's own to put first on PATH
        /// (the folder is returned): it writes its arguments to `terminal.args` and its
        /// environment to `terminal.env` in the test's folder, as a window opened would be given them.
        public func standInTerminalExec() throws -> String {
            let folder = base + "/bin"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try """
            #!/bin/sh
            printf '%s\\n' "$@" > \(shellQuote(base + "/terminal.args"))
            /usr/bin/env > \(shellQuote(base + "/terminal.env"))

            """.write(toFile: folder + "/xdg-terminal-exec", atomically: true, encoding: .utf8)
            chmod(folder + "/xdg-terminal-exec", 0o755)
            return folder
        }
    }
#endif
