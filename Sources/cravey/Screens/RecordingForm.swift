import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

/// The Edit Recording form: title, notes, purpose and the triggers it is made for, pre-filled
/// with what the recording has. ↑/↓ (or Tab) move between fields; in Title and Notes typing
/// edits; in Purpose ←/→ and space (or 1–4) choose one, and choosing it again clears it; in Made
/// for ←/→ move and space ticks a trigger. Enter saves; Esc (or q in Purpose and Made for) closes
/// the form and nothing changes.
struct RecordingFormState {
    enum Field: CaseIterable { case title, notes, purpose, madeFor }

    var title: String
    var notes: String
    var purpose: Recording.Purpose?
    var purposeCursor: Int
    /// The triggers it is made for.
    var madeFor: Set<Trigger>
    var triggerCursor = 0
    var field = Field.title
    /// The title a blank one becomes.
    let automaticTitle: String
    /// Why the last Enter did not save (a title or notes the library refuses), shown under the
    /// form until the next key.
    var problem: String?

    init(_ recording: Recording) {
        title = recording.title
        notes = recording.notes ?? ""
        purpose = recording.purpose
        purposeCursor = recording.purpose.flatMap { Recording.Purpose.allCases.firstIndex(of: $0) } ?? 0
        madeFor = Set(recording.forTriggers.compactMap(Trigger.init(rawValue:)))
        automaticTitle = Validation.automaticTitle(for: recording.createdAt)
    }

    enum Outcome: Equatable { case editing, save, close }

    /// One key: moves between fields, edits the one in focus, saves or closes.
    mutating func apply(_ key: Key) -> Outcome {
        let all = Field.allCases
        let index = all.firstIndex(of: field)!
        let purposes = Recording.Purpose.allCases
        problem = nil
        switch key {
        case .enter: return .save
        case .escape, .inputEnded: return .close
        case .up: field = all[max(0, index - 1)]
        case .down, .tab: field = all[min(all.count - 1, index + 1)]
        case .left where field == .purpose: purposeCursor = (purposeCursor + purposes.count - 1) % purposes.count
        case .right where field == .purpose: purposeCursor = (purposeCursor + 1) % purposes.count
        case .character(" ") where field == .purpose: choose(purposes[purposeCursor])
        case .character("q") where field == .purpose, .character("Q") where field == .purpose: return .close
        case let .character(c) where field == .purpose:
            if let digit = key.digit, (1...purposes.count).contains(digit) {
                purposeCursor = digit - 1
                choose(purposes[digit - 1])
            } else if c == "0" {
                purpose = nil
            }
        case .backspace where field == .purpose: purpose = nil
        case .left where field == .madeFor:
            triggerCursor = (triggerCursor + Trigger.allCases.count - 1) % Trigger.allCases.count
        case .right where field == .madeFor: triggerCursor = (triggerCursor + 1) % Trigger.allCases.count
        case .character(" ") where field == .madeFor:
            let trigger = Trigger.allCases[triggerCursor]
            if madeFor.remove(trigger) == nil { madeFor.insert(trigger) }
        case .character("q") where field == .madeFor, .character("Q") where field == .madeFor: return .close
        case .backspace where field == .madeFor: madeFor = []
        case .character where field == .madeFor: break
        case .backspace, .character:
            if key == .backspace || !(key.character?.unicodeScalars.contains(where: Validation.isUnsafe) ?? true) {
                if field == .title {
                    _ = key.edit(&title, limit: Validation.maxTitleLength)
                } else if field == .notes {
                    _ = key.edit(&notes, limit: Validation.maxNotesLength)
                }
            }
        default: break
        }
        return .editing
    }

    /// The triggers it is made for, as the library keeps them.
    var forTriggers: [String] { Trigger.allCases.filter(madeFor.contains).map(\.rawValue) }

    /// Chooses a purpose; the one already chosen is cleared.
    private mutating func choose(_ chosen: Recording.Purpose) {
        purpose = purpose == chosen ? nil : chosen
    }

    // MARK: - Drawing

