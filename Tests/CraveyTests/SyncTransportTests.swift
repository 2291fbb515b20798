import CraveyTestSupport
import Foundation
import XCTest

/// The folder carried the ways a person carries it, through the built `cravey`: a USB stick
/// plugged into one machine then the other (mounted at another place on each), in both orders and
/// copied in pieces; and a git repository the person commits, pushes to a bare repository and
/// pulls themselves (cravey never runs git, and nothing of git's is read as a change or named as a
/// problem). Both machines come to one history.
final class SyncTransportTests: TwoMachinesCase {
    /// The stick's mount point on each machine (one directory, moved between them as a stick is).
    var mountA: String { base + "/media-a/stick" }
    var mountB: String { base + "/media-b/usb0" }

    /// Unplugs the stick from one machine and plugs it into the other.
    func plug(from: String, into: String) throws {
        try FileManager.default.createDirectory(
            atPath: (into as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: from, toPath: into)
    }

    func testAStickCarriedBetweenTwoMachinesInBothOrdersGivesOneHistory() throws {
        for firstA in [true, false] {
            try? FileManager.default.removeItem(atPath: base)
            try FileManager.default.createDirectory(atPath: mountA, withIntermediateDirectories: true)
            let (first, second) = firstA ? (machineA, machineB) : (machineB, machineA)
            let (firstMount, secondMount) = firstA ? (mountA, mountB) : (mountB, mountA)
            if !firstA { try plug(from: mountA, into: mountB) }
            try on(first, ["craving", "7", "--trigger", "bored", "--notes", "first, before the stick"])
            try on(first, ["use", "vape", "3", "--notes", "first, a use"])
            try on(first, ["settings", "goal", "cut-down"])
            XCTAssertEqual(try synced(first, ["--folder", firstMount])["written"] as? Int, 3)
            try on(second, ["craving", "3", "--notes", "second, on its own"])

            try plug(from: firstMount, into: secondMount)
            let joined = try synced(second, ["--folder", secondMount])
            XCTAssertEqual(joined["broughtIn"] as? Int, 3, "\(joined)")
            XCTAssertEqual(joined["written"] as? Int, 1, "its own craving (the goal came from the stick): \(joined)")
            try on(second, ["craving", "5", "--notes", "second, after the stick"])

            // Back on the first machine, at its own mount point: the same folder.
            try plug(from: secondMount, into: firstMount)
            XCTAssertEqual(try synced(first)["broughtIn"] as? Int, 2)
            let theirs = try XCTUnwrap(
                try logged(first).first { $0["notes"] as? String == "second, after the stick" }?["id"] as? String)
            try on(first, ["log", "edit", theirs, "--notes", "second's, edited on the first"])
            try plug(from: firstMount, into: secondMount)
            try synced(second)
            try assertOneHistory(firstA ? "(A first)" : "(B first)")
            XCTAssertEqual(try logged(machineA).count, 4)
            XCTAssertTrue(try notes(machineB).contains("second's, edited on the first"))
            XCTAssertEqual(
                try on(machineA, ["settings", "goal"]).stdout, try on(machineB, ["settings", "goal"]).stdout)
        }
    }

    /// A copy of the folder cut short at every step a copy passes through (a device folder with no
    /// change file yet, its format file alone, its change file cut in the middle of a line and at
    /// a line's end) brings in what is whole, names what is not, and the rest comes with the next.
    func testAFolderCopiedInPiecesBringsInWhatIsWholeAndTheRestLater() throws {
        let home = base + "/home-folder", stick = base + "/stick"
        for folder in [home, stick] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        for n in 1...3 { try on(machineA, ["craving", "\(n + 3)", "--notes", "on A, \(n)"]) }
        try synced(machineA, ["--folder", home])
        try synced(machineB, ["--folder", stick])
        let source = try deviceFolder(machineA, in: home)
        let target = stick + "/cravey/devices/" + (source as NSString).lastPathComponent
        let changes = try Data(contentsOf: URL(fileURLWithPath: source + "/changes.jsonl"))
        let ends = changes.indices.filter { changes[$0] == 0x0A }.map { $0 + 1 }
        XCTAssertEqual(ends.count, 3)

        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        XCTAssertEqual(try synced(machineB)["broughtIn"] as? Int, 0, "an empty device folder: nothing yet")
        try FileManager.default.copyItem(atPath: source + "/device.json", toPath: target + "/device.json")
        XCTAssertEqual(try synced(machineB)["broughtIn"] as? Int, 0, "its format alone: nothing yet")
        var brought = 0
        for (cut, whole) in [(ends[0] + 7, 1), (ends[1], 2), (ends[2] - 1, 2), (ends[2], 3)] {
            try changes.prefix(cut).write(to: URL(fileURLWithPath: target + "/changes.jsonl"))
            let torn = cut != ends[whole - 1]
            let report = try synced(machineB, status: torn ? 1 : 0)
            brought += report["broughtIn"] as? Int ?? 0
            XCTAssertEqual(brought, whole, "cut at \(cut): \(report)")
            XCTAssertEqual(
                (report["problems"] as? [String])?.contains { $0.contains("cut short") }, torn, "cut at \(cut)")
        }
        XCTAssertEqual(try notes(machineB), ["on A, 1", "on A, 2", "on A, 3"])
        try FileManager.default.removeItem(atPath: home)
        try FileManager.default.copyItem(atPath: stick, toPath: home)
        try synced(machineA)
        try assertOneHistory()
    }

    /// git, as the person runs it: the test commits, pushes to a bare repository on this disk and
    /// pulls on the other side. cravey runs no program at all while it syncs, and neither the
    /// repository's `.git` nor git's own files (a `.gitignore`, a `.gitattributes`, a file kept
    /// only so git keeps a directory) are read as changes or named.
    func testAGitRepositoryPushedAndPulledByThePersonGivesOneHistory() throws {
        let remote = base + "/remote.git", cloneA = base + "/work-a", cloneB = base + "/work-b"
        let environment = [
            "HOME": base, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "Sam", "GIT_AUTHOR_EMAIL": "sam@example.org",
            "GIT_COMMITTER_NAME": "Sam", "GIT_COMMITTER_EMAIL": "sam@example.org",
        ]
        func git(_ arguments: [String], in clone: String? = nil) throws {
            try tool("/usr/bin/git", (clone.map { ["-C", $0] } ?? []) + arguments, environment: environment)
        }
        func push(_ clone: String, _ message: String) throws {
            try git(["add", "-A"], in: clone)
            try git(["commit", "-q", "-m", message], in: clone)
            try git(["push", "-q", "origin", "HEAD:main"], in: clone)
        }
        try git(["init", "-q", "--bare", "-b", "main", remote])
        try git(["clone", "-q", remote, cloneA])
        try Data("*.tmp\n".utf8).write(to: URL(fileURLWithPath: cloneA + "/.gitignore"))
        try Data("*.jsonl text eol=lf\n".utf8).write(to: URL(fileURLWithPath: cloneA + "/.gitattributes"))

        try on(machineA, ["craving", "6", "--notes", "on A, pushed"])
        try on(machineA, ["use", "edible", "10"])
        try synced(machineA, ["--folder", cloneA])
        try Data().write(to: URL(fileURLWithPath: cloneA + "/cravey/devices/.gitkeep"))
        try push(cloneA, "A's logs")

        try git(["clone", "-q", remote, cloneB])
        try on(machineB, ["craving", "2", "--notes", "on B, before pulling"])
        let joined = try synced(machineB, ["--folder", cloneB])
        XCTAssertEqual(joined["broughtIn"] as? Int, 2, "\(joined)")
        XCTAssertEqual(joined["problems"] as? [String], [], "nothing of git's is named")
        try on(machineB, ["settings", "name", "Sam"])
        try push(cloneB, "B's logs")

        try git(["pull", "-q", "--no-rebase", "origin", "main"], in: cloneA)
        // What cravey does while it syncs, traced: it runs no program (git least of all).
        let trace = base + "/exec.trace"
        let traced = try runProcess(
            "/usr/bin/strace",
            ["-f", "-e", "trace=execve", "-o", trace, productPath("cravey"), "sync", "--json", "--library", machineA],
            environment: ["CRAVEY_NOW": try XCTUnwrap(now), "CRAVEY_TRANSCRIBE": "later"])
        XCTAssertEqual(traced.status, 0, traced.stderr)
        XCTAssertEqual((try jsonObject(traced.stdout))["broughtIn"] as? Int, 2)
        let programs = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("execve(\"") && !$0.contains("= -1") }
            .map { $0.split(separator: "\"")[1] }
        XCTAssertTrue(
            programs == [Substring(productPath("cravey"))], "\(programs)")
        try on(machineA, ["check"])
        try on(machineB, ["check"])
        XCTAssertEqual(try on(machineA, ["settings", "name"]).stdout, "Sam\n")
        try assertOneHistory()

        // What cravey writes on the next sync is a change git sees; git's files are as they were.
        try on(machineA, ["craving", "4", "--notes", "on A, after the pull"])
        let status = try runProcess("/usr/bin/git", ["-C", cloneA, "status", "--porcelain"], environment: environment)
        let mine = try deviceFolder(machineA, in: cloneA).dropFirst(cloneA.count + 1)
        XCTAssertEqual(
            status.stdout.split(separator: "\n").map { String($0.dropFirst(3)) }, [String(mine) + "/changes.jsonl"],
            status.stdout)
        try push(cloneA, "A again")
        try git(["pull", "-q", "--no-rebase", "origin", "main"], in: cloneB)
        try synced(machineB)
        try assertOneHistory("after the second push")
        XCTAssertEqual(try String(contentsOfFile: cloneB + "/.gitignore", encoding: .utf8), "*.tmp\n")
    }
}
