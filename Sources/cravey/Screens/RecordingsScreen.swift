import CraveyLibrary
import Foundation
import TerminalKit

/// The recordings library as a screen (`cravey recordings`, `m` on home): newest first, each
/// with its icon, title, date, length and plays. ↑/↓ (PgUp/PgDn, Home/End) choose one; Enter
/// plays it, `e` edits its details, `d` deletes it after the one question, `n` records a new one
/// (audio or video). Each action runs the same flow as its command — on the normal screen, as
/// home runs them — and comes back here with a one-line note. `o` rides a craving out and `1`–`3`
/// play one of Quick Play's messages, as everywhere. q or Esc leaves.
struct RecordingsScreen {
    let session: Session
    let screen: FullScreen
    var library: Library { session.library }

    enum Action: Equatable { case play, edit, delete, record, quit }

    /// The action a key asks for (`n` asks for a second key: audio or video).
    static func action(for key: Key) -> Action? {
        if key == .enter { return .play }
        switch key.letter {
        case "e": return .edit
        case "d": return .delete
        case "n": return .record
        case "q": return .quit
        default: return key == .escape || key == .inputEnded ? .quit : nil
        }
    }

    /// Lines that are not rows: the title and its rule, the rule or "more" below, the keys, the
    /// note.
    static let chrome = 5

    /// How many recordings fit on a screen `rows` high (two lines each).
    static func visible(rows: Int) -> Int { max(1, (rows - chrome) / 2) }

    func run() throws {
        var list = ScrollingList(count: 0)
        var toast: String?
        while !screen.closed {
            let recordings = try library.recordings()
            list.resize(to: recordings.count)
            let key = screen.ask(page: {
                Self.page(recordings, list: &list, toast: toast, columns: Terminal.columns, rows: Terminal.rows)
            })
            toast = nil
            if list.move(key, visible: Self.visible(rows: Terminal.rows)) { continue }
            // In the empty state Enter records the first one: the screen's one button.
            guard var action = Self.action(for: key) else {
                toast = try HelpNow(screen: screen, session: session)(key)
                continue
            }
            if recordings.isEmpty, action != .quit {
                guard action == .play || action == .record else { continue }
                action = .record
            }
            switch action {
            case .quit: return
            case .record:
                toast = try record()
                if toast?.hasPrefix(Self.saved) == true { list = ScrollingList(count: recordings.count + 1) }
            case .play, .edit, .delete:
                toast = try perform(action, on: recordings[list.selected])
            }
        }
    }

    /// What a new recording saved says.
    static let saved = RecordFlow.savedNote

    /// Plays, edits or deletes `recording`; the note for the screen.
    func perform(_ action: Action, on recording: Recording) throws -> String? {
        switch action {
        case .play:
            return OffScreen.run(on: screen) {
                let played = try PlayFlow.play(recording, in: session)
                if played.wordsShown { return "Read the words of '\(played.recording.shownTitle)' ✓" }
                return (played.ending == .finished ? "Played" : "Stopped") + " '\(played.recording.shownTitle)'"
                    + (played.ending == .finished ? " ✓" : "")
            }
        case .edit:
            return OffScreen.run(on: screen) {
                try EditFlow.interactively(recording, in: library) != nil
                    ? "Recording updated ✓" : Questions.nothingChanged
            }
        case .delete:
            guard confirmDelete(recording) else { return Terminal.nothingDeleted }
            do {
                try library.delete(recording)
                return "Recording deleted"
            } catch {
                return Problem.of(error).map { "cravey: " + Terminal.safe($0.message) }
            }
        case .record, .quit:
            return nil
        }
    }

    /// The confirmation, in the words of `cravey delete`: d (or y) deletes; Esc, n, q or
    /// Enter cancel.
    func confirmDelete(_ recording: Recording) -> Bool {
        while true {
            let key = screen.ask(
                Page(
                    title: [Terminal.bold(Questions.deleteRecording(recording))],
                    body: ["", Questions.deleteRecordingWarning, ""],
                    keys: ["  " + Terminal.bold("d") + "  Delete        " + Terminal.bold("Esc") + "  Cancel"]))
            if key.letter == "d" || key.letter == "y" { return true }
            if key.isQuit || key == .inputEnded || key == .enter || key.letter == "n" { return false }
        }
    }

