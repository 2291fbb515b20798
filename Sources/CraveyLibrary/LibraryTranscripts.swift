import FoundationEssentials
import Glibc
import GRDB

/// Transcripts and search: storing what the recognizer made, finding recordings by their words.
extension Library {
    /// The recording's transcript; nil when none was made yet.
    public func transcript(of id: UUID) throws -> Transcript? {
        try translatingDatabaseErrors { try store.transcript(of: id) }
    }

    /// Every transcript, by recording (for an export).
    public func allTranscripts() throws -> [UUID: Transcript] {
        try translatingDatabaseErrors { try store.allTranscripts() }
    }

    /// Recordings (messages and check-ins) that need a transcript: none made yet, or the last try
    /// failed. Oldest first, so a backlog is worked through in order. Rows whose file is missing
    /// are left out.
    public func recordingsNeedingTranscripts() throws -> [Recording] {
        try translatingDatabaseErrors { try store.recordingsNeedingTranscripts(engine: nil) }.filter(hasFile)
    }

    /// The same, and the recordings whose transcript an engine other than the one whose name
    /// starts with `engine` made (to make them all again with it).
    public func recordingsNeedingTranscripts(madeBy engine: String) throws -> [Recording] {
        try translatingDatabaseErrors { try store.recordingsNeedingTranscripts(engine: engine) }.filter(hasFile)
    }

    /// Stores a transcript (made, or noted unavailable) in place of the one before. Returns false
    /// when the recording is gone (deleted while it was transcribed): nothing is stored.
    @discardableResult
    public func storeTranscript(_ transcript: Transcript) throws -> Bool {
        let stored = try translatingDatabaseErrors { try store.storeTranscript(transcript) }
        if stored && transcript.state == .done { writePendingTags() }  // the text goes into the file's tags too
        return stored
    }

    /// Puts recordings in the background worker's queue (those already in it keep their place;
    /// `engine` replaces the engine asked for). Recordings deleted meanwhile are left out.
    public func queueTranscripts(_ ids: [UUID], engine: String? = nil) throws {
        guard !ids.isEmpty else { return }
        try translatingDatabaseErrors { try store.queueTranscripts(ids, engine: engine, at: Date()) }
    }

    /// Queues every recording that has neither a transcript nor a job (saved just before a power
    /// cut, say, so that its job was never written); returns how many. Reads first: nothing is
    /// written when there is nothing to queue.
    @discardableResult
    public func queueUntranscribed() throws -> Int {
        try translatingDatabaseErrors { try store.queueUntranscribed(at: Date()) }
    }

    /// Takes a recording out of the queue without storing anything (a failed redo that keeps
    /// the transcript there was).
    public func dequeueTranscript(_ id: UUID) throws {
        try translatingDatabaseErrors { try store.dequeueTranscript(id) }
    }

    /// The queue, oldest first: each recording with the engine asked for (nil: the best there
    /// is). Rows whose file is missing are left out.
    public func queuedTranscripts() throws -> [(recording: Recording, engine: String?)] {
        try translatingDatabaseErrors { try store.queuedTranscripts() }.filter { hasFile($0.recording) }
    }

    /// How many transcripts wait, and since when the oldest has.
    public func transcriptQueue() throws -> (count: Int, oldest: Date?) {
        try translatingDatabaseErrors { try store.transcriptQueue() }
    }

    /// Whether the recording's transcript waits in the queue (or is being made).
    public func isTranscriptQueued(_ id: UUID) throws -> Bool {
        try translatingDatabaseErrors { try store.isTranscriptQueued(id) }
    }

    /// Which of `ids` wait in the queue.
    public func queuedTranscriptIds() throws -> Set<UUID> {
        try translatingDatabaseErrors { try store.queuedTranscriptIds() }
    }

    /// The background worker's lock file: one worker per library.
    static let workerLockName = FileStore.workerLockFile

    /// Takes the background worker's lock without waiting: nil when another worker holds it.
    /// Held until the returned object goes. It is not the library lock: a worker holding it
    /// blocks no change.
    public func takeTranscriptWorkerLock() throws -> AnyObject? {
        try FileLock(path: root + "/" + Self.workerLockName, wait: false)
    }

    /// Whether a background worker is making transcripts for this library now.
    public var transcriptWorkerRuns: Bool { isLockedByOther(root + "/" + Self.workerLockName) }

