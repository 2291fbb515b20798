import Foundation
import XCTest

@testable import CraveyLibrary

/// The grow-only merges alone: the same union whatever order two machines' changes arrive in,
/// every rating once (two in one second stay two), and only what cravey writes is read.
final class SyncGrowUnionTests: XCTestCase {
    typealias Value = Library.JournalValue

    func stamp(_ milliseconds: Int64, _ device: String) -> SyncStamp {
        SyncStamp(clock: SyncClock(milliseconds: milliseconds, tick: 0), device: device)
    }

    /// The changes folded in `order`, each taking the later stamp as the merge does.
    func merged(_ field: String, _ changes: [(Value, SyncStamp)]) -> Value? {
        var result = changes[0]
        for change in changes.dropFirst() {
            guard let union = Library.union(field, result.0, result.1, change.0, change.1) else { return nil }
            result = (union, max(result.1, change.1))
        }
        return result.0
    }

    func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { i in
            permutations(Array(items[..<i] + items[(i + 1)...])).map { [items[i]] + $0 }
        }
    }

    func testRatingsAreTheSameUnionWhateverTheOrder() {
        // A rode (6, then 4, then 3, twice in one second); B edited the intensity to 8, later.
        let changes: [(Value, SyncStamp)] = [
            (.text("[[0,6],[60,4]]"), stamp(1_000, "a")), (.text("[[0,8]]"), stamp(3_000, "b")),
            (.text("[[0,6],[60,4],[120,3],[120,2]]"), stamp(2_000, "a")), (.null, stamp(500, "b")),
        ]
        for order in permutations(changes) {
            XCTAssertEqual(merged("ratings", order), .text("[[0,8],[60,4],[120,3],[120,2]]"), "\(order)")
        }
        XCTAssertEqual(merged("ratings", [changes[0], changes[0]]), changes[0].0, "the same twice is once")
    }

    /// A craving's plays grow on one machine (each change holds the ones before): the longest,
    /// whatever the order; two machines' lists of one craving: the same union either way, each id
    /// once.
    func testPlaysInACravingAreTheSameUnionWhateverTheOrder() {
        let (x, y, z) = (UUID().uuidString, UUID().uuidString, UUID().uuidString)
        let grown: [(Value, SyncStamp)] = [
            (.text(x), stamp(1_000, "a")), (.text("\(x),\(y)"), stamp(2_000, "a")),
            (.text("\(x),\(y),\(z)"), stamp(3_000, "a")), (.null, stamp(500, "b")),
        ]
        for order in permutations(grown) { XCTAssertEqual(merged("played", order), .text("\(x),\(y),\(z)")) }
        let apart: [(Value, SyncStamp)] = [
            (.text("\(x),\(y)"), stamp(1_000, "a")), (.text("\(z),\(x)"), stamp(2_000, "b")),
        ]
        XCTAssertEqual(merged("played", apart), .text("\(x),\(y),\(z)"))
        XCTAssertEqual(merged("played", apart.reversed()), .text("\(x),\(y),\(z)"))
    }

    func testOnlyRatingsCraveyWritesAreRead() {
        XCTAssertEqual(Library.pairs("[[0, 7], [180,5]]")?.map { [$0.0, $0.1] }, [[0, 7], [180, 5]])
        XCTAssertEqual(Library.pairs("[]")?.count, 0)
        for text in ["", "[", "[[0,7]", "[[0,7,1]]", "[[0,7]]x", "[[1e3,2]]", "garbage", "[[0,7],]", "[[,7]]"] {
            XCTAssertNil(Library.pairs(text), text)
        }
    }
}
