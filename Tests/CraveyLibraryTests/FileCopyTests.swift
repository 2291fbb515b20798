import CraveyTestSupport
import Foundation
import XCTest

@testable import CraveyLibrary

/// The SHA-256 a backup keeps of every file (libavutil's), against coreutils' sha256sum at the
/// sizes where padding changes (one block, two blocks, the 56-byte boundary) and past a read block.
final class FileCopyTests: XCTestCase {
    func testTheSHA256IsSha256sums() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for size in [0, 1, 3, 55, 56, 63, 64, 65, 119, 120, 1000, FileCopy.blockSize + 3] {
            let file = dir.appendingPathComponent("f\(size)")
            try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ size) }).write(to: file)
            let expected = String(try runProcess("/usr/bin/sha256sum", [file.path]).stdout.prefix(64))
            let (bytes, hash) = try FileCopy.sha256(file.path)
            XCTAssertEqual(hash, expected, "\(size) bytes")
            XCTAssertEqual(bytes, Int64(size))
            let copy = dir.appendingPathComponent("c\(size)")
            XCTAssertEqual(try FileCopy.copy(file.path, to: copy.path, faults: .none, site: "test").sha256, expected)
        }
    }
}
