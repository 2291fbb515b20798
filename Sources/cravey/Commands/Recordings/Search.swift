import ArgumentParser
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

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
            let lib = try library.openExisting()
            let hits = try lib.search(query, limit: limit)
            let logHits = try Tracker(library: lib).search(query, limit: limit)
            if json {
                try JSONOutput.print(
                    hits.map { AnyFound.recording(Found($0)) } + logHits.map { AnyFound.log(LogFound($0)) })
                return
            }
            guard !hits.isEmpty || !logHits.isEmpty else {
                print("Nothing matches '\(Terminal.safe(query))'.")
                return
            }
            for hit in hits {
                let r = hit.recording
                let what = r.checkIn.map { "check-in \($0.day)" } ?? r.shownTitle
                let at = hit.time.map { " at " + Format.start($0) } ?? ""
                print(
                    "\(Format.icon(r.kind)) \(r.id.uuidString.prefix(8))  \(Terminal.bold(Terminal.safe(what)))\(at)  \(Terminal.dim(Validation.displayDate(r.createdAt)))"
                )
                print("   \(hit.field.rawValue): " + Self.highlighted(hit.snippet, hit.matches))
            }
            for hit in logHits {
                let kind = if case .craving = hit.entry { "craving" } else { "use" }
                print("📝 \(hit.entry.id.uuidString.prefix(8))  \(Terminal.bold(kind)) \(hit.entry.time.localText)")
                print("   notes: " + Self.highlighted(hit.snippet, hit.matches))
            }
        }

        /// The snippet with its matched words marked: reverse video on a colour terminal, else
        /// [brackets].
        static func highlighted(_ snippet: String, _ matches: [Range<String.Index>]) -> String {
            var out = ""
            var position = snippet.startIndex
            for match in matches {
                out += Terminal.safe(String(snippet[position..<match.lowerBound]))
                out +=
                    (Terminal.useColor ? "\u{1B}[7m" : "[") + Terminal.safe(String(snippet[match]))
                    + (Terminal.useColor ? "\u{1B}[27m" : "]")
                position = match.upperBound
            }
            return out + Terminal.safe(String(snippet[position...]))
        }

        /// A hit in a recording or in a log's notes, as JSON: each says its `record`.
        enum AnyFound: Encodable {
            case recording(Found), log(LogFound)

            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: JSONKey.self)
                switch self {
                case let .recording(found):
                    try found.encode(to: encoder)
                    try container.encode("recording", forKey: JSONKey("record"))
                case let .log(found):
                    try found.encode(to: encoder)
                }
            }
        }

        /// {record: craving|use, id, localTime, at, snippet, match}.
        struct LogFound: Encodable {
            var record, id, localTime, at, snippet: String
            var match: [String]

            init(_ hit: Tracker.Hit) {
                record = if case .craving = hit.entry { "craving" } else { "use" }
                (id, localTime) = (hit.entry.id.uuidString, hit.entry.time.localText)
                at = RecordingExport.isoDate(hit.entry.time.instant)
                snippet = hit.snippet
                match = hit.matches.map { String(hit.snippet[$0]) }
            }
        }

        /// {id, title, kind, checkinDay, createdAt, field, snippet, match, at}: `snippet` plain,
        /// `match` the words matched in it, `at` the first matching word's time (null if none).
        struct Found: Encodable {
            var id, title, kind, createdAt, field, snippet: String
            var checkinDay: String?
            var match: [String]
            var at: Double?

            init(_ hit: SearchHit) {
                let r = hit.recording
                (id, title, kind, createdAt) = (
                    r.id.uuidString, r.title, r.kind.rawValue, RecordingExport.isoDate(r.createdAt)
                )
                (field, snippet, checkinDay, match) = (
                    hit.field.rawValue, hit.snippet, r.checkIn?.day, hit.matchedWords
                )
                at = hit.time.map { ($0 * 100).rounded() / 100 }
            }

            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: JSONKey.self)
                for (key, value) in [
                    ("id", id), ("title", title), ("kind", kind), ("createdAt", createdAt), ("field", field),
                    ("snippet", snippet),
                ] {
                    try container.encode(value, forKey: JSONKey(key))
                }
                try container.encode(checkinDay, forKey: JSONKey("checkinDay"))
                try container.encode(match, forKey: JSONKey("match"))
                try container.encode(at, forKey: JSONKey("at"))
            }
        }
    }
}
