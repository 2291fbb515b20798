import CraveyLibraryFixtures
import CraveyTracker
import Foundation
import GRDB
import XCTest

@testable import CraveyLibrary

/// A ride's ratings as the tracker keeps them: the intensity first, each rating stored the moment
/// it is given (read back from a fresh library), the scripted form's minutes, and the order a
/// craving's messages are offered in (made for its trigger first).
final class RideTrackerTests: XCTestCase {
    var base = ""
    var library: Library!
    var tracker: Tracker!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-ride-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        library = try Library(root: base + "/library")
        tracker = Tracker(library: library)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: base) }

    /// The craving as a new library opened on the same directory reads it (what was committed).
    func stored(_ id: UUID) throws -> Craving {
        let fresh = Tracker(library: try Library(root: base + "/library"))
        return try XCTUnwrap(try fresh.cravings().first { $0.id == id })
    }

    func testScriptedRatingsComeAtTheirMinutes() throws {
        XCTAssertEqual(
            Tracker.ratings(from: 8, then: [6, 4, 2], minutesApart: 5).map { [$0.seconds, $0.value] },
            [[0, 8], [300, 6], [600, 4], [900, 2]])
        XCTAssertEqual(Tracker.ratings(from: 7, then: [], minutesApart: 3).map { [$0.seconds, $0.value] }, [[0, 7]])
        let craving = try tracker.logRide(
            Tracker.CravingDraft(intensity: 9, time: LogTime(Date()), triggers: [.bored]), ratings: [9, 5],
            minutesApart: 3, now: Date())
        XCTAssertEqual(try stored(craving.id).ratings.map { [$0.seconds, $0.value] }, [[0, 9], [180, 9], [360, 5]])
    }

    /// A ride told afterwards is one commit: ratings cravey would refuse store no craving either;
    /// an edited intensity is the ride's first rating too; a ride keeps company for 30 minutes.
    func testARideIsOneCommitItsFirstRatingFollowsAnEditAndItRidesRecentCravings() throws {
        XCTAssertThrowsError(
            try tracker.logRide(
                Tracker.CravingDraft(intensity: 8, time: LogTime(Date())), ratings: [6, 11], minutesApart: 3,
                now: Date()))
        XCTAssertEqual(try tracker.cravings(), [], "nothing stored")
        var craving = try tracker.logRide(
            Tracker.CravingDraft(intensity: 8, time: LogTime(Date())), ratings: [6, 4], minutesApart: 5, now: Date())
        craving.intensity = 3
        XCTAssertEqual(try tracker.edit(craving, now: Date()).ratings.map(\.value), [3, 6, 4])
        XCTAssertEqual(try stored(craving.id).ratings.map { [$0.seconds, $0.value] }, [[0, 3], [300, 6], [600, 4]])
        let now = Date()
        XCTAssertTrue(Tracker.canRide(LogTime(instant: now.addingTimeInterval(-29 * 60), utcOffset: 0), now: now))
        XCTAssertFalse(Tracker.canRide(LogTime(instant: now.addingTimeInterval(-31 * 60), utcOffset: 0), now: now))
    }

    func testEachRatingIsKeptTheMomentItIsGiven() throws {
        let craving = try tracker.logCraving(Tracker.CravingDraft(intensity: 8, time: LogTime(Date())), now: Date())
        XCTAssertEqual(try stored(craving.id).ratings, [], "not ridden yet")
        var ride = try Tracker.Ride(craving, tracker: tracker)
        XCTAssertEqual(try stored(craving.id).ratings.map { [$0.seconds, $0.value] }, [[0, 8]], "the intensity first")
        try ride.rate(6, at: craving.time.instant.addingTimeInterval(185.4))
        XCTAssertEqual(try stored(craving.id).ratings.map { [$0.seconds, $0.value] }, [[0, 8], [185, 6]])
        // A clock that stepped back never puts a rating before the last one.
        try ride.rate(5, at: craving.time.instant.addingTimeInterval(100))
        XCTAssertEqual(try stored(craving.id).ratings.map { [$0.seconds, $0.value] }, [[0, 8], [185, 6], [185, 5]])
        XCTAssertEqual(ride.last, 5)
        // A ride taken up again carries on from what was kept.
        let again = try Tracker.Ride(try stored(craving.id), tracker: tracker)
        XCTAssertEqual(again.ratings.count, 3)
    }

    func testMessagesMadeForTheTriggerComeFirst() throws {
        func save(_ title: String, plays: Int, for triggers: [String] = []) throws -> Recording {
            let sample = base + "/\(title).m4a"
            try Data(repeating: 7, count: 2048).write(to: URL(fileURLWithPath: sample))
            let saved = try library.save(
                copying: sample, thumbnail: nil, kind: .audio, draft: .init(title: title), duration: 3,
                media: MediaFacts(sampleRate: 48_000, channels: 1))
            for _ in 0..<plays { try library.recordPlay(saved.id, at: Date()) }
            let queue = try DatabaseQueue(path: base + "/library/library.sqlite")
            try queue.write {
                try $0.execute(
                    sql: "UPDATE recording SET forTriggers = ? WHERE id = ?",
                    arguments: [triggers.joined(separator: ","), saved.id.uuidString])
            }
            try queue.close()
            return saved
        }
        let most = try save("Most played", plays: 5)
        let bored = try save("For boredom", plays: 1, for: ["bored"])
        let middle = try save("Sometimes", plays: 3)
        XCTAssertEqual(try tracker.messageOrder(for: [.bored], now: Date()).map(\.id), [bored.id, most.id, middle.id])
        XCTAssertEqual(
            try tracker.messageOrder(for: [.anxious], now: Date()).map(\.id), [most.id, middle.id, bored.id])
        XCTAssertEqual(try tracker.messageOrder(for: [], now: Date()).map(\.id), [most.id, middle.id, bored.id])
    }
}

/// The ride's rating keys are the domain's: 1–9 as they are, 0 is 10, nothing else is a rating.
final class IntensityKeyTests: XCTestCase {
    func testEveryDigitIsARatingFrom1To10() {
        XCTAssertEqual((0...9).compactMap(Intensity.value(ofDigit:)), [10, 1, 2, 3, 4, 5, 6, 7, 8, 9])
        XCTAssertTrue((0...9).compactMap(Intensity.value(ofDigit:)).allSatisfy(Intensity.range.contains))
        XCTAssertNil(Intensity.value(ofDigit: 10))
        XCTAssertNil(Intensity.value(ofDigit: -1))
    }
}
