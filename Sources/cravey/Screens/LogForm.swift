import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

/// The craving and use forms: one screen each, on the terminal toolkit. Every field has its
/// default, so Enter alone logs (a craving of 5, now; bowls, 0.5, now); Esc, q (outside a text
/// field) or Ctrl-C closes the form and nothing is logged. A number typed in Amount is the amount
/// meant (`10` is 10 mg, not the tenth step); one the method does not offer is refused in the
/// field and nothing is saved.
struct LogFormState {
    enum Kind { case craving, use }

    enum Field: Equatable {
        case intensity, method, amount, time, triggers, location, moodAfter, notes
    }

    let kind: Kind
    var intensity = Intensity.standard
    var method = CraveyTracker.Method.bowls
    var amountIndex = 0
    /// The amount as typed in its field ("" while the arrows choose it).
    var amountText = ""
    var timeText = ""
    var triggers = Set<Trigger>()
    var triggerCursor = 0
    var location: Location?
    var locationCursor = 0
    var moodAfter: Int?
    var notes = ""
    var focus = 0
    /// Why the last Enter did not log (a time or an amount that cannot be read), shown under the
    /// form until the field reads.
    var problem: String?

    init(kind: Kind) { self.kind = kind }

    var fields: [Field] {
        kind == .craving
            ? [.intensity, .time, .triggers, .location, .notes]
            : [.method, .amount, .time, .triggers, .location, .moodAfter, .notes]
    }

    var field: Field { fields[focus] }
    /// The amount chosen with the arrows (a typed one is read by `typedAmount`).
    var amount: Double { method.amounts[min(amountIndex, method.amounts.count - 1)] }

    /// The amount to save: the number typed, or the one the arrows chose. Throws when the number
    /// typed is not one the method offers.
    func typedAmount() throws -> Double {
        amountText.isEmpty ? amount : try LogInput.amount(amountText, of: method)
    }

    /// When it happened, as typed (now when nothing is).
    func time(now: Date) throws -> LogTime {
        try LogInput.time(timeText.isEmpty ? nil : timeText, now: now)
    }

    /// Throws the first field that cannot be saved as it stands (the time, then the amount).
    func check(now: Date) throws {
        _ = try time(now: now)
        if kind == .use { _ = try typedAmount() }
    }

    enum Outcome: Equatable { case editing, save, close }

    /// One key: moves between fields, changes the one in focus, saves or closes. A problem shown
    /// from the last Enter stays until the field it is about reads.
    mutating func apply(_ key: Key) -> Outcome {
        let outcome = edit(key)
        if outcome == .editing, problem != nil, (try? check(now: LocalClock.now())) != nil { problem = nil }
        return outcome
    }

    private mutating func edit(_ key: Key) -> Outcome {
        let typing = field == .notes || field == .time
        switch key {
        case .enter: return .save
        case .escape, .inputEnded: return .close
        case .character("q") where !typing, .character("Q") where !typing: return .close
        case .up: leaveAmount(); focus = max(0, focus - 1)
        case .down, .tab: leaveAmount(); focus = min(fields.count - 1, focus + 1)
        case .left: step(-1)
        case .right: step(1)
        case .backspace where field == .amount: _ = amountText.popLast()
        case .backspace where typing:
            if field == .notes { _ = notes.popLast() } else { _ = timeText.popLast() }
        case let .character(c) where typing:
            if field == .notes {
                if notes.count < 500 && !c.unicodeScalars.contains(where: Validation.isUnsafe) { notes.append(c) }
            } else if timeText.count < 20 {
                timeText.append(c)
            }
        case let .character(c) where field == .amount && (key.digit != nil || c == "."):
            if amountText.count < 5 { amountText.append(c) }
        case .character(" "):
            if field == .triggers { toggle(Trigger.allCases[triggerCursor]) }
            if field == .location {
                location = location == Location.allCases[locationCursor] ? nil : Location.allCases[locationCursor]
            }
        case let .character(c):
            if let digit = key.digit {
                if field == .intensity { intensity = digit == 0 ? 10 : digit }
                if field == .moodAfter { moodAfter = digit == 0 ? 10 : digit }
            } else if field == .method, let index = "bvde".firstIndex(of: c) {
                setMethod(CraveyTracker.Method.allCases["bvde".distance(from: "bvde".startIndex, to: index)])
            }
        default: break
        }
        return .editing
    }

