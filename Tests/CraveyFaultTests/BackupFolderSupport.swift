import CraveyTestSupport
import Foundation
import XCTest

/// What the backup tests read in a backup folder: its tree, its manifest and its files' hashes.
extension FaultCampaign {
    /// Every entry under `dir`, without following links: its kind, mode, link target and content hash.
    func tree(_ dir: String) throws -> [String: String] {
        let listed = try runProcess("/usr/bin/find", [dir, "-mindepth", "1", "-printf", "%P\t%y\t%m\t%l\t%s\n"])
        let hashed = try runProcess("/usr/bin/find", [dir, "-type", "f", "-exec", "/usr/bin/sha256sum", "{}", "+"])
        var result: [String: String] = [:]
        for line in listed.stdout.split(separator: "\n") {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            result[parts[0]] = parts.dropFirst().joined(separator: " ")
        }
        for line in hashed.stdout.split(separator: "\n") {
            let hash = String(line.prefix(64)), path = String(line.dropFirst(66))
            result[String(path.dropFirst(dir.count + 1)), default: ""] += " " + hash
        }
        return result
    }

    func manifest(_ backup: String) throws -> [String: Any] {
        try XCTUnwrap(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: backup + "/cravey-backup.json"))) as? [String: Any])
    }

    func write(_ manifest: [String: Any], to backup: String) throws {
        try JSONSerialization.data(withJSONObject: manifest).write(
            to: URL(fileURLWithPath: backup + "/cravey-backup.json"))
    }

    /// The manifest made to name the backup's database as it now is (a tampering that hides).
    func rehash(_ database: String, in backup: String) throws {
        var rehashed = try manifest(backup)
        var entry = rehashed["database"] as! [String: Any]
        entry["size"] = size(database)
        entry["sha256"] = try sha256(database)
        rehashed["database"] = entry
        try write(rehashed, to: backup)
    }

    func sha256(_ path: String) throws -> String {
        String(try runProcess("/usr/bin/sha256sum", [path]).stdout.prefix(64))
    }

    func size(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
    }

    /// A library's rows, logs and files as a person would miss them.
    func holdings(_ root: String) throws -> String {
        guard FileManager.default.fileExists(atPath: root) else { return "" }
        let rows = try run(["export", "--format", "json", "--output", "-"], root)
        XCTAssertEqual(rows.status, 0, rows.stderr)
        let media =
            (try? FileManager.default.contentsOfDirectory(atPath: root + "/Recordings"))?.filter {
                $0.hasPrefix("audio_") || $0.hasPrefix("video_")
            }.sorted() ?? []
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(rows.stdout.utf8)) as? [String: Any])
        let recordings = (json["recordings"] as? [[String: Any]] ?? []).map {
            "\($0["id"]!)|\($0["title"]!)|\($0["duration"]!)"
        }.sorted()
        let logs = ((json["cravings"] as? [[String: Any]] ?? []) + (json["usage"] as? [[String: Any]] ?? [])).map {
            "\($0["id"]!)"
        }.sorted()
        return "\(recordings) \(logs) \(media)"
    }

    /// The backups' database copies and anything left under cravey's temporary name.
    func databaseCopies(_ backup: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: backup + "/Database")) ?? []).sorted()
    }

    func partials(_ backup: String) throws -> [String] {
        try tree(backup).keys.filter { $0.hasSuffix(".cravey-partial") }.sorted()
    }
}
