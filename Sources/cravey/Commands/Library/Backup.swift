import ArgumentParser
import CraveyDesktop
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey backup DIR`: a complete, consistent, verifiable copy of the library in a directory;
    /// `--verify` reads every file of it again.
    struct Backup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "backup",
            abstract:
                "Copy the whole library (database and recordings) to a directory, check a copy with --verify, or keep one current with --every day.",
            discussion: """
                The directory can be on a USB disk, a mounted share or a synced folder. Each backup holds a \
                snapshot of the database and every recording's file; a file already there with the same SHA-256 \
                is not copied again; every file is fsynced and the manifest (cravey-backup.json, every file's \
                SHA-256) is written last, so an interrupted backup leaves the previous one whole, and the next \
                backup removes what it left. A directory holds one library's backup: a backup of another library \
                there is refused (--replace replaces it), and one backup writes into it at a time. Nothing in the \
                directory that cravey did not write is ever changed or deleted. \
                --every day DIR makes a backup now, then one every day at 12:30 (a systemd user timer, \
                cravey-backup.timer; a day the computer is off then, at its next start); a day the directory is \
                not there (a disk not plugged in), no backup is made and none is created in its place. \
                --every off removes the timer; --every status says whether it is on and how old the newest backup is.
                """)

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: ArgumentHelp("The backup directory (created if missing).", valueName: "dir"))
        var directory: String?

        @Flag(help: "Read every file of the backup at the directory again and check its SHA-256; change nothing.")
        var verify = false

        @Flag(help: "Replace the backup of another library that the directory holds with this library's.")
        var replace = false

        @Option(
            help: ArgumentHelp(
                "day: a backup to the directory now and every day (a systemd user timer); off: no more; status: whether it is on, and how old the newest backup is.",
                valueName: "day|off|status"))
        var every: String?

        /// What the daily timer runs: a backup into a directory that must be there already.
        @Flag(help: .hidden)
        var scheduled = false

        func validate() throws {
            if let every, !["day", "off", "status"].contains(every) {
                throw ValidationError(
                    "'\(Terminal.safe(String(every.prefix(20))))' is not how often: give --every day DIR, --every off or --every status"
                )
            }
            if scheduled && (every != nil || verify || replace) {
                throw ValidationError("--scheduled is what the daily timer runs, with a directory alone")
            }
            switch every {
            case "day"?:
                if verify { throw ValidationError("--every day makes backups; check one with --verify on its own") }
                if output.json {
                    throw ValidationError("--every day says what it did in words; --json goes with --every status")
                }
                if directory == nil { throw ValidationError("give the directory to back up to: --every day DIR") }
            case let other?:
                if directory != nil || verify || replace {
                    throw ValidationError("--every \(other) takes no directory, --verify or --replace")
                }
            case nil:
                if directory == nil {
                    throw ValidationError(
                        "give the directory to back up to (or --every day DIR, --every off, --every status)")
                }
            }
        }

        func run() throws {
            switch every {
            case "day"?: return try everyDay(directory!)
            case "off"?:
                let removed = try NudgeFlow.unitFailureSaid { try Self.units.remove() }
                print(
                    removed
                        ? "The daily backup is off. The backups made stay where they are."
                        : "There was no daily backup.")
                return
            case "status"?:
                let status = BackupFlow.status(
                    try library.existing(), root: library.root, units: Self.units, now: LocalClock.now())
                if output.json { return try JSONOutput.print(status) }
                return Self.lines(status).forEach { print($0) }
            default: break
            }
            let directory = directory!
            if verify && replace { throw CraveyFailure(message: "--verify changes nothing, so it takes no --replace") }
            if scheduled {
                // Where the library is not there yet, there is nothing to keep.
                guard let lib = try library.existing() else {
                    return print("There is no library at \(Terminal.safe(library.root)) yet; nothing to back up.")
                }
                // A disk not plugged in is no place to make a new backup folder (its mount point
                // would get it): the first backup made the directory, so it must be there.
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory),
                    isDirectory.boolValue
                else {
                    throw CraveyFailure(
                        message:
                            "the backup directory \(Terminal.safe(directory)) is not there (a disk not plugged in?), so no backup was made today; the next run tries again"
                    )
                }
                // A disk not plugged in may leave its mount point, empty, on the disk under it:
                // the first backup left its mark in the directory, so one without it is not the
                // disk. Skipped quietly, one line for the journal.
                guard Library.holdsBackupMark(directory) else {
                    return Terminal.printNote(
                        "the backup directory \(directory) holds no backup (a disk not plugged in, its empty mount point left?), so no backup was made today; the next run tries again, and 'cravey backup \(directory)' makes one there now if it is the place"
                    )
                }
                return try backUp(lib, to: directory)
            }
            let lib = try library.openExisting()
            if verify { return try self.verify(lib, at: directory) }
            try backUp(lib, to: directory)
        }

        /// This person's daily backup units.
        static var units: BackupUnits { BackupFlow.units(LibraryOptions.configuration.environment) }

        /// A backup now, then the timer: a library path, directory or executable a unit cannot
        /// hold is refused before either.
        func everyDay(_ directory: String) throws {
            let units = Self.units
            let (root, folder) = (NudgeFlow.absolute(library.root), NudgeFlow.absolute(directory))
            let executable = UserTimer.executablePath()
            try NudgeFlow.unitFailureSaid {
                try BackupUnits.refuseWhatAUnitCannotHold(executable: executable, library: root, folder: folder)
            }
            let lib = try library.openExisting()
            try backUp(lib, to: folder)
            try NudgeFlow.unitFailureSaid { try units.install(executable: executable, library: root, to: folder) }
            let at = UserTimer.clock(BackupUnits.time.hour, BackupUnits.time.minute)
            switch units.activate() {
            case .started:
                print(
                    "From now on, a new backup there every day at \(at) (a day the computer is off then, at its next start)."
                )
            case let .noUserManager(why):
                print(
                    "From your next login, a new backup there every day at \(at) (the timer is installed and enabled; \(why))."
                )
            }
        }

        /// `--verify`: every file of the backup read again and checked.
        func verify(_ lib: Library, at directory: String) throws {
            let (manifest, problems, bytes) = try lib.verifyBackup(at: directory)
            let count = manifest.files.count + 1
            if output.json {
                struct Result: Encodable {
                    var ok: Bool; var files: Int; var bytes: Int64; var createdAt: String; var problems: [String]
                }
                try JSONOutput.print(
                    Result(
                        ok: problems.isEmpty, files: count, bytes: bytes, createdAt: manifest.createdAt,
                        problems: problems))
            } else if problems.isEmpty {
                print(
                    "The backup at \(directory) is whole: \(count) files (\(Self.size(bytes))) match their SHA-256 (backed up \(Self.when(manifest.createdAt)))."
                )
            } else {
                for problem in problems { Terminal.printNote(problem) }
                Terminal.printNote(
                    "the backup at \(directory) is damaged: \(problems.count) of \(count) files do not match; make a new one with 'cravey backup \(directory)'"
                )
            }
            if !problems.isEmpty { throw ExitCode(1) }
        }

        /// One backup, said: what `backup DIR`, `--every day` and the daily timer all run.
        func backUp(_ lib: Library, to directory: String) throws {
            let result = try lib.backUp(to: directory, replacing: replace, now: LocalClock.now())
            if output.json {
                struct Result: Encodable {
                    var directory: String; var recordings: Int; var logs: Int; var copied: Int; var copiedBytes: Int64
                    var unchanged: Int; var removed: Int; var database: String
                }
                try JSONOutput.print(
                    Result(
                        directory: result.directory, recordings: result.recordings, logs: result.logs,
                        copied: result.copied,
                        copiedBytes: result.copiedBytes, unchanged: result.unchanged, removed: result.removed,
                        database: result.manifest.database.path))
            } else {
                print(
                    "Backed up \(Format.count(result.recordings, "recording")), \(Format.count(result.logs, "log")) and the database to \(result.directory): "
                        + "the database and \(result.copied) new or changed file\(result.copied == 1 ? "" : "s") copied (\(Self.size(result.copiedBytes))), "
                        + "\(result.unchanged) already there"
                        + (result.removed > 0 ? ", \(result.removed) of the last backup's removed" : "") + ".")
                print("Check it any time with: cravey backup --verify \(result.directory)")
            }
        }

        /// What `--every status` says in lines.
        static func lines(_ status: BackupFlow.Status) -> [String] {
            var lines: [String] = []
            if status.on, let directory = status.directory {
                lines.append(
                    "Daily backup: on, every day at \(status.time ?? "") to \(Terminal.safe(directory)) (a systemd user timer; a day the computer is off then, at its next start)."
                )
                if status.forAnotherLibrary, let library = status.library {
                    lines.append("It backs up the library at \(Terminal.safe(library)), not this one.")
                }
            } else {
                lines.append("Daily backup: off. Turn it on with: cravey backup --every day DIR")
            }
            if let newest = status.newest {
                lines.append(
                    "Newest backup: \(when(newest.at)) (\(ago(newest.days))) to \(Terminal.safe(newest.directory)).")
                if status.old {
                    lines.append(
                        "That is more than \(BackupFlow.oldAfterDays) days old; 'cravey backup \(Terminal.safe(newest.directory))' makes one now."
                    )
                }
            } else {
                lines.append("Newest backup: none yet.")
            }
            return lines
        }

        static func ago(_ days: Int) -> String { days == 0 ? "today" : days == 1 ? "1 day ago" : "\(days) days ago" }

        static func size(_ bytes: Int64) -> String {
            ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)
        }

        static func when(_ stored: String) -> String {
            guard let date = StoredDate.date(stored) else { return stored }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            return formatter.string(from: date)
        }
    }

    /// `cravey restore DIR`: a backup into an empty library, every file checked first.
    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Restore a backup made by 'cravey backup' into an empty library.",
            discussion: """
                Every file's SHA-256 is checked before anything is written; a damaged backup, or a library that \
                is not empty, is refused and nothing changes. Restore into a new library with --library DIR.
                """)

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: ArgumentHelp("The backup directory.", valueName: "dir"))
        var directory: String

        func run() throws {
            try Library.refuseWhatIsNoBackup(directory)  // before a library is made to restore into
            let lib = try library.open()
            let result = try lib.restore(from: directory, checkLogs: Tracker.problems(inDatabaseAt:))
            if output.json {
                struct Result: Encodable { var recordings: Int; var logs: Int; var files: Int; var backedUpAt: String }
                try JSONOutput.print(
                    Result(
                        recordings: result.recordings, logs: result.logs, files: result.files,
                        backedUpAt: result.backedUpAt))
            } else {
                print(
                    "Restored \(Format.count(result.recordings, "recording")), \(Format.count(result.logs, "log")) and the check-ins and settings "
                        + "from \(Terminal.safe(directory)) (backed up \(Backup.when(result.backedUpAt))) into \(lib.root)."
                )
            }
        }
    }
}
