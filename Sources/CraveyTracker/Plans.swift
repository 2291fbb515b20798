import CraveyLibrary
import Foundation

/// An if-then plan: "If I'm bored (at home, around 21:00), then I walk round the block" — for one
/// trigger, kept to a place or an hour of the day when given, what the person will do instead and
/// a message of theirs to play. A craving with that trigger shows it first: its sentence heads
/// the offer and the ride, its message is offered first.
public struct Plan: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var trigger: Trigger
    public var location: Location?
    /// The hour of the day (0–23) it is kept to: a craving logged in that hour.
    public var hour: Int?
    /// What the person will do instead: one sentence.
    public var instead: String
    /// The message to play (nil: none, or it was deleted).
    public var recordingId: UUID?
    /// When it was made (the order plans are listed in).
    public var createdAt: Date

    public init(
        id: UUID = UUID(), trigger: Trigger, location: Location? = nil, hour: Int? = nil, instead: String,
        recordingId: UUID? = nil, createdAt: Date = Date(timeIntervalSince1970: 0)
    ) {
        (self.id, self.trigger, self.location, self.hour) = (id, trigger, location, hour)
        (self.instead, self.recordingId, self.createdAt) = (instead, recordingId, createdAt)
    }

    /// Whether the plan is for a craving with these triggers, at this place and hour.
    public func fits(triggers: [Trigger], location: Location?, hour: Int) -> Bool {
        triggers.contains(trigger) && (self.location == nil || self.location == location)
            && (self.hour == nil || self.hour == hour)
    }

    /// How closely it is kept: a place and an hour before either, either before neither.
    var narrowness: Int { (location == nil ? 0 : 1) + (hour == nil ? 0 : 1) }

    /// The plan for a craving with these triggers, place and hour: of those that fit, the most
    /// narrowly kept, then the oldest (the order `plans` lists them in). nil: none fits.
    public static func first(
        for triggers: [Trigger], location: Location?, hour: Int, in plans: [Plan]
    ) -> Plan? {
        plans.enumerated().filter { $0.element.fits(triggers: triggers, location: location, hour: hour) }
            .min { ($1.element.narrowness, $0.offset) < ($0.element.narrowness, $1.offset) }?.element
    }

    /// `messages` with the plan's message first (where it is one of them); the rest keep their order.
    public static func leading(_ plan: Plan?, _ messages: [Recording]) -> [Recording] {
        guard let id = plan?.recordingId, let index = messages.firstIndex(where: { $0.id == id }) else {
            return messages
        }
        var order = messages
        order.insert(order.remove(at: index), at: 0)
        return order
    }

    /// "bored", "bored · at home · 21:00–22:00": what the plan is for, in a few words.
    public var when: String {
        ([trigger.rawValue] + [location.map { "at \($0.rawValue)" }, hour.map(Self.hourText)].compactMap { $0 })
            .joined(separator: " · ")
    }

    /// "21:00–22:00".
    public static func hourText(_ hour: Int) -> String {
        LogTime.digits(hour) + ":00–" + LogTime.digits((hour + 1) % 24) + ":00"
    }

    /// The line that heads the offer and the ride: "Your plan for bored: walk round the block."
    public var line: String { "Your plan for \(when): \(instead)" }
}

/// What a new plan is made of, as typed.
public struct PlanDraft: Sendable {
    public var trigger: Trigger
    public var location: Location?
    public var hour: Int?
    public var instead: String
    public var recordingId: UUID?

    public init(
        trigger: Trigger, location: Location? = nil, hour: Int? = nil, instead: String, recordingId: UUID? = nil
    ) {
        (self.trigger, self.location, self.hour, self.instead, self.recordingId) = (
            trigger, location, hour, instead, recordingId
        )
    }
}

extension Tracker {
    /// Every plan, oldest first (the numbers `plan list` shows and `plan remove` takes).
    public func plans() throws -> [Plan] {
        try library.plans().compactMap(Plan.init(row:))
    }

    /// Keeps a new plan; refused in one line when its sentence is not one line of 1–200
    /// characters, its message is not there, or 10 plans are kept already (nothing changes).
    @discardableResult
    public func addPlan(_ draft: PlanDraft, now: Date) throws -> Plan {
        if let hour = draft.hour, !(0...23).contains(hour) {
            throw TrackerError.invalid(field: "hour", reason: "\(hour) is not an hour of the day (0–23)")
        }
        let plan = Plan(
            trigger: draft.trigger, location: draft.location, hour: draft.hour,
            instead: try Validation.planSentence(draft.instead), recordingId: draft.recordingId,
            createdAt: now.truncatedToMilliseconds)
        let added = try keepingNew { try worded { try library.addPlan(plan.row) } }
        guard added else { throw TrackerError.invalid(field: "plan", reason: Self.plansFull) }
        return plan
    }

