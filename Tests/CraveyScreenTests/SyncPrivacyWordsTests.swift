import CraveyTestSupport
import Foundation
import XCTest

/// The privacy words stay true with a sync folder chosen: the welcome (a machine joining another
/// starts from `sync --folder`), the settings screen and its privacy page, in tmux at 60x12 and
/// 80x24, and `cravey privacy` plain and `--json`, say where the data is then, that cravey sends
/// nothing over a network, and who can read the folder's files. Without a folder, the words are
/// as they were.
final class SyncPrivacyWordsTests: CommandTestCase {
    static let sizes = [(60, 12), (80, 24)]
    var folder: String { base + "/shared" }
    var stays: String { "Your data stays on your devices and in the folder you chose (\(folder))" }
    let network = "cravey sends nothing over a network."
    let readable = "The folder's files are as readable as the library to anyone who can open that folder."

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func command(_ arguments: [String]) throws -> String {
        let result = try runProcess(
            cravey, arguments + ["--library", root], environment: ["NO_COLOR": "1", "CRAVEY_TRANSCRIBE": "later"])
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        return result.stdout
    }

    func start(_ arguments: String, width: Int, height: Int) throws -> TmuxSession {
        try TmuxSession(
            "cd \(shellQuote(base)) && env NO_COLOR=1 TZ=Europe/Berlin CRAVEY_TRANSCRIBE=later "
                + "ALSA_CONFIG_PATH=\(shellQuote(testALSAConfig)) CRAVEY_LIBRARY=\(shellQuote(root)) "
                + "\(shellQuote(cravey)) \(arguments); echo EXIT=$?; sleep 60", width: width, height: height)
    }

    /// The screen's words with its line breaks and margins as single spaces (a sentence wrapped
    /// over lines reads whole).
    func words(_ tmux: TmuxSession) throws -> String {
        try tmux.screen().split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    /// Waits until every one of `parts` is on screen, then asserts them.
    func assertShown(
        _ parts: [String], _ tmux: TmuxSession, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let deadline = Date().addingTimeInterval(10)
        var text = try words(tmux)
        while !parts.allSatisfy(text.contains), Date() < deadline {
            usleep(100_000)
            text = try words(tmux)
        }
        for part in parts {
            XCTAssertTrue(
                text.contains(part), "\(what): '\(part)' not in\n\(text)", file: file, line: line)
        }
    }

    func testTheWelcomeSaysWhereTheDataIsWithAFolderChosen() throws {
        _ = try command(["sync", "--folder", folder])  // a machine joining: its library starts here
        for (width, height) in Self.sizes {
            let tmux = try start("", width: width, height: height)
            defer { tmux.close() }
            try tmux.waitFor("Get started")
            try assertShown(
                ["cravey", stays, network, readable, "Get started"], tmux, "the welcome at \(width)x\(height)")
            XCTAssertFalse(try words(tmux).contains("All data stays on your device."))
        }
    }

    func testTheWelcomeWithoutAFolderIsAsItWas() throws {
        for (width, height) in Self.sizes {
            let tmux = try start("", width: width, height: height)
            defer { tmux.close() }
            try tmux.waitFor("Get started")
            try assertShown(
                ["All data stays on your device. No cloud sync."], tmux, "the welcome at \(width)x\(height)")
            XCTAssertFalse(try words(tmux).contains("in the folder you chose ("))
        }
    }

    func testSettingsAndThePrivacyPageSayWhereTheDataIsWithAFolderChosen() throws {
        _ = try command(["craving", "4"])
        try pastFirstRun()
        _ = try command(["sync", "--folder", folder])
        for (width, height) in Self.sizes {
            let tmux = try start("settings", width: width, height: height)
            defer { tmux.close() }
            try tmux.waitFor("Settings")
            try assertShown(["⚙️ Settings", stays, network, readable, "GOAL"], tmux, "settings at \(width)x\(height)")
            try tmux.send("p", literal: true)
            try tmux.waitFor("any other key: back")
            try assertShown(["Privacy", stays, network], tmux, "the privacy page at \(width)x\(height)")
            try tmux.send("End")
            try assertShown([readable, "cravey purge"], tmux, "the privacy page's end at \(width)x\(height)")
        }
    }

    func testThePrivacyStatementPlainAndJSON() throws {
        let alone = try jsonObject(try command(["privacy", "--json"]))
        XCTAssertTrue(alone["syncFolder"] is NSNull, "\(alone)")
        XCTAssertEqual((alone["paragraphs"] as? [String])?.first, "Your data is private and local-only.")
        XCTAssertFalse(try command(["privacy"]).contains("in the folder you chose ("))

        _ = try command(["sync", "--folder", folder])
        let plain = try command(["privacy"])
        XCTAssertTrue(plain.hasPrefix(stays + "; " + network + "\n"), plain)
        let joined = plain.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        for part in [readable, "never by cravey", "no cloud, no analytics, no accounts", root] {
            XCTAssertTrue(joined.contains(part), "'\(part)' not in\n\(plain)")
        }
        XCTAssertFalse(plain.contains("Nothing leaves this machine"), "no longer true with a folder")
        let shown = try jsonObject(try command(["privacy", "--json"]))
        XCTAssertEqual(shown["syncFolder"] as? String, folder)
        XCTAssertEqual(shown["library"] as? String, root)
        let paragraphs = try XCTUnwrap(shown["paragraphs"] as? [String])
        XCTAssertEqual(paragraphs.first, stays + "; " + network)
        XCTAssertTrue(paragraphs.contains { $0.hasSuffix(readable) }, "\(paragraphs)")
    }
}
