import FoundationEssentials
import GRDB

/// An if-then plan as stored: the trigger it is for (`forTrigger`, a trigger's name), the place
/// (`location`) and hour of the day (`hour`, 0–23) it is kept to when given, what the person will
/// do instead (`instead`, one sentence) and the message to play (`recordingId`, nil: none).
public struct PlanRow: Sendable, Equatable {
    public var id: String
    public var forTrigger: String
    public var location: String?
    public var hour: Int?
    public var instead: String
    public var recordingId: String?
    public var createdAt: String

    public init(
        id: String, forTrigger: String, location: String? = nil, hour: Int? = nil, instead: String,
        recordingId: String? = nil, createdAt: String
    ) {
        (self.id, self.forTrigger, self.location, self.hour) = (id, forTrigger, location, hour)
        (self.instead, self.recordingId, self.createdAt) = (instead, recordingId, createdAt)
    }
}

/// The plans a person typed, kept as their logs are: one transaction a change under the library
/// lock, journaled before the command says it is kept, in the snapshots and backups, held by
/// `check` to the rules typed input meets.
extension Library {
    /// How many plans a person keeps at most.
    public static let maxPlans = 10

    /// Every plan, oldest first (made in the same second: in the order stored; a clock set for
    /// tests runs from the same moment in each process, so milliseconds do not tell them apart).
    public func plans() throws -> [PlanRow] {
        try readLogs { db in try Self.planRows(db) }
    }

    /// Stores a new plan, unless `maxPlans` are kept already (counted in the same transaction):
    /// false then, and nothing is written.
    public func addPlan(_ row: PlanRow) throws -> Bool {
        try writeLogs(step: "plan.add") { db in
            // The plans a person can see and remove are counted: a row no cravey would write
            // is not listed, so it takes no place of theirs (`check` names it).
            guard try Self.planRows(db).count(where: \.isReadable) < Self.maxPlans else { return false }
            if let recording = row.recordingId,
                try !Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM recording WHERE id = ?)", arguments: [recording])!
            {
                throw LogStoreRefusal.noRecording(recording)
            }
            try db.execute(
                sql:
                    "INSERT INTO plan (id, forTrigger, location, hour, instead, recordingId, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [
                    row.id, row.forTrigger, row.location, row.hour, row.instead, row.recordingId, row.createdAt,
                ])
            return true
        }
    }

    /// Removes the plan with this id; false when there is none.
    public func removePlan(id: String) throws -> Bool {
        try writeLogs(step: "plan.remove") { db in
            try db.execute(sql: "DELETE FROM plan WHERE id = ?", arguments: [id])
            guard db.changesCount > 0 else { return false }
            try Self.forgetWaitingLinks(of: "plan", id, db)  // SyncLinks.swift
            return true
        }
    }

    static func planRows(_ db: Database) throws -> [PlanRow] {
        try Row.fetchAll(
            db,
            sql:
                "SELECT id, forTrigger, location, hour, instead, recordingId, createdAt FROM plan ORDER BY substr(createdAt, 1, 19), rowid"
        ).map {
            PlanRow(
                id: $0[0], forTrigger: $0[1], location: $0[2], hour: $0[3], instead: $0[4], recordingId: $0[5],
                createdAt: $0[6])
        }
    }

    /// Holds every plan to the rules typed input meets (`Validation.planProblem`); with `repair`,
    /// one that breaks them is removed. A plan whose message is not there is kept: `repair`
    /// clears its message, as deleting that message does.
    static func checkPlans(_ db: Database, repair: Bool, into report: inout Report) throws {
        guard try db.tableExists("plan") else { return }
        let dangling = try Row.fetchAll(
            db,
            sql:
                "SELECT id, recordingId FROM plan WHERE recordingId IS NOT NULL AND recordingId NOT IN (SELECT id FROM recording)"
        )
        for row in dangling {
            let id = String.fromDatabaseValue(row[0]) ?? "?", message = String.fromDatabaseValue(row[1]) ?? "?"
            report.add(
                .danglingLink,
                "plan '\(id.prefix(8))' → message \(message.prefix(8)) that is not there (the plan is kept, without a message)"
            )
        }
        if repair && !dangling.isEmpty {
            try db.execute(
                sql:
                    "UPDATE plan SET recordingId = NULL WHERE recordingId IS NOT NULL AND recordingId NOT IN (SELECT id FROM recording)"
            )
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, forTrigger, location, hour, instead FROM plan") {
            func text(_ column: Int) -> String? { String.fromDatabaseValue(row[column]) }
            let hour: Int64?? =
                switch (row[3] as DatabaseValue).storage {
                case .null: .some(nil)
                case .int64(let n): .some(n)
                default: nil
                }
            if let problem = Validation.planProblem(
                id: text(0), trigger: text(1), location: text(2), hour: hour, instead: text(4))
            {
                report.add(.invalidSetting, problem)
                if repair {
                    try db.execute(sql: "DELETE FROM plan WHERE id IS ?", arguments: [text(0)])
                    if let id = text(0) { try forgetWaitingLinks(of: "plan", id, db) }  // SyncLinks.swift
                }
            }
        }
    }
}

extension PlanRow {
    /// Whether cravey lists the plan (its id one it would make, its trigger one it knows): only
    /// these count toward `Library.maxPlans`.
    public var isReadable: Bool { UUID(uuidString: id) != nil && Validation.planTriggers.contains(forTrigger) }
}

extension Validation {
    /// The triggers a plan is for (the tracker's `Trigger` is this list, in its order).
    public static let planTriggers = [
        "hungry", "angry", "anxious", "lonely", "tired", "sad", "bored", "social", "habit", "paraphernalia",
    ]
    /// The places a plan is kept to (the tracker's `Location` is this list, in its order).
    public static let planPlaces = ["home", "work", "social", "outside", "car"]
    /// The longest "instead" a plan keeps, in characters.
    public static let maxPlanLength = 200

    /// What a person will do instead, as stored: trimmed; one line (no control character) of 1
    /// to `maxPlanLength` characters.
    public static func planSentence(_ raw: String) throws -> String {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            throw LibraryError.invalid(field: "plan", reason: "say in a few words what you'll do instead")
        }
        if let bad = trimmed.unicodeScalars.first(where: isUnsafe) {
            throw LibraryError.invalid(field: "plan", reason: "\(describe(bad)) is not allowed")
        }
        guard trimmed.count <= maxPlanLength else {
            throw LibraryError.invalid(
                field: "plan", reason: "\(trimmed.count) characters; at most \(maxPlanLength) are allowed")
        }
        return trimmed
    }

    /// What is wrong with a plan as stored (nil: nothing): an id (a UUID), a trigger and a place from the
    /// lists, an hour 0–23 (`hour` nil: not a whole number; .some(nil): none), and a sentence as
    /// `planSentence` keeps it.
    public static func planProblem(
        id: String?, trigger: String?, location: String?, hour: Int64??, instead: String?
    ) -> String? {
        let name = "plan '\((id ?? "?").prefix(8))'"
        guard let id, UUID(uuidString: id) != nil else { return "\(name) has no id cravey would make" }
        guard let trigger, planTriggers.contains(trigger) else { return "\(name) is for no trigger cravey knows" }
        if let location, !planPlaces.contains(location) { return "\(name) names no place cravey knows" }
        guard let hour, hour.map({ (0...23).contains($0) }) ?? true else { return "\(name): its hour is not 0–23" }
        guard let instead, (try? planSentence(instead)) == instead else {
            return "\(name): its sentence is not one cravey would keep"
        }
        return nil
    }
}
