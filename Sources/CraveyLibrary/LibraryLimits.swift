import FoundationEssentials
import GRDB

/// A limit as stored, one of four kinds:
/// - `break`: a daily window not to use, `startMinute` to `endMinute` (minutes after midnight,
///   0–1439, the end may be before the start: the window crosses midnight); id "break:HH:MM-HH:MM".
/// - `weekDays`: a weekly target of at most `amount` days of use a week (0–6); id "week:days".
/// - `weekAmount`: a weekly target of at most `amount` of one method (`methods`, in its unit);
///   id "week:" and the method.
/// - `planned`: the use planned for (harm reduction): the methods (`methods`, commas between), at
///   most `amount` of a method a day, in the hours `startMinute` to `endMinute` (whole hours,
///   0–1440; across midnight when the end is before the start); id "planned".
public struct LimitRow: Sendable, Equatable {
    public static let kinds = ["break", "weekDays", "weekAmount", "planned"]

    public var id: String
    public var kind: String
    public var startMinute: Int?
    public var endMinute: Int?
    public var methods: String?
    public var amount: Double?
    public var createdAt: String

    public init(
        id: String, kind: String, startMinute: Int? = nil, endMinute: Int? = nil, methods: String? = nil,
        amount: Double? = nil, createdAt: String
    ) {
        (self.id, self.kind, self.startMinute, self.endMinute) = (id, kind, startMinute, endMinute)
        (self.methods, self.amount, self.createdAt) = (methods, amount, createdAt)
    }
}

extension Store {
    /// The limits (migration v16). Never changes once shipped.
    static let limitSchema = """
        -- A limit the person set: a break window, a weekly target (days of use, or an amount of a
        -- method) or the use planned for. Typed by the person: journaled as the logs are.
        CREATE TABLE limitRule (
          id TEXT PRIMARY KEY NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('break', 'weekDays', 'weekAmount', 'planned')),
          startMinute INTEGER CHECK (startMinute BETWEEN 0 AND 1440),
          endMinute INTEGER CHECK (endMinute BETWEEN 0 AND 1440),
          methods TEXT,
          amount REAL CHECK (amount >= 0),
          createdAt TEXT NOT NULL
        );
        """ + journaled(table: "limitRule", kind: "limit", key: "id")
}

/// Limits: typed input, kept under the logs' rules (one transaction, under the library lock,
/// journaled and fsynced before it is said).
extension Library {
    /// How many break windows a person keeps at most.
    public static let maxBreaks = 8

    private static let limitSelect =
        "SELECT id, kind, startMinute, endMinute, methods, amount, createdAt FROM limitRule"

    /// Every limit stored, oldest first (none before the schema has them).
    public func limitRows() throws -> [LimitRow] {
        try readLogs { db in
            guard try db.tableExists("limitRule") else { return [] }
            return try Row.fetchAll(db, sql: Self.limitSelect + " ORDER BY createdAt, id").map { row in
                LimitRow(
                    id: String.fromDatabaseValue(row[0]) ?? "", kind: String.fromDatabaseValue(row[1]) ?? "",
                    startMinute: Int.fromDatabaseValue(row[2]), endMinute: Int.fromDatabaseValue(row[3]),
                    methods: String.fromDatabaseValue(row[4]), amount: Double.fromDatabaseValue(row[5]),
                    createdAt: String.fromDatabaseValue(row[6]) ?? "")
            }
        }
    }

    /// The days (numbers of `LocalDay`, each on the craving's own clock) with a craving logged
    /// at `since` or later: a week against the weekly target with nothing logged is not judged.
    public func cravingDays(since: Date) throws -> Set<Int> {
        try readLogs { db in
            var days = Set<Int>()
            let rows = try Row.fetchCursor(
                db, sql: "SELECT at, utcOffset FROM craving WHERE at >= ?", arguments: [StoredDate.text(since)])
            while let row = try rows.next() {
                guard let at = String.fromDatabaseValue(row[0]).flatMap(StoredDate.date) else { continue }
                days.insert(LocalDay(at, utcOffset: Int.fromDatabaseValue(row[1]) ?? 0).number)
            }
            return days
        }
    }

    /// In one transaction: removes the limits of `kinds` and those with `ids`, then stores
    /// `adding` (each held to `Validation.limitProblem` first: one that breaks the rules is
    /// refused with nothing written). A break window past `maxBreaks` is refused too. Returns how
    /// many rows were removed.
    @discardableResult
    public func changeLimits(removingKinds kinds: [String] = [], ids: [String] = [], adding: [LimitRow]) throws
        -> Int
    {
        for row in adding {
            if let problem = Validation.limitProblem(
                id: row.id, kind: row.kind, startMinute: row.startMinute.map(Int64.init),
                endMinute: row.endMinute.map(Int64.init), methods: row.methods, amount: row.amount,
                createdAt: row.createdAt)
            {
                throw LibraryError.invalid(field: "limit", reason: problem)
            }
        }
        return try writeLogs(step: "limit.change", lockWait: Self.logLockWait) { db in
            var removed = 0
            for kind in kinds {
                try db.execute(sql: "DELETE FROM limitRule WHERE kind = ?", arguments: [kind])
                removed += db.changesCount
            }
            for id in ids {
                try db.execute(sql: "DELETE FROM limitRule WHERE id = ?", arguments: [id])
                removed += db.changesCount
            }
            for row in adding {
                try db.execute(
                    sql: """
                        INSERT INTO limitRule (id, kind, startMinute, endMinute, methods, amount, createdAt)
                        VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING
                        """,
                    arguments: [
                        row.id, row.kind, row.startMinute, row.endMinute, row.methods, row.amount, row.createdAt,
                    ])
            }
            let breaks = try Int.fetchOne(db, sql: "SELECT count(*) FROM limitRule WHERE kind = 'break'") ?? 0
            if breaks > Self.maxBreaks {
                throw LibraryError.invalid(
                    field: "break", reason: "at most \(Self.maxBreaks) break windows are kept; remove one first")
            }
            return removed
        }
    }

