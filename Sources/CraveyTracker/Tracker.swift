import CraveyLibrary
import Foundation

/// The craving and use logs, kept in the library's database under the library's rules: one
/// transaction a change, under the library lock, fsynced before it returns (a log reported as
/// logged survives a power cut), and a change killed at any step is wholly there or wholly absent.
public struct Tracker: Sendable {
    public let library: Library

    public init(library: Library) { self.library = library }

    /// What a new craving is made of; anything left out takes its default (a 5).
    public struct CravingDraft: Sendable {
        public var intensity = Intensity.standard
        public var time: LogTime
        public var triggers: Set<Trigger> = []
        public var location: Location?
        public var notes: String?
        public var recordingId: UUID?

        public init(
            intensity: Int = Intensity.standard, time: LogTime, triggers: Set<Trigger> = [],
            location: Location? = nil, notes: String? = nil, recordingId: UUID? = nil
        ) {
            (self.intensity, self.time, self.triggers, self.location, self.notes, self.recordingId) = (
                intensity, time, triggers, location, notes, recordingId
            )
        }
    }

    /// What a new use is made of; the method defaults to the first (bowls), the amount to the
    /// method's first.
    public struct UsageDraft: Sendable {
        public var method = Method.bowls
        public var amount: Double?
        public var time: LogTime
        public var triggers: Set<Trigger> = []
        public var location: Location?
        public var notes: String?
        public var moodAfter: Int?
        public var cravingId: UUID?

        public init(
            method: Method = .bowls, amount: Double? = nil, time: LogTime,
            triggers: Set<Trigger> = [],
            location: Location? = nil, notes: String? = nil, moodAfter: Int? = nil, cravingId: UUID? = nil
        ) {
            (self.method, self.amount, self.time, self.triggers, self.location) = (
                method, amount, time, triggers, location
            )
            (self.notes, self.moodAfter, self.cravingId) = (notes, moodAfter, cravingId)
        }
    }

    // MARK: - Logging

    /// Logs a craving (its time not after `now`); returns it as stored.
    public func logCraving(_ draft: CravingDraft, now: Date) throws -> Craving {
        try logCraving(draft, ratings: [], now: now)
    }

    /// Logs a craving with a ride's ratings in the same commit (nothing is stored when they are
    /// not 1–10 in the order given); returns it as stored.
    func logCraving(_ draft: CravingDraft, ratings: [Craving.Rating], now: Date) throws -> Craving {
        let made = now.truncatedToMilliseconds
        var craving = Craving(
            id: UUID(), time: draft.time.stored, intensity: draft.intensity,
            triggers: Trigger.allCases.filter(draft.triggers.contains),
            location: draft.location, notes: try LogRules.notes(draft.notes), recordingId: draft.recordingId,
            createdAt: made, modifiedAt: made)
        craving.ratings = ratings
        try LogRules.check(craving, now: now)
        try Self.checkRatings(ratings)
        try keepingNew { try worded { try library.insertCraving(craving.row) } }
        return craving
    }

    /// Logs a use (its time not after `now`); returns it as stored.
    public func logUse(_ draft: UsageDraft, now: Date) throws -> Usage {
        let made = now.truncatedToMilliseconds
        let use = Usage(
            id: UUID(), time: draft.time.stored, method: draft.method, amount: draft.amount ?? draft.method.amounts[0],
            triggers: Trigger.allCases.filter(draft.triggers.contains), location: draft.location,
            notes: try LogRules.notes(draft.notes), moodAfter: draft.moodAfter, cravingId: draft.cravingId,
            createdAt: made, modifiedAt: made)
        try LogRules.check(use, now: now)
        try keepingNew { try worded { try library.insertUse(use.row) } }
        return use
    }

    /// The commit of a new log. What the person has just typed matters most: on a full disk the
    /// library's reserve is given back so that it can still be kept; when even that is not
    /// enough, the one thing said is that it was not logged.
    func keepingNew<T>(_ commit: () throws -> T) throws -> T {
        do {
            return try library.withReserve(commit)
        } catch  where Library.isDiskFull(error) {
            throw TrackerError.diskFull("\(error)")
        }
    }

