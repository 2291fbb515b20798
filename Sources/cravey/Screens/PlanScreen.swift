import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

/// If-then plans on a terminal, from home (`i`) and settings (`i`): the plans listed, `a` adds
/// one in a few steps (the trigger, a place, an hour, what instead, a message), `d` and its
/// number removes one. Every step runs `PlanFlow`, as `cravey plan` does; Esc goes back.
struct PlanScreen {
    let session: Session
    let screen: FullScreen
    var library: Library { session.library }

    /// Settings' row: how many plans there are, and the key that opens them.
    static func settingsRow(_ lib: Library) throws -> String {
        let count = try lib.plans().count
        return Terminal.dim("PLANS") + "  " + Terminal.bold("i") + "  "
            + (count == 0 ? "none yet — i makes one for a trigger" : "\(count) of \(Library.maxPlans)")
    }

    /// The plans as a page: a line each, numbered, and the keys.
    static func page(_ plans: [PlanShown], toast: String?) -> Page {
        let body =
            plans.isEmpty
            ? [
                "No plans yet. A plan says what you'll do instead when a trigger comes —",
                "\"If I'm bored after dinner, then I walk round the block.\"",
            ]
            : plans.enumerated().map { PlanWords.line($0.offset + 1, $0.element) }
        let add = plans.count < Library.maxPlans ? Terminal.bold("a") + "\u{A0}add   " : ""
        let remove = plans.isEmpty ? "" : Terminal.bold("d") + "\u{A0}remove\u{A0}one   "
        return Page(
            title: [Terminal.bold("📝 Plans") + "   " + Terminal.dim("if a trigger comes, then…"), ""], body: body,
            keys: ["", "  " + add + remove + Terminal.bold("Esc") + "\u{A0}back", HelpNow.line(logs: false)]
                + (toast.map { [Terminal.accent($0)] } ?? []))
    }

    /// Runs until Esc; returns the note for the screen it was opened from.
    func run(adding suggestion: PlanSuggestion? = nil) throws -> String? {
        var toast: String?
        var scroll = PageScroll()
        let help = HelpNow(screen: screen, session: session)
        if let suggestion { toast = try add(suggestion) }
        while true {
            let shown = Self.page(try PlanFlow.list(in: library), toast: toast)
            let key = screen.ask(scroll.apply(to: shown))
            if scroll.move(key, over: shown) { continue }
            toast = nil
            switch key.letter {
            case "a": toast = try add(nil)
            case "d": toast = try remove()
            default:
                if key.isQuit || key == .inputEnded { return nil }
                toast = try help(key)
            }
            if screen.closed { return nil }
        }
    }

    /// Home's answer to its suggestion: `i` makes a plan for that trigger and hour, `x` puts the
    /// suggestion away for the week — each with home's note (nil: none); nil for any other key
    /// (home takes it as always).
    func answer(_ key: Key, to suggestion: PlanSuggestion) throws -> String?? {
        switch key.letter {
        case "i": return .some(try run(adding: suggestion))
        case "x":
            try Tracker(library: library).dismissPlanSuggestion(now: session.now())
            return "I won't suggest it again this week. Plans are one key away: i."
        default: return nil
        }
    }

    /// The suggestion home shows now (nil: none, or it cannot be read now: home goes on without).
    static func suggestion(_ lib: Library, now: Date) -> PlanSuggestion? {
        (try? Tracker(library: lib).planSuggestion(now: now)) ?? nil
    }

    // MARK: - Steps

    /// One step's page: the question, its choices or what is typed, and its keys.
    private func step(_ question: String, _ lines: [String], keys: String, focus: Int? = nil) -> Page {
        Page(
            title: [Terminal.bold("📝 New plan") + "   " + Terminal.dim(question), ""], body: lines,
            focusLine: focus, keys: ["", "  " + keys])
    }

    /// Numbered choices in two columns (1–9, then 0 for the tenth).
    private static func columns(_ labels: [String]) -> [String] {
        let half = (labels.count + 1) / 2
        return (0..<half).map { row in
            func cell(_ index: Int) -> String {
                Terminal.bold(String((index + 1) % 10)) + " "
                    + labels[index].padding(
                        toLength: 16, withPad: " ", startingAt: 0)
            }
            return "  " + cell(row) + (row + half < labels.count ? "  " + cell(row + half) : "")
        }
    }

    /// The number a key chooses of `count` (0 is the tenth); nil for another key.
    private static func chosen(_ key: Key, of count: Int) -> Int? {
        guard let digit = key.digit else { return nil }
        let index = digit == 0 ? 9 : digit - 1
        return index < count ? index : nil
    }

