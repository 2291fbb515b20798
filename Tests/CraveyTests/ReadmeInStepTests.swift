import CraveyTestSupport
import Foundation
import XCTest

/// README stays a ten-minute read in step with the program: its command index names exactly the
/// commands `cravey --help` lists, its quick start's two commands exist, and every relative link
/// of README and docs/ leads somewhere (a file, and a heading there when it names one).
final class ReadmeInStepTests: XCTestCase {
    func readme() throws -> String { try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8) }

    func testReadmeIsShort() throws {
        let lines = try readme().split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertLessThanOrEqual(
            lines.last == "" ? lines.count - 1 : lines.count, 250,
            "README.md is read in ten minutes: the rest goes to docs/")
    }

    func testTheCommandIndexIsTheHelpsList() throws {
        let help = try runProcess(craveyUnderTest, ["--help"], environment: ["NO_COLOR": "1"])
        XCTAssertEqual(help.status, 0, help.stderr)
        let listed = Self.subcommands(help.stdout)
        XCTAssertGreaterThanOrEqual(listed.count, 20, help.stdout)
        // `cravey help COMMAND` is the argument parser's own, which --help does not list.
        let indexed = Self.indexed(try readme()).filter { $0 != "help" }
        XCTAssertEqual(indexed.sorted(), listed.sorted(), "README's command index against 'cravey --help'")
        XCTAssertEqual(Set(indexed).count, indexed.count, "each command once in README's index: \(indexed)")
        // The guide's table of commands has a row for each.
        let guide = try String(contentsOfFile: repositoryRoot + "/docs/GUIDE.md", encoding: .utf8)
        let table = Self.section(guide, "## Commands") ?? ""
        for command in listed {
            XCTAssertTrue(
                table.contains("`cravey \(command)"), "the guide's Commands table has no row for \(command)")
        }
    }

    func testTheQuickStartsCommandsExist() throws {
        let text = try readme()
        let section = try XCTUnwrap(Self.section(text, "## Quick start"), "README has a quick start")
        let commands = section.components(separatedBy: "\n").filter { $0.hasPrefix("bash ") }
            .map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
        XCTAssertEqual(commands, ["bash Media/demo.sh", "bash Tests/run-all.sh"], section)
        for command in commands {
            let path = repositoryRoot + "/" + command.dropFirst("bash ".count)
            XCTAssertTrue(FileManager.default.isReadableFile(atPath: path), "\(command): no such file")
        }
        // CI runs README's test command.
        let ci = try String(contentsOfFile: repositoryRoot + "/.ci/run", encoding: .utf8)
        XCTAssertTrue(ci.contains("bash Tests/run-all.sh"), ci)
    }

    func testEveryRelativeLinkResolves() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/docs")
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        XCTAssertTrue(
            Set(docs).isSuperset(of: ["docs/GUIDE.md", "docs/ARCHITECTURE.md", "docs/TESTING.md", "docs/BENCHMARKS.md"]
            ),
            "\(docs)")
        var checked = 0
        for file in ["README.md", "Tests/README.md"] + docs.filter({ !$0.hasPrefix("docs/pending/") }) {
            let text = try String(contentsOfFile: repositoryRoot + "/" + file, encoding: .utf8)
            let folder = (file as NSString).deletingLastPathComponent
            for link in Self.links(text) where !link.contains("://") && !link.hasPrefix("mailto:") {
                checked += 1
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target =
                    parts[0].isEmpty
                    ? file : ((folder.isEmpty ? parts[0] : folder + "/" + parts[0]) as NSString).standardizingPath
                let path = repositoryRoot + "/" + target
                XCTAssertTrue(FileManager.default.fileExists(atPath: path), "\(file): the link '\(link)' leads nowhere")
                guard parts.count == 2, target.hasSuffix(".md"),
                    let linked = try? String(contentsOfFile: path, encoding: .utf8)
                else { continue }
                XCTAssertTrue(
                    Self.anchors(linked).contains(parts[1]), "\(file): '\(link)': \(target) has no heading #\(parts[1])"
                )
            }
        }
        XCTAssertGreaterThan(checked, 20, "the documents link to one another")
    }

    /// The subcommands `--help` lists (its SUBCOMMANDS section: a name at the start of a line).
    static func subcommands(_ help: String) -> [String] {
        guard let start = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        return help[start.upperBound...].components(separatedBy: "\n")
            .prefix { !$0.isEmpty }
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// The commands README's index names: `- `cravey NAME …`` lines of its Commands section.
    static func indexed(_ readme: String) -> [String] {
        (section(readme, "## Commands") ?? "").components(separatedBy: "\n")
            .filter { $0.hasPrefix("- `cravey ") }
            .compactMap { $0.dropFirst("- `cravey ".count).split(whereSeparator: { " `".contains($0) }).first }
            .map(String.init)
    }

    /// The text from a heading to the next heading of its level.
    static func section(_ text: String, _ heading: String) -> String? {
        guard let start = text.range(of: "\n" + heading) else { return nil }
        let rest = text[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// The targets of the document's markdown links and images, outside code.
    static func links(_ text: String) -> [String] {
        var links: [String] = []
        var inFence = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inFence.toggle() }
            if inFence { continue }
            // Code spans are no links.
            let prose = line.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                .joined(separator: " ")
            var rest = prose[...]
            while let open = rest.range(of: "]("), let close = rest[open.upperBound...].firstIndex(of: ")") {
                links.append(String(rest[open.upperBound..<close]))
                rest = rest[close...]
            }
        }
        return links
    }

    /// The anchors a heading makes on GitHub: lower case, letters, digits, `-` and `_` kept, spaces
    /// as `-`, everything else dropped.
    static func anchors(_ text: String) -> Set<String> {
        var anchors: Set<String> = []
        var inFence = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inFence.toggle() }
            guard !inFence, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            anchors.insert(
                String(
                    title.lowercased().unicodeScalars.compactMap { scalar -> Character? in
                        if scalar == " " { return "-" }
                        if scalar == "-" || scalar == "_"
                            || (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
                        {
                            return Character(scalar)
                        }
                        return nil
                    }))
        }
        return anchors
    }
}