    /// Holds every limit to the rules typed input meets; with `repair`, one that breaks them is
    /// removed (journaled as a deletion).
    static func checkLimits(_ db: Database, repair: Bool, into report: inout Report) throws {
        try checkTypedRows(
            db, table: "limitRule",
            columns: ["id", "kind", "startMinute", "endMinute", "methods", "amount", "createdAt"],
            repair: repair, into: &report
        ) { row in
            let amount: Double?? =
                switch (row[5] as DatabaseValue).storage {
                case .null: .some(nil)
                case .int64(let n): .some(Double(n))
                case .double(let d): .some(d)
                default: nil
                }
            guard let amount else {
                return "the limit '\((String.fromDatabaseValue(row[0]) ?? "?").prefix(40))': its amount is not a number"
            }
            return Validation.limitProblem(
                id: String.fromDatabaseValue(row[0]), kind: String.fromDatabaseValue(row[1]),
                startMinute: Self.wholeNumber(row[2] as DatabaseValue),
                endMinute: Self.wholeNumber(row[3] as DatabaseValue),
                methods: String.fromDatabaseValue(row[4]), amount: amount,
                createdAt: String.fromDatabaseValue(row[6]))
        }
    }

    /// A column's whole number (-1 for anything else stored, nil for none).
    private static func wholeNumber(_ value: DatabaseValue) -> Int64? {
        switch value.storage {
        case .null: nil
        case .int64(let n): n
        default: -1
        }
    }
}

extension Validation {
    /// The methods a limit names (the tracker's `Method` is this list, in its order).
    public static let limitMethods = ["bowls", "vape", "dab", "edible"]
    /// The largest amount a limit keeps, in a method's unit (a week of the largest edible).
    public static let maxLimitAmount = 10_000.0

    /// The id a break window from `start` to `end` (minutes after midnight) is stored under:
    /// "break:21:00-23:30".
    public static func breakId(start: Int, end: Int) -> String {
        func hhmm(_ minute: Int) -> String {
            let (h, m) = (minute / 60, minute % 60)
            return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
        }
        return "break:" + hhmm(start) + "-" + hhmm(end)
    }

    /// What is wrong with a limit as stored (nil: nothing); see `LimitRow` for each kind's rules.
    /// `startMinute`/`endMinute` -1: not a whole number.
    public static func limitProblem(
        id: String?, kind: String?, startMinute: Int64?, endMinute: Int64?, methods: String?, amount: Double?,
        createdAt: String?
    ) -> String? {
        let name = "the limit '\((id ?? "?").prefix(40))'"
        guard let id, !id.isEmpty, id.utf8.count <= 64 else { return "\(name) has no id cravey would make" }
        guard let kind, LimitRow.kinds.contains(kind) else { return "\(name) is of no kind cravey knows" }
        guard let createdAt, StoredDate.date(createdAt) != nil else { return "\(name): when it was set is not a time" }
        let named = (methods ?? "").split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        switch kind {
        case "break":
            guard let start = startMinute, let end = endMinute, (0...1439).contains(start), (0...1439).contains(end),
                start != end
            else { return "\(name): its window is not two different times of the day" }
            guard id == breakId(start: Int(start), end: Int(end)) else { return "\(name) is not named for its window" }
            guard methods == nil, amount == nil else { return "\(name): a break window holds no amount" }
        case "weekDays":
            guard id == "week:days", let amount, (0...6).contains(amount), amount == amount.rounded() else {
                return "\(name): a week's days of use are a whole number from 0 to 6"
            }
        case "weekAmount":
            guard let methods, limitMethods.contains(methods), id == "week:" + methods else {
                return "\(name) names no method cravey knows"
            }
            guard let amount, amount > 0, amount <= maxLimitAmount else {
                return "\(name): its amount is not more than 0 and at most \(Int(maxLimitAmount))"
            }
        default:  // planned
            guard id == "planned", !named.isEmpty, named.allSatisfy(limitMethods.contains),
                Set(named).count == named.count
            else { return "\(name) names no methods cravey knows" }
            guard let amount, amount > 0, amount <= maxLimitAmount else {
                return "\(name): its amount a day is not more than 0 and at most \(Int(maxLimitAmount))"
            }
            guard let start = startMinute, let end = endMinute, start % 60 == 0, end % 60 == 0,
                (0...1380).contains(start), (60...1440).contains(end), start != end
            else { return "\(name): its hours are not two different whole hours of the day" }
        }
        return nil
    }
}

extension Library {
    /// What is wrong with a limit's line of the journal (nil: nothing), as `check` holds the row.
    static func limitLineProblem(_ values: [String: JournalValue]) -> String? {
        func text(_ column: String) -> String? {
            if case .text(let value)? = values[column] { value } else { nil }
        }
        func whole(_ column: String) -> Int64? {
            switch values[column] {
            case nil, .null?: nil
            case .integer(let n)?: n
            default: -1
            }
        }
        let amount: Double?
        switch values["amount"] {
        case nil, .null?: amount = nil
        case .integer(let n)?: amount = Double(n)
        case .real(let d)?: amount = d
        default: return "the limit '\((text("id") ?? "?").prefix(40))': its amount is not a number"
        }
        return Validation.limitProblem(
            id: text("id"), kind: text("kind"), startMinute: whole("startMinute"), endMinute: whole("endMinute"),
            methods: text("methods"), amount: amount, createdAt: text("createdAt"))
    }
}
