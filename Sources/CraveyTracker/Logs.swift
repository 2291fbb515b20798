import CraveyLibrary
import Foundation
import GRDB

/// A craving, logged: how strong, when, and optionally what set it off, where, notes, and the
/// message played during it.
public struct Craving: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var time: LogTime
    public var intensity: Int
    public var triggers: [Trigger]
    public var location: Location?
    public var notes: String?
    /// The recording played during the craving (cleared when that recording is deleted).
    public var recordingId: UUID?
    public var createdAt: Date
    public var modifiedAt: Date

    public var band: Intensity.Band { Intensity.band(intensity) }
}

/// A use, logged: method and amount, when, and optionally what set it off, where, notes, the mood
/// after it and the craving it followed.
public struct Usage: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var time: LogTime
    public var method: Method
    public var amount: Double
    public var triggers: [Trigger]
    public var location: Location?
    public var notes: String?
    public var moodAfter: Int?
    /// The craving this use followed (cleared when that craving is deleted on its own).
    public var cravingId: UUID?
    public var createdAt: Date
    public var modifiedAt: Date

    public var amountText: String { method.amountText(amount) }
}

/// One log of either kind, for listings that show both.
public enum LogEntry: Sendable, Equatable {
    case craving(Craving)
    case use(Usage)

    public var id: UUID {
        switch self {
        case let .craving(c): c.id
        case let .use(u): u.id
        }
    }

    public var time: LogTime {
        switch self {
        case let .craving(c): c.time
        case let .use(u): u.time
        }
    }

    public var notes: String? {
        switch self {
        case let .craving(c): c.notes
        case let .use(u): u.notes
        }
    }
}

// MARK: - Rows

/// What a craving's and a use's rows share, read leniently.
enum LogRow {
    static func common(_ row: Row) -> (UUID, LogTime, Date, Date) {
        let id = (row["id"] as String?).flatMap(UUID.init(uuidString:)) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        let time = LogTime(instant: (row["at"] as String?).flatMap(StoredDate.date) ?? Date(timeIntervalSince1970: 0),
                           utcOffset: row["utcOffset"] as Int? ?? 0)
        let created = (row["createdAt"] as String?).flatMap(StoredDate.date) ?? time.instant
        return (id, time, created, (row["modifiedAt"] as String?).flatMap(StoredDate.date) ?? created)
    }
}

/// Rows are read by column name and leniently: a value another program stored that cravey would
/// refuse is read as near as it can be (`check` reports it), never a crash.
extension Craving {
    static let columns = "id, at, utcOffset, intensity, triggers, location, notes, recordingId, createdAt, modifiedAt"

    init(row: Row) {
        (id, time, createdAt, modifiedAt) = LogRow.common(row)
        intensity = row["intensity"] as Int? ?? Intensity.standard
        triggers = Trigger.set(row["triggers"] as String? ?? "")
        location = (row["location"] as String?).flatMap(Location.init(rawValue:))
        notes = row["notes"]
        recordingId = (row["recordingId"] as String?).flatMap(UUID.init(uuidString:))
    }

    func insert(into db: Database) throws {
        try db.execute(sql: "INSERT INTO craving (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", arguments: [
            id.uuidString, StoredDate.text(time.instant), time.utcOffset, intensity, Trigger.text(Set(triggers)),
            location?.rawValue, notes, recordingId?.uuidString, StoredDate.text(createdAt), StoredDate.text(modifiedAt),
        ])
    }
}

extension Usage {
    static let columns = "id, at, utcOffset, method, amount, triggers, location, notes, moodAfter, cravingId, createdAt, modifiedAt"

    init(row: Row) {
        (id, time, createdAt, modifiedAt) = LogRow.common(row)
        method = (row["method"] as String?).flatMap(Method.init(rawValue:)) ?? .bowls
        amount = row["amount"] as Double? ?? method.amounts[0]
        triggers = Trigger.set(row["triggers"] as String? ?? "")
        location = (row["location"] as String?).flatMap(Location.init(rawValue:))
        notes = row["notes"]
        moodAfter = row["moodAfter"]
        cravingId = (row["cravingId"] as String?).flatMap(UUID.init(uuidString:))
    }

    func insert(into db: Database) throws {
        try db.execute(sql: "INSERT INTO usage (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", arguments: [
            id.uuidString, StoredDate.text(time.instant), time.utcOffset, method.rawValue, amount, Trigger.text(Set(triggers)),
            location?.rawValue, notes, moodAfter, cravingId?.uuidString, StoredDate.text(createdAt), StoredDate.text(modifiedAt),
        ])
    }
}
