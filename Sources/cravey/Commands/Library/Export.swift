import ArgumentParser
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

#if canImport(Glibc)
import Glibc
#endif

extension Cravey {
    /// `cravey export`: the library's metadata (not the media) as CSV or JSON.
    struct Export: ParsableCommand {
        enum FileFormat: String, ExpressibleByArgument, CaseIterable { case csv, json }

        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export every craving and use log and the recordings' metadata (no media) to cravey_export_YYYY-MM-DD.csv or .json.",
            discussion: """
                JSON is one object: {"cravings": [...], "usage": [...], "recordings": [...]}. CSV is one table \
                whose first column, record, says what each row is (craving, use or recording); the columns \
                after it are the union of theirs (a cell a row does not have is empty). Free text (titles, \
                notes) that a spreadsheet would run as a formula starts with an apostrophe.
                """)

        @OptionGroup var library: LibraryOptions

        @Option(help: "csv or json.")
        var format: FileFormat

        @Option(help: ArgumentHelp("Where to write (default: cravey_export_YYYY-MM-DD.<format> here; - for stdout).", valueName: "path"))
        var output: String?

        @Flag(help: "Replace the output file if it exists.")
        var force = false

        func run() throws {
            let (text, logs, recordings) = try Self.text(format, of: try library.open())
            if output == "-" {
                // Stored text may come from a restored backup or an older version: on a terminal it
                // is shown as every listing shows it; through a pipe it stays the data it is.
                print(Terminal.stdoutIsTerminal ? Terminal.safeLines(text) : text, terminator: "")
                return
            }
            let path = output ?? "cravey_export_\(Self.today()).\(format.rawValue)"
            try RecordingExport.write(Data(text.utf8), to: path, replacing: force, another: "choose another with --output", replace: "replace it with --force")
            let cravings = logs.filter { if case .craving = $0 { true } else { false } }.count
            print("Exported \(Self.count(cravings, "craving")), \(Self.count(logs.count - cravings, "usage log")) and "
                  + "\(Self.count(recordings.count, "recording")) to \(Terminal.safe(path))")
        }

        /// Everything exported, as `format`, with what it holds.
        static func text(_ format: FileFormat, of library: Library) throws -> (text: String, logs: [LogEntry], recordings: [Recording]) {
            let recordings = try library.recordings(includingCheckIns: true)
            let transcripts = try library.allTranscripts()
            let logs = try Tracker(library: library).entries()
            let text = format == .csv ? try csv(logs, recordings, transcripts) : try json(logs, recordings, transcripts)
            return (text, logs, recordings)
        }

        static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

        /// {"cravings": [...], "usage": [...], "recordings": [...]}: the logs through Encodable, the
        /// recordings through the listings' writer (which escapes the same characters).
        static func json(_ logs: [LogEntry], _ recordings: [Recording], _ transcripts: [UUID: Transcript]) throws -> String {
            let cravings = logs.compactMap { if case let .craving(c) = $0 { c } else { nil } }
            let uses = logs.compactMap { if case let .use(u) = $0 { u } else { nil } }
            func array<T: Encodable>(_ items: [T]) throws -> String {
                items.isEmpty ? "[]" : "[\n    " + (try items.map { String(decoding: try JSONText.data($0), as: UTF8.self) }).joined(separator: ",\n    ") + "\n  ]"
            }
            let listed = RecordingExport.jsonArray(recordings, transcripts: transcripts).replacingOccurrences(of: "\n", with: "\n  ")
            return "{\n  \"cravings\": \(try array(cravings)),\n  \"usage\": \(try array(uses)),\n  \"recordings\": \(listed)\n}\n"
        }

        /// One table: `record` (craving, use, recording), then the logs' columns, then the
        /// recordings' own.
        static func csv(_ logs: [LogEntry], _ recordings: [Recording], _ transcripts: [UUID: Transcript]) throws -> String {
            let recordingColumns = RecordingExport.columns + RecordingExport.transcriptColumns
            let header = ["record"] + LogExport.columns + recordingColumns.filter { !LogExport.columns.contains($0) }
            let recordingRows = recordings.map { recording -> [String: RecordingExport.Value] in
                var row = Dictionary(RecordingExport.values(recording, transcripts: transcripts).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
                row["record"] = .string("recording")
                return row
            }
            return RecordingExport.csv(header: header, rows: logs.map(LogExport.csvRow) + recordingRows)
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
