import CraveyMedia
import CraveyTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The Whisper helper (a data helper) runs apart: a private home (HOME, XDG folders, caches,
/// TMPDIR in a fresh 0700 folder) removed when it ends, a time limit past which it is killed with
/// everything it started, and folders left by a killed cravey removed by a later one once their
/// owner is provably gone.
final class TranscriptIsolationTests: XCTestCase {
    private var directory = ""
    private var savedTemporary: String?

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "isolation-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory + "/tmp", withIntermediateDirectories: true)
        // The helpers' folders are made in TMPDIR: a folder of this test's own, watched alone.
        savedTemporary = getenv("TMPDIR").map { String(cString: $0) }
        setenv("TMPDIR", directory + "/tmp", 1)
    }

    override func tearDownWithError() throws {
        if let savedTemporary { setenv("TMPDIR", savedTemporary, 1) } else { unsetenv("TMPDIR") }
        try? FileManager.default.removeItem(atPath: directory)
    }

    private var helperFolders: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/tmp")) ?? []).filter {
            $0.hasPrefix("cravey-helper-")
        }
    }

    /// The variables of a running process.
    private func environment(of pid: Int32) throws -> [String: String] {
        let raw = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
        return Dictionary(
            raw.split(separator: 0).compactMap { entry -> (String, String)? in
                let text = String(decoding: entry, as: UTF8.self)
                guard let equals = text.firstIndex(of: "=") else { return nil }
                return (String(text[..<equals]), String(text[text.index(after: equals)...]))
            }, uniquingKeysWith: { $1 })
    }

    private func gone(_ pid: Int32, within seconds: Double = 3) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?
                .split(separator: ")").last?.split(separator: " ").first
            if state == nil || state == "Z" { return true }
            usleep(20_000)
        }
        return false
    }

    func testTheWhisperHelperHasAPrivateHomeRemovedWhenItEnds() throws {
        guard case let .installed(installation) = WhisperInstallation.find(named: nil) else {
            throw XCTSkip("no Whisper engine next to the build: bash Whisper/install.sh .build/whisper")
        }
        let whisper = WhisperRecognizer(installation)
        XCTAssertTrue(try whisper.start())
        let pid = try XCTUnwrap(whisper.helperProcess)
        let folder = try XCTUnwrap(whisper.helperFolder)
        XCTAssertTrue(folder.hasPrefix(directory + "/tmp/cravey-helper-"), folder)
        var info = stat()
        XCTAssertEqual(lstat(folder, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700, "only its owner may enter")
        let variables = try environment(of: pid)
        for name in [
            "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "TMPDIR", "HF_HOME",
        ] {
            XCTAssertTrue(variables[name]?.hasPrefix(folder) == true, "\(name)=\(variables[name] ?? "unset")")
        }
        XCTAssertEqual(variables["HF_HUB_OFFLINE"], "1")
        XCTAssertNil(variables["CRAVEY_LIBRARY"])
        whisper.finish()
        XCTAssertTrue(gone(pid))
        XCTAssertEqual(helperFolders, [], "the private folder goes with the helper")

        // A stop part way removes it too.
        XCTAssertTrue(try whisper.start())
        XCTAssertEqual(helperFolders.count, 1)
        whisper.stop()
        XCTAssertEqual(helperFolders, [])
    }

    /// The helper refuses the network from Python itself (an audit hook it sets before loading
    /// anything): an IPv4 or IPv6 socket and a name lookup fail at once; a local socket works.
    func testTheHelperRefusesTheNetworkFromPython() throws {
        guard case let .installed(installation) = WhisperInstallation.find(named: nil) else {
            throw XCTSkip("no Whisper engine next to the build: bash Whisper/install.sh .build/whisper")
        }
        let probe = """
            import importlib.util, socket
            spec = importlib.util.spec_from_file_location("helper", \(String(reflecting: installation.helper)))
            helper = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(helper)
            helper.refuse_network()
            socket.socket(socket.AF_UNIX).close()
            print("local")
            for attempt in (lambda: socket.socket(socket.AF_INET), lambda: socket.socket(socket.AF_INET6),
                            lambda: socket.getaddrinfo("example.org", 443)):
                try:
                    attempt()
                    print("opened")
                except PermissionError:
                    print("refused")
            """
        let run = try runProcess(installation.python, ["-I", "-c", probe])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "local\nrefused\nrefused\nrefused\n")
    }

    /// A TMPDIR that is not an absolute path to a directory (relative, missing) is not used: the
    /// folder is made in /tmp, never in the current directory.
    func testAnUnusableTMPDIRMeansTmp() throws {
        guard case let .installed(installation) = WhisperInstallation.find(named: nil) else {
            throw XCTSkip("no Whisper engine next to the build: bash Whisper/install.sh .build/whisper")
        }
        for named in ["relative-tmp", directory + "/missing"] {
            setenv("TMPDIR", named, 1)
            let whisper = WhisperRecognizer(installation)
            XCTAssertTrue(try whisper.start())
            let folder = try XCTUnwrap(whisper.helperFolder)
            XCTAssertTrue(folder.hasPrefix("/tmp/cravey-helper-"), folder)
            whisper.finish()
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "relative-tmp"))
    }

    /// A helper that hangs (and has started a child of its own) is killed at its time limit, with
    /// the child, and its folder removed: the engine says so in one line.
    func testAHungHelperIsKilledWithItsChildrenAtTheLimit() throws {
        let engine = directory + "/engine"
        try FileManager.default.createDirectory(atPath: engine + "/venv/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: engine + "/model", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: engine + "/model/model.bin", contents: Data())
        FileManager.default.createFile(atPath: engine + "/cravey-whisper.py", contents: Data())
        // A "python" that never answers: it starts a child that ignores SIGTERM, then waits.
        let script = """
            #!/bin/sh
            sh -c 'trap "" TERM; echo $$ > \(directory)/child; exec sleep 300' &
            echo $$ > \(directory)/helper
            exec sleep 300

            """
        FileManager.default.createFile(
            atPath: engine + "/venv/bin/python", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
        let whisper = WhisperRecognizer(
            WhisperInstallation(directory: engine), limits: .init(start: 1.5, least: 1, perSecond: 0))
        let started = Date()
        XCTAssertThrowsError(try whisper.start()) { error in
            XCTAssertTrue("\(error)".contains("did not load its model within 1 s"), "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "given up at the limit, not after the helper's 300 s")
        let helper = try XCTUnwrap(
            Int32(
                try String(contentsOfFile: directory + "/helper", encoding: .utf8).trimmingCharacters(
                    in: .whitespacesAndNewlines)))
        let child = try XCTUnwrap(
            Int32(
                try String(contentsOfFile: directory + "/child", encoding: .utf8).trimmingCharacters(
                    in: .whitespacesAndNewlines)))
        XCTAssertTrue(gone(helper), "the helper is killed")
        XCTAssertTrue(gone(child), "and its child, though it ignores SIGTERM")
        XCTAssertEqual(helperFolders, [])
    }

    /// Folders of a cravey that is gone are removed by the next helper's start; a running cravey's
    /// folder is kept (the process id alone is not enough: its start time must match too).
    func testFoldersOfAGoneCraveyAreRemovedLater() throws {
        guard case let .installed(installation) = WhisperInstallation.find(named: nil) else {
            throw XCTSkip("no Whisper engine next to the build: bash Whisper/install.sh .build/whisper")
        }
        let stat = try String(contentsOfFile: "/proc/self/stat", encoding: .utf8)
        let myStart = String(stat.split(separator: ")").last!.split(separator: " ")[19])
        let me = getpid()
        let names = [
            "cravey-helper-\(me)-\(myStart)-Alive1", "cravey-helper-\(me)-1-Reused", "cravey-helper-4194000-77-Gone01",
        ]
        for name in names {
            try FileManager.default.createDirectory(
                atPath: directory + "/tmp/" + name + "/cache", withIntermediateDirectories: true)
        }
        // Planted: a link inside a gone cravey's folder, and a link with a folder's name; what they
        // point at is never followed.
        let victim = directory + "/victim"
        try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: victim + "/kept", contents: Data("kept".utf8))
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/tmp/" + names[2] + "/cache/link", withDestinationPath: victim)
        let planted = "cravey-helper-4194001-78-Linked"
        try FileManager.default.createSymbolicLink(atPath: directory + "/tmp/" + planted, withDestinationPath: victim)
        let whisper = WhisperRecognizer(installation)
        XCTAssertTrue(try whisper.start())
        let running = try XCTUnwrap(whisper.helperFolder)
        XCTAssertEqual(
            Set(helperFolders), [names[0], planted, (running as NSString).lastPathComponent],
            "the folder whose owner runs stays (and the link, not a folder, is left alone); the others are gone")
        whisper.finish()
        XCTAssertEqual(Set(helperFolders), [names[0], planted])
        XCTAssertTrue(FileManager.default.fileExists(atPath: victim + "/kept"), "nothing behind a link was touched")
    }
}
