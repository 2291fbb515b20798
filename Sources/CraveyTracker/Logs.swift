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
    /// How strong it was as it was ridden out, the first the logged intensity; empty for a
    /// craving not ridden.
    public var ratings: [Rating] = []
    /// Every message played during it, in the order played (a deleted one leaves the list).
    public var played: [UUID] = []

    public var band: Intensity.Band { Intensity.band(intensity) }

    /// One rating during a ride: how strong (1–10), so many seconds after the craving's time.
    public struct Rating: Sendable, Equatable, Codable {
        public var seconds: Int
        public var value: Int
        public init(seconds: Int, value: Int) { (self.seconds, self.value) = (seconds, value) }

        /// As stored: `[[seconds, value], …]`.
        static func text(_ ratings: [Rating]) -> String? {
            ratings.isEmpty ? nil : "[" + ratings.map { "[\($0.seconds),\($0.value)]" }.joined(separator: ",") + "]"
        }

        /// Read leniently: pairs that are not two whole numbers are passed over (`check` says so).
        static func list(_ text: String?) -> [Rating] {
            guard let data = text?.data(using: .utf8),
                let pairs = try? JSONDecoder().decode([[Double]].self, from: data)
            else { return [] }
            return pairs.compactMap { pair in
                guard pair.count == 2, let seconds = Int(exactly: pair[0]), let value = Int(exactly: pair[1]) else {
                    return nil
                }
                return Rating(seconds: seconds, value: value)
            }
        }
    }
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
        ratings = Rating.list(row.ratings)
        played = (row.played ?? "").split(separator: ",").compactMap { UUID(uuidString: String($0)) }
    }

    /// The craving as stored.
    var row: CravingRow {
        CravingRow(
            id: id.uuidString, at: StoredDate.text(time.instant), utcOffset: time.utcOffset, intensity: intensity,
            triggers: Trigger.text(Set(triggers)), location: location?.rawValue, notes: notes,
            recordingId: recordingId?.uuidString,
            createdAt: StoredDate.text(createdAt), modifiedAt: StoredDate.text(modifiedAt),
            ratings: Rating.text(ratings),
            played: played.isEmpty ? recordingId?.uuidString : played.map(\.uuidString).joined(separator: ","))
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
