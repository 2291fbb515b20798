import CraveyMedia
import CraveyTestSupport
import Foundation
import XCTest

/// Boots the VM rig and runs `VMDeviceTests`, `VMDoctorTests`, `VMRecordTests`, `VMSpeakerTests`
/// and `VMWebcamTests` inside it, against the real drivers. Fails (does not skip) when the rig cannot boot.
final class VMRigTests: XCTestCase {
    func testDeviceSuiteInTheVM() throws {
        if ProcessInfo.processInfo.environment["CRAVEY_IN_VM"] == "1" { throw XCTSkip("already inside the VM") }
        let results = FileManager.default.temporaryDirectory.path + "/cravey-vm-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: results) }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        let start = Date()
        let run = try runProcess(
            "/bin/bash",
            [
                repositoryRoot + "/Tests/vm/rig.sh", "run", results, "--", testBinary,
                "CraveyVMTests.VMDeviceTests,CraveyVMTests.VMDoctorTests,CraveyVMTests.VMRecordTests,CraveyVMTests.VMSpeakerTests,CraveyVMTests.VMWebcamTests",
            ])
        print(
            "VM device suite: \(String(format: "%.1f", Date().timeIntervalSince(start))) s; \(run.stderr.split(separator: "\n").last ?? "")"
        )
        // Each test inside, with its seconds (the run's summary keeps them for the fast ring), and
        // the figures the camera and sound tests print, and every failure's own line.
        for line in run.stdout.split(separator: "\n")
        where line.hasPrefix("Test Case '") && line.hasSuffix("seconds)")
            || ["(holds);", "(does not hold);", "phrase in the VM", "VM speaker", ": error: "].contains(
                where: line.contains)
        {
            print("in the VM: \(line)")
        }
        XCTAssertEqual(run.status, 0, "VM suite failed:\n\(run.stdout.suffix(4000))\n\(run.stderr.suffix(2000))")
        // Every test of the five classes ran, and none failed.
        let expected = try ["VMDeviceTests", "VMDoctorTests", "VMRecordTests", "VMSpeakerTests", "VMWebcamTests"].map {
            name in
            try String(contentsOfFile: repositoryRoot + "/Tests/CraveyVMTests/\(name).swift", encoding: .utf8)
                .components(separatedBy: "\n").filter { $0.hasPrefix("    func test") }.count
        }.reduce(0, +)
        XCTAssertTrue(
            run.stdout.range(
                of: "Executed \(expected) tests, with ([0-9]+ tests? skipped and )?0 failures",
                options: .regularExpression)
                != nil, run.stdout.suffix(3000).description)
        // Inside the VM nothing may skip, except a phrase the host starved the emulated machine of
        // (the loopback feeder fell behind twice): then this test is skipped too, with the reason,
        // never passed.
        let skips = run.stdout.split(separator: "\n").filter { $0.contains(": Test skipped") }
        let starved = skips.filter { $0.contains("the host starved the emulated machine") }
        XCTAssertEqual(skips.count, starved.count, "inside the VM nothing may skip: \(skips)")
        if let reason = starved.first, run.status == 0 {
            throw XCTSkip(String(reason))
        }
    }
}
