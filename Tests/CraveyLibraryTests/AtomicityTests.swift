import CraveyTestSupport
import XCTest

@testable import CraveyLibrary

/// The library's atomic rules (see `Library`) under injected failures and SIGKILL: whatever step fails or
/// wherever the process dies, rows and files agree after `recover`, and no committed row is lost.
final class AtomicityTests: XCTestCase {
    /// An operation on a prepared library, and what must be true of its result.
    struct Scenario {
        var name: String
        var setup: (TemporaryLibrary, Library) throws -> [Recording]
        var operation: (TemporaryLibrary, Library, [Recording]) throws -> Void
    }

    static var scenarios: [Scenario] {
        [
            Scenario(
                name: "save video", setup: { temp, lib in [try temp.add(lib, title: "existing")] },
                operation: { temp, lib, _ in try temp.add(lib, title: "new", kind: .video) }),
            Scenario(
                name: "save audio", setup: { _, _ in [] },
                operation: { temp, lib, _ in try temp.add(lib, title: "new") }),
            Scenario(
                name: "delete video",
                setup: { temp, lib in
                    [try temp.add(lib, title: "v", kind: .video), try temp.add(lib, title: "a")]
                },
                operation: { _, lib, rows in try lib.delete(rows[0]) }),
            Scenario(
                name: "purge",
                setup: { temp, lib in
                    try (0..<4).map { try temp.add(lib, title: "r\($0)", kind: $0 % 2 == 0 ? .video : .audio) }
                },
                operation: { _, lib, _ in try lib.purge() }),
            Scenario(
                name: "edit", setup: { temp, lib in [try temp.add(lib, title: "before")] },
                operation: { _, lib, rows in try lib.edit(rows[0], title: "after", notes: nil, purpose: nil) }),
            Scenario(
                name: "play", setup: { temp, lib in [try temp.add(lib, title: "p")] },
                operation: { _, lib, rows in try lib.recordPlay(rows[0].id, at: Date()) }),
        ]
    }

    /// Fails every step each operation passes through, one at a time.
    func testEveryFailingStepLeavesRowsAndFilesInAgreement() throws {
        var failuresTried = 0
        for scenario in Self.scenarios {
            // Learn the steps of a clean run.
            let probe = try TemporaryLibrary()
            let rows = try scenario.setup(probe, try probe.open())
            let tracer = Faults()
            try scenario.operation(probe, try probe.open(faults: tracer), rows)
            let sites = Array(NSOrderedSet(array: tracer.reached)) as! [String]
            XCTAssertFalse(sites.isEmpty, scenario.name)

            for site in sites {
                let temp = try TemporaryLibrary()
                let setupRows = try scenario.setup(temp, try temp.open())
                let before = try snapshot(temp)
                let faults = Faults(failing: [site])
                let library = try temp.open(faults: faults)
                let threw = (try? scenario.operation(temp, library, setupRows)) == nil
                failuresTried += 1
                // Straight after the failure: never a listed row without its file.
                for row in try library.recordings() {
                    XCTAssertTrue(
                        FileManager.default.fileExists(atPath: temp.root + "/" + row.filePath),
                        "\(scenario.name) @ \(site)")
                }
                let recovered = try temp.assertConsistent()
                let after = try snapshot(temp)
                if threw {
                    XCTAssertEqual(after, before, "\(scenario.name): a failure at \(site) must change nothing")
                } else {
                    XCTAssertNotEqual(
                        after, before, "\(scenario.name): \(site) failed but the operation claimed success")
                }
                _ = recovered
            }
        }
        XCTAssertGreaterThan(failuresTried, 25)
    }

