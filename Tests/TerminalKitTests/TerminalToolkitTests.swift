import Foundation
import XCTest

@testable import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal toolkit every screen shares: keys decoded from the bytes a terminal sends, calm
/// screens, and the one key reader over a real file descriptor.
final class TerminalToolkitTests: XCTestCase {
    func testKeysDecodedFromTerminalBytes() {
        XCTAssertEqual(
            Key.keys(in: Array(" \u{1B}[C\u{1B}[Dq".utf8)), [.character(" "), .right, .left, .character("q")],
            "several keys in one read")
        XCTAssertEqual(
            Key.keys(in: Array("\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}OD".utf8)), [.up, .down, .right, .left],
            "CSI and SS3 arrows")
        XCTAssertEqual(
            Key.keys(in: Array("\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~".utf8)),
            [.pageUp, .pageDown, .home, .end, .home, .end])
        XCTAssertEqual(Key.keys(in: Array("\u{1B}[3~".utf8)), [.delete], "Del")
        XCTAssertEqual(Key.keys(in: [0x1B]), [.escape], "Esc alone")
        XCTAssertEqual(Key.keys(in: [0x1B, 0x1B]), [.escape, .escape])
        XCTAssertEqual(Key.keys(in: [13, 10, 9, 127, 8]), [.enter, .enter, .tab, .backspace, .backspace])
        XCTAssertEqual(Key.keys(in: Array("0123456789".utf8)).compactMap(\.digit), Array(0...9))
        XCTAssertEqual(Key.keys(in: Array("é💪".utf8)), [.character("é"), .character("💪")], "UTF-8 characters whole")
        XCTAssertEqual(
            Key.keys(in: Array("\u{1B}[1;5Cx".utf8)), [.right, .character("x")], "modifiers ignored, the arrow kept")
        XCTAssertEqual(
            Key.keys(in: Array("\u{1B}[99zx".utf8)), [.character("x")], "an unknown sequence is dropped whole")
        XCTAssertEqual(Key.keys(in: Array("a\u{1B}[".utf8)), [.character("a")], "a sequence cut short is dropped")
        XCTAssertEqual(
            Key.keys(in: [0x01, 0x02, 0xFF, UInt8(ascii: "z")]), [.character("z")],
            "control bytes and bad UTF-8 are not keys")
        XCTAssertTrue(Key.escape.isQuit && Key.character("q").isQuit && Key.character("Q").isQuit)
        XCTAssertFalse(Key.enter.isQuit)
        XCTAssertEqual(Key.character("C").letter, "c")
    }

    /// Calm screens: when they are on, a page as plain lines then only its changes, the choice a
    /// key names, and status lines at most once a second.
    func testCalmPagesChoicesAndStatusLines() throws {
        XCTAssertEqual(Calm.plain("\u{1B}[1;31mred\u{1B}[0m and \u{1B}[2mdim\u{1B}[0m"), "red and dim")

        let page = [
            "\u{1B}[1mcravey\u{1B}[0m  Hi Sam   Day 1 · 🔥 1 day without use", "", "",
            "  \u{1B}[1mc\u{1B}[0m  🧠 LOG CRAVING   ",
            "  1  🎤 Why I stop  0:20 · 3 plays", "  p 📊 Progress   k ☀️ Check-in   q Quit", "",
        ]
        XCTAssertEqual(
            Calm.lines(of: page, after: []),
            [
                "", "cravey  Hi Sam   Day 1 · 🔥 1 day without use", "", "  c  🧠 LOG CRAVING",
                "  1  🎤 Why I stop  0:20 · 3 plays", "  p 📊 Progress   k ☀️ Check-in   q Quit",
            ],
            "plain, one blank line at a time, none at the end, after a blank line")
        var changed = page
        changed[4] = "  1  🎤 Why I stop  0:20 · 4 plays"
        XCTAssertEqual(Calm.lines(of: changed, after: page), ["  1  🎤 Why I stop  0:20 · 4 plays"], "only what changed")
        XCTAssertEqual(Calm.lines(of: page, after: page), [])
        XCTAssertEqual(
            Calm.lines(of: ["Other", "page"], after: page), ["", "Other", "page"], "a new page is printed whole")

        XCTAssertEqual(Calm.label(of: .character("c"), in: page), "🧠 LOG CRAVING")
        XCTAssertEqual(Calm.label(of: .character("1"), in: page), "🎤 Why I stop", "not the 1 of 'Day 1'")
        XCTAssertEqual(Calm.label(of: .character("k"), in: page), "☀️ Check-in")
        XCTAssertEqual(Calm.label(of: .character("q"), in: page), "Quit")
        XCTAssertNil(Calm.label(of: .character("x"), in: page))
        XCTAssertEqual(Calm.label(of: .enter, in: ["  \u{1B}[1mEnter\u{1B}[0m  I'm ready     b  Back"]), "I'm ready")

        // Offered 100 times a second for 2.5 s: three lines at most (at 0, 1 and 2 s).
        let pipe = Pipe()
        var status = StatusLines()
        let start = Date()
        var n = 0
        while Date().timeIntervalSince(start) < 2.5 {
            status.offer("Recording 0:0\(n)", to: pipe.fileHandleForWriting)
            n += 1
            usleep(10_000)
        }
        pipe.fileHandleForWriting.closeFile()
        let lines = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(
            separator: "\n")
        XCTAssertEqual(lines.count, 3, "\(lines)")
    }

