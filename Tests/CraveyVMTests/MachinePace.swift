import CraveyTestSupport
import Foundation
import XCTest

/// What the host gave the emulated machine while a camera recorded, read from the rig's
/// `host-pace` (written second by second on the host by `Tests/vm/pace.py`): the CPU qemu had and
/// the CPU other work on the host took. The emulated CPU is all software, so a busy host slows the
/// whole machine down and its camera frames come faster than its recorder can take them.
///
/// A camera check goes through `check`: it holds, or it fails (cravey dropped frames on a host that
/// left the machine its time), or — only when the host's other work took at least half a core while
/// the machine recorded — it is skipped with the reason and the figures, never passed.
struct MachinePace {
    var started = Date()
    var ended: Date?

    /// The same pace, measured up to now (when the recording ended).
    func stop() -> MachinePace {
        var pace = self
        pace.ended = Date()
        return pace
    }

    /// The host's figures from when this pace began until it stopped: the mean cores qemu had, the
    /// mean cores other work took, the host's cores, and how many seconds were measured.
    func measured() -> (qemu: Double, other: Double, cores: Int, seconds: Int) {
        let results = ProcessInfo.processInfo.environment["CRAVEY_VM_RESULTS"] ?? ""
        let text = (try? String(contentsOfFile: results + "/host-pace", encoding: .utf8)) ?? ""
        let from = started.timeIntervalSince1970, until = (ended ?? Date()).timeIntervalSince1970 + 1
        let rows = text.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
            .filter { $0.count == 4 && $0[0] >= from && $0[0] <= until }
        guard !rows.isEmpty else { return (0, 0, 0, 0) }
        let count = Double(rows.count)
        return (
            rows.map { $0[1] }.reduce(0, +) / count, rows.map { $0[2] }.reduce(0, +) / count, Int(rows[0][3]),
            rows.count
        )
    }

    /// The host's figures in words.
    func words() -> String {
        let host = measured()
        guard host.seconds > 0 else { return "the host's pace was not measured" }
        return String(
            format: "over %d s the emulated machine had %.2f of the host's %d cores, other work %.2f", host.seconds,
            host.qemu, host.cores, host.other)
    }

    /// `condition` (a camera check) holds; if not, the test fails — or is skipped when the host's
    /// other work took half a core or more while the machine recorded.
    func check(
        _ condition: Bool, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let host = measured()
        print("\(what) (\(condition ? "holds" : "does not hold")); \(words())")
        if !condition && host.seconds > 0 && host.other >= 0.5 {
            throw XCTSkip("the host starved the emulated machine: \(what); \(words())")
        }
        XCTAssertTrue(
            condition, "cravey dropped frames on a host that left the machine its time: \(what); \(words())",
            file: file, line: line)
    }
}
