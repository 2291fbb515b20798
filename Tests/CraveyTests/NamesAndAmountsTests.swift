import CraveyTestSupport
import Foundation
import XCTest

/// Input that is valid is taken as typed: an output file's name as long as a directory holds
/// (its temporary name is short whatever the name is), a negative price refused in the price's own
/// words, and a ride told afterwards whose ratings never fall after the moment they are stored.
final class NamesAndAmountsTests: LogTestCase {
    func testAnOutputNameOf250BytesIsWritten() throws {
        try run(["craving", "6"])
        let long = base + "/" + String(repeating: "r", count: 245) + ".html"
        let report = try run(["report", "--html", long])
        XCTAssertTrue(FileManager.default.fileExists(atPath: long), report.stdout)
        let export = base + "/" + String(repeating: "e", count: 246) + ".csv"
        try run(["export", "--output", export])
        XCTAssertTrue(try String(contentsOfFile: export, encoding: .utf8).hasPrefix("record,"))
        let left = try FileManager.default.contentsOfDirectory(atPath: base).filter { $0.hasPrefix(".tmp-") }
        XCTAssertEqual(left, [], "no temporary file is left")
    }

    func testANegativePriceIsRefusedInThePricesWords() throws {
        let negative = try run(["settings", "price", "bowls", "-5"], status: 1)
        XCTAssertEqual(negative.stderr.split(separator: "\n").count, 1, negative.stderr)
        XCTAssertTrue(negative.stderr.contains("a price is a number above 0"), negative.stderr)
        XCTAssertFalse(negative.stderr.contains("Unknown option"), negative.stderr)
        XCTAssertTrue(try run(["settings"]).stdout.contains("price  (not set)"), "nothing changed")
        // An option cravey does not know is still one.
        let unknown = try run(["settings", "price", "bowls", "5", "--colour"], status: 64)
        XCTAssertTrue(unknown.stderr.contains("Unknown option '--colour'"), unknown.stderr)
        XCTAssertTrue(try run(["settings", "price", "bowls", "10"]).stdout.contains("price: bowls"))
    }

    func testARideToldAfterwardsEndsNow() throws {
        let sixty = Array(repeating: "4", count: 60).joined(separator: ",")
        let before = Date()
        let told = try jsonObject(
            try run(["ride", "8", "--ratings", sixty, "--minutes-apart", "60", "--json"]).stdout)
        let ratings = try XCTUnwrap(told["ratings"] as? [[Int]])
        XCTAssertEqual(ratings.last, [60 * 3600, 4])
        let craving = try XCTUnwrap(told["craving"] as? [String: Any])
        let iso = ISO8601DateFormatter()
        iso.formatOptions.insert(.withFractionalSeconds)
        let at = try XCTUnwrap(iso.date(from: try XCTUnwrap(craving["at"] as? String)))
        let last = at.addingTimeInterval(Double(ratings.last![0]))
        XCTAssertLessThanOrEqual(last.timeIntervalSince(Date()), 1, "no rating after the moment it is stored")
        XCTAssertGreaterThanOrEqual(last.timeIntervalSince(before), -61, "the last rating is now")

        // With --at, ratings that would fall after now are refused in one line; nothing is stored.
        let count = try logs().count
        let late = try run(["ride", "8", "--at", "-10m", "--ratings", "6,4,2", "--minutes-apart", "5"], status: 1)
        XCTAssertEqual(late.stderr.split(separator: "\n").count, 1, late.stderr)
        XCTAssertTrue(late.stderr.contains("the last rating would be 5 minutes from now"), late.stderr)
        XCTAssertEqual(try logs().count, count)
        try run(["ride", "8", "--at", "-30m", "--ratings", "6,4,2", "--minutes-apart", "5"])
    }
}