    /// The Enter typed by habit after a key that answered (`y`, then Enter) belongs to that answer:
    /// passed over once, within a second; any other key, or a later Enter, is the next answer.
    func testTheEnterAfterAnAnswerIsPassedOverOnce() {
        var habit = EnterAfterAnswer()
        XCTAssertFalse(habit.swallows(.enter, at: 0), "no answer yet: Enter answers")
        habit.answered(at: 1_000)
        XCTAssertTrue(habit.swallows(.enter, at: 1_050))
        XCTAssertFalse(habit.swallows(.enter, at: 1_100), "only once")
        habit.answered(at: 2_000)
        XCTAssertFalse(habit.swallows(.character("y"), at: 2_010))
        XCTAssertFalse(habit.swallows(.enter, at: 2_020), "another key came first")
        habit.answered(at: 3_000)
        XCTAssertFalse(habit.swallows(.enter, at: 3_000 + EnterAfterAnswer.window), "too late to be the same answer")
    }

    /// Over a pipe, whoever reads next: an Enter typed together with the answer (`y⏎` at once) is
    /// taken with it however late the next reader comes (a recording started after the answer
    /// is not stopped by it); one that follows within the window is passed over once, waiting on
    /// for a real key; a key other than Enter is not.
    func testTheKeyReaderTakesTheAnswersEnterWhoeverReadsNext() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]) }
        let reader = KeyReader(fd: fds[0])
        let input = fds[1]
        @Sendable func type(_ text: String) {
            _ = text.utf8CString.withUnsafeBufferPointer { write(input, $0.baseAddress, text.utf8.count) }
        }
        type("y\r")
        XCTAssertEqual(reader.next(waiting: 100), .character("y"))
        reader.answered()
        usleep(UInt32(EnterAfterAnswer.window + 100) * 1000)
        XCTAssertNil(reader.next(waiting: 50), "the Enter typed with the answer went with it")
        type("q")
        XCTAssertEqual(reader.next(waiting: 100), .character("q"))
        reader.answered()
        type("\r")
        let started = Date()
        let writer = Thread {
            usleep(300_000)
            type("s")
        }
        writer.start()
        XCTAssertEqual(reader.next(waiting: 2_000), .character("s"), "the Enter after the answer was passed over")
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.25, "and the reader waited on for a real key")
        type("\r")
        XCTAssertEqual(reader.next(waiting: 100), .enter, "an Enter that follows another key is a key")
        reader.answered()
        type("n\r")
        XCTAssertEqual(reader.next(waiting: 100), .character("n"))
        XCTAssertEqual(reader.next(waiting: 100), .enter)
        close(input)
    }

    /// Over a pipe: an escape sequence written in two pieces is one key; a lone Esc is Esc once
    /// nothing follows it; the end of input is a key of its own, every time after.
    func testTheKeyReaderJoinsSplitSequencesAndSeesTheEnd() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let reader = KeyReader(fd: fds[0])
        XCTAssertNil(reader.next(waiting: 20), "nothing typed: nil after the wait")
        let writeEnd = fds[1]
        write(writeEnd, "\u{1B}[", 2)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { _ = write(writeEnd, "Dq", 2) }
        XCTAssertEqual(reader.next(waiting: 500), .left)
        XCTAssertEqual(reader.next(waiting: 0), .character("q"))
        write(fds[1], "\u{1B}", 1)
        XCTAssertEqual(reader.next(waiting: 500), .escape)
        write(fds[1], "ab", 2)
        usleep(20_000)
        XCTAssertEqual(reader.pending(), [.character("a"), .character("b")])
        close(fds[1])
        XCTAssertEqual(reader.next(waiting: 500), .inputEnded)
        XCTAssertEqual(reader.next(waiting: 0), .inputEnded)
        close(fds[0])
    }
}
