import FoundationEssentials
import Glibc
import GRDB
internal import GRDBSQLite

/// A log's row read in place, for listings that write ten years of logs straight from their rows
/// (`log --json`, export): each column as SQLite holds it while the row is handed over, text as
/// SQLite's own bytes, never copied into a string. A row whose values are not as cravey writes
/// them is read the ordinary way instead (`row`), so what is written from it stays what it was.
package struct LogRowInPlace {
    /// A column's value as stored; text is borrowed for as long as the row is handed over.
    package enum Value {
        case null
        case integer(Int64)
        case real(Double)
        case text(UnsafeBufferPointer<UInt8>)
        case blob
    }

    /// The columns, in the order the listing's statements read them: the first eight are both
    /// kinds', the last four a craving's or a use's own.
    package struct Column: Sendable {
        let index: Int32

        package static let id = Column(index: 0)
        package static let at = Column(index: 1)
        package static let utcOffset = Column(index: 2)
        package static let triggers = Column(index: 3)
        package static let location = Column(index: 4)
        package static let notes = Column(index: 5)
        package static let createdAt = Column(index: 6)
        package static let modifiedAt = Column(index: 7)
        // A craving's.
        package static let intensity = Column(index: 8)
        package static let recordingId = Column(index: 9)
        package static let ratings = Column(index: 10)
        package static let played = Column(index: 11)
        // A use's.
        package static let method = Column(index: 8)
        package static let amount = Column(index: 9)
        package static let moodAfter = Column(index: 10)
        package static let cravingId = Column(index: 11)
    }

    static let cravingColumns =
        "id, at, utcOffset, triggers, location, notes, createdAt, modifiedAt, intensity, recordingId, ratings, played"
    static let useColumns =
        "id, at, utcOffset, triggers, location, notes, createdAt, modifiedAt, method, amount, moodAfter, cravingId"

    package let isCraving: Bool
    fileprivate let statement: SQLiteStatement
    /// The same row, for reading it the ordinary way.
    fileprivate let ordinary: Row

    package subscript(column: Column) -> Value {
        let i = column.index
        switch sqlite3_column_type(statement, i) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, i))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, i))
        case SQLITE_TEXT:
            // The pointer first, then the length (the order SQLite asks for).
            let bytes = sqlite3_column_text(statement, i)
            return .text(UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, i))))
        default: return .blob
        }
    }

    /// Text as the ordinary reading makes it a string: up to a NUL byte, bad UTF-8 replaced.
    package static func string(_ text: UnsafeBufferPointer<UInt8>) -> String {
        guard let start = text.baseAddress else { return "" }
        // SQLite ends every text it hands out with a NUL.
        return start.withMemoryRebound(to: CChar.self, capacity: text.count + 1) { String(cString: $0) }
    }

    /// The row read the ordinary way (what every other listing reads).
    package var row: LogRow { isCraving ? .craving(CravingRow(row: ordinary)) : .use(UseRow(row: ordinary)) }

    /// The order of listings, newest first: by stored time, then id, as the ordinary rows compare
    /// them (bytes when both are plain ASCII, the strings otherwise).
    func isNewer(than other: LogRowInPlace) -> Bool {
        if case let .text(at) = self[.at], case let .text(id) = self[.id], case let .text(otherAt) = other[.at],
            case let .text(otherId) = other[.id], Self.isPlainASCII(at), Self.isPlainASCII(id),
            Self.isPlainASCII(otherAt), Self.isPlainASCII(otherId)
        {
            let byTime = Self.compare(at, otherAt)
            return byTime != 0 ? byTime > 0 : Self.compare(id, otherId) > 0
        }
        let (mine, theirs) = (key, other.key)
        return mine > theirs
    }

    private var key: (String, String) {
        switch row {
        case let .craving(c): (c.at ?? "", c.id ?? "")
        case let .use(u): (u.at ?? "", u.id ?? "")
        }
    }

    private static func isPlainASCII(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        text.allSatisfy { $0 > 0 && $0 < 0x80 }
    }

    private static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let x = a.baseAddress, let y = b.baseAddress {
            let byBytes = memcmp(x, y, common)
            if byBytes != 0 { return Int(byBytes) }
        }
        return a.count - b.count
    }
}

extension Library {
    /// The logs of `forEachLogRow` (the kinds asked for at or after `since`, newest first, from
    /// one snapshot), each handed to `body` in place: nothing of a row outlives its call, and
    /// memory stays flat in their number. False, with nothing handed, while logs wait in
    /// `logs.waiting` (`logRows` puts those among them).
    package func forEachLogRowInPlace(
        cravings: Bool, uses: Bool, since: String, _ body: (LogRowInPlace) throws -> Void
    ) throws -> Bool {
        var info = stat()
        if lstat(root + "/" + FileStore.waitingLogsFile, &info) == 0, info.st_size > 0 { return false }
        try readLogs { db in
            func cursor(_ wanted: Bool, _ table: String, _ columns: String) throws -> (RowCursor, SQLiteStatement)? {
                guard wanted else { return nil }
                let statement = try db.makeStatement(
                    sql: "SELECT \(columns) FROM \(table) WHERE at >= ? ORDER BY at DESC, id DESC")
                return (try Row.fetchCursor(statement, arguments: [since]), statement.sqliteStatement)
            }
            let cravingRows = try cursor(cravings, "craving", LogRowInPlace.cravingColumns)
            let useRows = try cursor(uses, "usage", LogRowInPlace.useColumns)
            func next(_ rows: (RowCursor, SQLiteStatement)?, craving: Bool) throws -> LogRowInPlace? {
                guard let rows, let row = try rows.0.next() else { return nil }
                return LogRowInPlace(isCraving: craving, statement: rows.1, ordinary: row)
            }
            var craving = try next(cravingRows, craving: true)
            var use = try next(useRows, craving: false)
            while craving != nil || use != nil {
                if let first = craving, use.map({ first.isNewer(than: $0) }) ?? true {
                    try body(first)
                    craving = try next(cravingRows, craving: true)
                } else if let first = use {
                    try body(first)
                    use = try next(useRows, craving: false)
                }
            }
        }
        return true
    }
}