    /// Said when an eleventh plan is asked for.
    public static let plansFull =
        "you have \(Library.maxPlans) plans, as many as cravey keeps; remove one you use least first ('cravey plan remove N')"

    /// Removes plan `number` (1 the oldest, as listed); returns it.
    @discardableResult
    public func removePlan(number: Int) throws -> Plan {
        let plans = try self.plans()
        guard (1...max(1, plans.count)).contains(number), number <= plans.count else {
            throw TrackerError.invalid(
                field: "plan",
                reason: plans.isEmpty
                    ? "there are no plans yet" : "there is no plan \(number) (plans: 1–\(plans.count))")
        }
        let plan = plans[number - 1]
        _ = try library.removePlan(id: plan.id.uuidString)
        return plan
    }

    /// The plan for `craving` (see `Plan.first`); nil: none fits.
    public func plan(for craving: Craving) throws -> Plan? {
        Plan.first(
            for: craving.triggers, location: craving.location, hour: craving.time.localHour, in: try plans())
    }

    /// The offer after a craving: its plan, and the messages in `offerOrder` with the plan's first.
    public func offer(for craving: Craving, now: Date) throws -> (plan: Plan?, messages: [Recording]) {
        let plan = try self.plan(for: craving)
        return (plan, Plan.leading(plan, try offerOrder(for: craving.triggers, now: now)))
    }

    /// A ride's messages: its plan's first, then `messageOrder`.
    public func rideOrder(for craving: Craving, now: Date) throws -> (plan: Plan?, messages: [Recording]) {
        let plan = try self.plan(for: craving)
        return (plan, Plan.leading(plan, try messageOrder(for: craving.triggers, now: now)))
    }
}

extension Plan {
    /// A stored row read leniently: nil for one no cravey would write.
    init?(row: PlanRow) {
        guard let id = UUID(uuidString: row.id), let trigger = Trigger(rawValue: row.forTrigger) else { return nil }
        self.init(
            id: id, trigger: trigger, location: row.location.flatMap(Location.init(rawValue:)), hour: row.hour,
            instead: row.instead, recordingId: row.recordingId.flatMap(UUID.init(uuidString:)),
            createdAt: StoredDate.date(row.createdAt) ?? Date(timeIntervalSince1970: 0))
    }

    var row: PlanRow {
        PlanRow(
            id: id.uuidString, forTrigger: trigger.rawValue, location: location?.rawValue, hour: hour,
            instead: instead, recordingId: recordingId?.uuidString, createdAt: StoredDate.text(createdAt))
    }
}

extension Plan: Encodable {
    private enum Key: String, CodingKey { case id, trigger, place, hour, instead, messageId }

    /// `plan list --json` and the report: what it is for, what instead, and the message's id.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(id.uuidString, forKey: .id)
        try c.encode(trigger.rawValue, forKey: .trigger)
        try c.encode(location?.rawValue, forKey: .place)
        try c.encode(hour, forKey: .hour)
        try c.encode(instead, forKey: .instead)
        try c.encode(recordingId?.uuidString, forKey: .messageId)
    }
}

/// A plan as the report and `plan list` show it: the plan and its message's title (nil: none).
public struct PlanShown: Sendable, Equatable, Encodable {
    public var plan: Plan
    public var message: String?

    public init(plan: Plan, message: String? = nil) { (self.plan, self.message) = (plan, message) }

    private enum Key: String, CodingKey { case message }

    public func encode(to encoder: Encoder) throws {
        try plan.encode(to: encoder)
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(message, forKey: .message)
    }

    /// "If bored · at home, then: walk round the block (plays 'Walk first')".
    public var sentence: String {
        "If \(plan.when), then: \(plan.instead)" + (message.map { " (plays '\($0)')" } ?? "")
    }
}

extension Tracker {
    /// Every plan with its message's title, oldest first.
    public func plansShown() throws -> [PlanShown] {
        try plans().map { plan in
            PlanShown(
                plan: plan,
                message: plan.recordingId.flatMap { try? library.recording(matching: $0.uuidString).title })
        }
    }
}
