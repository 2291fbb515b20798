import CraveyLibraryFixtures
import CraveyLibrary
import CraveyTestSupport
import Foundation
import XCTest

/// `cravey show` draws a video's thumbnail in the terminal: half blocks with 24-bit colour, kitty
/// graphics, or sixel. The thumbnail is red above and blue below, so a drawing can be checked.
final class ShowPictureTests: CommandTestCase {
    var id = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        let thumb = base + "/thumb.jpg", video = base + "/clip.mov"
        var result = try runProcess(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "color=red:s=320x90", "-f", "lavfi", "-i",
                "color=blue:s=320x90", "-filter_complex", "vstack", "-frames:v", "1", thumb,
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try runProcess(
            "/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=s=320x180:d=1", "-c:v", "libx264", video])
        XCTAssertEqual(result.status, 0, result.stderr)
        let library = try Library(root: root)
        id = try library.save(
            copying: video, thumbnail: thumb, kind: .video, draft: .init(title: "Day 30"), duration: 1,
            media: MediaFacts(width: 320, height: 180, fps: 25)
        ).id.uuidString
    }

    func show(_ graphics: String) throws -> String {
        let line = "\(shellQuote(cravey)) show \(id) --library \(shellQuote(root))"
        let result = try runInTerminal(line, environment: ["CRAVEY_GRAPHICS": graphics])
        XCTAssertEqual(result.status, 0, result.screen)
        XCTAssertTrue(result.screen.contains("Day 30"), result.screen)
        return result.screen
    }

    func isRed(_ c: [Int]) -> Bool { c[0] > 200 && c[1] < 60 && c[2] < 60 }
    func isBlue(_ c: [Int]) -> Bool { c[0] < 60 && c[1] < 60 && c[2] > 200 }

    func testHalfBlocksWithTrueColour() throws {
        let screen = try show("blocks")
        let rows = screen.split(whereSeparator: \.isNewline).filter { $0.contains("▀") }
        XCTAssertEqual(rows.count, 11, "40 columns × 180/320, two pixels per cell")
        func colours(_ row: Substring) -> [(fg: [Int], bg: [Int])] {
            row.components(separatedBy: "\u{1B}[38;2;").dropFirst().compactMap { cell in
                let n = cell.prefix { $0 != "m" }.split(separator: ";").compactMap { Int($0) }
                return n.count == 8 ? (Array(n[0..<3]), Array(n[5..<8])) : nil
            }
        }
        let top = colours(rows.first!), bottom = colours(rows.last!)
        XCTAssertEqual(top.count, 40)
        XCTAssertTrue(top.allSatisfy { isRed($0.fg) && isRed($0.bg) }, "\(top.prefix(3))")
        XCTAssertTrue(bottom.allSatisfy { isBlue($0.fg) && isBlue($0.bg) }, "\(bottom.prefix(3))")
    }

    func testKittyGraphics() throws {
        let screen = try show("kitty")
        XCTAssertTrue(screen.contains("\u{1B}_Ga=T,f=24,s=320,v=180,c=40,r=11"), screen.prefix(300).debugDescription)
        let chunks = screen.components(separatedBy: "\u{1B}_G").dropFirst().map { chunk -> String in
            let body = chunk.components(separatedBy: "\u{1B}\\")[0]
            return String(body[body.index(after: body.firstIndex(of: ";")!)...])
        }
        let rgb = [UInt8](try XCTUnwrap(Data(base64Encoded: chunks.joined())))
        XCTAssertEqual(rgb.count, 320 * 180 * 3)
        XCTAssertTrue(isRed(rgb[0..<3].map(Int.init)))
        XCTAssertTrue(isBlue(rgb[(179 * 320 * 3)..<(179 * 320 * 3 + 3)].map(Int.init)))
    }

    func testSixel() throws {
        let screen = try show("sixel")
        let start = try XCTUnwrap(screen.range(of: "\u{1B}Pq"))
        let body = screen[start.upperBound...].components(separatedBy: "\u{1B}\\")[0]
        XCTAssertTrue(body.hasPrefix("\"1;1;320;180"), String(body.prefix(40)))
        XCTAssertEqual(body.filter { $0 == "-" }.count, 30, "180 rows in bands of 6")
        let bands = body.split(separator: "-")
        // Colour register 180 is pure red in the 6×6×6 cube, 5 pure blue.
        XCTAssertTrue(bands.first!.contains("#180?") || bands.first!.contains("#180~"), String(bands.first!.suffix(80)))
        XCTAssertTrue(bands[bands.count - 1].contains("#5~"), String(bands.last!.suffix(80)))
    }

    func testNoPictureIntoAPipeOrWithoutColour() throws {
        let piped = try runProcess(cravey, ["show", id, "--library", root])
        XCTAssertFalse(piped.stdout.contains("\u{1B}"), piped.stdout)
        XCTAssertTrue(piped.stdout.contains("thumbnail"))
        let line = "\(shellQuote(cravey)) show \(id) --library \(shellQuote(root))"
        let plain = try runInTerminal(line, environment: ["NO_COLOR": "1"])
        XCTAssertFalse(plain.screen.contains("▀"))
    }
}
