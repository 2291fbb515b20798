import ArgumentParser
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey export`: the library's metadata (not the media) as CSV or JSON.
    struct Export: ParsableCommand {
        typealias FileFormat = LibraryExport.Format

        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract:
                "Export every craving and use log and the recordings' metadata (no media) to cravey_export_YYYY-MM-DD.csv (or .json).",
            discussion: """
                JSON is one object: {"cravings": [...], "usage": [...], "recordings": [...]}. CSV is one table \
                whose first column, record, says what each row is (craving, use or recording); the columns \
                after it are the union of theirs (a cell a row does not have is empty). Free text (titles, \
                notes) that a spreadsheet would run as a formula starts with an apostrophe. When today's export \
                is already here, a second one gets a numbered name (cravey_export_YYYY-MM-DD_2.csv); --force \
                replaces it instead.
                """)

        @OptionGroup var library: LibraryOptions

        @Option(help: "csv (the default) or json.")
        var format: FileFormat = .csv

        @Option(
            help: ArgumentHelp(
                "Where to write (default: cravey_export_YYYY-MM-DD.<format> here, numbered when it exists; - for stdout).",
                valueName: "path"))
        var output: String?

        @Flag(help: "Replace the output file (or today's export) if it exists.")
        var force = false

        func run() throws {
            let lib = try library.openExisting()
            let tracker = Tracker(library: lib)
            // Ten years of logs are written as they are read, a block at a time.
            func forEachLog(_ cravings: Bool, _ uses: Bool, _ body: (LogEntry) throws -> Void) throws {
                try tracker.forEachEntry(cravings: cravings, uses: uses, body)
            }
            // JSON straight from the rows: the same bytes, without a model per log.
            let logObjects: LibraryExport.LogObjects = { cravings, body in
                try tracker.forEachLogJSON(.export, cravings: cravings, uses: !cravings, body)
            }
            if output == "-" {
                // Stored text may come from a restored backup or an older version: on a terminal it
                // is shown as every listing shows it; through a pipe it stays the data it is.
                if Terminal.stdoutIsTerminal {
                    print(Terminal.safeLines(try LibraryExport(format, of: lib).text), terminator: "")
                } else {
                    _ = try LibraryExport.write(
                        format, of: lib, logColumns: LogExport.columns, forEachLog: forEachLog, logObjects: logObjects,
                        to: { StandardOutput.write($0) })
                }
                return
            }
            let path = output ?? (force ? LibraryExport.fileName(format) : LibraryExport.unusedPath(in: "", format))
            let export = try LibraryExport.write(
                format, of: lib, logColumns: LogExport.columns, forEachLog: forEachLog, logObjects: logObjects,
                to: path, replacing: force,
                another: "choose another with --output", replace: "replace it with --force")
            print(
                "Exported \(Format.count(export.cravings, "craving")), \(Format.count(export.usageLogs, "usage log")) and "
                    + "\(Format.count(export.recordings, "recording")) to \(Terminal.safe(path))")
        }
    }
}

extension LibraryExport.Format: ExpressibleByArgument {}

extension LibraryExport {
    /// The export of everything in `library`: its recordings and the tracker's logs.
    init(_ format: Format, of library: Library) throws {
        try self.init(
            format, of: library, logs: { try Tracker(library: library).entries() }, logColumns: LogExport.columns)
    }
}
