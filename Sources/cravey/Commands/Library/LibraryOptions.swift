import ArgumentParser
import CraveyLibrary
import CraveyMessages
import CraveyTracker
import Foundation
import TerminalKit

/// `--library DIR`, shared by every command that touches the library.
struct LibraryOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The library directory (default: $CRAVEY_LIBRARY, else ${XDG_DATA_HOME:-~/.local/share}/cravey).",
            valueName: "dir"))
    var library: String?

    /// The library's directory, as chosen.
    var root: String { Self.root(library) }

    /// The library's directory for `--library` as typed (nil: not given). A default named by a
    /// variable that is not UTF-8 is refused in one line, before anything is made.
    static func root(_ library: String?) -> String {
        if let library { return Self.configuration.expandingTilde(library) }
        if let refusal = Self.configuration.defaultLibraryRefusal {
            Terminal.fail(refusal, code: ExitCode.validationFailure.rawValue)
        }
        return Self.configuration.defaultLibrary
    }

    /// This run's configuration: read here, where sessions are made, and handed on in them.
    static let configuration = Configuration.current

    /// Opens the library, telling the user on stderr about anything an interrupted run left that
    /// opening it finished.
    func open() throws -> Library { try open(holdingPutOff: false) }

    /// The library opened, with the devices chosen: what the command's screens and flows run on.
    func session(mic: String = "default", speaker: String = "default") throws -> Session {
        session(try open(), mic: mic, speaker: speaker)
    }

    /// A session on `library`, already opened from here.
    func session(_ library: Library, mic: String = "default", speaker: String = "default") -> Session {
        Session(library: library, root: root, mic: mic, speaker: speaker, configuration: Self.configuration)
    }

    /// Opens the library that is there already, for a command that reads it or changes what it
    /// holds: where there is none, one line says so and nothing is made.
    func openExisting() throws -> Library {
        guard let library = try existing() else { throw CraveyFailure(message: Self.noLibrary(root)) }
        return library
    }

    /// The library opened, or nil where there is none (nothing is made): for a listing whose
    /// honest answer is then its empty state.
    func existing() throws -> Library? { Library.exists(at: root) ? try open() : nil }

    /// The words for a command that needs a library where there is none.
    static func noLibrary(_ root: String) -> String {
        "there is no cravey library at \(Terminal.safe(root)) yet, so there is nothing to read or change there (nothing was made); your first craving, use or recording starts it"
    }

    /// Opens the library for a new log and runs `log` on it. The log comes first: on a full disk
    /// the library's reserve is given back if that lets the library open, and what opening it put
    /// off for a later run is said after the log, not before — and when the disk is too full to
    /// keep it, its one line is all that is said (a later run tries those steps again and says so).
    func logging(_ log: (Library) throws -> Void) throws {
        let library: Library
        do {
            library = try Library.opening(root, withReserve: { try open(holdingPutOff: true) })
        } catch  where Library.isDiskFull(error) {
            throw TrackerError.diskFull("\(error)")
        }
        let putOff = library.openingReport.lines(of: .deferred, repairCommand: nil)
        do {
            try log(library)
        } catch {
            if case TrackerError.diskFull = error { throw error }
            putOff.forEach(Terminal.printNote)
            throw error
        }
        putOff.forEach(Terminal.printNote)
    }

    private func open(holdingPutOff: Bool) throws -> Library {
        let root = self.root
        // Every library opened here can recover recordings a crash interrupted.
        let configuration = Self.configuration
        let opened = try Library(
            root: root, faults: configuration.faults(), lockWaitSeconds: configuration.lockWaitSeconds,
            media: RecordingRecovery.media,
            onLockWait: {
                Terminal.printNote("waiting for another cravey process to finish with the library…")
            })
        opened.syncWallClock = { LocalClock.now() }
        let report = opened.openingReport
        for line in report.lines(
            repairCommand: Cravey.Check.repairCommand, leavingOut: holdingPutOff ? [.deferred] : [])
        { Terminal.printNote(line) }
        if let problem = opened.privacyProblem { Terminal.printNote(problem) }
        Transcribing.noteOpened(
            opened,
            recovered: opened.openingReport.findings.contains {
                $0.kind == .recoveredRecording || $0.kind == .relisted
            })
        return opened
    }
}

/// `--json`, shared by every listing command.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print JSON instead of a table.")
    var json = false
}

/// `--title`, `--notes`, `--purpose`, `--for`: a recording's details, shared by `record`, `import`
/// and `edit`.
/// Free text takes the next argument whatever it starts with (`--notes "- a rough day"`).
struct DetailOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Title (1–40 characters; blank for 'Recording <date>').")
    var title: String?

    @Option(parsing: .unconditional, help: "Notes (at most 200 characters; blank for none).")
    var notes: String?

    @Option(help: "Purpose: motivational, milestone, reflection or craving.")
    var purpose: String?

    @Option(
        name: .customLong("for"),
        help: ArgumentHelp(
            "The triggers it is made for, comma-separated (e.g. anxious,bored; none for none): it is played first in a craving with one of them.",
            valueName: "triggers"))
    var forTriggers: String?

    var isEmpty: Bool { title == nil && notes == nil && purpose == nil && forTriggers == nil }

    /// The triggers given with `--for`, as the library keeps them (nil when not given).
    func triggerNames() throws -> [String]? {
        try forTriggers.map { text in
            let chosen = try LogInput.triggers([text])
            return Trigger.allCases.filter(chosen.contains).map(\.rawValue)
        }
    }

    /// The details of a new recording, checked before anything is recorded or copied.
    func draft() throws -> Library.Draft {
        Library.Draft(
            title: try title.map { try Validation.title($0, createdAt: LocalClock.now()) },
            notes: try Validation.notes(notes), purpose: try Validation.purpose(purpose),
            forTriggers: try triggerNames() ?? [])
    }
}