    /// The form as a page for a window `width` columns wide: its title and keys in view, the field
    /// being answered in focus (a long title or notes shows its end; chips never break inside).
    func page(width: Int) -> Page {
        let columns = max(30, width - 1)
        let rule = Terminal.dim(String(repeating: "─", count: min(columns, 56)))
        func label(_ text: String, _ f: Field) -> String {
            (field == f ? Terminal.accent("▸ ") + Terminal.bold(text) : "  " + text)
        }
        func typed(_ text: String, _ f: Field) -> String {
            let room = columns - 7
            let shown = Terminal.safe(text.replacingOccurrences(of: "\n", with: " "))
            let end = Terminal.width(shown) > room ? "…" + String(shown.suffix(room - 2)) : shown
            return "    > " + end + (field == f ? "▏" : "")
        }
        let chips = Recording.Purpose.allCases.enumerated().map { index, each in
            LogFormState.heldChip(
                (purpose == each ? "(•) " : "( ) ") + each.name,
                underCursor: field == .purpose && index == purposeCursor)
        }
        var out = [
            label("Title", .title) + Terminal.dim("  (40 char max; blank: '\(automaticTitle)')"), typed(title, .title),
            label("Notes", .notes) + Terminal.dim("  (200 char max)")
                + (notes.count >= 150 ? Terminal.dim("  \(notes.count)/200") : ""),
            typed(notes, .notes),
            label("Purpose", .purpose) + Terminal.dim("  (optional)"), "  " + chips.joined(separator: " "),
        ]
        if field == .purpose { out.append("    " + Terminal.dim(Recording.Purpose.allCases[purposeCursor].line)) }
        let madeForStart = out.count
        let triggers = Trigger.allCases.enumerated().map { index, trigger in
            LogFormState.heldChip(
                (madeFor.contains(trigger) ? "[x] " : "[ ] ") + trigger.label,
                underCursor: field == .madeFor && index == triggerCursor)
        }
        // A narrow window gets the short hint and the chips in as many rows as they need.
        let wide = width > 80
        out.append(
            label("Made for", .madeFor)
                + Terminal.dim(wide ? "  (optional: played first in a craving with one of them)" : "  (optional)"))
        out +=
            wide
            ? ["  " + triggers[0..<5].joined(separator: " "), "  " + triggers[5...].joined(separator: " ")]
            : ["  " + triggers.joined(separator: " ")]
        let focus: Range<Int> =
            switch field {
            case .title: 0..<2
            case .notes: 2..<4
            case .purpose: 4..<7
            case .madeFor: madeForStart..<out.count
            }
        var keys = [
            rule,
            Terminal.dim(
                "Enter: save changes · ↑/↓ field · purpose: ←/→ space or 1–4 · made for: space ticks · Esc: close"),
        ]
        if let problem { keys.append(Terminal.style(Terminal.safe(problem), "33")) }
        return Page(title: [Terminal.bold("Edit Recording"), rule], body: out, focus: focus, keys: keys)
    }
}

/// Runs the Edit Recording form on the terminal (standard error), as `cravey edit ID` does on a
/// terminal and the recordings screen's `e`.
enum RecordingForm {
    /// Runs the form until `save` takes what it holds (what `save` throws is shown in the form,
    /// which stays open) or it is closed (nil).
    static func run<Saved>(_ start: RecordingFormState, save: (RecordingFormState) throws -> Saved) -> Saved? {
        var state = start
        // nil: the form goes on; .some(nil): it was closed; .some(saved): saved.
        let ended = LiveForm.run(page: { state.page(width: Terminal.columns) }) { key -> Saved?? in
            switch state.apply(key) {
            case .editing: return nil
            case .close: return .some(nil)
            case .save:
                do {
                    return .some(try save(state))
                } catch {
                    state.problem = Problem.of(error)?.message ?? "\(error)"
                    return nil
                }
            }
        }
        return ended ?? nil
    }
}

extension Key {
    /// The character typed, if the key is one.
    fileprivate var character: Character? {
        if case let .character(c) = self { return c }
        return nil
    }
}
