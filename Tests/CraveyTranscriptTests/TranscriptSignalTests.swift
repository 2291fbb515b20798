import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The Whisper helper's private folder (HOME, XDG folders, caches) goes on every way cravey ends
/// while it works: Ctrl-C, SIGTERM or SIGHUP of `transcribe --wait`, SIGTERM of the background
/// worker, and cravey killed outright (then the helper sees its parent go, removes the folder and
/// exits). No helper is left running.
final class TranscriptSignalTests: TranscriptTestCase {
    override var timing: String { "later" }
    var temporary: String { base + "/tmp" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard FileManager.default.fileExists(atPath: whisperDirectory + "/model/model.bin") else {
            throw XCTSkip("no Whisper engine next to the build: bash Whisper/install.sh .build/whisper")
        }
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    }

    var whisperDirectory: String {
        URL(fileURLWithPath: productPath("cravey")).deletingLastPathComponent()
            .appendingPathComponent("../../whisper").standardizedFileURL.path
    }

    var helperFolders: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []).filter {
            $0.hasPrefix("cravey-helper-")
        }
    }

    /// Starts `cravey ARGS` with the test's TMPDIR, waits for its Whisper helper to work, sends
    /// `signal`; then the helper and its folder must go.
    func assertTheHelperGoes(
        _ arguments: [String], signal: Int32, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let process = try start(arguments, ["TMPDIR": temporary, "CRAVEY_TRANSCRIBE": "later"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var helper: Int32?
        XCTAssertTrue(
            eventually(60) {
                helper = whisperHelpers(parent: process.processIdentifier).first
                return !helperFolders.isEmpty && helper != nil
            }, "the helper started", file: file, line: line)
        let folder = temporary + "/" + (helperFolders.first ?? "")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/tmp"), folder, file: file, line: line)
        usleep(500_000)
        kill(process.processIdentifier, signal)
        XCTAssertTrue(eventually(10) { helper.map(isGone) ?? true }, "no helper left", file: file, line: line)
        XCTAssertTrue(
            eventually(10) { helperFolders.isEmpty }, "its folder removed: \(helperFolders)", file: file, line: line)
    }

    /// Whether `pid` has ended (gone, or a zombie its new parent has not reaped yet).
    func isGone(_ pid: Int32) -> Bool {
        let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        return stat.map { $0.split(separator: ")").last?.split(separator: " ").first == "Z" } ?? true
    }

    func testStopSignalsOfATranscriptRemoveTheHelpersFolder() throws {
        let id = try importSpeech()
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            try assertTheHelperGoes(["transcribe", id, "--engine", "whisper", "--wait"], signal: signal)
        }
    }

    func testCraveyKilledOutrightLeavesNoHelperAndNoFolder() throws {
        let id = try importSpeech()
        try assertTheHelperGoes(["transcribe", id, "--engine", "whisper", "--wait"], signal: SIGKILL)
    }

    func testTheBackgroundWorkerStoppedRemovesTheHelpersFolder() throws {
        let id = try importSpeech()
        XCTAssertEqual(try run(["transcribe", id, "--engine", "whisper"]).status, 0)
        try assertTheHelperGoes(["transcribe", "--worker"], signal: SIGTERM)
        XCTAssertEqual(try sql("SELECT count(*) FROM transcriptJob"), "1", "the job stays queued")
    }
}
