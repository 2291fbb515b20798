import CraveyMedia
import CraveyTestSupport
import Foundation
import XCTest

/// `cravey doctor` against real drivers in the VM: unreadable devices and devices held by others.
final class VMDoctorTests: XCTestCase {
    let cravey = productPath("cravey")

    override func setUpWithError() throws {
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["CRAVEY_IN_VM"] == "1",
            "runs inside the VM rig (Tests/vm/rig.sh), through VMRigTests")
    }

    /// Runs doctor (as `nobody` when `unprivileged`) and returns its findings by subject. The
    /// devices are what is looked at here: Whisper is turned off (its check starts the engine,
    /// about 20 s on the emulated processor; `InstallTests` and the transcript tests check it).
    func doctor(_ args: [String], unprivileged: Bool = false) throws -> [String: [String: Any]] {
        let library = FileManager.default.temporaryDirectory.path + "/doctor-\(UUID().uuidString.prefix(6))"
        let command = [cravey, "doctor", "--json", "--library", library] + args
        let argv =
            unprivileged ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command : command
        let result = try runProcess(argv[0], Array(argv.dropFirst()), environment: ["CRAVEY_WHISPER": "off"])
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        var bySubject: [String: [String: Any]] = [:]
        for finding in json["findings"] as? [[String: Any]] ?? [] {
            bySubject[(finding["subject"] as? String ?? "").components(separatedBy: " ").first ?? ""] = finding
        }
        return bySubject
    }

    func testUnreadableDevicesNameTheMissingGroup() throws {
        // Every camera node as udev leaves them (group video): vivid's and the loopback webcams'.
        let cameras = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []).filter {
            $0.hasPrefix("video")
        }
        let nodes = cameras.map { "/dev/" + $0 } + DeviceAccess.soundCaptureNodes() + ["/dev/snd/controlC0"]
        for node in nodes {
            XCTAssertEqual(try runProcess("/bin/chgrp", [node.contains("snd") ? "audio" : "video", node]).status, 0)
            XCTAssertEqual(chmod(node, 0o660), 0)
        }
        defer { for node in nodes { chmod(node, 0o666) } }
        let findings = try doctor(["--mic", "hw:Loopback,1,0"], unprivileged: true)
        let camera = try XCTUnwrap(findings["camera"])
        XCTAssertEqual(camera["ok"] as? Bool, false)
        XCTAssertTrue((camera["detail"] as? String ?? "").contains("not in group 'video'"), "\(camera)")
        XCTAssertTrue((camera["fix"] as? String ?? "").contains("udev-notes.md"), "\(camera)")
        let mic = try XCTUnwrap(findings["microphone"])
        XCTAssertEqual(mic["ok"] as? Bool, false)
        XCTAssertTrue((mic["detail"] as? String ?? "").contains("not in group 'audio'"), "\(mic)")
    }

    func testBusyDevicesNameTheProcessHoldingThem() throws {
        let streamer = Process()
        streamer.executableURL = URL(fileURLWithPath: "/usr/bin/v4l2-ctl")
        streamer.arguments = ["-d", "/dev/video0", "--stream-mmap", "--stream-count=100000"]
        streamer.standardOutput = FileHandle.nullDevice
        streamer.standardError = FileHandle.nullDevice
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: "/usr/bin/arecord")
        recorder.arguments = ["-q", "-D", "hw:Loopback,1,0", "-f", "S16_LE", "-r", "48000", "-c", "1", "/dev/null"]
        recorder.standardError = FileHandle.nullDevice
        try streamer.run()
        try recorder.run()
        defer { streamer.terminate(); recorder.terminate() }
        usleep(1_500_000)
        let findings = try doctor(["--mic", "hw:Loopback,1,0"])
        let camera = try XCTUnwrap(findings["camera"])
        XCTAssertEqual(camera["ok"] as? Bool, false)
        XCTAssertTrue(
            (camera["detail"] as? String ?? "").contains("busy: held by v4l2-ctl (pid \(streamer.processIdentifier))"),
            "\(camera)")
        let mic = try XCTUnwrap(findings["microphone"])
        XCTAssertEqual(mic["ok"] as? Bool, false)
        XCTAssertTrue(
            (mic["detail"] as? String ?? "").contains("busy: held by arecord (pid \(recorder.processIdentifier))"),
            "\(mic)")
    }

    func testEverythingFineSaysSo() throws {
        let findings = try doctor(["--mic", "hw:Loopback,1,0"])
        for subject in ["microphone", "camera", "disk", "library"] {
            XCTAssertEqual(findings[subject]?["ok"] as? Bool, true, "\(subject): \(findings[subject] ?? [:])")
        }
    }
}
