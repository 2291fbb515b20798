import ArgumentParser
import CraveyLibrary
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension Cravey {
    /// `cravey export`: the library's metadata (not the media) as CSV or JSON.
    struct Export: ParsableCommand {
        enum FileFormat: String, ExpressibleByArgument, CaseIterable { case csv, json }

        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export the metadata of the recordings and check-ins (no media) to cravey_export_YYYY-MM-DD.csv or .json.")

        @OptionGroup var library: LibraryOptions

        @Option(help: "csv or json.")
        var format: FileFormat

        @Option(help: ArgumentHelp("Where to write (default: cravey_export_YYYY-MM-DD.<format> here; - for stdout).", valueName: "path"))
        var output: String?

        @Flag(help: "Replace the output file if it exists.")
        var force = false

        func run() throws {
            let opened = try library.open()
            let recordings = try opened.recordings(includingCheckIns: true)
            let transcripts = try opened.allTranscripts()
            let text = format == .csv ? RecordingExport.csv(recordings, transcripts: transcripts)
                : RecordingExport.jsonArray(recordings, transcripts: transcripts) + "\n"
            if output == "-" {
                print(text, terminator: "")
                return
            }
            let path = output ?? "cravey_export_\(Self.today()).\(format.rawValue)"
            try RecordingExport.write(Data(text.utf8), to: path, replacing: force)
            print("Exported \(recordings.count) recording\(recordings.count == 1 ? "" : "s") to \(Terminal.safe(path))")
        }

        /// Local date as YYYY-MM-DD.
        static func today() -> String {
            var now = time(nil)
            var parts = tm()
            localtime_r(&now, &parts)
            return String(format: "%04d-%02d-%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday)
        }
    }
}
