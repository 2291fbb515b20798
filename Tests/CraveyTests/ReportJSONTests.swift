import CraveyTestSupport
import Foundation
import XCTest

/// `report --json`: the period, the figures and the calendar, printed; no file written; with a
/// file option refused in one line.
final class ReportJSONTests: LogTestCase {
    func testTheCalendarAndFiguresAsJSON() throws {
        let environment = env(["CRAVEY_NOW": "2026-11-26T12:00:00"])
        func report(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            try runProcess(cravey, ["report"] + arguments + ["--library", root], environment: environment)
        }
        for arguments in [
            ["craving", "7", "--at", "2026-11-24 10:00", "--notes", "after work"],
            ["use", "vape", "3", "--at", "2026-11-25 10:00"],
        ] {
            XCTAssertEqual(try runProcess(cravey, arguments + ["--library", root], environment: environment).status, 0)
        }
        let printed = try report(["--json", "--range", "7d", "--with-notes"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        let json = try jsonObject(printed.stdout)
        XCTAssertEqual(json["from"] as? String, "2026-11-20")
        XCTAssertEqual(json["to"] as? String, "2026-11-26")
        let days = try XCTUnwrap(json["days"] as? [[String: Any]])
        XCTAssertEqual(days.count, 7)
        XCTAssertEqual(days[4]["cravings"] as? Int, 1)
        XCTAssertEqual(days[4]["peak"] as? Int, 7)
        XCTAssertEqual((days[5]["amounts"] as? [[String: Any]])?.first?["method"] as? String, "vape")
        XCTAssertEqual((days[5]["amounts"] as? [[String: Any]])?.first?["amount"] as? Int, 3)
        XCTAssertEqual(((json["figures"] as? [String: Any])?["resisted"] as? [String: Any])?["count"] as? Int, 1)
        XCTAssertEqual((json["notes"] as? [[String: Any]])?.first?["text"] as? String, "after work")

        let refused = try report(["--json", "--html", base + "/report.html"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, "cravey: --json prints the report: give it without --html or --pdf\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: base + "/report.html"))
    }
}
