import FoundationEssentials
import Glibc

/// What a recording's file says of itself, in its container's tags: enough to list it again, as it
/// was, when the database is lost and no snapshot holds it. `title` and `comment` (the notes) are
/// what any player shows; `date` is when it was recorded; `cravey` holds the whole description as
/// JSON (the fields below). Written at save, import, trim and edit, and again when a transcript is
/// made (see `Library.writePendingTags`).
public struct FileDescription: Codable, Sendable, Equatable {
    /// The description's format; a reader skips fields it does not know.
    public var format = 1
    public var id: UUID
    public var kind: Recording.Kind
    public var title: String
    public var notes: String?
    public var purpose: Recording.Purpose?
    public var createdAt: String
    public var modifiedAt: String
    public var checkIn: CheckInPart?
    public var transcript: TranscriptPart?
    /// The triggers the message was made for (absent when none).
    public var forTriggers: [String]?

    public struct CheckInPart: Codable, Sendable, Equatable {
        public var day: String
        public var mood: CheckIn.Mood
        public var question: String?
    }

    public struct TranscriptPart: Codable, Sendable, Equatable {
        public var text: String
        /// Each word with its start and end, in seconds.
        public var words: [WordPart]
        public var engine: String
        public var model: String
        public var madeAt: String
    }

    public struct WordPart: Codable, Sendable, Equatable {
        public var w: String
        public var s: Double
        public var e: Double
    }

    /// The tag names.
    public static let titleTag = "title", notesTag = "comment", dateTag = "date", descriptionTag = "cravey"

    /// A row's description, with its transcript when one was made.
    public init(_ recording: Recording, transcript: Transcript?) {
        id = recording.id
        kind = recording.kind
        title = recording.title
        notes = recording.notes
        purpose = recording.purpose
        createdAt = StoredDate.text(recording.createdAt)
        modifiedAt = StoredDate.text(recording.modifiedAt)
        checkIn = recording.checkIn.map { CheckInPart(day: $0.day, mood: $0.mood, question: $0.prompt) }
        forTriggers = recording.forTriggers.isEmpty ? nil : recording.forTriggers
        if let transcript, transcript.state == .done {
            self.transcript = TranscriptPart(
                text: transcript.text,
                words: transcript.words.map {
                    WordPart(w: $0.text, s: ($0.start * 1000).rounded() / 1000, e: ($0.end * 1000).rounded() / 1000)
                },
                engine: transcript.engine, model: transcript.model, madeAt: StoredDate.text(transcript.madeAt))
        }
    }

    /// The tags that carry it (a file's tags are replaced by these).
    public var tags: [(key: String, value: String)] {
        var tags: [(key: String, value: String)] = [(Self.titleTag, title)]
        if let notes { tags.append((Self.notesTag, notes)) }
        tags.append((Self.dateTag, createdAt))
        tags.append((Self.descriptionTag, json))
        return tags
    }

    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// A description read back from its tag; nil when it is not one (or not for `id`).
    public init?(json: String, for id: UUID) {
        guard let decoded = try? JSONDecoder().decode(Self.self, from: Data(json.utf8)), decoded.id == id,
            StoredDate.date(decoded.createdAt) != nil, StoredDate.date(decoded.modifiedAt) != nil
        else { return nil }
        self = decoded
    }

    /// The recording it describes, over the facts read from the file itself (length, media).
    func recording(over found: Recording) -> Recording {
        var recording = found
        recording.title = title
        recording.notes = notes
        recording.purpose = purpose
        recording.createdAt = StoredDate.date(createdAt) ?? found.createdAt
        recording.modifiedAt = StoredDate.date(modifiedAt) ?? found.modifiedAt
        recording.checkIn = checkIn.map { CheckIn(day: $0.day, mood: $0.mood, prompt: $0.question) }
        recording.forTriggers = forTriggers ?? []
        return recording
    }

    /// The transcript it carries.
    func storedTranscript() -> Transcript? {
        guard let transcript else { return nil }
        return Transcript(
            recordingId: id, state: .done, text: transcript.text,
            words: transcript.words.map { Transcript.Word(text: $0.w, start: $0.s, end: $0.e) },
            engine: transcript.engine, model: transcript.model,
            madeAt: StoredDate.date(transcript.madeAt) ?? Date())
    }
}
