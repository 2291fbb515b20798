import FoundationEssentials
import GRDB

/// A day's answer as stored: "none" (no use that day, confirmed) or "unknown" (the person does
/// not remember), the moment it was given, and the use that withdrew it (nil: it stands). A use
/// logged on the day, or moved onto it, withdraws it in the same transaction (the schema's
/// triggers), so every way a use is logged withdraws it the same way.
public struct DayMarkRow: Sendable, Equatable {
    public var day: String
    public var answer: String
    public var markedAt: String
    public var withdrawnBy: String?

    public init(day: String, answer: String, markedAt: String, withdrawnBy: String? = nil) {
        (self.day, self.answer, self.markedAt, self.withdrawnBy) = (day, answer, markedAt, withdrawnBy)
    }
}

/// Why a day cannot be marked (nothing is written); the tracker words it.
package enum DayMarkRefusal: Error {
    /// Uses are logged on that day: a day with a use is a day of use.
    case usedThatDay(Int)
}

extension Store {
    /// The days' answers (migration v13). Never changes once shipped.
    static let dayMarkSchema = """
        -- A day the person answered for: 'none' (no use that day) or 'unknown' (they do not
        -- remember), when they said so, and the use that withdrew the answer (NULL: it stands).
        -- A use whose day (on its own clock) is the day withdraws it, in the use's transaction.
        -- Journaled as the logs are.
        CREATE TABLE dayMark (
          day TEXT PRIMARY KEY NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
          answer TEXT NOT NULL CHECK (answer IN ('none', 'unknown')),
          markedAt TEXT NOT NULL,
          withdrawnBy TEXT
        );
        CREATE TRIGGER usage_day_mark_insert AFTER INSERT ON usage BEGIN
          UPDATE dayMark SET withdrawnBy = new.id
          WHERE day = date(new.at, new.utcOffset || ' seconds') AND withdrawnBy IS NULL;
        END;
        CREATE TRIGGER usage_day_mark_update AFTER UPDATE OF at, utcOffset ON usage BEGIN
          UPDATE dayMark SET withdrawnBy = new.id
          WHERE day = date(new.at, new.utcOffset || ' seconds') AND withdrawnBy IS NULL;
        END;
        CREATE TRIGGER dayMark_journal_insert AFTER INSERT ON dayMark BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('day', new.day);
        END;
        CREATE TRIGGER dayMark_journal_update AFTER UPDATE ON dayMark BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('day', new.day);
        END;
        CREATE TRIGGER dayMark_journal_delete AFTER DELETE ON dayMark BEGIN
          INSERT INTO pendingJournal (kind, id) VALUES ('day', old.day);
        END;
        """
}

/// Days that are known: a person's answer for a day is typed input, kept under the logs' rules
/// (one transaction, under the library lock, journaled and fsynced before it is said).
extension Library {
    /// Every day's answer stored, oldest day first (none before the schema has them).
    public func dayMarks() throws -> [DayMarkRow] {
        try readLogs { db in
            guard try db.tableExists("dayMark") else { return [] }
            return try Row.fetchAll(db, sql: "SELECT day, answer, markedAt, withdrawnBy FROM dayMark ORDER BY day")
                .map(Self.dayMarkRow)
        }
    }

    /// Keeps `answer` ("none" or "unknown") for `day` (YYYY-MM-DD), replacing what was said of it
    /// before (a withdrawn answer too). Refused, with nothing written, when a use is logged on
    /// that day (`DayMarkRefusal.usedThatDay`). Returns the answer it replaced (nil: none stood).
    @discardableResult
    package func markDay(_ day: String, answer: String, at date: Date) throws -> DayMarkRow? {
        try writeLogs(step: "day.mark", lockWait: Self.logLockWait) { db in
            let uses =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM usage WHERE date(at, utcOffset || ' seconds') = ?", arguments: [day])
                ?? 0
            if uses > 0 { throw DayMarkRefusal.usedThatDay(uses) }
            let before = try Row.fetchOne(
                db, sql: "SELECT day, answer, markedAt, withdrawnBy FROM dayMark WHERE day = ? AND withdrawnBy IS NULL",
                arguments: [day]
            ).map(Self.dayMarkRow)
            try db.execute(
                sql: """
                    INSERT INTO dayMark (day, answer, markedAt, withdrawnBy) VALUES (?, ?, ?, NULL)
                    ON CONFLICT (day) DO UPDATE SET answer = excluded.answer, markedAt = excluded.markedAt, withdrawnBy = NULL
                    """,
                arguments: [day, answer, StoredDate.text(date)])
            return before
        }
    }

    /// The answer a use withdrew, if it withdrew one (the use's id as stored).
    package func dayMark(withdrawnBy useId: String) throws -> DayMarkRow? {
        try readLogs { db in
            try Row.fetchOne(
                db, sql: "SELECT day, answer, markedAt, withdrawnBy FROM dayMark WHERE withdrawnBy = ?",
                arguments: [useId]
            ).map(Self.dayMarkRow)
        }
    }

    /// A row read leniently: a value another program stored that cravey would refuse is read as
    /// text where it can be, never a crash (`check` says what is wrong with it).
    private static func dayMarkRow(_ row: Row) -> DayMarkRow {
        func text(_ index: Int) -> String? { String.fromDatabaseValue(row[index]) }
        return DayMarkRow(day: text(0) ?? "", answer: text(1) ?? "", markedAt: text(2) ?? "", withdrawnBy: text(3))
    }