    private mutating func step(_ delta: Int) {
        switch field {
        case .intensity: intensity = min(10, max(1, intensity + delta))
        case .method:
            let all = CraveyTracker.Method.allCases
            setMethod(all[(all.firstIndex(of: method)! + delta + all.count) % all.count])
        case .amount:
            leaveAmount()
            amountText = ""
            amountIndex = min(method.amounts.count - 1, max(0, amountIndex + delta))
        case .triggers: triggerCursor = (triggerCursor + delta + Trigger.allCases.count) % Trigger.allCases.count
        case .location: locationCursor = (locationCursor + delta + Location.allCases.count) % Location.allCases.count
        case .moodAfter: moodAfter = moodAfter.map { min(10, max(1, $0 + delta)) } ?? (delta > 0 ? 1 : nil)
        case .time, .notes: break
        }
    }

    /// A typed amount the method offers becomes the arrows' choice (the field then shows it as
    /// chosen); one it does not offer stays typed, refused, for the person to mend.
    private mutating func leaveAmount() {
        guard !amountText.isEmpty, let typed = try? typedAmount(),
            let index = method.amounts.firstIndex(where: { abs($0 - typed) < 1e-9 })
        else { return }
        amountIndex = index
        amountText = ""
    }

    /// A new method starts at its first amount (`Method.amount(switchingFrom:amount:)`); a number
    /// typed for the old one goes with it.
    private mutating func setMethod(_ new: CraveyTracker.Method) {
        amountText = ""
        let kept = new.amount(switchingFrom: method, amount: amount)
        amountIndex = new.amounts.firstIndex(of: kept) ?? 0
        method = new
    }

    private mutating func toggle(_ trigger: Trigger) {
        if triggers.contains(trigger) { triggers.remove(trigger) } else { triggers.insert(trigger) }
    }

    // MARK: - Drawing

    func lines(width: Int) -> [String] { page(width: width).all }

