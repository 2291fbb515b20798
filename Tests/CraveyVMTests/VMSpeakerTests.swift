import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A speaker another program holds, against the real snd-aloop driver in the VM rig: the device
/// is opened without waiting for it, so the kernel answers "busy" at once and the words for a busy
/// speaker (which process holds it) are reached, where a blocking open would wait for ever (and,
/// within the speaker's deadline, would be said as a speaker that did not answer). The emulated
/// machine starts cravey slowly (seconds), so the words, not the time, tell the two apart.
final class VMSpeakerTests: CommandTestCase {
    let speaker = "hw:Loopback,0,0"

    override func setUpWithError() throws {
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["CRAVEY_IN_VM"] == "1",
            "runs inside the VM rig (Tests/vm/rig.sh), through VMRigTests")
        try super.setUpWithError()
        let wav = base + "/walk.wav"
        try makeToneWAV(wav, seconds: 3)
        let imported = try runProcess(cravey, ["import", wav, "--title", "Walk", "--library", root])
        XCTAssertEqual(imported.status, 0, imported.stderr)
    }

    func testABusySpeakerIsSaidAtOnce() throws {
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/aplay")
        holder.arguments = ["-q", "-D", speaker, "-f", "S16_LE", "-r", "48000", "-c", "1", "-t", "raw", "/dev/zero"]
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        defer {
            holder.terminate()
            holder.waitUntilExit()
        }
        usleep(1_000_000)
        XCTAssertTrue(holder.isRunning, "aplay holds \(speaker)")

        let play = Process()
        play.executableURL = URL(fileURLWithPath: cravey)
        play.arguments = ["play", "--top", "--speaker", speaker, "--library", root]
        play.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1", "CRAVEY_TRANSCRIBE": "later"])
        { $1 }
        let out = Pipe()
        play.standardOutput = out
        play.standardError = FileHandle.nullDevice
        let begun = Date()
        try play.run()
        while play.isRunning && Date().timeIntervalSince(begun) < 120 { usleep(10_000) }
        let took = Date().timeIntervalSince(begun)
        if play.isRunning { kill(play.processIdentifier, SIGKILL) }
        play.waitUntilExit()
        let words = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        print("VM speaker: a busy \(speaker) said in \(String(format: "%.3f", took)) s")
        XCTAssertFalse(words.contains("did not answer"), "busy at once, not after the speaker's deadline: \(words)")
        XCTAssertEqual(play.terminationStatus, 1)
        XCTAssertTrue(
            words.contains(
                "The speaker '\(speaker)' did not open (busy: held by aplay (pid \(holder.processIdentifier)))"),
            words)
    }
}