    /// Keeps which recording was played during a craving (the hard-moment offer after logging it).
    public func notePlayed(_ recordingId: UUID, during cravingId: UUID) throws {
        try worded { try library.notePlayed(recordingId.uuidString, duringCraving: cravingId.uuidString) }
    }

    /// Keeps a ride's ratings so far (each 1–10, at or after the craving's time, in order):
    /// journaled and fsynced before it returns.
    public func noteRatings(_ ratings: [Craving.Rating], of cravingId: UUID) throws {
        try Self.checkRatings(ratings)
        try worded {
            try library.noteRatings(Craving.Rating.text(ratings) ?? "[]", ofCraving: cravingId.uuidString)
        }
    }

    /// A ride's ratings as they may be stored: each 1–10, at 0 seconds or later, in time order.
    static func checkRatings(_ ratings: [Craving.Rating]) throws {
        guard ratings.allSatisfy({ Intensity.range.contains($0.value) && $0.seconds >= 0 }),
            zip(ratings, ratings.dropFirst()).allSatisfy({ $0.seconds <= $1.seconds })
        else { throw TrackerError.invalid(field: "ratings", reason: "each is 1–10, in the order given") }
    }

    // MARK: - Editing and deleting

    /// Stores `craving`'s new values (its id and creation time stay; its time not after `now`).
    public func edit(_ craving: Craving, now: Date) throws -> Craving {
        var updated = craving
        updated.time = craving.time.stored
        updated.notes = try LogRules.notes(craving.notes)
        updated.triggers = Trigger.allCases.filter(Set(craving.triggers).contains)
        updated.modifiedAt = now.truncatedToMilliseconds
        // A ride's first rating is the intensity logged: it follows an edit of it.
        if !updated.ratings.isEmpty { updated.ratings[0].value = updated.intensity }
        try LogRules.check(updated, now: now)
        try worded { try library.updateCraving(updated.row) }
        return updated
    }

    /// Stores `use`'s new values (its id and creation time stay; its time not after `now`).
    public func edit(_ use: Usage, now: Date) throws -> Usage {
        var updated = use
        updated.time = use.time.stored
        updated.notes = try LogRules.notes(use.notes)
        updated.triggers = Trigger.allCases.filter(Set(use.triggers).contains)
        updated.modifiedAt = now.truncatedToMilliseconds
        try LogRules.check(updated, now: now)
        try worded { try library.updateUse(updated.row) }
        return updated
    }

    /// What deleting a craving does to the uses that followed it.
    public enum LinkedUses: Sendable {
        /// They are deleted with it.
        case delete
        /// They stay, no longer linked to a craving.
        case keep
    }

    /// Deletes a craving. When uses follow it, `linked` must say what becomes of them (nil throws
    /// `TrackerError.linkedUse`, so the user can be asked); the recording played during it stays.
    /// Returns how many uses were deleted with it.
    @discardableResult
    public func deleteCraving(_ id: UUID, linked: LinkedUses?) throws -> Int {
        try worded { try library.deleteCraving(id: id.uuidString, withLinkedUses: linked.map { $0 == .delete }) }
    }

    /// Deletes a use; the craving it followed is not changed.
    public func deleteUse(_ id: UUID) throws {
        try worded { try library.deleteUse(id: id.uuidString) }
    }

    // MARK: - Reading

    /// The logs of the kinds asked for since `since` (all when nil), newest first.
    public func entries(cravings: Bool = true, uses: Bool = true, since: Date? = nil) throws -> [LogEntry] {
        let rows = try library.logRows(cravings: cravings, uses: uses, since: since.map(StoredDate.text) ?? "")
        var entries =
            rows.cravings.map { LogEntry.craving(Craving(row: $0)) } + rows.uses.map { LogEntry.use(Usage(row: $0)) }
        if cravings && uses {
            entries.sort { ($0.time.instant, $0.id.uuidString) > ($1.time.instant, $1.id.uuidString) }
        }
        return entries
    }

    /// The same logs as `entries`, in its order, handed to `body` one at a time without holding
    /// them all (ten years of logs, listed).
    public func forEachEntry(
        cravings: Bool = true, uses: Bool = true, since: Date? = nil, _ body: (LogEntry) throws -> Void
    ) throws {
        let streamed = try library.forEachLogRow(
            cravings: cravings, uses: uses, since: since.map(StoredDate.text) ?? ""
        ) { try body(LogEntry(row: $0)) }
        if !streamed { try entries(cravings: cravings, uses: uses, since: since).forEach(body) }
    }

