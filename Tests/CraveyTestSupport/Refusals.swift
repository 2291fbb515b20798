#if canImport(XCTest)
    import Foundation
    import XCTest

    /// A refusal as the house words it, through the built binary at `now`: a status other than
    /// 0, one line on standard error naming why, nothing on standard output, and what it must not
    /// change (`state`, read before and after) unchanged.
    extension CommandTestCase {
        public func assertRefusedClocked(
            _ arguments: [String], now: String, saying words: String, state: () throws -> String,
            file: StaticString = #filePath, line: UInt = #line
        ) throws {
            let before = try state()
            let result = try runClocked(arguments, now: now, status: nil, file: file, line: line)
            XCTAssertNotEqual(result.status, 0, "\(arguments)", file: file, line: line)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr, file: file, line: line)
            XCTAssertTrue(result.stderr.contains(words), "\(arguments): \(result.stderr)", file: file, line: line)
            XCTAssertEqual(result.stdout, "", "\(arguments)", file: file, line: line)
            XCTAssertEqual(try state(), before, "\(arguments) changed nothing", file: file, line: line)
        }
    }
#endif
