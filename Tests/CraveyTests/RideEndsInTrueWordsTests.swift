import CraveyTestSupport
import Foundation
import XCTest

/// A ride's last words follow what happened: eased → it passed; lower → coming down, from what to
/// what; the same or higher → you stayed with it, it will pass, what else helps now; ended at
/// once → no claim, only what can help next. No praise for a number that rose; goal-aware.
final class RideEndsInTrueWordsTests: LogTestCase {
    func told(_ arguments: [String]) throws -> String {
        let out = try run(["ride"] + arguments).stdout
        return out.split(separator: "\n").dropFirst().joined(separator: "\n")
    }

    func testTheWordsFollowTheRatings() throws {
        try run(["settings", "goal", "quit"])
        let rose = try told(["5", "--ratings", "7,9", "--minutes-apart", "3"])
        XCTAssertEqual(
            rose,
            """
            You stayed with it — from 5 to 9 in 6 minutes: 5 → 7 → 9.
            It will pass: cravings rise, peak and fall. What else helps now: one of your messages, the ride's breathing, and if it comes to that, logging a use — without judgement.
            """)
        XCTAssertFalse(rose.contains("💪") || rose.contains("rode it out"), rose)
        XCTAssertEqual(
            try told(["8", "--ratings", "7,6"]).split(separator: "\n").first,
            "It's coming down: from 8 to 6 in 6 minutes: 8 → 7 → 6.")
        XCTAssertEqual(
            try told(["8", "--ratings", "6,4"]), "It passed: you rode it out. 💪\nFrom 8 to 4 in 6 minutes: 8 → 6 → 4.")
        XCTAssertTrue(try told(["9", "--ratings", "5,3"]).hasPrefix("It passed"), "3 or less has eased")
        XCTAssertTrue(try told(["6", "--ratings", "6"]).hasPrefix("You stayed with it — still at 6 in 3 minutes"))

        // Goal-aware: for someone who did not set out to stop, a use is logged as it was.
        try run(["settings", "goal", "monitor"])
        XCTAssertTrue(
            try told(["5", "--ratings", "7"]).hasSuffix("and if you use, logging it as it was — without judgement."))
    }

    /// `q` half a second in: no claim about the craving, only what can help next.
    func testARideEndedAtOnceClaimsNothing() throws {
        let inner =
            "exec env \(env().map { "\($0.key)=\(shellQuote($0.value))" }.sorted().joined(separator: " ")) \(shellQuote(cravey)) ride 5 --speaker cravey_capture --library \(shellQuote(root))"
        let tmux = try TmuxSession("sh -c \(shellQuote(inner)); echo EXIT=$?; sleep 60", width: 100, height: 40)
        try tmux.waitFor("How strong: 5")
        try tmux.send("q", literal: true)
        let end = try tmux.waitFor("EXIT=")
        XCTAssertTrue(
            end.contains(
                "The ride ended before a rating. What can help next: one of your messages, the ride's breathing,"),
            end)
        XCTAssertFalse(end.contains("rode it out") || end.contains("💪"), end)
        XCTAssertTrue(end.contains("EXIT=0"), end)
    }
}