    /// Recordings whose title, notes or transcript hold every word of `query`, best first (a
    /// title match weighs most, then notes, then the transcript). Rows whose file is missing are
    /// left out.
    public func search(_ query: String, limit: Int = 50) throws -> [SearchHit] {
        let terms = SearchTerms.words(query)
        guard !terms.isEmpty else {
            throw LibraryError.invalid(field: "search", reason: "give at least one word to look for")
        }
        return try translatingDatabaseErrors { try store.search(terms, limit: limit) }.filter { hasFile($0.recording) }
    }
}

extension Store {
    func transcript(of id: UUID) throws -> Transcript? {
        try writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM transcript WHERE recordingId = ?", arguments: [id.uuidString]).map(
                Transcript.init(row:))
        }
    }

    func allTranscripts() throws -> [UUID: Transcript] {
        try writer.read { db in
            var result: [UUID: Transcript] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM transcript") {
                let transcript = Transcript(row: row)
                result[transcript.recordingId] = transcript
            }
            return result
        }
    }

    func recordingsNeedingTranscripts(engine: String?) throws -> [Recording] {
        try writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.listColumnsQualified) FROM recording r LEFT JOIN transcript t ON t.recordingId = r.id
                    WHERE t.recordingId IS NULL OR t.state = 'unavailable' OR (?1 IS NOT NULL AND substr(t.engine, 1, length(?1)) <> ?1)
                    ORDER BY r.createdAt, r.id
                    """, arguments: [engine]
            ).map(Recording.init(row:))
        }
    }

    func storeTranscript(_ transcript: Transcript) throws -> Bool {
        try writer.write { db in
            guard
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM recording WHERE id = ?)",
                    arguments: [transcript.recordingId.uuidString]) ?? false
            else { return false }
            try db.execute(
                sql: """
                    INSERT INTO transcript (recordingId, state, text, words, engine, model, madeAt, problem)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (recordingId) DO UPDATE SET state = excluded.state, text = excluded.text, words = excluded.words,
                      engine = excluded.engine, model = excluded.model, madeAt = excluded.madeAt, problem = excluded.problem
                    """,
                arguments: [
                    transcript.recordingId.uuidString, transcript.state.rawValue, transcript.text, transcript.wordsJSON,
                    transcript.engine, transcript.model, StoredDate.text(transcript.madeAt), transcript.problem,
                ])
            // Made (or failed): out of the queue, in the same transaction.
            try db.execute(
                sql: "DELETE FROM transcriptJob WHERE recordingId = ?", arguments: [transcript.recordingId.uuidString])
            try faults.hit("transcript.commit")
            return true
        }
    }

    func queueTranscripts(_ ids: [UUID], engine: String?, at date: Date) throws {
        try writer.write { db in
            for id in ids {
                try db.execute(
                    sql: """
                        INSERT INTO transcriptJob (recordingId, queuedAt, engine)
                        SELECT id, ?, ? FROM recording WHERE id = ?
                        ON CONFLICT (recordingId) DO UPDATE SET engine = excluded.engine
                        """, arguments: [StoredDate.text(date), engine, id.uuidString])
            }
            try faults.hit("transcript.queue")
        }
    }

    func queueUntranscribed(at date: Date) throws -> Int {
        let condition =
            "id NOT IN (SELECT recordingId FROM transcript) AND id NOT IN (SELECT recordingId FROM transcriptJob)"
        let count = try writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM recording WHERE \(condition)") ?? 0
        }
        guard count > 0 else { return 0 }
        return try writer.write { db in
            try db.execute(
                sql: "INSERT INTO transcriptJob (recordingId, queuedAt) SELECT id, ? FROM recording WHERE \(condition)",
                arguments: [StoredDate.text(date)])
            return db.changesCount
        }
    }

    func dequeueTranscript(_ id: UUID) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM transcriptJob WHERE recordingId = ?", arguments: [id.uuidString])
        }
    }

    func queuedTranscripts() throws -> [(recording: Recording, engine: String?)] {
        try writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.listColumnsQualified), j.engine AS jobEngine FROM transcriptJob j JOIN recording r ON r.id = j.recordingId
                    ORDER BY j.queuedAt, r.createdAt, r.id
                    """
            ).map { (Recording(row: $0), $0["jobEngine"] as String?) }
        }
    }

    func transcriptQueue() throws -> (count: Int, oldest: Date?) {
        try writer.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT count(*) AS count, min(queuedAt) AS oldest FROM transcriptJob")
            return (row?["count"] ?? 0, (row?["oldest"] as String?).flatMap(StoredDate.date))
        }
    }

    func isTranscriptQueued(_ id: UUID) throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM transcriptJob WHERE recordingId = ?)", arguments: [id.uuidString]
            ) ?? false
        }
    }

    func queuedTranscriptIds() throws -> Set<UUID> {
        try writer.read { db in
            Set(
                try String.fetchAll(db, sql: "SELECT recordingId FROM transcriptJob").compactMap(UUID.init(uuidString:))
            )
        }
    }

    func search(_ terms: [String], limit: Int) throws -> [SearchHit] {
        let mark = (String(SearchHit.markStart), String(SearchHit.markEnd))
        return try writer.read { db in
            // bm25 weights: title 10, notes 5, transcript 1 (lower is better).
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.listColumnsQualified),
                      snippet(recordingSearch, 0, ?, ?, '…', 12) AS titleSnippet,
                      snippet(recordingSearch, 1, ?, ?, '…', 12) AS notesSnippet,
                      snippet(recordingSearch, 2, ?, ?, '…', 12) AS transcriptSnippet,
                      t.words AS words
                    FROM recordingSearch s JOIN recording r ON r.rowid = s.rowid
                    LEFT JOIN transcript t ON t.recordingId = r.id AND t.state = 'done'
                    WHERE recordingSearch MATCH ?
                    ORDER BY bm25(recordingSearch, 10.0, 5.0, 1.0), r.createdAt DESC
                    LIMIT ?
                    """,
                arguments: [mark.0, mark.1, mark.0, mark.1, mark.0, mark.1, SearchTerms.ftsQuery(terms), limit])
            return rows.map { row in
                let recording = Recording(row: row)
                let snippets: [(SearchHit.Field, String?)] = [
                    (.transcript, row["transcriptSnippet"]), (.title, row["titleSnippet"]),
                    (.notes, row["notesSnippet"]),
                ]
                let (field, marked) =
                    snippets.first { $0.1?.contains(SearchHit.markStart) == true } ?? (.title, recording.title)
                let words = (row["words"] as String?).map(Transcript.words(fromJSON:)) ?? []
                let time = Transcript.firstTime(of: terms, in: words)
                // A transcript's lines are stretches of speech: one line of text in a snippet.
                let (snippet, matches) = SearchHit.unmarked(marked ?? "")
                return SearchHit(recording: recording, field: field, snippet: snippet, matches: matches, time: time)
            }
        }
    }
}

extension Store {
    /// What is out of step between the recordings, their transcripts and the search index.
    func searchIndexProblems() throws -> [String] {
        try writer.read { db in
            var problems: [String] = []
            let orphans =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM transcript WHERE recordingId NOT IN (SELECT id FROM recording)") ?? 0
            if orphans > 0 { problems.append("\(orphans) transcript(s) of recordings that are gone") }
            let missing =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM recording r LEFT JOIN recordingSearch s ON s.rowid = r.rowid
                        LEFT JOIN transcript t ON t.recordingId = r.id
                        WHERE s.rowid IS NULL OR s.title IS NOT r.title OR s.notes IS NOT coalesce(r.notes, '')
                          OR s.transcript IS NOT coalesce(t.text, '')
                        """) ?? 0
            if missing > 0 { problems.append("\(missing) recording(s) missing or out of date in it") }
            let stray =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM recordingSearch WHERE rowid NOT IN (SELECT rowid FROM recording)")
                ?? 0
            if stray > 0 { problems.append("\(stray) entr(ies) for recordings that are gone") }
            return problems
        }
    }

    /// Makes the search index again from the rows, and forgets transcripts of recordings that
    /// are gone, in one transaction.
    func rebuildSearchIndex() throws {
        try writer.write { db in
            try db.execute(
                sql: """
                    DELETE FROM transcript WHERE recordingId NOT IN (SELECT id FROM recording);
                    DELETE FROM recordingSearch;
                    INSERT INTO recordingSearch (rowid, title, notes, transcript)
                      SELECT r.rowid, r.title, coalesce(r.notes, ''), coalesce(t.text, '')
                      FROM recording r LEFT JOIN transcript t ON t.recordingId = r.id;
                    """)
        }
    }
}

extension Transcript {
    init(row: Row) {
        self.init(
            recordingId: UUID(uuidString: row["recordingId"] ?? "") ?? UUID(),
            state: State(rawValue: row["state"] ?? "") ?? .unavailable,
            text: row["text"] ?? "", words: Self.words(fromJSON: row["words"] ?? "[]"),
            engine: row["engine"] ?? "", model: row["model"] ?? "",
            madeAt: StoredDate.date(row["madeAt"] ?? "") ?? Date(timeIntervalSince1970: 0), problem: row["problem"])
    }
}