    /// Choose Recording Type, then the same recording as `cravey record audio|video`; the note.
    func record() throws -> String? {
        let kind: Recording.Kind
        switch screen.ask(
            Page(
                title: [Terminal.bold("Choose Recording Type")],
                body: [
                    "", "  " + Terminal.bold("v") + "  " + Format.icon(.video) + " RECORD VIDEO",
                    "  " + Terminal.bold("a") + "  " + Format.icon(.audio) + " RECORD AUDIO", "",
                ], focus: 1..<3, keys: ["  " + Terminal.bold("Esc") + "  Cancel"])
        ).letter {
        case "v": kind = .video
        case "a": kind = .audio
        default: return nil
        }
        return OffScreen.run(on: screen) { try RecordFlow.fromScreen(kind, in: session) }
    }

    // MARK: - Drawing

    /// The page for a terminal `columns` wide and `rows` high: the title, the chosen row and the
    /// keys in view (a long title is cut with …, never wrapped; the keys and the note wrap at
    /// spaces), the rows scrolled to keep the chosen one in view.
    static func page(
        _ recordings: [Recording], list: inout ScrollingList, toast: String?, columns: Int, rows: Int
    ) -> Page {
        let width = max(40, columns - 1)
        let rule = Terminal.dim(String(repeating: "─", count: min(width, 72)))
        let note = toast.map { Terminal.accent($0) } ?? ""
        let new = Terminal.bold("n") + "  + NEW"
        let title = Terminal.bold("Recordings") + (recordings.isEmpty ? "" : Terminal.dim("  \(recordings.count)"))
        let header = Terminal.fit(title, width - 8) + new
        guard !recordings.isEmpty else {
            return Page(
                title: [header, rule],
                body: [
                    "", "  " + Format.icon(.video), "", "  " + Terminal.bold("No recordings yet"), "",
                    "  Create motivational content to play during cravings", "",
                    "  " + Terminal.bold("n") + "  RECORD YOUR FIRST", "",
                ], focus: 7..<8, keys: [rule, Terminal.dim("n record · q back"), note])
        }
        let keys = Terminal.dim("Enter play · e edit · d delete · n new · ↑/↓ · q back")
        // Two lines a row, between the title and its rule, the rule below and the keys and note.
        let below = Page.wrap(keys, width: columns - 1).count + Page.wrap(note, width: columns - 1).count
        let shown = list.shown(visible: max(1, (rows - 3 - below) / 2))
        let top = [header, shown.lowerBound > 0 ? Terminal.dim("  ↑ \(shown.lowerBound) more") : rule]
        var out: [String] = []
        for index in shown {
            let recording = recordings[index]
            let chosen = index == list.selected
            let name = fitted(recording.shownTitle, width - 5)
            out.append(
                (chosen ? Terminal.accent("▸ ") : "  ") + Format.icon(recording.kind) + " "
                    + (chosen ? Terminal.bold(name) : name))
            out.append(
                "     "
                    + Terminal.dim(
                        fitted(
                            Validation.displayDate(recording.createdAt) + " • " + Format.duration(recording.duration)
                                + " • ▶ " + Format.plays(recording.playCount), width - 5)))
        }
        let more = recordings.count - shown.upperBound
        let chosen = 2 * (list.selected - shown.lowerBound)
        return Page(
            title: top, body: out, focus: chosen..<(chosen + 2),
            keys: [more > 0 ? Terminal.dim("  ↓ \(more) more") : rule, keys, note])
    }

    /// `text` as it is when it fits in `columns`, else cut with … (never wrapped).
    static func fitted(_ text: String, _ columns: Int) -> String {
        Terminal.width(text) > columns ? Terminal.fit(text, columns) : text
    }
}
