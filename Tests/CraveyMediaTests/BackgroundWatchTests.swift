import CraveyMedia
import Foundation
import XCTest

/// A program started in the background is watched briefly for a refusal (a terminal that does not
/// take its command line ends at once with an error). On a busy machine a refusal can come late
/// only because the program did not get the processor: it is watched on until it has had some.
final class BackgroundWatchTests: XCTestCase {
    /// A refusal that comes after the watch's half second, from a program that has had almost no
    /// processor time (here it sleeps, as a starved one waits), is still seen as a refusal; a
    /// program that runs on and has had its share is left to run at once.
    func testALateRefusalOfAStarvedProgramIsSeen() throws {
        let environment = ["PATH": "/usr/bin:/bin"]
        let started = Date()
        let late = try BackgroundProcess.start(
            "/bin/sh", ["-c", "sleep 0.9; exit 3"], environment: environment, watching: 0.5)
        XCTAssertEqual(late, 3, "the refusal came after the half second; the program had not run yet")
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.9)

        let busy = Date()
        // Works a while, then waits (and ends by itself a few seconds later).
        let running = try BackgroundProcess.start(
            "/bin/sh", ["-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; sleep 4"], environment: environment,
            watching: 0.5)
        XCTAssertNil(running, "a program that has run its share is taken as started")
        XCTAssertLessThan(Date().timeIntervalSince(busy), 2.9, "and left to run once it has had the processor")
    }
}