    /// The form as a page: the title, the fields (the one in focus kept in view), the keys and
    /// what the last Enter could not save.
    func page(width: Int) -> Page {
        let rule = Terminal.dim(String(repeating: "─", count: max(20, min(width - 1, 56))))
        func label(_ text: String, _ f: Field) -> String {
            let marker = field == f ? Terminal.accent("▸ ") : "  "
            return marker + (field == f ? Terminal.bold(text) : text)
        }
        var out: [String] = []
        var starts: [Field: Int] = [:]
        if kind == .craving {
            let band = Intensity.band(intensity)
            starts[.intensity] = out.count
            out.append(
                label("Intensity", .intensity) + "  ◀ " + Self.colour(band, String(intensity)) + " ▶  "
                    + Self.colour(band, band.rawValue)
                    + Terminal.dim("   ←/→ or 1–9, 0 for 10"))
        } else {
            let methods = CraveyTracker.Method.allCases.map {
                ($0 == method ? "●\u{A0}" : "○\u{A0}") + $0.label.replacingOccurrences(of: " ", with: "\u{A0}")
            }.joined(separator: "   ")
            starts[.method] = out.count
            out.append(label("Method", .method) + "  " + methods)
            let shown = amountText.isEmpty ? Method.number(amount) : amountText + (field == .amount ? "▏" : "")
            let range = "\(Method.number(method.amounts.first!))–\(Method.number(method.amounts.last!))"
            let refused = !amountText.isEmpty && (field != .amount || problem != nil) && (try? typedAmount()) == nil
            starts[.amount] = out.count
            out.append(
                label("Amount", .amount) + "  ◀ " + Terminal.bold(shown) + " ▶  (\(method.unit))"
                    + (refused
                        ? Terminal.style("   not an amount of \(method.rawValue): \(range)\(Self.steps(method))", "33")
                        : Terminal.dim("   \(range) · ←/→ or type the number")))
        }
        starts[.time] = out.count
        out.append(
            label("Time", .time) + "  " + (timeText.isEmpty ? "Now" : Terminal.safe(timeText))
                + (field == .time ? Terminal.dim("   type HH:MM, yesterday HH:MM, -30m…") : ""))
        if let typed = try? time(now: LocalClock.now()), let note = LogWords.note(typed, now: LocalClock.now()) {
            out.append("    " + note)
        }
        out.append(rule)
        starts[.triggers] = out.count
        out.append(label("Trigger (optional)", .triggers))
        let chips = Trigger.allCases.enumerated().map { index, trigger in
            Self.heldChip(
                (triggers.contains(trigger) ? "[x] " : "[ ] ") + trigger.label,
                underCursor: field == .triggers && index == triggerCursor)
        }
        out.append("   " + chips.joined(separator: " "))
        starts[.location] = out.count
        out.append(label("Location (optional)", .location))
        out.append(
            "   "
                + Location.allCases.enumerated().map { index, place in
                    Self.heldChip(
                        (location == place ? "(•) " : "( ) ") + place.label,
                        underCursor: field == .location && index == locationCursor)
                }.joined(separator: " "))
        if kind == .use {
            starts[.moodAfter] = out.count
            out.append(
                label("Mood after (optional)", .moodAfter) + "  " + (moodAfter.map { "◀ \($0) ▶" } ?? Terminal.dim("—"))
                    + Terminal.dim("   how do you feel now? 1–10"))
        }
        let counter = notes.count >= 400 ? Terminal.dim("  \(notes.count)/500") : ""
        starts[.notes] = out.count
        out.append(label("Notes (optional)", .notes) + counter)
        out.append("    > " + Terminal.safe(String(notes.suffix(max(10, width - 8)))) + (field == .notes ? "▏" : ""))
        let start = starts[field] ?? 0
        // A field's lines run to the next field's (the chips under their label, a note under the time).
        let end = starts.values.filter { $0 > start }.min() ?? out.count
        var keys = [
            rule,
            Terminal.dim(
                "Enter: save \(kind == .craving ? "craving" : "usage") · ↑/↓ field · ←/→ change · space choose · Esc: close"
            ),
        ]
        if let problem {
            keys += Terminal.wrap(Terminal.safe(problem), width: max(20, width - 1)).map { Terminal.style($0, "33") }
        }
        return Page(
            title: [Terminal.bold(kind == .craving ? "Log Craving" : "Log Usage"), rule], body: out,
            focus: start..<end, keys: keys)
    }

    /// How a method's amounts go, in a few words (the field's line fits 80 columns).
    static func steps(_ method: CraveyTracker.Method) -> String {
        switch method {
        case .bowls: " in halves"
        case .edible: " in fives"
        case .vape, .dab: ""
        }
    }

    /// A chip after its gap: the one under the cursor marked `▸` (seen without colour too) and
    /// drawn reversed.
    static func chip(_ text: String, underCursor: Bool) -> String {
        underCursor ? Terminal.accent("▸") + Terminal.style(text, "7") : " " + text
    }

    /// A chip held together where a page wraps its line (`Page`: a no-break space).
    static func heldChip(_ text: String, underCursor: Bool) -> String {
        chip(text.replacingOccurrences(of: " ", with: "\u{A0}"), underCursor: underCursor)
    }

    static func colour(_ band: Intensity.Band, _ text: String) -> String {
        switch band {
        case .mild: Terminal.style(text, "32")
        case .moderate: Terminal.style(text, "33")
        case .strong: Terminal.style(text, "38;5;208")
        case .overwhelming: Terminal.style(text, "31")
        }
    }
}

/// The forms and the offers after a log, run on the terminal.
enum LogForm {
    /// The craving form; nil when it was closed without logging.
    static func craving() throws -> Tracker.CravingDraft? {
        guard let state = run(LogFormState(kind: .craving)) else { return nil }
        return Tracker.CravingDraft(
            intensity: state.intensity, time: try state.time(now: LocalClock.now()), triggers: state.triggers,
            location: state.location,
            notes: state.notes)
    }

