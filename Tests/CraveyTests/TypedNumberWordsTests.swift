import CraveyTestSupport
import Foundation
import XCTest

/// A number typed where a command takes one is read in that number's words, a negative one too
/// (not "Unknown option '-3'"), and a use names its method as it was typed.
final class TypedNumberWordsTests: LogTestCase {
    func testANegativeNumberIsRefusedInItsOwnWordsAndNothingIsMade() throws {
        let refused: [([String], String)] = [
            (["use", "vape", "-3"], "'-3' is not an amount of vape"),
            (["use", "joints", "-0.5"], "'-0.5' is not an amount of bowls"),
            (["craving", "-2"], "'-2' is not a whole number from 1 to 10"),
            (["craving", "-2", "--notes", "rough"], "'-2' is not a whole number from 1 to 10"),
            (["ride", "-4"], "'-4' is not a whole number from 1 to 10"),
            (["top", "-2"], "the count must be at least 1"),
        ]
        for (arguments, words) in refused {
            let result = try run(arguments, status: nil)
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(words), "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("Unknown option"), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(arguments): one line: \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: root), "\(arguments) made a library")
        }
        // After "--" a number is a value too.
        let afterDashes = try runProcess(cravey, ["craving", "--library", root, "--", "-2"], environment: env())
        XCTAssertTrue(afterDashes.stderr.contains("'-2' is not a whole number from 1 to 10"), afterDashes.stderr)
        // What is not a number is refused as before.
        XCTAssertTrue(try run(["craving", "--bogus"], status: 64).stderr.contains("Unknown option '--bogus'"))
        XCTAssertTrue(try run(["craving", "5", "-3"], status: 64).stderr.contains("Unexpected argument '-3'"))
        XCTAssertTrue(try run(["use", "vape", "3", "4"], status: 64).stderr.contains("Unexpected argument '4'"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root))
        // And a number in range is logged as before.
        XCTAssertTrue(try run(["craving", "8"]).stdout.hasPrefix("Craving logged ✓ — 8 (strong)"))
    }

    func testAUseNamesItsMethodAsItWasTyped() throws {
        XCTAssertTrue(try run(["use", "joints", "1"]).stdout.hasPrefix("Usage logged ✓ — 1 joint, "))
        XCTAssertTrue(try run(["use", "blunt", "2"]).stdout.hasPrefix("Usage logged ✓ — 2 blunts, "))
        XCTAssertTrue(try run(["use", "Bowls", "0.5"]).stdout.hasPrefix("Usage logged ✓ — 0.5 bowls, "))
        XCTAssertTrue(try run(["use", "vape", "3"]).stdout.hasPrefix("Usage logged ✓ — vape, 3 pulls, "))
        // The group is what is kept.
        XCTAssertEqual(Set(try logs().compactMap { $0["method"] as? String }), ["bowls", "vape"])
    }
}
