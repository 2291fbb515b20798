import CraveyLibraryFixtures
import Foundation
import XCTest
import CraveyTestSupport

@testable import CraveyLibrary

/// A fresh library in a temporary directory, removed after the test.
final class TemporaryLibrary: Sendable {
    let root: String
    let sample: String
    let sampleThumb: String

    init(name: String = #function) throws {
        let base = FileManager.default.temporaryDirectory.path + "/cravey-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        root = base + "/library"
        sample = base + "/sample.m4a"
        sampleThumb = base + "/sample_thumb.jpg"
        // Library tests treat media as opaque bytes; media tests check real files.
        try Data((0..<4096).map { UInt8($0 & 0xFF) }).write(to: URL(fileURLWithPath: sample))
        try Data(repeating: 0xD8, count: 512).write(to: URL(fileURLWithPath: sampleThumb))
    }

    deinit { try? FileManager.default.removeItem(atPath: (root as NSString).deletingLastPathComponent) }

    func open(faults: Faults = Faults()) throws -> Library {
        // Library tests treat media as opaque bytes: a file that starts like the sample "plays"
        // for 12.5 s, anything else has nothing playable. (The real inspector, through FFmpeg,
        // is installed by the recorder floor and tested end to end.)
        let sample = try Data(contentsOf: URL(fileURLWithPath: self.sample)).prefix(64)
        let media = Library.MediaRecovery(
            recoverPartial: nil,
            inspect: { path in
                let head = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: path)).read(upToCount: 64)) ?? nil
                return head == sample ? (12.5, MediaFacts(sampleRate: 48000, channels: 1)) : nil
            })
        return try Library(root: root, faults: faults, media: media)
    }

    /// Saves a sample recording; video recordings get a thumbnail.
    @discardableResult
    func add(
        _ library: Library, title: String = "", kind: Recording.Kind = .audio, duration: Double = 12.5,
        createdAt: Date = Date(), purpose: Recording.Purpose? = nil
    ) throws -> Recording {
        try library.save(
            copying: sample, thumbnail: kind == .video ? sampleThumb : nil, kind: kind,
            draft: .init(title: title, purpose: purpose), duration: duration,
            media: MediaFacts(sampleRate: 48000, channels: 1, waveform: [0, 128, 255]),
            createdAt: createdAt)
    }

    /// Every file of cravey's under Recordings/ (relative to the root); files it did not make are
    /// not the library's business.
    func mediaFiles() -> Set<String> {
        var out = Set<String>()
        for dir in ["Recordings", "Recordings/Thumbnails"] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + dir)) ?? []
            where name != "Thumbnails" && Recording.owner(ofFileName: name) != nil {
                out.insert(dir + "/" + name)
            }
        }
        return out
    }

    /// Every path the rows point at.
    func rowPaths(_ library: Library) throws -> Set<String> {
        Set(try library.store.allPaths().flatMap { [$0.file] + ($0.thumbnail.map { [$0] } ?? []) })
    }

    func leftovers() -> [String] {
        [".incoming", ".trash"].flatMap { dir in
            ((try? FileManager.default.contentsOfDirectory(atPath: root + "/" + dir)) ?? []).map { dir + "/" + $0 }
        } + (FileManager.default.fileExists(atPath: root + "/.purging") ? [".purging"] : [])
    }

    /// Opens the library (which recovers), then asserts rows and files agree exactly.
    @discardableResult
    func assertConsistent(file: StaticString = #filePath, line: UInt = #line) throws -> Library {
        let library = try open()
        XCTAssertEqual(try rowPaths(library), mediaFiles(), "rows and files disagree", file: file, line: line)
        XCTAssertEqual(leftovers(), [], "temporary files left behind", file: file, line: line)
        XCTAssertEqual(try library.store.pendingSaves(), [], "save intents left behind", file: file, line: line)
        return library
    }
}