    /// The use form (its time typed as `time`, when given); nil when it was closed without logging.
    static func use(time: String = "") throws -> Tracker.UsageDraft? {
        var start = LogFormState(kind: .use)
        start.timeText = time
        guard let state = run(start) else { return nil }
        return Tracker.UsageDraft(
            method: state.method, amount: try state.typedAmount(), time: try state.time(now: LocalClock.now()),
            triggers: state.triggers,
            location: state.location, notes: state.notes, moodAfter: state.moodAfter)
    }

    /// Runs a form until it saves (a readable time and amount) or closes.
    static func run(_ start: LogFormState) -> LogFormState? {
        var state = start
        let saved = LiveForm.run(page: { state.page(width: Terminal.columns) }) { key -> Bool? in
            switch state.apply(key) {
            case .editing: return nil
            case .close: return false
            case .save:
                do {
                    try state.check(now: LocalClock.now())
                    return true
                } catch {
                    state.problem = "\(error)"
                    return nil
                }
            }
        }
        return saved == true ? state : nil
    }

    /// What the person chose at the offer after a craving.
    enum Offer: Equatable {
        case play(Recording)
        /// Ride the craving out (`cravey ride`, on the craving just logged).
        case ride
    }

    /// After a craving of the last 30 minutes on a terminal (`ride`; an older one is not happening
    /// now): one key plays one of the messages offered (the first three in `Tracker.offerOrder`),
    /// `o` rides that craving out, Enter or Esc: not now. The offer is made with or without
    /// messages (the ride needs none). Any other key is ignored and the offer's keys are shown
    /// again, once. One message a line, each cut to the terminal's width, never wrapped.
    static func offerToPlay(_ top: [Recording], ride: Bool) -> Offer? {
        guard ride, Terminal.stdinIsTerminal else { return nil }
        var reminded = false
        let rank = Prompt.choice(
            playOffer(top, columns: Terminal.columns).map { $0 + "\n" }.joined(), echoing: false,
            key: { key in
                if key.letter == "o" { return -1 }
                if let digit = key.digit, (1...top.count).contains(digit) { return digit }
                if key == .enter || key == .escape { return 0 }
                if !reminded {
                    reminded = true
                    FileHandle.standardError.show(Data((offerKeys(top.count) + "\r\n").utf8))
                }
                return nil
            },
            line: { _ in 0 }, ended: 0)
        return rank < 0 ? .ride : rank > 0 ? .play(top[rank - 1]) : nil
    }

    /// The offer's keys on one line, as shown again after a key that is not one of them.
    static func offerKeys(_ messages: Int) -> String {
        Terminal.dim(
            (messages == 0 ? "" : messages == 1 ? "1 play · " : "1–\(messages) play · ")
                + "o ride it out · Enter not now")
    }

    /// The offer's lines: the question, a line per message (its key, icon and title, cut with …
    /// to fit in `columns`), riding it out, and how to say not now.
    static func playOffer(_ top: [Recording], columns: Int) -> [String] {
        let messages = top.enumerated().map { index, recording in
            let line =
                "  " + Terminal.bold(String(index + 1)) + "  " + Format.icon(recording.kind) + " "
                + Terminal.safe(recording.shownTitle)
            return String(Terminal.fit(line, max(8, columns - 1)).reversed().drop { $0 == " " }.reversed())
        }
        return [top.isEmpty ? "Ride it out now?" : "Play one of your messages?"] + messages + [
            "  " + Terminal.bold("o") + "  🌊 Ride it out", "  " + Terminal.bold("Enter") + "  not now",
        ]
    }

    /// Before a use on a terminal: a craving in the 2 hours before it with no use yet may be the
    /// one it followed. One key: y links them (any other: no).
    static func offerLink(to craving: Craving) -> Bool {
        guard Terminal.stdinIsTerminal else { return false }
        return Prompt.choice(
            "Did this follow your craving at \(String(craving.time.localText.suffix(5))) (intensity \(craving.intensity))?  "
                + "y: link them   Enter: no\n", echoing: false, key: { $0.letter == "y" }, line: { _ in false },
            ended: false)
    }
}
