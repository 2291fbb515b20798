import CraveyLibrary
import CraveyTracker
import Foundation
import XCTest

/// The self-screen held to the CUDIT-R's published key (Adamson et al. 2010): eight questions,
/// items 1–7 scored 0–4 in the order of their answers, item 8 scored 0, 2 or 4; the totals' bounds
/// 0 and 32; answers outside the key refused with nothing kept; the trend and the meaning in
/// their words; the 4-week reminder counted in local days, off by default, put away with one key.
final class SelfScreenScoringTests: XCTestCase {
    var base = ""
    var library: Library!
    var tracker: Tracker!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-screen-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        library = try Library(root: base + "/library")
        tracker = Tracker(library: library)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: base) }

    let start = Date(timeIntervalSince1970: 1_790_000_000)
    func day(_ n: Int) -> Date { start.addingTimeInterval(Double(n) * 86_400) }

    func testEveryItemsAnswersScoreAsThePublishedKey() {
        XCTAssertEqual(SelfScreen.items.count, 8)
        for item in SelfScreen.items.prefix(7) {
            XCTAssertEqual(item.answers.map(\.score), [0, 1, 2, 3, 4], item.question)
        }
        XCTAssertEqual(SelfScreen.items[7].answers.map(\.score), [0, 2, 4])
        XCTAssertEqual(
            SelfScreen.items[0].answers.map(\.text),
            ["Never", "Monthly or less", "2-4 times a month", "2-3 times a week", "4 or more times a week"])
        XCTAssertEqual(
            SelfScreen.items[1].answers.map(\.text), ["Less than 1", "1 or 2", "3 or 4", "5 or 6", "7 or more"])
        for item in SelfScreen.items[2..<7] {
            XCTAssertEqual(
                item.answers.map(\.text),
                ["Never", "Less than monthly", "Monthly", "Weekly", "Daily or almost daily"], item.question)
        }
        XCTAssertEqual(
            SelfScreen.items[7].answers.map(\.text),
            ["Never", "Yes, but not in the past 6 months", "Yes, during the past 6 months"])
        // The highest total is every item's highest answer; the lowest, every item's lowest.
        XCTAssertEqual(SelfScreen.items.map { $0.answers.last!.score }.reduce(0, +), SelfScreen.highest)
        XCTAssertEqual(SelfScreen.highest, 32)
        XCTAssertEqual(SelfScreen.items.map { $0.answers.first!.score }.reduce(0, +), 0)
    }

    func testAnswersAreReadAndScoredByTheKey() throws {
        XCTAssertEqual(try SelfScreen.answers(parsing: "0,1,2,0,0,1,0,2"), [0, 1, 2, 0, 0, 1, 0, 2])
        XCTAssertEqual(SelfScreen.score([0, 1, 2, 0, 0, 1, 0, 2]), 6)
        XCTAssertEqual(SelfScreen.score(try SelfScreen.answers(parsing: "4, 4,4,4,4,4,4,4")), 32)
        XCTAssertEqual(SelfScreen.score(try SelfScreen.answers(parsing: "0,0,0,0,0,0,0,0")), 0)
        for eighth in [0, 2, 4] {
            XCTAssertEqual(try SelfScreen.answers(parsing: "0,0,0,0,0,0,0,\(eighth)").last, eighth)
        }
        for refused in [
            "", "0,1,2", "0,0,0,0,0,0,0,0,0", "0,0,0,0,0,0,0,1", "0,0,0,0,0,0,0,3", "5,0,0,0,0,0,0,0",
            "-1,0,0,0,0,0,0,0", "a,0,0,0,0,0,0,0", "0,0,0,0,0,0,0,", "1.5,0,0,0,0,0,0,0",
        ] {
            XCTAssertThrowsError(try SelfScreen.answers(parsing: refused), refused)
            XCTAssertThrowsError(
                try tracker.takeSelfScreen(refused.split(separator: ",").compactMap { Int($0) }, now: start),
                refused)
        }
        XCTAssertEqual(try tracker.selfScreens(), [], "nothing refused is kept")
    }

    func testTheScoreAndItsTrendInCalmWords() throws {
        let first = try tracker.takeSelfScreen([2, 1, 2, 1, 1, 1, 0, 4], now: day(0))
        XCTAssertEqual(first.score, 12)
        XCTAssertEqual(SelfScreenWords.score(first), "Your score: 12 of 32.")
        XCTAssertEqual(
            SelfScreenWords.trend(try tracker.selfScreens()),
            "The first time you took it; the next ones will show a trend.")
        try tracker.takeSelfScreen([1, 1, 1, 1, 1, 1, 0, 4], now: day(30))
        try tracker.takeSelfScreen([1, 1, 1, 0, 1, 0, 0, 2], now: day(60))
        let screens = try tracker.selfScreens()
        XCTAssertEqual(screens.map(\.score), [12, 10, 6])
        let previous = LocalDay(day(30), in: .current).short
        XCTAssertEqual(
            SelfScreenWords.trend(screens), "That is 4 lower than last time (\(previous): 10). Before that: 12.")
        for words in [SelfScreenWords.score(screens[2]), SelfScreenWords.trend(screens)] {
            for judging in ["hazard", "disorder", "bad", "fail", "warning"] {
                XCTAssertFalse(words.lowercased().contains(judging), "no band unless asked: \(words)")
            }
        }
        XCTAssertEqual(SelfScreenWords.meaning(7)[1], "Your 7 is below 8.")
        XCTAssertEqual(SelfScreenWords.meaning(8)[1], "Your 8 is in the band of 8 or more.")
        XCTAssertEqual(SelfScreenWords.meaning(12)[1], "Your 12 is in the band of 12 or more.")
        XCTAssertEqual(SelfScreenWords.meaning(0).last, "This is not a diagnosis; a clinician can tell you more.")
        XCTAssertTrue(SelfScreenWords.meaning(0)[0].contains("13 or more in community samples, Bruno et al."))
    }

    func testTheReminderComesAfter28DaysOnlyWhenOnAndIsPutAway() throws {
        try tracker.takeSelfScreen([0, 0, 0, 0, 0, 0, 0, 0], now: day(0))
        XCTAssertFalse(try tracker.selfScreenReminderDue(now: day(60)), "off by default")
        try tracker.setSelfScreenReminder(true, now: day(1))
        XCTAssertFalse(try tracker.selfScreenReminderDue(now: day(28)), "28 days from the moment it was turned on")
        XCTAssertTrue(try tracker.selfScreenReminderDue(now: day(29)))
        try tracker.dismissSelfScreenReminder(now: day(29))
        XCTAssertFalse(try tracker.selfScreenReminderDue(now: day(56)))
        XCTAssertTrue(try tracker.selfScreenReminderDue(now: day(57)), "back 4 weeks after it was put away")
        try tracker.takeSelfScreen([0, 0, 0, 0, 0, 0, 0, 0], now: day(57))
        XCTAssertFalse(try tracker.selfScreenReminderDue(now: day(84)))
        XCTAssertTrue(try tracker.selfScreenReminderDue(now: day(85)), "4 weeks after the last screen")
        try tracker.setSelfScreenReminder(false, now: day(85))
        XCTAssertFalse(try tracker.selfScreenReminderDue(now: day(200)))
    }
}