    /// Holds every day's answer to the rules typed input meets (`Validation.dayMarkProblem`);
    /// with `repair`, one that breaks them is removed (journaled as a deletion).
    static func checkDayMarks(_ db: Database, today: String, repair: Bool, into report: inout Report) throws {
        try checkTypedRows(db, table: "dayMark", columns: ["day", "answer", "markedAt"], repair: repair, into: &report)
        {
            Validation.dayMarkProblem(
                day: String.fromDatabaseValue($0[0]), answer: String.fromDatabaseValue($0[1]),
                markedAt: String.fromDatabaseValue($0[2]), today: today)
        }
    }
}

extension Library {
    /// Holds the days' answers and the withdrawal checks to the logs: an answer still standing on
    /// a day a use is logged on is named (with `repair`, withdrawn by the first use of that day,
    /// as logging it does), and an answer or check dated before tracking began is named and kept.
    static func checkDaysAgainstLogs(_ db: Database, repair: Bool, into report: inout Report) throws {
        guard try db.tableExists("dayMark") else { return }
        let useDay = "date(u.at, u.utcOffset || ' seconds')"
        let standing = try Row.fetchAll(
            db,
            sql: """
                SELECT m.day, m.answer,
                  (SELECT u.id FROM usage u WHERE \(useDay) = m.day ORDER BY u.at, u.rowid LIMIT 1) AS useId
                FROM dayMark m WHERE m.withdrawnBy IS NULL ORDER BY m.day
                """)
        for row in standing {
            guard let day = String.fromDatabaseValue(row[0]), let use = String.fromDatabaseValue(row[2]) else {
                continue
            }
            report.add(
                .answerOnUseDay,
                "\(answerWords(String.fromDatabaseValue(row[1]))) for \(day.prefix(20)), a day with a use logged")
            if repair {
                try db.execute(sql: "UPDATE dayMark SET withdrawnBy = ? WHERE day = ?", arguments: [use, day])
            }
        }
        guard let first = try firstTrackedDay(db) else { return }
        for row in try Row.fetchAll(db, sql: "SELECT day, answer FROM dayMark ORDER BY day") {
            guard let text = String.fromDatabaseValue(row[0]), let day = LocalDay(parsing: text), day < first else {
                continue
            }
            report.add(
                .beforeTracking,
                "\(answerWords(String.fromDatabaseValue(row[1]))) for \(day.text); tracking began \(first.text)")
        }
        guard try db.tableExists("withdrawalCheck") else { return }
        let checkDays = try String.fetchAll(
            db, sql: "SELECT day FROM withdrawalCheck WHERE typeof(day) = 'text' ORDER BY day")
        for text in checkDays {
            guard let day = LocalDay(parsing: text), day < first else { continue }
            report.add(.beforeTracking, "the withdrawal check of \(day.text); tracking began \(first.text)")
        }
    }

    /// "the answer 'no use'", "the answer 'don't remember'".
    private static func answerWords(_ answer: String?) -> String {
        switch answer {
        case "none": "the answer 'no use'"
        case "unknown": "the answer 'don't remember'"
        default: "the answer"
        }
    }

    /// The first day tracked, as the logs show it: the first craving's or use's day (on its own
    /// clock), the first recording's (on this computer's), or the day the first answer was given
    /// (a day can be answered for on the day tracking begins); nil: nothing tracked.
    private static func firstTrackedDay(_ db: Database) throws -> LocalDay? {
        let logDay = try String.fetchOne(
            db,
            sql: """
                SELECT min(d) FROM (
                  SELECT min(date(at, utcOffset || ' seconds')) AS d FROM craving
                  UNION ALL SELECT min(date(at, utcOffset || ' seconds')) FROM usage)
                """
        ).flatMap { LocalDay(parsing: $0) }
        let moments = [
            try String.fetchOne(db, sql: "SELECT min(createdAt) FROM recording"),
            try String.fetchOne(db, sql: "SELECT min(markedAt) FROM dayMark"),
        ]
        let days = moments.compactMap { $0.flatMap(StoredDate.date).map { LocalDay($0, in: .current) } }
        return ([logDay].compactMap { $0 } + days).min()
    }
}

extension Validation {
    /// The answers a day can have.
    public static let dayAnswers = ["none", "unknown"]

    /// What is wrong with a day's answer as stored (nil: nothing): a real day no later than
    /// `today` (a day's grace for a change of time zone), an answer cravey keeps, and a time.
    public static func dayMarkProblem(day: String?, answer: String?, markedAt: String?, today: String) -> String? {
        let name = "the answer for '\((day ?? "?").prefix(20))'"
        guard let day, let parsed = LocalDay(parsing: day) else { return "\(name): its day is not a date" }
        if let today = LocalDay(parsing: today), parsed > today + 1 {
            return "\(name) is for a day that has not come yet"
        }
        guard let answer, dayAnswers.contains(answer) else {
            return "\(name) is not one of \(dayAnswers.joined(separator: ", "))"
        }
        guard let markedAt, StoredDate.date(markedAt) != nil else { return "\(name): when it was given is not a time" }
        return nil
    }
}
