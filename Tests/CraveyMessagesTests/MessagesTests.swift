import CraveyLibrary
import CraveyMedia
import CraveyRecorder
import CraveyTestSupport
import Foundation
import XCTest

@testable import CraveyMessages

#if canImport(Glibc)
    import Glibc
#endif

/// The application layer's use cases with the real parts: a take captured from ALSA's file
/// plugin and finished, saved, trimmed and discarded; a file imported and a saved recording
/// trimmed through FFmpeg; an interrupted take recovered. Each checks the file FFmpeg reads back
/// and the row the library keeps.
final class MessagesTests: XCTestCase {
    var base = ""
    var library: Library!
    /// The ALSA variables as they were: set for these tests only, since every test of the package
    /// runs in one process.
    var savedEnvironment: [String: String?] = [:]

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-messages-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        library = try Library(root: base + "/lib", media: RecordingRecovery.media)
        try makeTone(base + "/tone.raw", seconds: 5)
        for (name, value) in ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": base + "/tone.raw"] {
            savedEnvironment[name] = ProcessInfo.processInfo.environment[name]
            setenv(name, value, 1)
        }
    }

    override func tearDownWithError() throws {
        for (name, value) in savedEnvironment {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        library = nil
        try? FileManager.default.removeItem(atPath: base)
    }

    /// Files in the library's staging area (takes on their way in, parts of interrupted ones).
    func staged() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: base + "/lib/.incoming")) ?? [] }

    /// A 2 s take from the file plugin (unclocked: captured at once, capped exactly).
    func take() throws -> Take {
        let recorder = Recorder(library: library, microphone: "cravey_file", maxSeconds: 2)
        try recorder.start()
        recorder.waitUntilStopped()
        return try Take.finish(recorder)
    }

    func testATakeIsFinishedWithItsFactsAndSaved() throws {
        let take = try take()
        XCTAssertEqual(take.duration, 2.0, accuracy: 0.03)
        XCTAssertEqual(take.stopReason, .cap)
        XCTAssertNotNil(take.loudness, "loudness read from the finished file")
        XCTAssertNotNil(take.speech, "the tone is not silence")
        XCTAssertNil(take.thumbnail, "no thumbnail for sound")
        let saved = try take.save(draft: .init(title: "Two seconds", purpose: .motivational))
        XCTAssertEqual(saved.title, "Two seconds")
        XCTAssertEqual(saved.duration, take.duration)
        XCTAssertEqual(saved.media.loudness ?? 0, take.loudness?.integrated ?? 1, accuracy: 0.001)
        let file = try library.file(of: saved)
        let probe = try ffprobe(file)
        XCTAssertEqual(probe.codecs, ["aac"])
        XCTAssertEqual(probe.duration, 2.0, accuracy: 0.05)
        XCTAssertEqual(staged(), [], "the fragmented file is gone once saved")
        XCTAssertEqual(try library.recording(matching: saved.id.uuidString), saved)
    }

    func testATrimmedTakeKeepsTheSpanAndADiscardedOneLeavesNothing() throws {
        let take = try take()
        let trimmed = try take.trimmed(to: MediaSpan(start: 0.5, end: 1.5))
        XCTAssertEqual(trimmed.duration, 1.0, accuracy: 0.03)
        XCTAssertFalse(FileManager.default.fileExists(atPath: take.finalFile.path), "the untrimmed file is dropped")
        XCTAssertEqual(try ffprobe(trimmed.finalFile.path).duration, 1.0, accuracy: 0.05)
        trimmed.discard()
        XCTAssertEqual(staged(), [], "nothing of a discarded take stays")
        XCTAssertEqual(try library.recordings().count, 0)
    }

    func testImportThenTrimASavedRecording() throws {
        let wav = base + "/three.wav"
        let made = try runProcess(
            "/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=3", wav])
        XCTAssertEqual(made.status, 0, made.stderr)
        let imported = try MediaImport.importFile(wav, into: library, draft: .init(), trim: false, now: Date())
        XCTAssertEqual(imported.title, "three", "titled after the file")
        XCTAssertEqual(imported.kind, .audio)
        XCTAssertEqual(imported.duration, 3.0, accuracy: 0.03)
        XCTAssertEqual(try ffprobe(library.file(of: imported)).codecs, ["aac"])
        try "not a sound\n".write(toFile: base + "/notes.txt", atomically: true, encoding: .utf8)
        XCTAssertThrowsError(
            try MediaImport.importFile(base + "/notes.txt", into: library, draft: .init(), trim: false, now: Date())
        ) {
            XCTAssertTrue("\($0)".contains("is not an audio or video file"), "\($0)")
        }
        let trimmed = try RecordingTrim.trim(imported, in: library, to: MediaSpan(start: 1, end: 2.5))
        XCTAssertEqual(trimmed.duration, 1.5, accuracy: 0.03)
        XCTAssertEqual(trimmed.title, imported.title)
        XCTAssertEqual(try ffprobe(library.file(of: trimmed)).duration, 1.5, accuracy: 0.05)
        XCTAssertThrowsError(try RecordingTrim.trim(trimmed, in: library, to: MediaSpan(start: 1, end: 9))) {
            XCTAssertTrue($0 is RecordingTrim.BadSpan, "\($0)")
        }
        XCTAssertEqual(try library.recordings().map(\.id), [imported.id], "one recording, replaced in place")
    }

    /// A take cut off mid-way (a fragmented file whose end is missing) is recovered up to its
    /// last complete fragment and listed; one with nothing playable is not.
    func testAnInterruptedTakeIsRecoveredFromItsFragments() throws {
        let whole = base + "/whole.mp4"
        let made = try runProcess(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-c:a", "aac",
                "-movflags", "frag_keyframe+empty_moov", "-frag_duration", "500000", "-f", "mp4", whole,
            ])
        XCTAssertEqual(made.status, 0, made.stderr)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let id = UUID()
        let part = try library.stage(.part, id: id, kind: .audio)
        try bytes.prefix(bytes.count * 3 / 4).write(to: URL(fileURLWithPath: part.path))
        let recovered = try XCTUnwrap(try RecordingRecovery.recover(part.path, into: library))
        XCTAssertEqual(recovered.id, id)
        XCTAssertTrue(recovered.title.hasPrefix("Recovered recording"), recovered.title)
        XCTAssertGreaterThan(recovered.duration, 1.5)
        XCTAssertLessThan(recovered.duration, 4.0)
        XCTAssertNotNil(recovered.media.loudness, "measured like any saved recording")
        XCTAssertEqual(try ffprobe(library.file(of: recovered)).codecs, ["aac"])

        let junk = try library.stage(.part, id: UUID(), kind: .audio)
        try Data(repeating: 7, count: 2000).write(to: URL(fileURLWithPath: junk.path))
        XCTAssertNil(try RecordingRecovery.recover(junk.path, into: library), "nothing playable: nothing saved")
        XCTAssertEqual(try library.recordings().map(\.id), [recovered.id])
    }
}
