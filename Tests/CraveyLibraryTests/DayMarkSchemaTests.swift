import GRDB
import XCTest

@testable import CraveyLibrary

/// v13 on an older library: a use withdraws the answer of its own local day (on the clock it was
/// logged on), when logged or moved there, in its own transaction; answers are journaled; the
/// schema refuses what cravey never writes.
final class DayMarkSchemaTests: XCTestCase {
    func testAUseWithdrawsTheAnswerOfItsOwnDay() throws {
        let queue = try DatabaseQueue()
        try Store.migrator.migrate(queue, upTo: "v11: rides, messages that help, milestones")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO usage (id, at, utcOffset, method, amount, createdAt, modifiedAt)
                    VALUES ('u0', '2026-01-01T10:00:00.000Z', 0, 'vape', 2, 'x', 'x');
                    """)
        }
        try Store.migrator.migrate(queue)
        try queue.write { db in
            for day in ["2026-01-01", "2026-01-02", "2026-01-03"] {
                try db.execute(
                    sql: "INSERT INTO dayMark (day, answer, markedAt) VALUES (?, 'none', '2026-01-04T09:00:00.000Z')",
                    arguments: [day])
            }
            XCTAssertEqual(
                try String.fetchAll(db, sql: "SELECT id FROM pendingJournal WHERE kind = 'day' ORDER BY seq"),
                ["2026-01-01", "2026-01-02", "2026-01-03"])
            // 23:30 UTC is Jan 2 on a clock an hour ahead: Jan 2's answer goes, Jan 1's stays.
            try db.execute(
                sql: """
                    INSERT INTO usage (id, at, utcOffset, method, amount, createdAt, modifiedAt)
                    VALUES ('u1', '2026-01-01T23:30:00.000Z', 3600, 'vape', 2, 'x', 'x');
                    """)
            func withdrawn() throws -> [String] {
                try String.fetchAll(
                    db, sql: "SELECT day || ' ' || coalesce(withdrawnBy, '-') FROM dayMark ORDER BY day")
            }
            XCTAssertEqual(try withdrawn(), ["2026-01-01 -", "2026-01-02 u1", "2026-01-03 -"])
            // A use moved onto Jan 3 (on a clock an hour behind UTC) withdraws its answer too.
            try db.execute(sql: "UPDATE usage SET at = '2026-01-04T00:30:00.000Z', utcOffset = -3600 WHERE id = 'u0'")
            XCTAssertEqual(try withdrawn(), ["2026-01-01 -", "2026-01-02 u1", "2026-01-03 u0"])
            XCTAssertEqual(
                try String.fetchAll(db, sql: "SELECT id FROM pendingJournal WHERE kind = 'day' ORDER BY seq").suffix(2),
                ["2026-01-02", "2026-01-03"], "the withdrawals are journaled")
            for refused in [
                "INSERT INTO dayMark (day, answer, markedAt) VALUES ('2026-01-05', 'maybe', 'x')",
                "INSERT INTO dayMark (day, answer, markedAt) VALUES ('tomorrow', 'none', 'x')",
                "INSERT INTO dayMark (day, answer, markedAt) VALUES ('2026-01-06', 'none', NULL)",
            ] {
                XCTAssertThrowsError(try db.execute(sql: refused), refused)
            }
        }
    }

    func testTheRulesOfAnAnswerAsStored() {
        let today = "2026-01-10"
        XCTAssertNil(
            Validation.dayMarkProblem(
                day: "2026-01-09", answer: "unknown", markedAt: "2026-01-10T08:00:00.000Z", today: today))
        XCTAssertNil(
            Validation.dayMarkProblem(
                day: "2026-01-11", answer: "none", markedAt: "2026-01-10T08:00:00.000Z", today: today),
            "a day's grace for a change of time zone")
        for (day, answer, markedAt, words) in [
            ("2026-01-12", "none", "2026-01-10T08:00:00.000Z", "has not come yet"),
            ("2026-02-30", "none", "2026-01-10T08:00:00.000Z", "is not a date"),
            ("2026-01-09", "maybe", "2026-01-10T08:00:00.000Z", "is not one of none, unknown"),
            ("2026-01-09", "none", "yesterday", "is not a time"),
        ] {
            let problem = Validation.dayMarkProblem(day: day, answer: answer, markedAt: markedAt, today: today)
            XCTAssertTrue(problem?.contains(words) == true, "\(day) \(answer) \(markedAt): \(problem ?? "none")")
        }
    }
}
