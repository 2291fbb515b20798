import CraveyLibrary
import CraveyTestSupport
import CraveyTracker
import Foundation
import XCTest

/// Money kept for each goal, with and without prices, and the withdrawal line, worked out by hand
/// on a real library database; local days in Berlin.
///
/// The logs: a craving on Nov 1 starts the first week (Nov 1–7). In it, 2 bowls (Nov 1), 1.5
/// bowls (Nov 3), 25 mg of edible and 4 pulls (Nov 6); after it, 1 bowl (Nov 9), 0.5 bowl (Nov
/// 15), 10 mg of edible (Nov 18) and 5 pulls (Nov 19). Bowls cost €10.00, edibles €3.00 per 10 mg,
/// vaping has no price: the first week cost 20 + 15 + 7.50 = €42.50 (€6.0714… a day).
final class MoneyTests: XCTestCase {
    var base = ""
    var tracker: Tracker!
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-money-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        tracker = Tracker(library: try Library(root: base + "/library"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: base) }

    func at(_ text: String) throws -> LogTime {
        try LogTime.parse(text, now: Date(timeIntervalSince1970: 4_000_000_000), timeZone: berlin)
    }

    func use(_ time: String, _ method: Method, _ amount: Double) throws {
        _ = try tracker.logUse(.init(method: method, amount: amount, time: try at(time)), now: Date())
    }

    func logTheMonth() throws {
        _ = try tracker.logCraving(.init(intensity: 6, time: try at("2026-11-01 10:00")), now: Date())
        try use("2026-11-01 20:00", .bowls, 2)
        try use("2026-11-03 21:00", .bowls, 1.5)
        try use("2026-11-06 22:00", .edible, 25)
        try use("2026-11-06 23:00", .vape, 4)
        try use("2026-11-09 20:00", .bowls, 1)
        try use("2026-11-15 20:00", .bowls, 0.5)
        try use("2026-11-18 20:00", .edible, 10)
        try use("2026-11-19 20:00", .vape, 5)
    }

    func setPrices() throws {
        try tracker.setPrice(1000, for: .bowls)
        try tracker.setPrice(300, for: .edible)
        try tracker.setCurrency("EUR")
    }

    func progress(_ now: String, goal: Goal?) throws -> ProgressFigures {
        try tracker.library.setSetting(.goal, to: goal?.rawValue)
        return try tracker.progress(.week, now: try at(now).instant, timeZone: berlin)
    }

