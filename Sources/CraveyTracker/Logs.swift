import CraveyLibrary
import Foundation

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
enum LogRowValues {
    static func common(id: String?, at: String?, utcOffset: Int?, createdAt: String?, modifiedAt: String?) -> (
        UUID, LogTime, Date, Date
    ) {
        let id = id.flatMap(UUID.init(uuidString:)) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        let time = LogTime(
            instant: at.flatMap(StoredDate.date) ?? Date(timeIntervalSince1970: 0), utcOffset: utcOffset ?? 0)
        let created = createdAt.flatMap(StoredDate.date) ?? time.instant
        return (id, time, created, modifiedAt.flatMap(StoredDate.date) ?? created)
    }
}

/// Rows are read leniently: a value another program stored that cravey would refuse is read as
/// near as it can be (`check` reports it), never a crash.
extension Craving {
    init(row: CravingRow) {
        (id, time, createdAt, modifiedAt) = LogRowValues.common(
            id: row.id, at: row.at, utcOffset: row.utcOffset, createdAt: row.createdAt, modifiedAt: row.modifiedAt)
        intensity = row.intensity ?? Intensity.standard
        triggers = Trigger.set(row.triggers ?? "")
        location = row.location.flatMap(Location.init(rawValue:))
        notes = row.notes
        recordingId = row.recordingId.flatMap(UUID.init(uuidString:))
    }

    /// The craving as stored.
    var row: CravingRow {
        CravingRow(
            id: id.uuidString, at: StoredDate.text(time.instant), utcOffset: time.utcOffset, intensity: intensity,
            triggers: Trigger.text(Set(triggers)), location: location?.rawValue, notes: notes,
            recordingId: recordingId?.uuidString,
            createdAt: StoredDate.text(createdAt), modifiedAt: StoredDate.text(modifiedAt))
    }
}

extension Usage {
    init(row: UseRow) {
        (id, time, createdAt, modifiedAt) = LogRowValues.common(
            id: row.id, at: row.at, utcOffset: row.utcOffset, createdAt: row.createdAt, modifiedAt: row.modifiedAt)
        method = row.method.flatMap(Method.init(rawValue:)) ?? .bowls
        amount = row.amount ?? method.amounts[0]
        triggers = Trigger.set(row.triggers ?? "")
        location = row.location.flatMap(Location.init(rawValue:))
        notes = row.notes
        moodAfter = row.moodAfter
        cravingId = row.cravingId.flatMap(UUID.init(uuidString:))
    }

    /// The use as stored.
    var row: UseRow {
        UseRow(
            id: id.uuidString, at: StoredDate.text(time.instant), utcOffset: time.utcOffset, method: method.rawValue,
            amount: amount,
            triggers: Trigger.text(Set(triggers)), location: location?.rawValue, notes: notes, moodAfter: moodAfter,
            cravingId: cravingId?.uuidString, createdAt: StoredDate.text(createdAt),
            modifiedAt: StoredDate.text(modifiedAt))
    }
}

extension LogEntry {
    init(row: LogRow) {
        switch row {
        case let .craving(craving): self = .craving(Craving(row: craving))
        case let .use(use): self = .use(Usage(row: use))
        }
    }
}
