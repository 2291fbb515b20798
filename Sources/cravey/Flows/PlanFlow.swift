import CraveyLibrary
import CraveyTracker
import Foundation

/// If-then plans: what `cravey plan` and the plan screen both run — typed values read into a
/// plan (each refused in one line naming its flag, before anything changes), a plan kept or
/// removed, and the plans listed with their messages' titles.
enum PlanFlow {
    /// The plan typed: a trigger's name, a place's name ('none' or nil: any), an hour (0–23, or
    /// HH:MM, whose hour is taken; nil: any), what instead, and a message (id or title; nil: none).
    static func draft(
        trigger: String, place: String?, hour: String?, instead: String, message: String?, in lib: Library?
    ) throws -> PlanDraft {
        let triggers = try given(as: "--trigger") { try LogInput.triggers([trigger]) }
        guard triggers.count == 1, let chosen = triggers.first else {
            throw TrackerError.invalid(field: "--trigger", reason: "a plan is for one trigger; name one")
        }
        let location = try given(as: "--place") { try LogInput.location(place) }
        let hourValue = try hour.map(Self.hour)
        _ = try sentence(instead)
        let recording = try message.map { key -> Recording in
            guard let lib else { throw LibraryError.notFound(key) }
            let found = try lib.recording(idOrTitle: key)
            guard found.checkIn == nil else {
                throw TrackerError.invalid(
                    field: "--message", reason: "'\(found.title)' is a check-in; a plan plays one of your messages")
            }
            return found
        }
        return PlanDraft(
            trigger: chosen, location: location, hour: hourValue, instead: instead, recordingId: recording?.id)
    }

    /// An hour of the day typed: 0–23, or HH:00 (refused naming `--hour`).
    static func hour(_ text: String) throws -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let whole = trimmed.hasSuffix(":00") ? String(trimmed.dropLast(3)) : trimmed
        return try LogInput.wholeNumber(whole, field: "--hour", in: 0...23)
    }

    /// What instead, as a plan keeps it (refused naming `--instead`).
    static func sentence(_ text: String) throws -> String {
        do {
            return try Validation.planSentence(text)
        } catch let LibraryError.invalid(_, reason) {
            throw TrackerError.invalid(field: "--instead", reason: reason)
        }
    }

    /// Keeps `draft` as a new plan; returns it with its message's title. An eleventh is refused
    /// in one kind line (the tracker counts again in the plan's own transaction).
    static func add(_ draft: PlanDraft, in lib: Library, now: Date) throws -> PlanShown {
        let tracker = Tracker(library: lib)
        guard try tracker.plans().count < Library.maxPlans else { throw CraveyFailure(message: PlanWords.full) }
        let plan: Plan
        do {
            plan = try tracker.addPlan(draft, now: now)
        } catch TrackerError.invalid(_, Tracker.plansFull) {
            throw CraveyFailure(message: PlanWords.full)
        }
        return try tracker.plansShown().first { $0.plan.id == plan.id } ?? PlanShown(plan: plan)
    }

    /// Removes plan `number` (as listed); returns it.
    static func remove(_ number: Int, in lib: Library) throws -> Plan {
        try Tracker(library: lib).removePlan(number: number)
    }

    /// Every plan, oldest first, with its message's title (none without a library).
    static func list(in lib: Library?) throws -> [PlanShown] {
        try lib.map { try Tracker(library: $0).plansShown() } ?? []
    }
}
