import CraveyLibrary
import CraveyTestSupport
import CraveyTracker
import Foundation
import XCTest

/// Words that fit the goal and the day, on a real library: harm reduction reads of what was used,
/// how much and when; the reduction heading only over a fall; each empty chart its own sentence;
/// "Keep logging!" at most once; a check-in question that names no time of day.
final class GoalWordsTests: XCTestCase {
    var base = ""
    var tracker: Tracker!
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-goalwords-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        tracker = Tracker(library: try Library(root: base + "/library"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: base) }

    func at(_ text: String) throws -> LogTime {
        try LogTime.parse(text, now: Date(timeIntervalSince1970: 4_000_000_000), timeZone: berlin)
    }

    func use(_ time: String, _ method: Method = .vape, _ amount: Double? = nil) throws {
        try tracker.logUse(.init(method: method, amount: amount, time: try at(time)), now: Date())
    }

    func craving(_ intensity: Int, _ time: String) throws {
        try tracker.logCraving(.init(intensity: intensity, time: try at(time)), now: Date())
    }

    func progress(_ goal: Goal?, _ range: ProgressRange = .week, now: String) throws -> ProgressFigures {
        try tracker.library.setSetting(.goal, to: goal?.rawValue)
        return try tracker.progressNotingMilestones(range, now: try at(now).instant, timeZone: berlin)
    }

    /// Harm reduction: no days-without-use headline, no resisted milestones; monitor and just
    /// exploring keep theirs.
    func testHarmReductionSpeaksOfWhatWasUsedAndWhen() throws {
        try craving(7, "2026-10-12 20:00")
        try use("2026-10-14 21:00", .vape, 3)
        let harm = try progress(.harmReduction, now: "2026-10-18 12:00")
        XCTAssertEqual(harm.currentStreakTitle, "🕐 Your Last Use")
        XCTAssertEqual(harm.currentStreakText, "4 days ago")
        XCTAssertNil(harm.daysSinceLastUseText)
        XCTAssertTrue(harm.milestones.contains { $0.kind == .cravingsResisted }, "stored as for every goal")
        XCTAssertFalse(harm.shownMilestones.contains { $0.kind == .cravingsResisted })
        XCTAssertFalse(harm.allWords.contains { $0.contains("Without Use") || $0.contains("Abstinence") })
        let monitor = try progress(.monitor, now: "2026-10-18 12:00")
        XCTAssertEqual(monitor.currentStreakTitle, "🌅 Days Without Use")
        XCTAssertTrue(monitor.shownMilestones.contains { $0.kind == .cravingsResisted })
        XCTAssertNotEqual(harm.allWords, monitor.allWords)
        XCTAssertEqual(try progress(.exploring, now: "2026-10-18 12:00").allWords, monitor.allWords)
    }

    /// The percent counts uses and says so; "Usage Reduction" only over a fall.
    func testTheReductionSaysWhatItCountsAndIsHeadedByWhatHappened() throws {
        for day in [1, 2, 3, 4, 5, 6, 7] { try use("2026-10-0\(day) 21:00", .vape, 10) }
        try use("2026-10-20 21:00", .vape, 1)
        let fell = try progress(.cutDown, now: "2026-10-21 12:00")
        XCTAssertEqual(fell.reductionTitle, "📉 Usage Reduction")
        XCTAssertEqual(
            fell.amountsInsight,
            "You logged 86% fewer uses this week than in your first week (uses counted, not amounts). 📉")
        for day in [15, 16, 17, 18, 19, 21] { try use("2026-10-\(day) 10:00", .vape, 1) }
        for day in [15, 16, 17] { try use("2026-10-\(day) 11:00", .vape, 1) }
        let rose = try progress(.quit, now: "2026-10-21 12:00")
        XCTAssertEqual(rose.reduction, .change(percent: 43, first: 7, last: 10))
        XCTAssertEqual(rose.reductionTitle, "📊 This week and your first")
        XCTAssertEqual(try progress(.monitor, now: "2026-10-21 12:00").reductionTitle, "📊 This week and your first")
        for goal in [nil] + Goal.allCases.map(Optional.some) {
            for sentence in try progress(goal, now: "2026-10-21 12:00").allWords {
                XCTAssertFalse(sentence.contains(" - "), "an em dash, not a hyphen: \(sentence)")
            }
        }
    }

    /// Each empty chart says its own thing; with one craving, "Keep logging!" once.
    func testEachEmptyChartSaysItsOwnThingAndKeepLoggingIsSaidOnce() throws {
        let empty = try progress(.quit, now: "2026-10-12 12:00")
        let emptyOnes = [empty.intensityInsight, empty.timeInsight, empty.weekdayInsight, empty.resistedInsight]
        XCTAssertEqual(Set(emptyOnes).count, 4, "\(emptyOnes)")
        XCTAssertEqual(empty.intensityInsight, "Log your first craving to see intensity trends! 📈")
        try tracker.logCraving(
            .init(intensity: 6, time: try at("2026-10-12 09:00"), triggers: [.anxious], location: .home), now: Date())
        for goal in [nil] + Goal.allCases.map(Optional.some) {
            let one = try progress(goal, now: "2026-10-12 12:00")
            XCTAssertEqual(one.insights.filter { $0 == ProgressFigures.keepLogging }.count, 1, "\(one.insights)")
        }
    }

    /// The day's question is the same from morning to night: none names a time of day.
    func testNoCheckInQuestionNamesATimeOfDay() {
        for prompt in CheckIn.prompts {
            for word in ["morning", "afternoon", "evening", "tonight", "night", "noon"] {
                XCTAssertFalse(prompt.lowercased().contains(word), prompt)
            }
        }
    }
}
