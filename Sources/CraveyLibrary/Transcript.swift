import Foundation

/// A recording's transcript: an automatic draft made by a speech recognizer after the save, with
/// each word's time, or the note that it could not be made.
public struct Transcript: Sendable, Equatable {
    /// One word and where it is in the recording, in seconds.
    public struct Word: Sendable, Equatable {
        public var text: String
        public var start: Double
        public var end: Double

        public init(text: String, start: Double, end: Double) {
            self.text = text
            self.start = start
            self.end = end
        }
    }

    public enum State: String, Sendable {
        /// Made: text and words (both empty when nothing was said).
        case done
        /// The recognizer failed; `problem` says why. It is tried again later.
        case unavailable
    }

    public var recordingId: UUID
    public var state: State
    /// A line per stretch of speech between pauses.
    public var text: String
    public var words: [Word]
    public var engine: String
    public var model: String
    public var madeAt: Date
    public var problem: String?

    public init(
        recordingId: UUID, state: State, text: String, words: [Word], engine: String, model: String,
        madeAt: Date = Date(), problem: String? = nil
    ) {
        self.recordingId = recordingId
        self.state = state
        self.text = text
        self.words = words
        self.engine = engine
        self.model = model
        self.madeAt = madeAt.truncatedToMilliseconds
        self.problem = problem
    }

    /// The time of the first word one of `terms` finds (the way search matches words), if any.
    public func firstTime(of terms: [String]) -> Double? { Self.firstTime(of: terms, in: words) }

    static func firstTime(of terms: [String], in words: [Word]) -> Double? {
        words.first { word in terms.contains { SearchTerms.matches(word.text, $0) } }?.start
    }

    /// The words as stored and exported: JSON [[word, start, end], ...], times to the millisecond.
    public var wordsJSON: String {
        "["
            + words.map {
                "[\(RecordingExport.jsonString($0.text)),\(Self.milliseconds($0.start)),\(Self.milliseconds($0.end))]"
            }
            .joined(separator: ",") + "]"
    }

    static func milliseconds(_ seconds: Double) -> String { String(format: "%.3f", seconds) }

    /// Words read back from `wordsJSON`; what does not parse is left out.
    static func words(fromJSON json: String) -> [Word] {
        guard let items = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[Any]] else { return [] }
        return items.compactMap { item in
            guard item.count == 3, let text = item[0] as? String,
                let start = item[1] as? Double ?? (item[1] as? Int).map(Double.init),
                let end = item[2] as? Double ?? (item[2] as? Int).map(Double.init)
            else { return nil }
            return Word(text: text, start: start, end: end)
        }
    }
}

/// How `cravey search` reads what the user typed, and how it finds the same words in a transcript.
public enum SearchTerms {
    /// The words of a query: letters, digits and apostrophes, lower-cased.
    public static func words(_ query: String) -> [String] {
        query.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "'") }.map(String.init)
    }

    /// The FTS5 query for `words`: every word must appear, each as a quoted string (so nothing
    /// the user types is taken as query syntax), also as the start of a longer word.
    package static func ftsQuery(_ words: [String]) -> String {
        words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "") + "\"*" }.joined(separator: " ")
    }

    /// Whether a transcript word is one a search term finds: the same word, one it starts, or
    /// the same word with a common ending (walk, walks, walked, walking).
    public static func matches(_ word: String, _ term: String) -> Bool {
        let word = word.lowercased(), term = term.lowercased()
        if word.hasPrefix(term) { return true }
        return stem(word) == stem(term)
    }

    private static func stem(_ word: String) -> String {
        for suffix in ["ing", "ed", "es", "s", "ly"] where word.count > suffix.count + 2 && word.hasSuffix(suffix) {
            return String(word.dropLast(suffix.count))
        }
        return word
    }
}

/// A recording a search found: where it matched, a snippet around the match, and the time of
/// the first matching word in its transcript (nil when the match is in the title or notes only).
public struct SearchHit: Sendable {
    /// Where the words matched.
    public enum Field: String, Sendable, Codable {
        case title, notes, transcript
    }

    public var recording: Recording
    public var field: Field
    /// The text around the match, on one line.
    public var snippet: String
    /// Where the matched words are in `snippet`.
    public var matches: [Range<String.Index>]
    /// The first matching spoken word's time, seconds (nil: none in the transcript).
    public var time: Double?

    public init(recording: Recording, field: Field, snippet: String, matches: [Range<String.Index>], time: Double?) {
        self.recording = recording
        self.field = field
        self.snippet = snippet
        self.matches = matches
        self.time = time
    }

    /// The matched words, in order.
    public var matchedWords: [String] { matches.map { String(snippet[$0]) } }

    /// The marks SQLite's snippet() puts around a matched word (characters no stored text can
    /// hold); read back into `matches` and never handed out.
    package static let markStart: Character = "\u{1}", markEnd: Character = "\u{2}"

    /// A marked snippet read into its plain text and the ranges of its marked words.
    package static func unmarked(_ marked: String) -> (String, [Range<String.Index>]) {
        var plain = ""
        var matches: [Range<String.Index>] = []
        var start: String.Index?
        for character in marked {
            switch character {
            case markStart: start = plain.endIndex
            case markEnd:
                if let from = start { matches.append(from..<plain.endIndex) }
                start = nil
            case "\n": plain.append(" ")
            default: plain.append(character)
            }
        }
        // Indices taken while building are valid in the finished string (appends only).
        return (plain, matches)
    }
}
