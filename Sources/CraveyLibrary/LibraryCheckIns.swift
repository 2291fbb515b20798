import FoundationEssentials
import Glibc
import GRDB

/// Daily check-ins: the state of a day's flow, its entry, and the user's settings.
///
/// An entry is saved exactly like a message (`save`, with its atomic rules); what makes it the
/// day's entry is `beginCheckIn`, noted before recording starts: the save of that recording,
/// by the flow or by recovery after a crash, turns its row into the entry in the same
/// transaction. One entry a day on each machine (a unique index): with a sync folder, the other
/// machine's entry of the same day is kept beside this one's and both are listed; an entry is
/// never edited.
extension Library {
    /// What a day's check-in flow has seen so far.
    public struct CheckInDay: Sendable {
        public var day: String
        /// The day's question, once chosen.
        public var prompt: String?
        /// Whether the greeting was answered (Start or Later) that day.
        public var greeted: Bool
        /// Whether it was put off ("Later"): not asked again, and no reminder, that day.
        public var postponed: Bool
        /// The day's entry, once saved.
        public var entry: Recording?
    }

    public func checkInDay(_ day: String) throws -> CheckInDay {
        try translatingDatabaseErrors {
            let row = try store.writer.read { db in
                try Row.fetchOne(
                    db, sql: "SELECT prompt, greetedAt, postponedAt FROM checkinDay WHERE day = ?", arguments: [day])
            }
            return CheckInDay(
                day: day, prompt: row?["prompt"], greeted: (row?["greetedAt"] as String?) != nil,
                postponed: (row?["postponedAt"] as String?) != nil, entry: try checkIn(on: day))
        }
    }

    /// The day's entry, if it has one (and its file is there): this machine's first, else one
    /// another machine made that day; `ownOnly`, this machine's alone (the one it may record).
    public func checkIn(on day: String, ownOnly: Bool = false) throws -> Recording? {
        try translatingDatabaseErrors {
            try store.writer.read { db in
                try String.fetchAll(
                    db,
                    sql: "SELECT id FROM recording WHERE checkinDay = ? \(ownOnly ? "AND checkinFrom = ''" : "")"
                        + " ORDER BY checkinFrom != '', createdAt",
                    arguments: [day])
            }.compactMap { UUID(uuidString: $0) }.lazy.compactMap { try? self.store.recording(id: $0) }
                .first(where: hasFile)
        }
    }

    /// Every entry, newest day first (a day's entries from two machines in the order they were
    /// made); `month` (`YYYY-MM`) keeps that month's.
    public func checkIns(month: String? = nil) throws -> [Recording] {
        try translatingDatabaseErrors {
            try store.recordings(section: .checkIns).filter(hasFile)
                .filter { month == nil || $0.checkIn!.day.hasPrefix(month! + "-") }
                .sorted { ($0.checkIn!.day, $1.createdAt) > ($1.checkIn!.day, $0.createdAt) }
        }
    }

    /// The day's question: chosen once (at random, not one of the six days before), then the same all day.
    public func prompt(for day: String) throws -> String {
        try translatingDatabaseErrors {
            let lock = try lockLibrary()
            defer { lock.release() }
            return try store.writer.write { db in
                if let chosen = try String.fetchOne(
                    db, sql: "SELECT prompt FROM checkinDay WHERE day = ? AND prompt IS NOT NULL", arguments: [day])
                {
                    return chosen
                }
                let recent = Set(
                    try String.fetchAll(
                        db,
                        sql:
                            "SELECT prompt FROM checkinDay WHERE prompt IS NOT NULL AND day < ? ORDER BY day DESC LIMIT 6",
                        arguments: [day]))
                let fresh = CheckIn.prompts.filter { !recent.contains($0) }
                let chosen = (fresh.isEmpty ? CheckIn.prompts : fresh).randomElement()!
                try db.execute(
                    sql:
                        "INSERT INTO checkinDay (day, prompt) VALUES (?, ?) ON CONFLICT(day) DO UPDATE SET prompt = excluded.prompt",
                    arguments: [day, chosen])
                return chosen
            }
        }
    }

    /// The greeting was answered: Start, or Later (`postponed`).
    public func noteGreeted(_ day: String, postponed: Bool, at date: Date) throws {
        try changeDay(day) { db in
            try db.execute(
                sql: "UPDATE checkinDay SET greetedAt = coalesce(greetedAt, ?) WHERE day = ?",
                arguments: [StoredDate.text(date), day])
            if postponed {
                try db.execute(
                    sql: "UPDATE checkinDay SET postponedAt = ? WHERE day = ?", arguments: [StoredDate.text(date), day])
            }
        }
    }

