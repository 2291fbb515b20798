import CraveyLibrary
import CraveyPlayer
import Foundation
import XCTest

@testable import CraveyMessages

/// The use cases the commands and the home screen share: the check-in's take, choosing and
/// counting a play, the transcript queue's order, and the export.
extension MessagesTests {
    func testACheckInTakeIsSavedAsTheDaysEntryOnceAndADiscardedOneLeavesTheDayFree() throws {
        let take = try CheckInTake(library: library, day: "2026-11-20", mood: .happy, mic: "cravey_file", maxSeconds: 2)
        try take.start()
        take.recorder.waitUntilStopped()
        guard case let .saved(saved) = try take.finish() else { return XCTFail("a kept take is saved") }
        XCTAssertEqual(saved.checkIn?.day, "2026-11-20")
        XCTAssertEqual(saved.checkIn?.mood, .happy)
        XCTAssertEqual(try library.checkIn(on: "2026-11-20")?.id, saved.id)
        XCTAssertEqual(try library.recordings().count, 0, "a check-in is kept apart from the messages")
        // One a day: refused before the microphone opens.
        XCTAssertThrowsError(
            try CheckInTake(library: library, day: "2026-11-20", mood: .low, mic: "cravey_file", maxSeconds: 2)
        ) {
            guard case CheckInTake.Failure.alreadyCheckedIn(day: "2026-11-20") = $0 else { return XCTFail("\($0)") }
        }

        let discarded = try CheckInTake(
            library: library, day: "2026-11-21", mood: .down, mic: "cravey_file", maxSeconds: 2)
        try discarded.start()
        discarded.recorder.waitUntilStopped()
        guard case .discarded = try discarded.finish(discarding: true) else {
            return XCTFail("a discarded take is not saved")
        }
        XCTAssertNil(try library.checkIn(on: "2026-11-21"))
        XCTAssertNil(try library.keptMood(for: "2026-11-21"))
        XCTAssertEqual(staged(), [], "nothing of a discarded take stays")

        // A microphone that cannot start abandons the entry; the flow keeps its mood for the next try.
        let broken = try CheckInTake(
            library: library, day: "2026-11-21", mood: .okay, mic: "cravey_no_such_device", maxSeconds: 2)
        XCTAssertThrowsError(try broken.start(keepingMood: true)) {
            guard case CheckInTake.Failure.start = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(try library.keptMood(for: "2026-11-21"), .okay)
        XCTAssertNil(try library.checkIn(on: "2026-11-21"))
    }

    func testAPlayIsChosenCountedAndACheckInIsNeverCounted() throws {
        XCTAssertThrowsError(try MessagePlay.choose(.top(rank: 1), in: library)) {
            guard case MessagePlay.Failure.noRecordings = $0 else { return XCTFail("\($0)") }
        }
        let message = try take().save(draft: .init(title: "Breathe"))
        XCTAssertEqual(try MessagePlay.choose(.top(rank: 1), in: library).id, message.id)
        XCTAssertEqual(try MessagePlay.choose(.key("Brea"), in: library).id, message.id)
        XCTAssertThrowsError(try MessagePlay.choose(.top(rank: 2), in: library)) {
            guard case MessagePlay.Failure.onlyRanked(count: 1) = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(try MessagePlay.seconds(of: .at(1.5), in: message, library: library), 1.5)
        XCTAssertThrowsError(try MessagePlay.seconds(of: .at(60), in: message, library: library)) {
            guard case MessagePlay.Failure.pastTheEnd = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try MessagePlay.seconds(of: .word("breathe"), in: message, library: library)) {
            guard case MessagePlay.Failure.noTranscript = $0 else { return XCTFail("\($0)") }
        }

        // Stopped at once: nothing was heard, nothing counted.
        let unheard = silently(message, stoppedAtOnce: true)
        XCTAssertFalse(unheard.counted)
        guard case .notHeard = unheard.counting else { return XCTFail("\(unheard.counting)") }
        XCTAssertEqual(try library.recording(matching: message.id.uuidString).playCount, 0)

        let played = silently(message, stoppedAtOnce: false)
        XCTAssertTrue(played.counted)
        XCTAssertTrue(played.heard)
        XCTAssertEqual(played.ending, .finished)
        XCTAssertEqual(try library.recording(matching: message.id.uuidString).playCount, 1)
        XCTAssertTrue(MessagePlay.heard(1, of: 30))
        XCTAssertFalse(MessagePlay.heard(0.5, of: 30), "half a second of a long message is not heard")
        XCTAssertTrue(MessagePlay.heard(0.4, of: 0.42), "a short message heard whole")
        XCTAssertFalse(MessagePlay.heard(0, of: 0))

        let checkIn = try CheckInTake(
            library: library, day: "2026-11-20", mood: .okay, mic: "cravey_file", maxSeconds: 2)
        try checkIn.start()
        checkIn.recorder.waitUntilStopped()
        guard case let .saved(entry) = try checkIn.finish() else { return XCTFail("a kept take is saved") }
        let listened = silently(entry, stoppedAtOnce: true)
        XCTAssertFalse(listened.counted)
        guard case .checkIn = listened.counting else { return XCTFail("\(listened.counting)") }
        XCTAssertEqual(try library.checkIn(on: "2026-11-20")?.playCount, 0)
    }

    /// Plays `recording` on a silent player's clock: to its end, or stopped at once.
    func silently(_ recording: Recording, stoppedAtOnce: Bool) -> MessagePlay.Played {
        let player = SilentPlayer(duration: recording.duration)
        player.start()
        if stoppedAtOnce { player.dismiss() }
        return MessagePlay.play(recording, in: library, on: player, clock: { Date() }) { player.wait() ?? .dismissed }
    }

    func testASaveQueuesItsTranscriptFirstThenTheOthersWaiting() throws {
        let first = try take().save(draft: .init(title: "First"))
        let second = try take().save(draft: .init(title: "Second"))
        XCTAssertEqual(TranscriptQueue.queue(after: second, in: library).map(\.id), [second.id, first.id])
        XCTAssertEqual(try library.queuedTranscriptIds(), [first.id, second.id])
        XCTAssertTrue(TranscriptQueue.wantsWorker(library), "queued, and no worker runs")
        XCTAssertTrue(TranscriptQueue.onItsWay(first.id, in: library, timing: .background))
        XCTAssertFalse(
            TranscriptQueue.onItsWay(first.id, in: library, timing: .later), "waits for a transcribe command")
        XCTAssertEqual(TranscriptQueue.onItsWay(in: library, timing: .background), [first.id, second.id])
        XCTAssertEqual(TranscriptQueue.onItsWay(in: library, timing: .later), [])
    }

    func testTheExportHoldsTheLogsAndTheRecordingsAndSaysHowMany() throws {
        let saved = try take().save(draft: .init(title: "=Sum"))
        let logs = [
            ExportStub(craving: true, id: "c1"), ExportStub(craving: false, id: "u1"),
            ExportStub(craving: true, id: "c2"),
        ]
        let csv = try LibraryExport(.csv, of: library, logs: { logs }, logColumns: ["id", "at", "notes"])
        XCTAssertEqual([csv.cravings, csv.usageLogs, csv.recordings], [2, 1, 1])
        let lines = csv.text.components(separatedBy: "\r\n")
        XCTAssertTrue(lines[0].hasPrefix("record,id,at,notes,createdAt,kind,title,"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("craving,c1,2026,,"), lines[1])
        XCTAssertEqual(
            lines[1].split(separator: ",", omittingEmptySubsequences: false).count, lines[0].split(separator: ",").count
        )
        XCTAssertTrue(lines[4].hasPrefix("recording,\(saved.id.uuidString),,,"), lines[4])
        XCTAssertTrue(lines[4].contains(",'=Sum,"), "free text is never a formula")

        let json = try LibraryExport(.json, of: library, logs: { logs }, logColumns: [])
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: [[String: Any]]])
        XCTAssertEqual(object["cravings"]?.compactMap { $0["id"] as? String }, ["c1", "c2"])
        XCTAssertEqual(object["usage"]?.compactMap { $0["id"] as? String }, ["u1"])
        XCTAssertEqual(object["recordings"]?.first?["title"] as? String, "=Sum")

        let path = base + "/out/" + LibraryExport.fileName(.json)
        try FileManager.default.createDirectory(atPath: base + "/out", withIntermediateDirectories: true)
        try json.write(to: path, replacing: false, another: "choose another", replace: nil)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), json.text)
        XCTAssertThrowsError(try json.write(to: path, replacing: false, another: "choose another", replace: nil))
        XCTAssertTrue(path.hasSuffix(".json") && path.contains("/cravey_export_20"), path)
    }
}

/// A log as the tracker's export gives it: an id, a time and the record's name.
private struct ExportStub: ExportedLog {
    let craving: Bool
    let id: String

    var isCraving: Bool { craving }
    var csvRow: [String: RecordingExport.Value] {
        ["record": .string(craving ? "craving" : "use"), "id": .string(id), "at": .string("2026")]
    }
}
