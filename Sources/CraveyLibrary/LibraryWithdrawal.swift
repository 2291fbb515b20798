import FoundationEssentials
import GRDB

/// A withdrawal check as stored: the day it was made for (one a day) and six scores, 0–10, in
/// `WithdrawalCheckRow.columns`' order, and the moment it was kept.
public struct WithdrawalCheckRow: Sendable, Equatable {
    /// The scores' columns, in the order they are typed: sleep trouble, irritability or anger,
    /// anxiety, appetite change, strange dreams, craving.
    public static let columns = ["sleep", "irritability", "anxiety", "appetite", "dreams", "craving"]

    public var day: String
    public var scores: [Int]
    public var checkedAt: String

    public init(day: String, scores: [Int], checkedAt: String) {
        (self.day, self.scores, self.checkedAt) = (day, scores, checkedAt)
    }
}

extension Store {
    /// The three triggers that journal a table's rows under `kind`, keyed by `key` (the journal's
    /// way for every table typed by the person from v14 on).
    static func journalTriggers(table: String, kind: String, key: String) -> String {
        ["insert", "update", "delete"].map { event in
            """
            CREATE TRIGGER \(table)_journal_\(event) AFTER \(event.uppercased()) ON \(table) BEGIN
              INSERT INTO pendingJournal (kind, id) VALUES ('\(kind)', \(event == "delete" ? "old" : "new").\(key));
            END;
            """
        }.joined(separator: "\n")
    }

    /// The withdrawal checks (migration v14). Never changes once shipped.
    static let withdrawalSchema =
        """
        -- A withdrawal check: one a day (a second the same day replaces the first), each symptom
        -- scored 0-10 by the person, and when it was kept. Journaled as the logs are.
        CREATE TABLE withdrawalCheck (
          day TEXT PRIMARY KEY NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
        """
        + WithdrawalCheckRow.columns.map {
            "  \($0) INTEGER NOT NULL CHECK (typeof(\($0)) = 'integer' AND \($0) BETWEEN 0 AND 10),"
        }.joined(separator: "\n")
            + """

              checkedAt TEXT NOT NULL
            );

            """ + journalTriggers(table: "withdrawalCheck", kind: "withdrawal", key: "day")
}

/// Withdrawal checks: what a person typed of how they feel, kept under the logs' rules (one
/// transaction, under the library lock, journaled and fsynced before it is said).
extension Library {
    private static let withdrawalSelect =
        "SELECT day, \(WithdrawalCheckRow.columns.joined(separator: ", ")), checkedAt FROM withdrawalCheck"

    /// Every check stored, oldest day first (none before the schema has them).
    public func withdrawalChecks() throws -> [WithdrawalCheckRow] {
        try readLogs { db in
            guard try db.tableExists("withdrawalCheck") else { return [] }
            return try Row.fetchAll(db, sql: Self.withdrawalSelect + " ORDER BY day").map(Self.withdrawalRow)
        }
    }

    /// Keeps `scores` (six, 0–10) for `day` (YYYY-MM-DD), replacing the check made for that day
    /// before; returns the check it replaced (nil: none).
    @discardableResult
    package func keepWithdrawalCheck(_ day: String, scores: [Int], at date: Date) throws -> WithdrawalCheckRow? {
        precondition(scores.count == WithdrawalCheckRow.columns.count)
        return try writeLogs(step: "withdrawal.check", lockWait: Self.logLockWait) { db in
            let before = try Row.fetchOne(db, sql: Self.withdrawalSelect + " WHERE day = ?", arguments: [day])
                .map(Self.withdrawalRow)
            let names = WithdrawalCheckRow.columns
            try db.execute(
                sql: """
                    INSERT INTO withdrawalCheck (day, \(names.joined(separator: ", ")), checkedAt)
                    VALUES (?, \(names.map { _ in "?" }.joined(separator: ", ")), ?)
                    ON CONFLICT (day) DO UPDATE SET \(names.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")),
                    checkedAt = excluded.checkedAt
                    """,
                arguments: StatementArguments(
                    [day] + scores.map { $0 as (any DatabaseValueConvertible)? } + [StoredDate.text(date)]))
            return before
        }
    }

    /// A row read leniently (`check` says what is wrong with a value another program stored).
    private static func withdrawalRow(_ row: Row) -> WithdrawalCheckRow {
        let scores = (1...WithdrawalCheckRow.columns.count).map { Int.fromDatabaseValue(row[$0]) ?? -1 }
        return WithdrawalCheckRow(
            day: String.fromDatabaseValue(row[0]) ?? "", scores: scores,
            checkedAt: String.fromDatabaseValue(row[WithdrawalCheckRow.columns.count + 1]) ?? "")
    }

    /// Holds every check to the rules typed input meets (`Validation.withdrawalProblem`); with
    /// `repair`, one that breaks them is removed (journaled as a deletion).
    static func checkWithdrawalChecks(_ db: Database, today: String, repair: Bool, into report: inout Report) throws {
        guard try db.tableExists("withdrawalCheck") else { return }
        for row in try Row.fetchAll(db, sql: withdrawalSelect) {
            let day = String.fromDatabaseValue(row[0])
            var values: [String: Int64?] = [:]
            for (index, name) in WithdrawalCheckRow.columns.enumerated() {
                let value = row[index + 1] as DatabaseValue
                values[name] = if case .int64(let n) = value.storage { n } else { nil }
            }
            let checkedAt = String.fromDatabaseValue(row[WithdrawalCheckRow.columns.count + 1])
            if let problem = Validation.withdrawalProblem(
                day: day, scores: values, checkedAt: checkedAt, today: today)
            {
                report.add(.invalidSetting, problem)
                if repair { try db.execute(sql: "DELETE FROM withdrawalCheck WHERE day IS ?", arguments: [day]) }
            }
        }
    }
}

extension Validation {
    /// What is wrong with a withdrawal check as stored (nil: nothing): a real day no later than
    /// `today` (a day's grace for a change of time zone), each score a whole number 0–10, and a
    /// time.
    public static func withdrawalProblem(day: String?, scores: [String: Int64?], checkedAt: String?, today: String)
        -> String?
    {
        let name = "the withdrawal check of '\((day ?? "?").prefix(20))'"
        guard let day, let parsed = LocalDay(parsing: day) else { return "\(name): its day is not a date" }
        if let today = LocalDay(parsing: today), parsed > today + 1 {
            return "\(name) is for a day that has not come yet"
        }
        for column in WithdrawalCheckRow.columns {
            guard let score = scores[column] ?? nil, (0...10).contains(score) else {
                return "\(name): its \(column) score is not a whole number from 0 to 10"
            }
        }
        guard let checkedAt, StoredDate.date(checkedAt) != nil else { return "\(name): when it was kept is not a time" }
        return nil
    }
}