    /// Notes that recording `id` is the day's check-in, with its mood and the question shown
    /// (before recording starts): its save makes it the entry. Refused when the day has an entry.
    public func beginCheckIn(_ day: String, mood: CheckIn.Mood, prompt: String, recording id: UUID) throws {
        if try checkIn(on: day, ownOnly: true) != nil {
            throw LibraryError.invalid(field: "date", reason: Self.alreadyCheckedIn(day))
        }
        try changeDay(day) { db in
            try db.execute(
                sql: "UPDATE checkinDay SET pendingId = ?, pendingMood = ?, prompt = coalesce(prompt, ?) WHERE day = ?",
                arguments: [id.uuidString, mood.rawValue, prompt, day])
        }
    }

    /// The recording begun for a day was discarded: the day may be recorded again. With
    /// `keepingMood` (the recording could not start), the mood chosen stays for the next try.
    public func abandonCheckIn(recording id: UUID, keepingMood: Bool = false) throws {
        try translatingDatabaseErrors {
            try store.writer.write { db in
                try db.execute(
                    sql: keepingMood
                        ? "UPDATE checkinDay SET pendingId = NULL WHERE pendingId = ?"
                        : "UPDATE checkinDay SET pendingId = NULL, pendingMood = NULL WHERE pendingId = ?",
                    arguments: [id.uuidString])
            }
        }
    }

    /// Keeps `mood` as the one chosen for `day` until its entry is saved or discarded: leaving the
    /// check-in and coming back the same day finds it chosen.
    public func keepMood(_ mood: CheckIn.Mood, for day: String) throws {
        try changeDay(day) { db in
            try db.execute(
                sql: "UPDATE checkinDay SET pendingMood = ? WHERE day = ? AND pendingId IS NULL",
                arguments: [mood.rawValue, day])
        }
    }

    /// The mood chosen for `day` and kept (`keepMood`, or a try whose recording could not start;
    /// nil: none).
    public func keptMood(for day: String) throws -> CheckIn.Mood? {
        try translatingDatabaseErrors {
            try store.writer.read { db in
                try String.fetchOne(
                    db, sql: "SELECT pendingMood FROM checkinDay WHERE day = ? AND pendingId IS NULL", arguments: [day])
            }
        }.flatMap(CheckIn.Mood.init(rawValue:))
    }

    static func alreadyCheckedIn(_ day: String) -> String {
        "\(day) has its check-in already (one a day on each machine; an entry is kept as it was saved)"
    }

    /// Runs `body` on the day's state row (made if missing) in one transaction, under the lock.
    private func changeDay(_ day: String, _ body: @escaping (Database) throws -> Void) throws {
        try translatingDatabaseErrors {
            let lock = try lockLibrary()
            defer { lock.release() }
            try store.writer.write { db in
                try db.execute(sql: "INSERT OR IGNORE INTO checkinDay (day) VALUES (?)", arguments: [day])
                try body(db)
            }
        }
    }

    // MARK: - Settings

    /// The user's settings: `name` is shown in the check-in's greeting and on the home screen,
    /// `goal` is what brings them here, `welcomed` when the first run was shown (it is shown once,
    /// and again only after all data is deleted, which deletes the settings too).
    public enum Setting: String, Sendable, CaseIterable {
        case name
        case goal
        /// The order of Quick Play: "most-played" (as when not set) or "helped-most".
        case quickPlay
        /// The price of one unit of each method, in cents, as JSON (`{"bowls":1000}`): money kept
        /// is figured from it, and shown only when one is set.
        case prices
        /// The currency of the prices: an ISO 4217 code, or "none" for plain numbers (not set: the
        /// locale's).
        case currency
        case welcomed
        /// When the person asked home not to ask for a goal again (a skipped tour leaves none).
        case goalAsked
        /// Where and when the last backup was written (JSON).
        case lastBackup
        /// The day home last said the newest backup is old ("2026-03-29"): once a week at most.
        case backupNoted
        /// This library's own id (a UUID, made once; see `Library.identity()`).
        case libraryId
        /// The day home last showed where a plan would help, and whether it was put away that
        /// week ("2026-03-29" or "2026-03-29 dismissed").
        case planSuggestion
        /// "any-goal" when the person asked for the withdrawal check whatever their goal (not
        /// set: it is offered for the goal to quit).
        case withdrawalOffer
        /// "any-goal" when the person asked for limits whatever their goal (not set: they are
        /// offered for cutting down and harm reduction).
        case limitOffer
        /// When the self-screen's 4-week reminder was turned on (not set: off), and when home's
        /// reminder was last put away.
        case screenReminder, screenReminderDismissed
    }

    public func setting(_ key: Setting) throws -> String? {
        try translatingDatabaseErrors {
            try store.writer.read { db in
                try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key.rawValue])
            }
        }
    }

    /// Sets (or with nil, clears) a setting.
    public func setSetting(_ key: Setting, to value: String?) throws {
        try translatingDatabaseErrors {
            let lock = try lockLibrary()
            defer { lock.release() }
            try store.writer.write { db in
                if let value {
                    try db.execute(
                        sql:
                            "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                        arguments: [key.rawValue, value])
                } else {
                    try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key.rawValue])
                }
            }
            flushJournalAfterCommit()  // what was typed (a name, a goal) outlives the database too
        }
    }
}