    /// The steps of a new plan, then the plan kept; its note (nil: Esc, nothing kept).
    private func add(_ suggestion: PlanSuggestion?) throws -> String? {
        guard try PlanFlow.list(in: library).count < Library.maxPlans else { return PlanWords.full }
        let triggers = Trigger.allCases
        let trigger: Trigger
        if let suggested = suggestion?.trigger {
            trigger = suggested
        } else {
            let key = screen.ask(
                step(
                    "If this comes…", Self.columns(triggers.map(\.label)),
                    keys: Terminal.bold("1–9,\u{A0}0") + "\u{A0}trigger   " + Terminal.bold("Esc") + "\u{A0}back"))
            guard let index = Self.chosen(key, of: triggers.count) else { return nil }
            trigger = triggers[index]
        }
        let places = Location.allCases
        let placeKey = screen.ask(
            step(
                "Only at one place?", Self.columns(places.map(\.label)),
                keys: Terminal.bold("1–5") + "\u{A0}place   " + Terminal.bold("Enter") + "\u{A0}anywhere   "
                    + Terminal.bold("Esc") + "\u{A0}back"))
        if placeKey.isQuit || placeKey == .inputEnded { return nil }
        let place = Self.chosen(placeKey, of: places.count).map { places[$0].rawValue }
        guard
            let hour = typed(
                "Only at one hour of the day?", field: "The hour", hint: "0–23; empty: any time", limit: 5,
                initial: suggestion.map { String($0.hour) } ?? "",
                check: { if !$0.isEmpty { _ = try PlanFlow.hour($0) } })
        else { return nil }
        guard
            let instead = typed(
                "Then I will…", field: "What you'll do instead",
                hint: "one sentence, at most \(Validation.maxPlanLength) characters",
                limit: Validation.maxPlanLength, initial: "", check: { _ = try PlanFlow.sentence($0) })
        else { return nil }
        let messages = Array(try Tracker(library: library).offerOrder(for: [trigger], now: session.now()).prefix(9))
        var message: String?
        if !messages.isEmpty {
            let key = screen.ask(
                step(
                    "And play one of your messages?",
                    messages.enumerated().map {
                        "  " + Terminal.bold(String($0.offset + 1)) + "  " + Format.icon($0.element.kind) + " "
                            + $0.element.shownTitle
                    },
                    keys: Terminal.bold("1–\(messages.count)") + "\u{A0}play\u{A0}it   " + Terminal.bold("Enter")
                        + "\u{A0}none   " + Terminal.bold("Esc") + "\u{A0}back"))
            if key.isQuit || key == .inputEnded { return nil }
            message = Self.chosen(key, of: messages.count).map { messages[$0].id.uuidString }
        }
        do {
            let draft = try PlanFlow.draft(
                trigger: trigger.rawValue, place: place, hour: hour.isEmpty ? nil : hour, instead: instead,
                message: message, in: library)
            let shown = try PlanFlow.add(draft, in: library, now: session.now())
            let number = try PlanFlow.list(in: library).firstIndex { $0.plan.id == shown.plan.id } ?? 0
            return PlanWords.added(shown, number: number + 1)
        } catch {
            return OffScreen.note(failed: error)
        }
    }

    /// A line typed for one step, checked by `check` as it is entered (its refusal shown under
    /// it in the form's words, `field` for what was typed, to be typed again); nil: Esc.
    private func typed(
        _ question: String, field: String, hint: String, limit: Int, initial: String,
        check: (String) throws -> Void
    ) -> String? {
        var problem: String?
        var text = initial
        while true {
            let key = screen.askTyping(page: {
                let width = max(20, Terminal.columns - 8)
                return step(
                    question,
                    [
                        Terminal.dim(hint), "", "  › " + Terminal.safe(String(text.suffix(width))) + "▏", "",
                        problem.map { "  " + Terminal.safe($0) } ?? "",
                    ], keys: Terminal.bold("Enter") + "\u{A0}next   " + Terminal.bold("Esc") + "\u{A0}back",
                    focus: 2)
            })
            problem = nil
            guard let ended = key.edit(&text, limit: limit) else { continue }
            guard ended else { return nil }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            do {
                try check(trimmed)
                return trimmed
            } catch {
                problem = Self.refusal(error, field: field)
            }
        }
    }

    /// A step's refusal in the form's words: "What you'll do instead: …" where a command names
    /// its flag.
    static func refusal(_ error: Error, field: String) -> String {
        switch error {
        case let TrackerError.invalid(_, reason), let LibraryError.invalid(_, reason): "\(field): \(reason)"
        default: Problem.of(error)?.message ?? "\(error)"
        }
    }

    /// `d`, then the plan's number, or the plan chosen with ↑/↓ and Enter: it is removed; its
    /// note (nil: Esc or another key).
    private func remove() throws -> String? {
        let plans = try PlanFlow.list(in: library)
        guard !plans.isEmpty else { return nil }
        var list = ScrollingList(count: plans.count)
        while true {
            let key = screen.ask(page: { Self.removing(plans, chosen: list.selected) })
            if list.move(key, visible: max(1, Terminal.rows - 6)) { continue }
            guard let index = key == .enter ? list.selected : Self.chosen(key, of: plans.count) else { return nil }
            let plan = try PlanFlow.remove(index + 1, in: library)
            return "Removed the plan for \(Terminal.safe(plan.when))."
        }
    }

    /// The plans to remove one of, the chosen one marked and kept in view (the list scrolls to
    /// it), and the keys.
    static func removing(_ plans: [PlanShown], chosen: Int) -> Page {
        var body: [String] = []
        var focus = 0..<0
        for (index, shown) in plans.enumerated() {
            let line = PlanWords.line(index + 1, shown)
            if index == chosen { focus = body.count..<(body.count + 1) }
            body.append(index == chosen ? Terminal.accent("▸") + Terminal.bold(line) : " " + line)
        }
        let numbers = plans.count == 1 ? "1" : plans.count == 10 ? "1–9,\u{A0}0" : "1–\(plans.count)"
        return Page(
            title: [Terminal.bold("📝 Remove a plan"), ""], body: body, focus: focus,
            keys: [
                "",
                "  " + Terminal.bold(numbers) + "\u{A0}remove\u{A0}it   " + Terminal.bold("↑/↓\u{A0}Enter")
                    + "\u{A0}the\u{A0}one\u{A0}marked   " + Terminal.bold("Esc") + "\u{A0}keep\u{A0}them\u{A0}all",
            ])
    }
}
