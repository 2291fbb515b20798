import ArgumentParser
import CraveyLibrary
import Foundation

extension Cravey {
    /// `cravey search WORDS`: find messages and check-ins by what was said in them, their titles
    /// and their notes.
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "search",
            abstract: "Find recordings and check-ins by the words in their transcripts, titles and notes.",
            discussion: """
                Every word must appear (a word also finds longer ones it starts, and its forms: walk \
                finds walking). Best matches first: a title counts most, then notes, then the \
                transcript. Each result shows where it matched and, for a transcript, the time of the \
                first matching word: 'cravey play ID --from 0:42' starts there. Transcripts are \
                automatic drafts and may miss or mishear words.
                """)

        @OptionGroup var library: LibraryOptions

        @Argument(help: "The words to look for.")
        var words: [String]

        @Option(help: "At most this many results.")
        var limit: Int = 20

        @Flag(help: "Print the results as JSON.")
        var json = false

        func validate() throws {
            guard limit >= 1 else { throw ValidationError("--limit must be at least 1") }
        }

        func run() throws {
            let query = words.joined(separator: " ")
            let hits = try library.open().search(query, limit: limit)
            if json {
                print(Self.json(hits))
                return
            }
            guard !hits.isEmpty else {
                print("Nothing matches '\(Terminal.safe(query))'.")
                return
            }
            for hit in hits {
                let r = hit.recording
                let what = r.checkIn.map { "check-in \($0.day)" } ?? r.shownTitle
                let at = hit.time.map { " at " + Format.clock($0) } ?? ""
                print("\(Format.icon(r.kind)) \(r.id.uuidString.prefix(8))  \(Terminal.bold(Terminal.safe(what)))\(at)  \(Terminal.dim(Validation.displayDate(r.createdAt)))")
                print("   \(hit.field.rawValue): " + Self.highlighted(hit))
            }
        }

        /// The snippet with its matched words marked: reverse video on a colour terminal, else
        /// [brackets].
        static func highlighted(_ hit: SearchHit) -> String {
            var out = ""
            var position = hit.snippet.startIndex
            for match in hit.matches {
                out += Terminal.safe(String(hit.snippet[position..<match.lowerBound]))
                out += (Terminal.useColor ? "\u{1B}[7m" : "[") + Terminal.safe(String(hit.snippet[match]))
                    + (Terminal.useColor ? "\u{1B}[27m" : "]")
                position = match.upperBound
            }
            return out + Terminal.safe(String(hit.snippet[position...]))
        }

        /// [{id, title, kind, checkinDay, createdAt, field, snippet, match, at}]: `snippet` plain,
        /// `match` the words matched in it, `at` the first matching word's time (null if none).
        static func json(_ hits: [SearchHit]) -> String {
            let objects = hits.map { hit -> String in
                let r = hit.recording
                let fields: [(String, String)] = [
                    ("id", RecordingExport.jsonString(r.id.uuidString)),
                    ("title", RecordingExport.jsonString(r.title)),
                    ("kind", RecordingExport.jsonString(r.kind.rawValue)),
                    ("checkinDay", r.checkIn.map { RecordingExport.jsonString($0.day) } ?? "null"),
                    ("createdAt", RecordingExport.jsonString(RecordingExport.isoDate(r.createdAt))),
                    ("field", RecordingExport.jsonString(hit.field.rawValue)),
                    ("snippet", RecordingExport.jsonString(hit.snippet)),
                    ("match", "[" + hit.matchedWords.map(RecordingExport.jsonString).joined(separator: ",") + "]"),
                    ("at", hit.time.map { String(format: "%.2f", $0) } ?? "null"),
                ]
                return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
            }
            return objects.isEmpty ? "[]" : "[\n  " + objects.joined(separator: ",\n  ") + "\n]"
        }
    }
}
