import ArgumentParser
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
            abstract: "Copy the whole library (database and recordings) to a directory, or check a copy with --verify.",
            discussion: """
                The directory can be on a USB disk, a mounted share or a synced folder. Each backup holds a \
                snapshot of the database and every recording's file; a file already there with the same SHA-256 \
                is not copied again; every file is fsynced and the manifest (cravey-backup.json, every file's \
                SHA-256) is written last, so an interrupted backup leaves the previous one whole, and the next \
                backup removes what it left. A directory holds one library's backup: a backup of another library \
                there is refused (--replace replaces it), and one backup writes into it at a time. Nothing in the \
                directory that cravey did not write is ever changed or deleted.
                """)

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: ArgumentHelp("The backup directory (created if missing).", valueName: "dir"))
        var directory: String

        @Flag(help: "Read every file of the backup at the directory again and check its SHA-256; change nothing.")
        var verify = false

        @Flag(help: "Replace the backup of another library that the directory holds with this library's.")
        var replace = false

        func run() throws {
            if verify && replace { throw CraveyFailure(message: "--verify changes nothing, so it takes no --replace") }
            let lib = try library.openExisting()
            if verify {
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
                return
            }
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
