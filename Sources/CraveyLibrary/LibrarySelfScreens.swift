import FoundationEssentials
import GRDB

/// A self-screen as stored: its id, when it was taken, the eight answers as scored (items 1–7:
/// 0–4, item 8: 0, 2 or 4), joined by commas, and their total.
public struct SelfScreenRow: Sendable, Equatable {
    public var id: String
    public var takenAt: String
    public var answers: String
    public var score: Int

    public init(id: String, takenAt: String, answers: String, score: Int) {
        (self.id, self.takenAt, self.answers, self.score) = (id, takenAt, answers, score)
    }
}

extension Store {
    /// The self-screens (migration v15). Never changes once shipped.
    static let selfScreenSchema = """
        -- A self-screen the person took: the eight answers as scored, their total and when.
        -- Typed by the person: journaled as the logs are.
        CREATE TABLE selfScreen (
          id TEXT PRIMARY KEY NOT NULL,
          takenAt TEXT NOT NULL,
          answers TEXT NOT NULL CHECK (answers GLOB '[0-4],[0-4],[0-4],[0-4],[0-4],[0-4],[0-4],[024]'),
          score INTEGER NOT NULL CHECK (score BETWEEN 0 AND 32)
        );
        CREATE INDEX selfScreen_taken ON selfScreen (takenAt);
        """ + journaled(table: "selfScreen", kind: "screen", key: "id")

    /// The triggers that note each change of `table`'s rows for the journal as `kind`, by `key`
    /// (see `Library.journaledTables`). A migration using it runs its text as it is now: it
    /// never changes once shipped.
    static func journaled(table: String, kind: String, key: String) -> String {
        [("insert", "INSERT", "new"), ("update", "UPDATE", "new"), ("delete", "DELETE", "old")].map {
            name, event, row in
            """

            CREATE TRIGGER \(table)_journal_\(name) AFTER \(event) ON \(table) BEGIN
              INSERT INTO pendingJournal (kind, id) VALUES ('\(kind)', \(row).\(key));
            END;
            """
        }.joined()
    }
}

/// The self-screens a person took: typed input, kept under the logs' rules (one transaction,
/// under the library lock, journaled and fsynced before it is said).
extension Library {
    /// Every self-screen stored, oldest first (none before the schema has them).
    public func selfScreens() throws -> [SelfScreenRow] {
        try readLogs { db in
            guard try db.tableExists("selfScreen") else { return [] }
            return try Row.fetchAll(db, sql: "SELECT id, takenAt, answers, score FROM selfScreen ORDER BY takenAt, id")
                .map { row in
                    SelfScreenRow(
                        id: String.fromDatabaseValue(row[0]) ?? "", takenAt: String.fromDatabaseValue(row[1]) ?? "",
                        answers: String.fromDatabaseValue(row[2]) ?? "", score: Int.fromDatabaseValue(row[3]) ?? 0)
                }
        }
    }

    /// Keeps a self-screen: `answers` as scored (checked by `Validation.selfScreenProblem`; one
    /// that breaks the rules is refused with nothing written). Returns the row kept.
    @discardableResult
    package func saveSelfScreen(answers: [Int], at date: Date) throws -> SelfScreenRow {
        let row = SelfScreenRow(
            id: UUID().uuidString, takenAt: StoredDate.text(date),
            answers: answers.map(String.init).joined(separator: ","), score: answers.reduce(0, +))
        if let problem = Validation.selfScreenProblem(
            id: row.id, takenAt: row.takenAt, answers: row.answers, score: Int64(row.score), today: nil)
        {
            throw LibraryError.invalid(field: "answers", reason: problem)
        }
        try writeLogs(step: "screen.save", lockWait: Self.logLockWait) { db in
            try db.execute(
                sql: "INSERT INTO selfScreen (id, takenAt, answers, score) VALUES (?, ?, ?, ?)",
                arguments: [row.id, row.takenAt, row.answers, row.score])
        }
        return row
    }

    /// Holds every self-screen to the rules typed input meets; with `repair`, one that breaks
    /// them is removed (journaled as a deletion).
    static func checkSelfScreens(_ db: Database, today: String, repair: Bool, into report: inout Report) throws {
        try checkTypedRows(
            db, table: "selfScreen", columns: ["id", "takenAt", "answers", "score"], repair: repair, into: &report
        ) {
            Validation.selfScreenProblem(
                id: String.fromDatabaseValue($0[0]), takenAt: String.fromDatabaseValue($0[1]),
                answers: String.fromDatabaseValue($0[2]), score: Int64.fromDatabaseValue($0[3]), today: today)
        }
    }

    /// Holds each row of `table` (its `columns`, the first its key) to `problem` (nil: it holds),
    /// each one that does not named in `report`; with `repair`, removed (journaled as a deletion).
    static func checkTypedRows(
        _ db: Database, table: String, columns: [String], repair: Bool, into report: inout Report,
        problem: (Row) -> String?
    ) throws {
        guard try db.tableExists(table) else { return }
        for row in try Row.fetchAll(db, sql: "SELECT \(columns.joined(separator: ", ")) FROM \(table)") {
            guard let problem = problem(row) else { continue }
            report.add(.invalidSetting, problem)
            if repair { try db.execute(sql: "DELETE FROM \(table) WHERE \(columns[0]) IS ?", arguments: [row[0]]) }
        }
    }
}

extension Validation {
    /// The scores each of the eight answers can have: items 1–7 score 0–4, item 8 scores 0, 2 or 4.
    public static let selfScreenScores: [[Int]] = Array(repeating: [0, 1, 2, 3, 4], count: 7) + [[0, 2, 4]]

    /// What is wrong with a self-screen as stored (nil: nothing): an id, a time (no later than a
    /// day after `today`, when given), eight answers each one its item scores, and their total.
    public static func selfScreenProblem(
        id: String?, takenAt: String?, answers: String?, score: Int64?, today: String?
    ) -> String? {
        let name = "the self-screen '\((id ?? "?").prefix(40))'"
        guard let id, !id.isEmpty, id.utf8.count <= 64 else { return "\(name) has no id cravey would make" }
        guard let takenAt, let taken = StoredDate.date(takenAt) else {
            return "\(name): when it was taken is not a time"
        }
        if let today, let day = LocalDay(parsing: today), LocalDay(taken, in: .current) > day + 1 {
            return "\(name) was taken on a day that has not come yet"
        }
        let values = (answers ?? "").split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
        guard values.count == selfScreenScores.count,
            zip(values, selfScreenScores).allSatisfy({ value, scores in value.map(scores.contains) ?? false })
        else { return "\(name): its answers are not eight scores of the questions" }
        guard let score, score == Int64(values.compactMap { $0 }.reduce(0, +)) else {
            return "\(name): its score is not the sum of its answers"
        }
        return nil
    }
}
