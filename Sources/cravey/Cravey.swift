import ArgumentParser
import CraveyLibrary
import CraveyMedia
import CraveyMessages
import CraveyTracker
import Foundation
import TerminalKit

/// The root command: private cannabis tracking and support.
@main
struct Cravey: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cravey",
        abstract:
            "Private cannabis tracking and support: log cravings and use in seconds, see your progress, and record short messages to your future self to play in a hard moment.",
        discussion: """
            'cravey' alone on a terminal opens the home screen. Everything stays on this machine, in a private library (default \
            ${XDG_DATA_HOME:-~/.local/share}/cravey; --library DIR or CRAVEY_LIBRARY to choose another).
            """,
        version: "0.1.0 (build \(buildCommit))",
        subcommands: [
            CravingCommand.self, UseCommand.self, LogCommand.self, ProgressCommand.self, ReportCommand.self,
            StatusCommand.self, HomeCommand.self, Record.self,
            RideCommand.self,
            Play.self, RecordingsCommand.self, CheckInCommand.self, Import.self, Trim.self, Transcribe.self,
            Search.self, List.self, Top.self,
            Show.self, Edit.self, Delete.self, Purge.self, Export.self, Backup.self, Restore.self, Check.self,
            Devices.self, Doctor.self, Settings.self, PrivacyCommand.self,
        ]
    )

    /// Parses and runs a subcommand; any failure is one line on stderr and a non-zero exit.
    static func main() {
        if let refusal = RawArguments.refusal() { Terminal.fail(refusal, code: ExitCode.validationFailure.rawValue) }
        Configuration.current.apply()
        do {
            // A prompt runs `status` at every line: it skips the argument parser's reflection.
            if let status = StatusCommand.quickly(Array(CommandLine.arguments.dropFirst())) { return try status() }
            var command = try parseAsRoot()
            try command.run()
            for library in Transcribing.opened { library.journalProblem.map(Terminal.printNote) }
            Transcribing.afterCommand()
        } catch {
            guard let problem = problem(error) else { exit(withError: error) }  // --help, --version
            Terminal.fail(problem.message, code: problem.code)
        }
    }

    /// Bare `cravey`: the home screen on a terminal, else the help.
    mutating func run() throws {
        guard Terminal.stdinIsTerminal, Terminal.stdoutIsTerminal else { throw CleanExit.helpRequest(self) }
        try HomeCommand.parse([]).run()
    }

    /// A failure as one line and an exit code; nil for what is not one (--help, --version).
    static func problem(_ error: Error) -> (message: String, code: Int32)? {
        switch error {
        case let error as LibraryError:
            if case .missingFile = error { return (error.description + " (run '\(Check.repairCommand)')", 1) }
            if case let .notEmpty(root, holds) = error {
                return (
                    LibraryError.notEmpty(
                        root, holds: holds, emptyLibrary: "point --library or CRAVEY_LIBRARY at a new directory"), 1
                )
            }
            return (error.description, 1)
        case let error as MediaError: return (error.description, 1)
        case let error as TrackerError:
            if case let .notACraving(key) = error {
                return ("invalid --after-craving: \(TrackerError.reason(notACraving: key))", 1)
            }
            return (error.description, 1)
        case let error as MissingLibrary: return (error.description, 1)
        case let error as CraveyFailure: return (error.message, error.code)
        // A command that said what failed and chose its exit status: nothing more to say.
        case is ExitCode: return nil
        default:
            let code = exitCode(for: error)
            if code == .success || error is CleanExit { return nil }
            return (
                Cravey.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)", code.rawValue
            )
        }
    }
}

/// A failure the commands report themselves: a one-line message and an exit code.
struct CraveyFailure: Error {
    var message: String
    var code: Int32 = 1
}
