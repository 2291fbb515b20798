import CraveyTestSupport
import Foundation
import XCTest

/// Home's note while the newest backup is more than 7 days old, in a real terminal (tmux) under
/// `CRAVEY_NOW`, at 60x12 and 80x24: shown on one visit a week, with the command that keeps a
/// backup current; not again on a later visit that week; and never within an hour of a craving.
final class BackupNoteScreenTests: CommandTestCase {
    var stick: String { base + "/stick" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try runClocked(["craving", "5", "--at", "2026-11-10 09:00"], now: "2026-11-10T09:00:00")
        try runClocked(["settings", "goal", "cut-down"], now: "2026-11-10T09:00:00")
        try pastFirstRun()
        try runClocked(["backup", stick], now: "2026-11-21T10:00:00")
    }

    /// The screen's lines joined by spaces (a note wrapped over lines reads as one).
    func joined(_ tmux: TmuxSession) throws -> String {
        try tmux.screen().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }

    /// Home at `now` and a size; what it shows over its first notes (a milestone may come first:
    /// a key that does nothing moves on to the next note), then it is left with q.
    func visit(_ now: String, width: Int, height: Int) throws -> String {
        let tmux = try tmuxClocked("home", now: now, width: width, height: height)
        defer { tmux.close() }
        try tmux.waitFor("LOG CRAVING")
        var seen = try joined(tmux)
        for _ in 0..<3 {
            try tmux.send("z", literal: true)
            usleep(300_000)
            seen += "\n" + (try joined(tmux))
        }
        XCTAssertFalse(seen.contains("Make the window at least"), "\(width)x\(height): \(seen)")
        XCTAssertTrue(seen.contains("LOG CRAVING") && seen.contains("RIDE IT OUT"), "\(width)x\(height): \(seen)")
        try tmux.send("q", literal: true)
        try tmux.waitFor("EXIT=0")
        return seen
    }

    func testTheNoteShowsOnceAWeekWhileTheNewestBackupIsOld() throws {
        // Visits a few minutes off the backup's own time: a test clock runs on from the time it is
        // given, so a visit at the very minute could fall a moment short of a whole day.
        let first = try visit("2026-11-29T10:05:00", width: 60, height: 12)
        XCTAssertTrue(first.contains("Your newest backup is 8 days old."), first)
        XCTAssertTrue(first.contains("cravey backup --every day"), first)

        let later = try visit("2026-11-29T12:00:00", width: 80, height: 24)
        XCTAssertFalse(later.contains("newest backup"), "shown once a week: \(later)")
        let nextWeek = try visit("2026-12-05T10:00:00", width: 80, height: 24)
        XCTAssertFalse(nextWeek.contains("newest backup"), "6 days after it was shown: \(nextWeek)")

        let weekOn = try visit("2026-12-06T10:30:00", width: 80, height: 24)
        XCTAssertTrue(weekOn.contains("Your newest backup is 15 days old."), weekOn)

        // A backup made (by any path) ends it.
        try runClocked(["backup", stick], now: "2026-12-06T11:00:00")
        let backedUp = try visit("2026-12-13T12:00:00", width: 60, height: 12)
        XCTAssertFalse(backedUp.contains("newest backup"), "7 days old is not old: \(backedUp)")
    }

    func testTheNoteNeverFollowsACraving() throws {
        try runClocked(["craving", "7", "--at", "2026-11-29 09:50"], now: "2026-11-29T09:50:00")
        let afterCraving = try visit("2026-11-29T10:00:00", width: 80, height: 24)
        XCTAssertFalse(afterCraving.contains("newest backup"), "10 minutes after a craving: \(afterCraving)")
        let hourOn = try visit("2026-11-29T11:00:00", width: 60, height: 12)
        XCTAssertTrue(hourOn.contains("Your newest backup is 8 days old."), "an hour on: \(hourOn)")
    }
}