    /// Two failures at once: the commit fails and so does the undo; recovery finishes the undo.
    func testFailedCommitWithFailedUndoIsRepairedByRecover() throws {
        let temp = try TemporaryLibrary()
        let library = try temp.open(faults: Faults(failing: ["save.commit.row", "save.undo.unlink"]))
        XCTAssertThrowsError(try temp.add(library, title: "doomed", kind: .video))
        XCTAssertEqual(temp.mediaFiles().count, 2, "the undo failed, so the files are still there")
        XCTAssertEqual(try library.recordings(), [], "but no row lists them")
        try temp.assertConsistent()
        XCTAssertEqual(temp.mediaFiles(), [])
    }

    func testFailedRowDeleteKeepsTheFileAndFailedRenameKeepsTheRow() throws {
        let temp = try TemporaryLibrary()
        let setup = try temp.open()
        let r = try temp.add(setup, title: "keep", kind: .video)
        for site in ["delete.commit", "delete.rename.file", "delete.rename.thumb"] {
            let library = try temp.open(faults: Faults(failing: [site]))
            XCTAssertThrowsError(try library.delete(r), site)
            XCTAssertEqual(try library.recordings().map(\.id), [r.id], site)
            XCTAssertEqual(temp.mediaFiles(), [r.filePath, r.thumbnailPath!], site)
        }
        let failingUnlink = try temp.open(faults: Faults(failing: ["delete.unlink"]))
        XCTAssertNoThrow(try failingUnlink.delete(r))
        XCTAssertEqual(try failingUnlink.recordings(), [])
        XCTAssertFalse(temp.leftovers().isEmpty, "the trash could not be emptied")
        try temp.assertConsistent()
    }

    func testFailedPurgeCommitChangesNothing() throws {
        let temp = try TemporaryLibrary()
        let setup = try temp.open()
        for i in 0..<3 { try temp.add(setup, title: "r\(i)", kind: .video) }
        let before = try snapshot(temp)
        let library = try temp.open(faults: Faults(failing: ["purge.commit"]))
        XCTAssertThrowsError(try library.purge())
        XCTAssertEqual(try snapshot(temp), before)
        try temp.assertConsistent()
    }

