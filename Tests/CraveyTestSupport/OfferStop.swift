#if canImport(XCTest)
    import Foundation
    import XCTest

    extension BackgroundTestCase {
        /// `waiting`, a run of cravey waiting for the answer to the notification it showed on the
        /// server writing `server`, asked to stop (SIGTERM): it ends within 3 seconds and withdraws
        /// the notification (the server hears `CLOSE 7`), so no button is left that does nothing.
        public func assertAStopWithdrawsTheOffer(
            _ waiting: Process, server: String, file: StaticString = #filePath, line: UInt = #line
        ) {
            XCTAssertTrue(waitForFile(server, containing: "NOTIFY").contains("NOTIFY"), file: file, line: line)
            usleep(300_000)
            XCTAssertTrue(waiting.isRunning, "waiting for the answer", file: file, line: line)
            let stopped = Date()
            waiting.terminate()
            waiting.waitUntilExit()
            XCTAssertLessThan(Date().timeIntervalSince(stopped), 3, "SIGTERM ends the wait", file: file, line: line)
            XCTAssertTrue(
                waitForFile(server, containing: "CLOSE 7").contains("CLOSE 7"), "the offer is withdrawn", file: file,
                line: line)
        }
    }
#endif