    public func cravings(since: Date? = nil) throws -> [Craving] {
        try entries(uses: false, since: since).compactMap { if case let .craving(c) = $0 { c } else { nil } }
    }

    public func uses(since: Date? = nil) throws -> [Usage] {
        try entries(cravings: false, since: since).compactMap { if case let .use(u) = $0 { u } else { nil } }
    }

    /// The log with this id (full or a unique prefix, any case).
    public func entry(matching key: String) throws -> LogEntry {
        let prefix = key.trimmingCharacters(in: .whitespaces).uppercased()
        guard !prefix.isEmpty, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw TrackerError.notFound(key)
        }
        switch try library.logRow(idStartingWith: prefix) {
        case .none: throw TrackerError.notFound(key)
        case let .several(found):
            throw TrackerError.ambiguous(key, candidates: found.map { "\($0.kind) \($0.id.prefix(8))" })
        case let .one(row): return LogEntry(row: row)
        }
    }

    /// The uses that followed a craving.
    public func uses(following cravingId: UUID) throws -> [Usage] {
        try library.useRows(followingCraving: cravingId.uuidString).map(Usage.init(row:))
    }

    /// The craving a use names as the one it followed: `last` (the latest at or before `time`) or
    /// an id or unique start of one.
    public func craving(named key: String, before time: Date) throws -> Craving {
        if key.lowercased() == "last" {
            guard let last = try lastCraving(before: time) else { throw TrackerError.notACraving(nil) }
            return last
        }
        guard case let .craving(found) = try entry(matching: key) else { throw TrackerError.notACraving(key) }
        return found
    }

    /// The latest craving at or before `time` (the craving named `last`).
    public func lastCraving(before time: Date) throws -> Craving? {
        try library.lastCravingRow(atOrBefore: StoredDate.text(time)).map(Craving.init(row:))
    }

    /// The latest craving in the `window` before `time` that no use follows yet: the one a use
    /// logged now probably followed (the form offers the link).
    public func unlinkedCraving(before time: Date, within window: TimeInterval = 2 * 3_600) throws -> Craving? {
        try library.unlinkedCravingRow(
            from: StoredDate.text(time.addingTimeInterval(-window)), to: StoredDate.text(time)
        ).map(Craving.init(row:))
    }

    /// How many logs there are of each kind.
    public func counts() throws -> (cravings: Int, uses: Int) {
        try library.logCounts()
    }

    // MARK: - Helpers

    /// What the store refused, in the tracker's words.
    func worded<T>(_ change: () throws -> T) throws -> T {
        do {
            return try change()
        } catch let refusal as LogStoreRefusal {
            switch refusal {
            case let .noRecording(id):
                throw TrackerError.invalid(field: "recording", reason: "no recording has the id \(id)")
            case let .noCraving(id): throw TrackerError.invalid(field: "craving", reason: "no craving has the id \(id)")
            case let .notFound(id): throw TrackerError.notFound(id)
            case let .linkedUses(craving, count):
                throw TrackerError.linkedUse(craving: String(craving.prefix(8)), uses: count)
            }
        }
    }
}

extension Tracker {
    /// A log whose notes hold the words searched for: a snippet of the notes and where in it.
    public struct Hit: Sendable {
        public var entry: LogEntry
        public var snippet: String
        public var matches: [Range<String.Index>]
    }

    /// Logs whose notes hold every word of `query` (words found as in recordings' search: by
    /// their start, stemmed, any case and accents), newest first.
    public func search(_ query: String, limit: Int = 50) throws -> [Hit] {
        let terms = SearchTerms.words(query)
        guard !terms.isEmpty else {
            throw TrackerError.invalid(field: "search", reason: "give at least one word to look for")
        }
        let hits = try library.logSearch(SearchTerms.ftsQuery(terms), limit: limit).map { found in
            let (snippet, matches) = SearchHit.unmarked(found.marked ?? "")
            return Hit(entry: LogEntry(row: found.log), snippet: snippet, matches: matches)
        }
        return hits.sorted { $0.entry.time.instant > $1.entry.time.instant }
    }
}
