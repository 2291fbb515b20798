import CraveyLibrary
import Foundation
import GRDB

/// What progress is figured from, read in one pass over each table: per craving and per use only
/// the fields progress uses, as numbers (the time as milliseconds worked out by SQLite, triggers as
/// a bit set), so ten years of logs read in milliseconds.
public struct ProgressFacts: Sendable {
    struct CravingFact: Sendable {
        var ms: Int64
        var utcOffset: Int
        var intensity: Int
        var triggers: UInt16
        var location: Int  // index in Location.allCases, -1 for none
        var linked: Bool  // a use names this craving as the one it followed
        var day: Int { LocalDay.day(millisecondsSince1970: ms, utcOffset: utcOffset) }
    }

    struct UseFact: Sendable {
        var ms: Int64
        var utcOffset: Int
        var method: Method
        var amount: Double
        var triggers: UInt16
        var location: Int
        var day: Int { LocalDay.day(millisecondsSince1970: ms, utcOffset: utcOffset) }
    }

    /// Oldest first.
    var cravings: [CravingFact] = []
    var uses: [UseFact] = []
    /// When the first message or check-in was added (Days in ProgressFigures counts from the first
    /// log, message or check-in).
    var firstRecording: Date?
}

extension Tracker {
    /// The facts for `Progress`, from one snapshot of the database.
    public func progressFacts() throws -> ProgressFacts {
        try library.readLogs { db in
            var facts = ProgressFacts()
            let milliseconds = "CAST(round((julianday(at) - 2440587.5) * 86400000.0) AS INTEGER)"
            let cravings = try Row.fetchCursor(db, sql: """
                SELECT \(milliseconds), utcOffset, intensity, triggers, location,
                       EXISTS (SELECT 1 FROM usage WHERE usage.cravingId = craving.id)
                FROM craving ORDER BY at
                """)
            while let row = try cravings.next() {
                facts.cravings.append(.init(ms: row[0], utcOffset: row[1], intensity: row[2], triggers: Self.triggerBits(row[3]),
                                            location: Self.locationIndex(row[4]), linked: row[5]))
            }
            let uses = try Row.fetchCursor(db, sql: "SELECT \(milliseconds), utcOffset, method, amount, triggers, location FROM usage ORDER BY at")
            while let row = try uses.next() {
                let method = (row[2] as String?).flatMap(Method.init(rawValue:)) ?? .bowls
                facts.uses.append(.init(ms: row[0], utcOffset: row[1], method: method, amount: row[3] as Double? ?? method.amounts[0],
                                        triggers: Self.triggerBits(row[4]), location: Self.locationIndex(row[5])))
            }
            facts.firstRecording = (try String.fetchOne(db, sql: "SELECT min(createdAt) FROM recording")).flatMap(StoredDate.date)
            return facts
        }
    }

    private static let triggerIndex = Dictionary(uniqueKeysWithValues: Trigger.allCases.enumerated().map { (Substring($0.element.rawValue), $0.offset) })
    private static let locationIndexes = Dictionary(uniqueKeysWithValues: Location.allCases.enumerated().map { ($0.element.rawValue, $0.offset) })

    /// The stored trigger text ("anxious,tired") as bits in `Trigger.allCases` order; names not in
    /// the set are left out.
    static func triggerBits(_ text: String?) -> UInt16 {
        guard let text, !text.isEmpty else { return 0 }
        var bits: UInt16 = 0
        for name in text.split(separator: ",") {
            if let index = triggerIndex[name] { bits |= 1 << index }
        }
        return bits
    }

    static func locationIndex(_ text: String?) -> Int {
        text.flatMap { locationIndexes[$0] } ?? -1
    }
}