    /// SIGKILL at every step of save, delete and purge in a child process, and at every step of the
    /// recovery that follows an interrupted purge.
    func testKillAtEveryStepIsRecovered() throws {
        let driver = productPath("library-driver")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: driver), "build library-driver first: \(driver)")
        var killPoints = 0

        func killLoop(
            _ name: String, setup: (TemporaryLibrary, Library) throws -> [String],
            arguments: ([String], TemporaryLibrary) -> [String],
            allowed: ([String], Set<String>) -> [Set<String>]
        ) throws {
            for point in 1...200 {
                let temp = try TemporaryLibrary()
                let ids = try setup(temp, try temp.open())
                let before = Set(ids)
                let result = try runProcess(
                    driver, [temp.root] + arguments(ids, temp),
                    environment: ["CRAVEY_FAULT_KILL_AT": String(point)])
                let library = try temp.assertConsistent()
                let after = Set(try library.store.allPaths().map(\.id))
                let outcomes = allowed(ids, before)
                XCTAssertTrue(
                    outcomes.contains(after)
                        || (name == "save" && after.count == before.count + 1 && after.isSuperset(of: before)),
                    "\(name) killed at step \(point): rows \(after) are neither before nor after")
                if result.status == -SIGKILL {
                    killPoints += 1
                } else {
                    XCTAssertEqual(result.status, 0, result.stderr)
                    XCTAssertGreaterThan(point, 3, "\(name) finished before reaching its steps")
                    return
                }
            }
            XCTFail("\(name) never finished")
        }

        let addThree: (TemporaryLibrary, Library) throws -> [String] = { temp, lib in
            try (0..<3).map { try temp.add(lib, title: "r\($0)", kind: $0 == 0 ? .video : .audio).id.uuidString }
        }
        try killLoop(
            "save", setup: addThree, arguments: { _, temp in ["save", temp.sample, "video", "new", temp.sampleThumb] },
            allowed: { _, before in [before] })
        try killLoop(
            "save", setup: { _, _ in [] }, arguments: { _, temp in ["save", temp.sample, "audio", "new"] },
            allowed: { _, before in [before] })
        try killLoop(
            "delete", setup: addThree, arguments: { ids, _ in ["delete", ids[0]] },
            allowed: { ids, before in [before, before.subtracting([ids[0]])] })
        try killLoop(
            "delete", setup: addThree, arguments: { ids, _ in ["delete", ids[1]] },
            allowed: { ids, before in [before, before.subtracting([ids[1]])] })
        let addMany: (TemporaryLibrary, Library) throws -> [String] = { temp, lib in
            try (0..<12).map { try temp.add(lib, title: "r\($0)", kind: $0 % 2 == 0 ? .video : .audio).id.uuidString }
        }
        try killLoop("purge", setup: addMany, arguments: { _, _ in ["purge"] }, allowed: { _, before in [before, []] })
        // A purge killed half-way through removing files, then the recovery killed at each step.
        try killLoop(
            "recover purge",
            setup: { temp, lib in
                let ids = try addMany(temp, lib)
                let status = try runProcess(driver, [temp.root, "purge"], environment: ["CRAVEY_FAULT_KILL_AT": "12"])
                    .status
                XCTAssertEqual(status, -SIGKILL)
                return ids
            }, arguments: { _, _ in ["open"] }, allowed: { _, _ in [[]] })
        XCTAssertGreaterThanOrEqual(killPoints, 50)
        print("kill points exercised: \(killPoints)")
    }

    /// One process saving while another lists: neither errors, and a listing never waits long.
    func testConcurrentWriterAndReader() throws {
        let temp = try TemporaryLibrary()
        _ = try temp.open()
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: productPath("library-driver"))
        writer.arguments = [temp.root, "save-loop", temp.sample, "150"]
        let errors = Pipe()
        writer.standardError = errors
        try writer.run()
        var worst: TimeInterval = 0
        var lastCount = 0
        var listings = 0
        while writer.isRunning {
            let start = Date()
            let library = try temp.open()
            let rows = try library.recordings()
            worst = max(worst, Date().timeIntervalSince(start))
            XCTAssertGreaterThanOrEqual(rows.count, lastCount)
            lastCount = rows.count
            for row in rows { XCTAssertTrue(FileManager.default.fileExists(atPath: temp.root + "/" + row.filePath)) }
            listings += 1
        }
        writer.waitUntilExit()
        XCTAssertEqual(
            writer.terminationStatus, 0,
            String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        // A listing that waited for the writer would wait out the database's busy wait (10 s).
        print("concurrent reader: the slowest of \(listings) listings took \(String(format: "%.3f", worst)) s")
        XCTAssertLessThan(worst, 5, "a listing waited \(worst) s")
        XCTAssertGreaterThan(listings, 3)
        let library = try temp.assertConsistent()
        XCTAssertEqual(try library.count(), 150)
    }

    /// Two processes counting plays at once: every play counts.
    func testConcurrentPlaysAllCount() throws {
        let temp = try TemporaryLibrary()
        let r = try temp.add(try temp.open(), title: "p")
        let driver = productPath("library-driver")
        let group = DispatchGroup()
        for _ in 0..<2 {
            group.enter()
            DispatchQueue.global().async {
                for _ in 0..<10 { _ = try? runProcess(driver, [temp.root, "play", r.id.uuidString]) }
                group.leave()
            }
        }
        group.wait()
        XCTAssertEqual(try temp.open().recording(matching: r.id.uuidString).playCount, 20)
    }

    private func snapshot(_ temp: TemporaryLibrary) throws -> [String] {
        let library = try temp.open()
        let rows = try library.store.top(10_000).map { "\($0.id) \($0.title) \($0.playCount)" }.sorted()
        return rows + temp.mediaFiles().sorted()
    }
}
