import CraveyLibrary
import CraveyTestSupport
import Foundation
import XCTest

/// The fault campaign: a library with saved recordings and files cravey did not make, then a fault
/// a real laptop sees — a full disk (small tmpfs), a read-only disk, another user, planted links,
/// a lost, damaged or locked database, hostile rows and arguments, kill -9 — and every command a
/// user might run next. Each case asserts that nothing saved was lost, nothing foreign was touched,
/// a failure is one line, and `check` agrees afterwards. Mounts and other users need root (as CI
/// runs); those tests are skipped without it.
class FaultCampaign: XCTestCase {
    var base = ""
    var mounts: [String] = []
    let cravey = craveyUnderTest

    /// The figures of the whole campaign, printed once at the end.
    nonisolated(unsafe) static var faults = 0
    nonisolated(unsafe) static var cases = 0
    nonisolated(unsafe) static var lost = 0
    nonisolated(unsafe) static var touched = 0

    /// After each campaign class: the figures so far (the last line printed is the whole campaign).
    override class func tearDown() {
        print(
            "fault campaign: \(faults) faults injected, \(cases) cases checked, \(lost) recordings lost, \(touched) foreign files touched"
        )
        super.tearDown()
    }

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.path + "/cravey-faults-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        for mount in mounts.reversed() { _ = try? runProcess("/bin/umount", ["-l", mount]) }
        _ = try? runProcess("/bin/chmod", ["-R", "u+w", base])
        try? FileManager.default.removeItem(atPath: base)
    }

    // MARK: - The library under test

    /// What was saved (id → file bytes) and what was planted (path → bytes and mode).
    struct Baseline {
        var root: String
        var saved: [String: Data] = [:]
        var foreign: [String: (data: Data, mode: Int)] = [:]
    }

    func run(_ arguments: [String], _ root: String, environment: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try runProcess(cravey, arguments + ["--library", root], environment: environment)
    }

    func record(
        _ root: String, seconds: String = "2", title: String = "Why I started", extra: [String] = [],
        environment: [String: String] = [:]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        try run(
            ["record", "audio", "--mic", "cravey_file", "--max-seconds", seconds, "--title", title] + extra, root,
            environment: ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": phraseFixture].merging(environment)
            { $1 })
    }

    func listed(_ root: String) throws -> [[String: Any]] {
        let result = try run(["list", "--json"], root)
        XCTAssertEqual(result.status, 0, result.stderr)
        return (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]) ?? []
    }

    /// A library with two saved recordings (one from the microphone, one imported video with a
    /// thumbnail) and foreign files planted in every directory of it.
    func makeLibrary(at root: String) throws -> Baseline {
        var baseline = Baseline(root: root)
        let recorded = try record(root)
        XCTAssertEqual(recorded.status, 0, recorded.stderr)
        let video = base + "/clip-\(UUID().uuidString.prefix(4)).mp4"
        let made = try runProcess(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=10:d=1",
                "-f", "lavfi", "-i", "sine=d=1", "-c:v", "libx264", "-c:a", "aac", "-shortest", video,
            ])
        XCTAssertEqual(made.status, 0, made.stderr)
        let imported = try run(["import", video, "--title", "Day 30"], root)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        for row in try listed(root) {
            baseline.saved[row["id"] as! String] = try Data(
                contentsOf: URL(fileURLWithPath: root + "/" + (row["filePath"] as! String)))
        }
        XCTAssertEqual(baseline.saved.count, 2)
        try FileManager.default.createDirectory(atPath: root + "/.trash/old stuff", withIntermediateDirectories: true)
        for (path, text) in [
            ("Recordings/my-notes.txt", "mine"), ("Recordings/Thumbnails/holiday.jpg", "a picture"),
            (".trash/old stuff/letter.txt", "a letter"), (".incoming/draft.txt", "a draft"),
        ] {
            try plant(root + "/" + path, text, into: &baseline)
        }
        return baseline
    }

    func plant(_ path: String, _ text: String, mode: Int = 0o644, into baseline: inout Baseline) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, mode_t(mode))
        baseline.foreign[path] = (Data(text.utf8), mode)
    }

    /// The campaign's assertion, after every case: every saved recording is listed with its file
    /// unchanged, every foreign file is as it was, and (where the disk can be written) `check`
    /// finds nothing to repair.
    func assertIntact(
        _ baseline: Baseline, _ what: String, checkConsistent: Bool = true,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        Self.cases += 1
        let rows = try listed(baseline.root)
        let byID = Dictionary(rows.map { ($0["id"] as! String, $0) }, uniquingKeysWith: { a, _ in a })
        for (id, data) in baseline.saved {
            guard let row = byID[id], let path = row["filePath"] as? String,
                let now = try? Data(contentsOf: URL(fileURLWithPath: baseline.root + "/" + path)),
                now == data || sameMedia(now, data)
            else {
                Self.lost += 1
                XCTFail("\(what): recording \(id) was lost", file: file, line: line)
                continue
            }
        }
        for (path, expected) in baseline.foreign {
            let now = try? Data(contentsOf: URL(fileURLWithPath: path))
            let mode = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
            if now != expected.data || mode != expected.mode {
                Self.touched += 1
                XCTFail("\(what): \(path) was touched", file: file, line: line)
            }
        }
        if checkConsistent {
            let check = try run(["check", "--json"], baseline.root)
            XCTAssertEqual(check.status, 0, "\(what): \(check.stdout) \(check.stderr)", file: file, line: line)
        }
    }

    /// Whether two versions of a recording's file hold the same media, packet for packet (an edit
    /// or a transcript rewrites the file's own tags, nothing else): ffmpeg's MD5 of the copied packets.
    func sameMedia(_ a: Data, _ b: Data) -> Bool {
        func packets(_ data: Data) -> String? {
            let path = base + "/media-\(UUID().uuidString).mov"
            defer { unlink(path) }
            guard (try? data.write(to: URL(fileURLWithPath: path))) != nil,
                let result = try? runProcess(
                    "/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0", "-c", "copy", "-f", "md5", "-"]),
                result.status == 0
            else { return nil }
            return result.stdout
        }
        guard let first = packets(a) else { return false }
        return first == packets(b)
    }

    /// A failure is one line on stderr, naming the problem.
    func assertOneLineError(
        _ result: (status: Int32, stdout: String, stderr: String), containing text: String, _ what: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertNotEqual(result.status, 0, "\(what) should fail", file: file, line: line)
        XCTAssertEqual(
            result.stderr.split(separator: "\n").count, 1, "\(what): \(result.stderr)", file: file, line: line)
        XCTAssertTrue(
            result.stderr.lowercased().contains(text.lowercased()), "\(what): \(result.stderr)", file: file, line: line)
    }

    func requireRoot() throws {
        try XCTSkipUnless(geteuid() == 0, "mounts and other users need root (CI runs as root)")
    }

    /// A small tmpfs of `size` for one test (a full disk on demand).
    func smallDisk(_ size: String) throws -> String {
        let dir = base + "/disk-\(mounts.count)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let mounted = try runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", dir])
        XCTAssertEqual(mounted.status, 0, mounted.stderr)
        mounts.append(dir)
        return dir
    }

    /// Fills the disk holding `dir` to the last block (the filler lives outside the library).
    func fill(_ dir: String) throws {
        Self.faults += 1
        _ = try runProcess("/bin/dd", ["if=/dev/zero", "of=\(dir)/filler", "bs=64k"])
        _ = try runProcess("/bin/dd", ["if=/dev/zero", "of=\(dir)/filler2", "bs=1k"])
        let free = try runProcess("/usr/bin/stat", ["-f", "-c", "%a", dir]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        XCTAssertEqual(free, "0", "the disk is full")
    }

    func unfill(_ dir: String) {
        unlink(dir + "/filler")
        unlink(dir + "/filler2")
    }

    /// A process (python, one process: nothing inherits the lock) that holds a lock on `path`.
    func holdLock(_ script: String, _ path: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, path]
        try process.run()
        return process
    }

    func sqlite(_ root: String, _ sql: String) throws {
        let result = try runProcess("/usr/bin/sqlite3", [root + "/library.sqlite", sql])
        XCTAssertEqual(result.status, 0, result.stderr)
    }
}