    func json(_ figures: ProgressFigures) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: JSONText.data(figures)) as! [String: Any]
    }

    func testNoPriceNoMoneyForAnyGoal() throws {
        try logTheMonth()
        for goal in [nil] + Goal.allCases {
            let p = try progress("2026-11-20 12:00", goal: goal)
            XCTAssertNil(p.money, "\(String(describing: goal))")
            XCTAssertTrue(try json(p)["money"] is NSNull)
        }
        // A currency alone is no price.
        try tracker.setCurrency("EUR")
        XCTAssertNil(try progress("2026-11-20 12:00", goal: .cutDown).money)
    }

    func testCuttingDownAndEveryGoalButQuit() throws {
        try logTheMonth()
        try setPrices()
        for goal in [nil, Goal.cutDown, .monitor, .harmReduction, .exploring] {
            let money = try XCTUnwrap(try progress("2026-11-20 12:00", goal: goal).money)
            // Nov 8–20 is 13 days: 42.50 × 13 ÷ 7 = 78.928…, less what they cost (10 + 5 + 3 = 18).
            XCTAssertEqual(money.basis, .firstWeek)
            XCTAssertEqual(money.baseline, 4250, accuracy: 1e-9)
            XCTAssertEqual(money.days, 13)
            XCTAssertEqual(money.kept, 4250.0 * 13 / 7 - 1800, accuracy: 1e-9)
            XCTAssertEqual(money.since?.text, "2026-11-08")
            // This week (Nov 14–20) cost 5 + 3 = 8.
            XCTAssertEqual(money.thisWeek ?? -1, 3450, accuracy: 1e-9)
            XCTAssertEqual(money.figure, "€60.93")
            XCTAssertEqual(money.line, "kept since Nov 8, against your first week (€42.50)")
            XCTAssertEqual(money.insight, "This week: €34.50 less than your first week.")
        }
        let object = try XCTUnwrap(
            try json(try progress("2026-11-20 12:00", goal: .cutDown))["money"] as? [String: Any])
        XCTAssertEqual(object["kept"] as? Double, 60.93)
        XCTAssertEqual(object["currency"] as? String, "EUR")
        XCTAssertEqual(object["since"] as? String, "2026-11-08")
        XCTAssertEqual(object["basis"] as? String, "firstWeek")
        XCTAssertEqual(object["firstWeek"] as? Double, 42.5)
        XCTAssertEqual(object["thisWeek"] as? Double, 34.5)

        // Before a whole week follows the first, there is the total but no week beside it:
        // Nov 8–12 is 5 days, 42.50 × 5 ÷ 7 = 30.357…, less 10.
        let early = try XCTUnwrap(try progress("2026-11-12 12:00", goal: .cutDown).money)
        XCTAssertEqual(early.kept, 4250.0 * 5 / 7 - 1000, accuracy: 1e-9)
        XCTAssertNil(early.thisWeek)
        XCTAssertEqual(early.figure, "€20.36")
        XCTAssertEqual(early.insight, "About €6.07 a day, as in your first week, less what was spent since.")

        // In the first week: nothing counted yet, the week so far (20 + 15).
        let first = try XCTUnwrap(try progress("2026-11-04 12:00", goal: .cutDown).money)
        XCTAssertEqual(first.kept, 0)
        XCTAssertNil(first.since)
        XCTAssertNil(first.figure)
        XCTAssertEqual(first.insight, "Your first week so far: €35.00. From Nov 8 on, each day is set beside it.")
        XCTAssertTrue(try json(try progress("2026-11-04 12:00", goal: .cutDown))["money"].map { $0 is [String: Any] }!)
    }

    func testSpendingMoreIsNeverShownAsALoss() throws {
        _ = try tracker.logCraving(.init(intensity: 6, time: try at("2026-11-01 10:00")), now: Date())
        try use("2026-11-02 20:00", .bowls, 1)
        try use("2026-11-10 20:00", .bowls, 3)
        try use("2026-11-16 20:00", .bowls, 2)
        try setPrices()
        // Nov 8–18: 11 days at 10 ÷ 7 a day = 15.71, against 50 spent; the last 7 days cost 20.
        let money = try XCTUnwrap(try progress("2026-11-18 12:00", goal: .cutDown).money)
        XCTAssertEqual(money.kept, 0)
        XCTAssertEqual(money.thisWeek, 0)
        XCTAssertNil(money.figure)
        XCTAssertNil(money.line)
        XCTAssertEqual(
            money.insight, "Money kept shows here when a stretch of days costs less than your first week (€10.00).")
        let object = try XCTUnwrap(
            try json(try progress("2026-11-18 12:00", goal: .cutDown))["money"] as? [String: Any])
        XCTAssertEqual(object["kept"] as? Double, 0)
        XCTAssertEqual(object["thisWeek"] as? Double, 0)
        for word in ["-", "more", "lost", "over", "fail", "only"] {
            XCTAssertFalse(money.insight.contains(word), money.insight)
        }
    }

    func testQuittingCountsTheDaysSinceTheLastUse() throws {
        try logTheMonth()
        try setPrices()
        // The last use was on Nov 19: one day, 42.50 ÷ 7.
        var money = try XCTUnwrap(try progress("2026-11-20 12:00", goal: .quit).money)
        XCTAssertEqual(money.basis, .lastUse)
        XCTAssertEqual(money.days, 1)
        XCTAssertEqual(money.kept, 4250.0 / 7, accuracy: 1e-9)
        XCTAssertEqual(money.since?.text, "2026-11-20")
        XCTAssertNil(money.thisWeek)
        XCTAssertEqual(money.figure, "€6.07")
        XCTAssertEqual(money.line, "kept in the 1 day since your last logged use")
        XCTAssertEqual(money.insight, "Your first week cost €42.50: about €6.07 a day.")
        // Two weeks: twice the first week.
        money = try XCTUnwrap(try progress("2026-12-03 12:00", goal: .quit).money)
        XCTAssertEqual(money.days, 14)
        XCTAssertEqual(money.figure, "€85.00")
        let object = try XCTUnwrap(try json(try progress("2026-12-03 12:00", goal: .quit))["money"] as? [String: Any])
        XCTAssertEqual(object["kept"] as? Double, 85)
        XCTAssertEqual(object["since"] as? String, "2026-11-20")
        XCTAssertEqual(object["basis"] as? String, "lastUse")
        XCTAssertTrue(object["thisWeek"] is NSNull)
        // On the day of a use: nothing counted, the day's share said.
        money = try XCTUnwrap(try progress("2026-11-19 23:30", goal: .quit).money)
        XCTAssertEqual(money.kept, 0)
        XCTAssertNil(money.since)
        XCTAssertNil(money.figure)
        XCTAssertEqual(money.insight, "Each day without use keeps about €6.07 — your first week cost €42.50.")
    }

    func testAFirstWeekWithoutAPricedUse() throws {
        _ = try tracker.logCraving(.init(intensity: 6, time: try at("2026-11-01 10:00")), now: Date())
        try use("2026-11-02 20:00", .vape, 3)
        try use("2026-11-12 20:00", .bowls, 1)
        try setPrices()
        for goal in [Goal.quit, .cutDown] {
            let money = try XCTUnwrap(try progress("2026-11-20 12:00", goal: goal).money)
            XCTAssertEqual(money.baseline, 0)
            XCTAssertEqual(money.kept, 0)
            XCTAssertNil(money.since)
            XCTAssertNil(money.figure)
            XCTAssertTrue(money.insight.contains("nothing to compare with"), money.insight)
        }
    }

    func testTheWithdrawalLineOnlyForQuittingInDaysOneToFourteen() throws {
        try logTheMonth()  // the last use on Nov 19
        let line = "For many people, sleep, mood and appetite are hardest around days 2–6 and ease within two weeks."
        for (now, shown) in [
            ("2026-11-19 23:30", false), ("2026-11-20 00:30", true), ("2026-11-25 12:00", true),
            ("2026-12-03 23:59", true), ("2026-12-04 00:01", false), ("2026-12-20 12:00", false),
        ] {
            let p = try progress(now, goal: .quit)
            XCTAssertEqual(p.withdrawal, shown ? line : nil, now)
            XCTAssertEqual(try json(p)["withdrawal"] as? String, shown ? line : nil, now)
            if !shown { XCTAssertTrue(try json(p)["withdrawal"] is NSNull, now) }
            for goal in [nil, Goal.cutDown, .monitor, .harmReduction, .exploring] {
                XCTAssertNil(try progress(now, goal: goal).withdrawal, "\(now) \(String(describing: goal))")
            }
        }
        // Never without a use.
        try tracker.library.setSetting(.goal, to: Goal.quit.rawValue)
        let empty = Tracker(library: try Library(root: base + "/empty"))
        try empty.library.setSetting(.goal, to: Goal.quit.rawValue)
        _ = try empty.logCraving(.init(intensity: 6, time: try at("2026-11-01 10:00")), now: Date())
        XCTAssertNil(try empty.progress(.week, now: try at("2026-11-05 12:00").instant, timeZone: berlin).withdrawal)
    }

    func testPricesCurrenciesAndTheirWords() throws {
        XCTAssertEqual(try Prices.parse("12.50"), 1250)
        XCTAssertEqual(try Prices.parse("12,5"), 1250)
        XCTAssertEqual(try Prices.parse("8"), 800)
        XCTAssertEqual(try Prices.parse("0.05"), 5)
        XCTAssertEqual(try Prices.parse("99999.99"), 9_999_999)
        for bad in ["0", "0.00", "-1", "abc", "1.234", "100000", "", "1e3", "1.", ".5", "1,000.00", "١٢"] {
            XCTAssertThrowsError(try Prices.parse(bad), bad)
        }
        XCTAssertEqual(Prices(cents: [.edible: 300, .bowls: 1000]).text, "{\"bowls\":1000,\"edible\":300}")
        XCTAssertEqual(Prices(text: "{\"bowls\":1000,\"pipe\":5,\"dab\":0,\"vape\":1.5}").cents, [.bowls: 1000])
        XCTAssertEqual(Prices.unit(.edible), "10 mg THC")
        XCTAssertEqual(Prices.unit(.bowls), "bowl/joint")

        XCTAssertEqual(try Currency.parse("eur"), "EUR")
        for bad in ["EURO", "E1R", "€", ""] { XCTAssertThrowsError(try Currency.parse(bad), bad) }
        let locales: [([String: String], String?)] = [
            (["LANG": "de_DE.UTF-8"], "EUR"), (["LANG": "en_US.UTF-8"], "USD"), (["LANG": "en_GB.UTF-8"], "GBP"),
            (["LANG": "de_CH.UTF-8"], "CHF"), (["LANG": "fr_FR@euro"], "EUR"),
            (["LANG": "en_US.UTF-8", "LC_MONETARY": "en_GB.UTF-8"], "GBP"),
            (["LANG": "en_US.UTF-8", "LC_MONETARY": "en_GB.UTF-8", "LC_ALL": "de_AT.UTF-8"], "EUR"),
            (["LANG": "C.UTF-8"], nil), (["LANG": "en"], nil), (["LANG": "xx_QQ.UTF-8"], nil), ([:], nil),
        ]
        for (environment, code) in locales {
            XCTAssertEqual(Currency.ofLocale(environment).code, code, "\(environment)")
        }
        XCTAssertEqual(Currency(code: "EUR").text(cents: 6092.857), "€60.93")
        XCTAssertEqual(Currency(code: "CHF").text(cents: 1250), "12.50 CHF")
        XCTAssertEqual(Currency(code: nil).text(cents: 1250), "12.50")
        XCTAssertEqual(Currency(code: "JPY").text(cents: 50_049), "¥500")

        // The currency: the locale's until one is chosen, "none" for plain numbers.
        XCTAssertEqual(try tracker.currency(environment: ["LANG": "en_GB.UTF-8"]).code, "GBP")
        XCTAssertFalse(try tracker.currencyChosen())
        try tracker.setCurrency("none")
        XCTAssertNil(try tracker.currency(environment: ["LANG": "en_GB.UTF-8"]).code)
        try tracker.setCurrency("CHF")
        XCTAssertEqual(try tracker.currency(environment: ["LANG": "en_GB.UTF-8"]).code, "CHF")
        try tracker.setPrice(1000, for: .bowls)
        try tracker.setPrice(nil, for: .bowls)
        XCTAssertTrue(try tracker.prices().isEmpty)
        XCTAssertNil(try tracker.library.setting(.prices), "no prices: no setting")
    }
}
