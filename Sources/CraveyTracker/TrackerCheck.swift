import CraveyLibrary
import Foundation
import GRDB

/// `check` over the logs: every row read as stored (another program can switch the schema's
/// checks off) against the rules, and every link against the rows it names.
extension Tracker {
    public struct Finding: Sendable, Equatable {
        public enum Kind: String, Sendable {
            /// A log holding a value cravey would refuse: reported, left as it is (it is the
            /// user's data; `log edit` or `log delete` mends it).
            case invalidLog
            /// A link to a recording or craving that is not there: `repair` clears it.
            case danglingLink
            /// The search over the logs' notes out of step with them: `repair` rebuilds it.
            case searchIndex
        }

        public var kind: Kind
        public var subject: String
    }

    /// Checks every log; with `repair`, clears dangling links and rebuilds the notes' search.
    public func check(repair: Bool) throws -> [Finding] {
        var findings: [Finding] = []
        // Only a repair writes (and takes the lock): a plain check reads, on a read-only disk too.
        let inspect = { (db: Database) throws in
            for row in try Row.fetchAll(db, sql: "SELECT rowid AS rowid, * FROM craving") {
                for problem in Self.problems(inCraving: row) { findings.append(Finding(kind: .invalidLog, subject: "craving \(Self.label(row)): \(problem)")) }
            }
            for row in try Row.fetchAll(db, sql: "SELECT rowid AS rowid, * FROM usage") {
                for problem in Self.problems(inUse: row) { findings.append(Finding(kind: .invalidLog, subject: "use \(Self.label(row)): \(problem)")) }
            }
            let dangling = [
                ("craving", "recordingId", "recording", "SELECT id, recordingId AS target FROM craving WHERE recordingId IS NOT NULL AND recordingId NOT IN (SELECT id FROM recording)"),
                ("use", "cravingId", "craving", "SELECT id, cravingId AS target FROM usage WHERE cravingId IS NOT NULL AND cravingId NOT IN (SELECT id FROM craving)"),
            ]
            for (kind, column, target, sql) in dangling {
                for row in try Row.fetchAll(db, sql: sql) {
                    findings.append(Finding(kind: .danglingLink, subject: "\(kind) \(Self.label(row)) → \(target) \(row["target"] as String? ?? "?") that is not there"))
                }
                if repair {
                    let table = kind == "use" ? "usage" : kind
                    try db.execute(sql: "UPDATE \(table) SET \(column) = NULL WHERE \(column) IS NOT NULL AND \(column) NOT IN (SELECT id FROM \(target))")
                }
            }
            let indexed = try Int.fetchOne(db, sql: "SELECT count(*) FROM logSearch") ?? 0
            let withNotes = try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM craving WHERE notes IS NOT NULL) + (SELECT count(*) FROM usage WHERE notes IS NOT NULL)") ?? 0
            if indexed != withNotes {
                findings.append(Finding(kind: .searchIndex, subject: "\(indexed) notes indexed for \(withNotes) logs with notes"))
                if repair {
                    try db.execute(sql: """
                        DELETE FROM logSearch;
                        INSERT INTO logSearch (notes, kind, logId) SELECT notes, 'craving', id FROM craving WHERE notes IS NOT NULL;
                        INSERT INTO logSearch (notes, kind, logId) SELECT notes, 'use', id FROM usage WHERE notes IS NOT NULL;
                        """)
                }
            }
        }
        if repair { try library.writeLogs(step: "log.check", inspect) } else { try library.readLogs(inspect) }
        return findings
    }

    /// The logs of another cravey database (a backup's, before it is restored) held to the same
    /// rules as typed logs: one line for each value cravey would refuse.
    public static func problems(inDatabaseAt path: String) throws -> [String] {
        var config = Configuration()
        config.readonly = true
        config.label = "cravey backup check"
        let queue = try DatabaseQueue(path: path, configuration: config)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT rowid AS rowid, * FROM craving").flatMap { row in
                problems(inCraving: row).map { "craving \(label(row)): \($0)" }
            } + Row.fetchAll(db, sql: "SELECT rowid AS rowid, * FROM usage").flatMap { row in
                problems(inUse: row).map { "use \(label(row)): \($0)" }
            }
        }
    }

    static func label(_ row: Row) -> String {
        (row["id"] as String?).map { String($0.prefix(8)) } ?? "(rowid \(row["rowid"] as Int64? ?? 0))"
    }

    static func problems(inCraving row: Row) -> [String] {
        var problems = common(row)
        if exactInt(row["intensity"]).map(Intensity.range.contains) != true {
            problems.append("intensity \(row["intensity"] as DatabaseValue) is not from 1 to 10")
        }
        return problems
    }

    static func problems(inUse row: Row) -> [String] {
        var problems = common(row)
        guard let methodName = row["method"] as String?, let method = Method(rawValue: methodName) else {
            return problems + ["method \(row["method"] as DatabaseValue) is not one of \(Method.allCases.map(\.rawValue).joined(separator: ", "))"]
        }
        let amount = row["amount"] as DatabaseValue
        if case let .double(value) = amount.storage, method.allows(value) {
        } else if case let .int64(value) = amount.storage, method.allows(Double(value)) {
        } else {
            problems.append("amount \(row["amount"] as DatabaseValue) is not an amount of \(methodName)")
        }
        let mood = row["moodAfter"] as DatabaseValue
        if !mood.isNull, exactInt(mood).map(MoodAfter.range.contains) != true {
            problems.append("moodAfter \(mood) is not from 1 to 10")
        }
        return problems
    }

    /// A whole number as stored (an integer, or a real with nothing after the point); nil for
    /// anything else.
    static func exactInt(_ value: DatabaseValue) -> Int? {
        switch value.storage {
        case let .int64(number): Int(exactly: number)
        case let .double(number): Int(exactly: number)
        default: nil
        }
    }

    /// What cravings and uses share: id, times, triggers, location, notes.
    static func common(_ row: Row) -> [String] {
        var problems: [String] = []
        if (row["id"] as String?).flatMap(UUID.init(uuidString:)) == nil { problems.append("id is not a UUID") }
        for column in ["at", "createdAt", "modifiedAt"] where (row[column] as String?).flatMap(StoredDate.date) == nil {
            problems.append("\(column) is not a time")
        }
        if exactInt(row["utcOffset"]).map({ abs($0) <= 18 * 3_600 }) != true { problems.append("utcOffset is not a UTC offset") }
        let triggers = row["triggers"] as String? ?? "?"
        if triggers != Trigger.text(Set(Trigger.set(triggers))) {
            problems.append("triggers '\(triggers)' are not names from \(Trigger.allCases.map(\.rawValue).joined(separator: ", ")), each once in that order")
        }
        let location = row["location"] as DatabaseValue
        if !location.isNull, (row["location"] as String?).flatMap(Location.init(rawValue:)) == nil {
            problems.append("location \(location) is not one of \(Location.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let notes = row["notes"] as DatabaseValue
        if !notes.isNull {
            if let text = row["notes"] as String? {
                do {
                    if try LogRules.notes(text) != text { problems.append("notes are empty or start or end with spaces") }
                } catch {
                    problems.append("\(error)")
                }
            } else {
                problems.append("notes are not text")
            }
        }
        return problems
    }
}
