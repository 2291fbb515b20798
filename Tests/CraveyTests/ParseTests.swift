import ArgumentParser
import XCTest

@testable import cravey

/// The command line as parsed, without running anything (`parseAsRoot`): which subcommand, with
/// which options, and which arguments are refused before any library or device is touched.
final class ParseTests: XCTestCase {
    func parse(_ arguments: [String]) throws -> ParsableCommand { try Cravey.parseAsRoot(arguments) }

    func testSubcommandsAndTheirOptions() throws {
        let record = try XCTUnwrap(
            try parse([
                "record", "video", "--mic", "hw:1,0", "--size", "640x360", "--max-seconds", "30",
                "--title", "Day 30", "--purpose", "milestone", "--fallback", "audio",
            ]) as? Cravey.Record)
        XCTAssertEqual(record.kind, .video)
        XCTAssertEqual(record.mic, "hw:1,0")
        XCTAssertEqual(record.size, "640x360")
        XCTAssertEqual(record.maxSeconds, 30)
        XCTAssertEqual(record.details.title, "Day 30")
        XCTAssertEqual(record.fallback, .audio)
        let play = try XCTUnwrap(try parse(["play", "--top", "--rank", "2", "--speaker", "hw:0"]) as? Cravey.Play)
        XCTAssertTrue(play.top)
        XCTAssertEqual(play.rank, 2)
        XCTAssertEqual(play.speaker, "hw:0")
        XCTAssertNil(play.key)
        let list = try XCTUnwrap(
            try parse(["list", "--type", "video", "--purpose", "craving", "--json", "--library", "/tmp/x"])
                as? Cravey.List)
        XCTAssertEqual(list.kind, .video)
        XCTAssertEqual(list.purpose, .craving)
        XCTAssertTrue(list.output.json)
        XCTAssertEqual(list.library.library, "/tmp/x")
        XCTAssertEqual((try parse(["top", "5"]) as? Cravey.Top)?.count, 5)
        XCTAssertEqual((try parse(["export", "--format", "csv", "--output", "-"]) as? Cravey.Export)?.output, "-")
        XCTAssertTrue((try parse(["check", "--repair"]) as? Cravey.Check)?.repair ?? false)
        XCTAssertNotNil(try parse(["import", "memo.m4a", "--trim"]) as? Cravey.Import)
    }

    func testBadArgumentsAreRefusedWhenParsed() {
        for arguments in [
            ["record", "photo"], ["play"], ["play", "abc", "--top"], ["play", "--top", "--rank", "0"], ["top", "0"],
            ["list", "--type", "gif"], ["export", "--format", "xml"], ["record", "audio", "--size", "640x360"],
            ["record", "video", "--no-audio", "--fallback", "audio"], ["frobnicate"],
        ] {
            XCTAssertThrowsError(try parse(arguments), "\(arguments)")
        }
    }

    /// Free text (titles, notes) is the next argument whatever it starts with, in every command
    /// that takes it; an option after it is still an option.
    func testFreeTextThatStartsWithADashIsItsValue() throws {
        let craving = try XCTUnwrap(
            try parse(["craving", "4", "--notes", "- rough day", "--json"]) as? Cravey.CravingCommand)
        XCTAssertEqual(craving.details.notes, "- rough day")
        XCTAssertTrue(craving.output.json)
        XCTAssertEqual((try parse(["use", "vape", "2", "--notes", "--"]) as? Cravey.UseCommand)?.details.notes, "--")
        XCTAssertEqual(
            (try parse(["log", "edit", "abc", "--notes", "-1 than yesterday"]) as? Cravey.LogCommand.Edit)?.details
                .notes, "-1 than yesterday")
        let record = try XCTUnwrap(
            try parse(["record", "audio", "--title", "-cmd", "--notes", "-x", "--purpose", "craving"]) as? Cravey.Record
        )
        XCTAssertEqual(record.details.title, "-cmd")
        XCTAssertEqual(record.details.notes, "-x")
        XCTAssertEqual(record.details.purpose, "craving")
        let edit = try XCTUnwrap(
            try parse(["edit", "abc", "--title", "-30 days", "--notes", "--json"]) as? Cravey.Edit)
        XCTAssertEqual(edit.details.title, "-30 days")
        XCTAssertEqual(edit.details.notes, "--json")
        XCTAssertFalse(edit.output.json)
        XCTAssertEqual((try parse(["import", "memo.m4a", "--title", "-h"]) as? Cravey.Import)?.details.title, "-h")
    }

    /// Every home key is its action (home runs each action's flow itself, as its command does).
    func testEveryHomeKeyIsItsAction() throws {
        XCTAssertEqual(Home.action(for: .character("1"), top: 3), .play(1))
        XCTAssertNil(Home.action(for: .character("3"), top: 2), "no third message: 3 does nothing")
        XCTAssertEqual(Home.action(for: .character("C"), top: 0), .craving)
        XCTAssertEqual(Home.action(for: .escape, top: 0), .quit)
    }
}
