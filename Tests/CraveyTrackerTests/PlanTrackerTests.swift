import CraveyLibraryFixtures
import CraveyTracker
import Foundation
import XCTest

@testable import CraveyLibrary

/// If-then plans in the tracker: the plan a craving is shown (the most closely kept that fits),
/// its message offered first, at most ten kept, and where a plan would help most — the rule over
/// hand-worked histories, and the once-a-week rule over hand-worked days.
final class PlanTrackerTests: XCTestCase {
    var base = ""
    var library: Library!
    var tracker: Tracker!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-plan-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        library = try Library(root: base + "/library")
        tracker = Tracker(library: library)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: base) }

    /// A message of opaque bytes made for `triggers`, played `plays` times.
    func save(_ title: String, plays: Int, for triggers: [String] = []) throws -> Recording {
        let sample = base + "/\(title).m4a"
        try Data(repeating: 7, count: 2048).write(to: URL(fileURLWithPath: sample))
        let draft = Library.Draft(title: title, forTriggers: triggers)
        let media = MediaFacts(sampleRate: 48_000, channels: 1)
        let saved = try library.save(
            copying: sample, thumbnail: nil, kind: .audio, draft: draft, duration: 3, media: media)
        for _ in 0..<plays { try library.recordPlay(saved.id, at: Date()) }
        return saved
    }

    func log(_ triggers: [Trigger], _ hour: Int) -> PlanSuggestion.Log {
        PlanSuggestion.Log(triggers: triggers, hour: hour)
    }

    // MARK: - Which plan a craving is shown

    func testTheMostCloselyKeptPlanThatFitsIsShownThenTheOldest() {
        let any = Plan(trigger: .bored, instead: "walk round the block")
        let home = Plan(trigger: .bored, location: .home, instead: "call Sam")
        let nine = Plan(trigger: .bored, location: .home, hour: 21, instead: "make tea")
        let anxious = Plan(trigger: .anxious, instead: "breathe")
        let plans = [any, home, nine, anxious]
        XCTAssertEqual(Plan.first(for: [.bored], location: .home, hour: 21, in: plans), nine)
        XCTAssertEqual(Plan.first(for: [.bored], location: .home, hour: 9, in: plans), home)
        XCTAssertEqual(Plan.first(for: [.bored], location: .work, hour: 21, in: plans), any)
        XCTAssertEqual(Plan.first(for: [.bored], location: nil, hour: 21, in: plans), any)
        XCTAssertEqual(Plan.first(for: [.sad, .anxious], location: nil, hour: 3, in: plans), anxious)
        XCTAssertNil(Plan.first(for: [.sad], location: .home, hour: 21, in: plans))
        XCTAssertNil(Plan.first(for: [], location: .home, hour: 21, in: plans))
        // Two as closely kept: the older (listed first).
        let second = Plan(trigger: .bored, instead: "read")
        XCTAssertEqual(Plan.first(for: [.bored], location: nil, hour: 1, in: [any, second]), any)
    }

    func testAPlansMessageIsOfferedFirstBeforeTheOneMadeForTheTrigger() throws {
        let most = try save("Most played", plays: 5)
        let bored = try save("For boredom", plays: 1, for: ["bored"])
        let walk = try save("Walk first", plays: 0)
        let now = Date()
        let craving = try tracker.logCraving(
            Tracker.CravingDraft(intensity: 6, time: LogTime(now), triggers: [.bored], location: .home), now: now)
        // No plan yet: the one made for the trigger, then the most played.
        XCTAssertNil(try tracker.offer(for: craving, now: now).plan)
        XCTAssertEqual(try tracker.offer(for: craving, now: now).messages.map(\.id), [bored.id, most.id, walk.id])
        let plan = try tracker.addPlan(
            PlanDraft(trigger: .bored, instead: "walk round the block", recordingId: walk.id), now: now)
        let offer = try tracker.offer(for: craving, now: now)
        XCTAssertEqual(offer.plan, plan)
        XCTAssertEqual(offer.messages.map(\.id), [walk.id, bored.id, most.id])
        XCTAssertEqual(try tracker.rideOrder(for: craving, now: now).messages.map(\.id), [walk.id, bored.id, most.id])
        // A craving with another trigger is not shown it.
        var anxious = craving
        anxious.triggers = [.anxious]
        XCTAssertNil(try tracker.offer(for: anxious, now: now).plan)
        XCTAssertEqual(try tracker.offer(for: anxious, now: now).messages.map(\.id), [most.id, bored.id, walk.id])
        // The message deleted: the plan stays, its message cleared.
        try library.delete(walk)
        XCTAssertNil(try tracker.plans().first?.recordingId)
        XCTAssertEqual(try tracker.offer(for: craving, now: now).messages.map(\.id), [bored.id, most.id])
    }

    func testTenPlansAreKeptAndAnEleventhChangesNothing() throws {
        for n in 1...10 { try tracker.addPlan(PlanDraft(trigger: .bored, hour: n, instead: "plan \(n)"), now: Date()) }
        XCTAssertThrowsError(try tracker.addPlan(PlanDraft(trigger: .sad, instead: "one more"), now: Date())) {
            XCTAssertEqual($0 as? TrackerError, .invalid(field: "plan", reason: Tracker.plansFull))
        }
        XCTAssertEqual(try tracker.plans().map(\.instead), (1...10).map { "plan \($0)" })
        let removed = try tracker.removePlan(number: 3)
        XCTAssertEqual(removed.instead, "plan 3")
        XCTAssertThrowsError(try tracker.removePlan(number: 10))
        XCTAssertEqual(try tracker.plans().count, 9)
    }

    func testASentenceIsOneLineOfAtMost200Characters() throws {
        for bad in ["", "   ", "walk\nround", "walk\u{1B}[31m", String(repeating: "a", count: 201)] {
            XCTAssertThrowsError(try tracker.addPlan(PlanDraft(trigger: .bored, instead: bad), now: Date()), bad)
        }
        XCTAssertThrowsError(try tracker.addPlan(PlanDraft(trigger: .bored, hour: 24, instead: "walk"), now: Date()))
        XCTAssertEqual(try tracker.plans(), [])
        let kept = try tracker.addPlan(
            PlanDraft(trigger: .bored, instead: "  " + String(repeating: "é", count: 200)), now: Date())
        XCTAssertEqual(kept.instead, String(repeating: "é", count: 200))
    }

    // MARK: - Where a plan would help most

    /// Four weeks of hand-worked logs: bored at 21:00 four times, anxious at 9:00 three times,
    /// sad at 15:00 twice (not a pattern), one log both bored and tired at 21:00.
    var history: [PlanSuggestion.Log] {
        [
            log([.bored], 21), log([.bored], 21), log([.bored, .tired], 21), log([.bored], 21), log([.bored], 22),
            log([.anxious], 9), log([.anxious], 9), log([.anxious], 9),
            log([.sad], 15), log([.sad], 15),
            log([.tired], 21), log([.tired], 21),
        ]
    }

    func testTheTriggerAndHourThatRecurMostWithNoPlanAreSuggested() {
        XCTAssertEqual(
            PlanSuggestion.spot(history, plans: []), PlanSuggestion(trigger: .bored, hour: 21, count: 4))
        // A plan for bored at any hour: the next that recurs is anxious at 9 (tired at 21 also
        // three times: anxious comes first in the list).
        let bored = Plan(trigger: .bored, instead: "walk")
        XCTAssertEqual(
            PlanSuggestion.spot(history, plans: [bored]), PlanSuggestion(trigger: .anxious, hour: 9, count: 3))
        // A plan for bored at 21 only: bored at 22 came once, so anxious at 9.
        let boredNine = Plan(trigger: .bored, hour: 21, instead: "walk")
        XCTAssertEqual(
            PlanSuggestion.spot(history, plans: [boredNine]), PlanSuggestion(trigger: .anxious, hour: 9, count: 3))
        // A plan kept to a place still counts as a plan for that trigger and hour.
        let boredHome = Plan(trigger: .bored, location: .home, instead: "walk")
        let anxious = Plan(trigger: .anxious, instead: "breathe")
        XCTAssertEqual(
            PlanSuggestion.spot(history, plans: [boredHome, anxious]),
            PlanSuggestion(trigger: .tired, hour: 21, count: 3))
        let tired = Plan(trigger: .tired, instead: "sleep")
        XCTAssertNil(PlanSuggestion.spot(history, plans: [bored, anxious, tired]), "sad came twice: not a pattern")
        XCTAssertNil(PlanSuggestion.spot([], plans: []))
        XCTAssertNil(PlanSuggestion.spot([log([], 21), log([], 21), log([], 21)], plans: []), "no trigger, no plan")
    }

    func testTheSuggestionShowsOnOneDayAWeekAtMost() throws {
        let monday = try XCTUnwrap(LocalDay(parsing: "2026-03-02"))
        // Never shown: shown, and the day kept.
        XCTAssertTrue(PlanSuggestion.showing(nil, today: monday) == (true, "2026-03-02"))
        // The same day, not put away: shown again, nothing to keep.
        XCTAssertTrue(PlanSuggestion.showing("2026-03-02", today: monday) == (true, nil))
        // Put away: not that day, nor for the rest of the week.
        XCTAssertTrue(PlanSuggestion.showing("2026-03-02 dismissed", today: monday) == (false, nil))
        XCTAssertTrue(PlanSuggestion.showing("2026-03-02 dismissed", today: monday + 6) == (false, nil))
        // Shown and not put away: still not on the next six days.
        for day in 1...6 { XCTAssertTrue(PlanSuggestion.showing("2026-03-02", today: monday + day) == (false, nil)) }
        // A week on: shown again, the new day kept.
        XCTAssertTrue(PlanSuggestion.showing("2026-03-02 dismissed", today: monday + 7) == (true, "2026-03-09"))
        XCTAssertTrue(PlanSuggestion.showing("2026-03-02", today: monday + 10) == (true, "2026-03-12"))
        // A day kept in the future (a clock set back) or not a day: shown, today kept.
        XCTAssertTrue(PlanSuggestion.showing("2026-03-09", today: monday) == (true, "2026-03-02"))
        XCTAssertTrue(PlanSuggestion.showing("soon", today: monday) == (true, "2026-03-02"))
    }
}
