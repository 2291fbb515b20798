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
        version: Version.text,
        subcommands: [
            CravingCommand.self, UseCommand.self, LogCommand.self, ProgressCommand.self, ReportCommand.self,
            StatusCommand.self, HomeCommand.self, Record.self,
            RideCommand.self, TodayCommand.self, PlanCommand.self, WithdrawalCommand.self, ScreenCommand.self,
            LimitCommand.self,
            Play.self, RecordingsCommand.self, CheckInCommand.self, Import.self, Trim.self, Transcribe.self,
            Search.self, List.self, Top.self,
            Show.self, Edit.self, Delete.self, Purge.self, Export.self, Backup.self, Restore.self, Check.self,
            Devices.self, Doctor.self, Settings.self, PrivacyCommand.self, SyncCommand.self,
            Launch.self, DesktopCommand.self, NudgeCommand.self,
        ]
    )

    /// Parses and runs a subcommand; any failure is one line on stderr and a non-zero exit.
    static func main() {
        // Started by a desktop key, standard input, output and error may be closed: each is opened
        // on /dev/null first, so no file cravey opens (the library's database) takes their number.
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) < 0 { _ = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) }
        // In a window of its own (cravey launch), the last words stay until a key.
        LaunchFlow.holdWindowAtExit()
        // A change goes on to the sync folder on a thread of its own; however the command ends,
        // its words are out first, then it waits for that a moment at most (what is not written
        // by then waits in the library for the next push).
        Library.pushesOnTheirOwnThread.store(true, ordering: .relaxed)
        atexit {
            fflush(nil)
            Library.finishSyncPushes()
        }
        if let refusal = RawArguments.refusal() { Terminal.fail(refusal, code: ExitCode.validationFailure.rawValue) }
        let configuration = Configuration.current
        configuration.apply()
        Transcribing.configure(configuration)
        do {
            // A prompt runs `status` at every line: it skips the argument parser's reflection.
            if let status = StatusCommand.quickly(Array(CommandLine.arguments.dropFirst())) {
                try status()
                return Terminal.failUnlessOutputWritten()
            }
            var command = try parseAsRoot()
            NudgeCommand.answer(after: command)
            try command.run()
            if command is HomeCommand || command is Cravey { LaunchFlow.closesAtOnce.store(true, ordering: .relaxed) }
            for library in Transcribing.opened { library.journalProblem.map(Terminal.printNote) }
            Transcribing.afterCommand()
            Terminal.failUnlessOutputWritten()
        } catch {
            guard let problem = Problem.of(error) else {
                // --help and --version (their text on stdout, held to the same rule), or a command
                // that said what failed and chose its status.
                guard exitCode(for: error) == .success else {
                    StandardOutput.failure().map(Terminal.printNote)
                    exit(withError: error)
                }
                let text = fullMessage(for: error)
                if !text.isEmpty { print(text) }
                Terminal.failUnlessOutputWritten()
                Glibc.exit(0)
            }
            Terminal.fail(problem.message, code: problem.code)
        }
    }

    /// Bare `cravey`: the home screen on a terminal, else the help.
    mutating func run() throws {
        guard Terminal.stdinIsTerminal, Terminal.stdoutIsTerminal else { throw CleanExit.helpRequest(self) }
        try HomeCommand.parse([]).run()
    }
}

/// A failure the commands report themselves: a one-line message and an exit code.
struct CraveyFailure: Error {
    var message: String
    var code: Int32 = 1

    /// The exit code of input refused before anything was done (as the argument parser's own).
    static let refusedCode = ExitCode.validationFailure.rawValue
}
