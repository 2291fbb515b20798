import ArgumentParser
import CraveyLibrary
import CraveyMedia
import CraveyMessages
import CraveyTracker
import Foundation

/// The root command: short audio and video messages to your future self.
@main
struct Cravey: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cravey",
        abstract: "Record short audio and video messages to your future self, and play them back when you need them.",
        discussion: """
            Everything stays on this machine, in a private library (default \
            ${XDG_DATA_HOME:-~/.local/share}/cravey; --library DIR or CRAVEY_LIBRARY to choose another).
            """,
        version: "0.1.0",
        subcommands: [CravingCommand.self, UseCommand.self, LogCommand.self, ProgressCommand.self, Record.self, Play.self, CheckInCommand.self, Import.self, Trim.self, Transcribe.self, Search.self, List.self, Top.self, Show.self, Edit.self, Delete.self, Purge.self, Export.self, Check.self, Devices.self, Doctor.self, Settings.self]
    )

    /// Parses and runs a subcommand; any failure is one line on stderr and a non-zero exit.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
            Transcribing.afterCommand()
        } catch let error as LibraryError {
            if case .missingFile = error { Terminal.fail(error.description + " (run '\(Check.repairCommand)')") }
            Terminal.fail(error.description)
        } catch let error as MediaError {
            Terminal.fail(error.description)
        } catch let error as TrackerError {
            Terminal.fail(error.description)
        } catch let error as MissingLibrary {
            Terminal.fail(error.description)
        } catch let error as CraveyFailure {
            Terminal.fail(error.message, code: error.code)
        } catch {
            let code = exitCode(for: error)
            if code == .success || error is CleanExit {
                exit(withError: error)  // --help, --version
            }
            let message = Cravey.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            Terminal.fail(message, code: code.rawValue)
        }
    }
}

/// A failure the commands report themselves: a one-line message and an exit code.
struct CraveyFailure: Error {
    var message: String
    var code: Int32 = 1
}
