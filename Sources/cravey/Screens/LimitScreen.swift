import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

/// Limits on a terminal, from home (`l`, for cutting down and harm reduction) and settings
/// (`l`): the limits shown, `b` adds a break window, `d` and its number removes one, `w` sets the
/// weekly target, `h` the use planned for, `x` clears them; each runs `LimitFlow`, as `cravey
/// limit` does. Esc goes back. Home's `u` in a break window asks first, once, here.
struct LimitScreen {
    let session: Session
    let screen: FullScreen
    var library: Library { session.library }

    /// Home's key while limits are offered ("l 🧭 Limits   "), "" otherwise.
    static func homeKey(_ progress: ProgressFigures, _ lib: Library) -> String {
        let anyGoal = (try? lib.setting(.limitOffer)) == Tracker.anyGoalLimits
        guard Tracker.limitsFit(goal: progress.goal, anyGoal: anyGoal) else { return "" }
        return Terminal.bold("l") + " 🧭\u{A0}Limits   "
    }

    /// Settings' entry, beside the plans' row: what is set, and the key that opens them
    /// ("LIMITS  l  none yet", "LIMITS  l  2 windows · a target").
    static func settingsRow(_ lib: Library) throws -> String {
        let limits = try Tracker(library: lib).limits()
        let set = [
            limits.breaks.isEmpty ? nil : limits.breaks.count == 1 ? "1 window" : "\(limits.breaks.count) windows",
            limits.week == nil ? nil : "a target", limits.planned == nil ? nil : "a plan",
        ].compactMap { $0 }
        return Terminal.dim("LIMITS") + "  " + Terminal.bold("l") + "  "
            + (set.isEmpty ? "none yet" : set.joined(separator: " · ")).replacingOccurrences(of: " ", with: "\u{A0}")
    }

    /// Home's `l`: the screen while limits are offered; else the one line of how to have them.
    static func fromHome(session: Session, screen: FullScreen) -> String? {
        guard (try? Tracker(library: session.library).limitsOffered()) == true else {
            return
                "Limits are for cutting down and harm reduction ('cravey limit --offer any-goal' offers them always)."
        }
        return LimitScreen(session: session, screen: screen).run()
    }

    /// Settings' `l`: the screen while limits are offered (nil otherwise: the key is not shown).
    static func fromSettings(session: Session, screen: FullScreen) throws -> String? {
        guard try Tracker(library: session.library).limitsOffered() else { return nil }
        return LimitScreen(session: session, screen: screen).run()
    }

    /// The limits as a page: the windows numbered, the target, the planned use, the keys.
    static func page(_ limits: Limits, toast: String?) -> Page {
        let keys =
            [
                Terminal.bold("b") + "\u{A0}add\u{A0}a\u{A0}break\u{A0}window",
                limits.breaks.isEmpty ? nil : Terminal.bold("d") + "\u{A0}remove\u{A0}one",
                Terminal.bold("w") + "\u{A0}weekly\u{A0}target", Terminal.bold("h") + "\u{A0}planned\u{A0}use",
                limits.isEmpty ? nil : Terminal.bold("x") + "\u{A0}clear", Terminal.bold("Esc") + "\u{A0}back",
            ].compactMap { $0 }.joined(separator: "   ")
        return Page(
            title: [Terminal.bold("🧭 Limits") + "   " + Terminal.dim("they ask, never block"), ""],
            body: LimitFlow.lines(limits).map(Terminal.safe), focusLine: 0,
            keys: ["", "  " + keys, HelpNow.line(logs: false)] + (toast.map { [Terminal.accent($0)] } ?? []))
    }

    /// Runs until Esc; returns the note for the screen it was opened from.
    func run() -> String? {
        var toast: String?
        var scroll = PageScroll()
        let help = HelpNow(screen: screen, session: session)
        while true {
            let limits = (try? Tracker(library: library).limits()) ?? Limits()
            let shown = Self.page(limits, toast: toast)
            let key = screen.ask(scroll.apply(to: shown))
            if scroll.move(key, over: shown) { continue }
            toast = nil
            do {
                switch key.letter {
                case "b":
                    toast = try typed("A break window, HH:MM-HH:MM (it may cross midnight)", "21:00-23:00").map {
                        try LimitFlow.addBreak($0, in: library, now: session.now())
                    }
                case "d": toast = try remove(limits)
                case "w":
                    toast = try typed("Days of use a week (0–6), or amounts a week: vape=20 dab=2", "3").map {
                        let days = $0.allSatisfy(\.isNumber) ? $0 : nil
                        let target = try LimitFlow.target(days: days, amounts: days == nil ? [$0] : [])
                        return try LimitFlow.setTarget(target, in: library, now: session.now())
                    }
                case "h": toast = try planned()
                case "x" where !limits.isEmpty: toast = try clear()
                default:
                    if key.isQuit || key == .inputEnded { return nil }
                    toast = try help(key)
                }
            } catch {
                toast = OffScreen.note(failed: error)
            }
            if screen.closed { return nil }
        }
    }

    /// One typed line under `question` (nil: Esc or nothing typed).
    private func typed(_ question: String, _ example: String) -> String? {
        let line = screen.readLine(
            limit: 60,
            fitting: { text in
                Page(
                    title: [Terminal.bold("🧭 Limits") + "   " + Terminal.dim(question), ""],
                    body: [Terminal.dim("for example " + example), "", "  › " + Terminal.safe(text) + "▏"],
                    focusLine: 2,
                    keys: ["", "  " + Terminal.bold("Enter") + "\u{A0}keep   " + Terminal.bold("Esc") + "\u{A0}back"])
            })
        let trimmed = line?.trimmingCharacters(in: .whitespaces) ?? ""
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `h`: the methods, the amount a day and the hours, one line each; its note (nil: Esc).
    private func planned() throws -> String? {
        guard let methods = typed("Planned use: which methods? (bowls, vape, dab, edible)", "vape,edible"),
            let perDay = typed("At most how much of a method a day, in its unit?", "3"),
            let hours = typed("In which hours? HH-HH (it may cross midnight)", "18-23")
        else { return nil }
        return try LimitFlow.setPlanned(
            try PlannedUse(methods: methods, perDay: perDay, hours: hours), in: library, now: session.now())
    }

    /// `d`, then the window's number: it is removed; its note (nil: another key).
    private func remove(_ limits: Limits) throws -> String? {
        guard !limits.breaks.isEmpty else { return nil }
        let key = screen.ask(
            Page(
                title: [Terminal.bold("🧭 Remove a break window"), ""],
                body: limits.breaks.enumerated().map { "  \($0.offset + 1)  \($0.element.text)" },
                keys: [
                    "",
                    "  " + Terminal.bold(limits.breaks.count == 1 ? "1" : "1–\(limits.breaks.count)")
                        + "\u{A0}remove\u{A0}it   " + Terminal.bold("Esc") + "\u{A0}keep\u{A0}them\u{A0}all",
                ]))
        guard let digit = key.digit, (1...limits.breaks.count).contains(digit) else { return nil }
        return try LimitFlow.removeBreak(digit, in: library)
    }

    /// `x`, then `y`: every limit cleared; its note (nil: another key).
    private func clear() throws -> String? {
        let key = screen.ask(
            Page(
                title: [Terminal.bold("🧭 Clear your limits?"), ""],
                body: ["Break windows, the weekly target and the planned use all go. Your logs stay."],
                keys: [
                    "", "  " + Terminal.bold("y") + "\u{A0}clear\u{A0}them   " + Terminal.bold("Esc") + "\u{A0}keep",
                ]))
        guard key.letter == "y" else { return nil }
        return try LimitFlow.clear(.all, in: library)
    }

    // MARK: - The break window's question

    /// The question as a page: the title, the question, its keys.
    static func questionPage(_ window: BreakWindow) -> Page {
        Page(
            title: [Terminal.bold("🧭 A break hour") + "   " + Terminal.dim(window.text), ""],
            body: [LimitFlow.question(window)], focusLine: 0,
            keys: ["", "  " + LimitFlow.keysLine(Terminal.bold)])
    }

    /// Home's `u` in a break window: the question, once; `o` rides it out and `p` plays the
    /// first of Quick Play's messages on home's screen, each with home's note; nil when the use
    /// goes on to its form (not in a window, or the person went on).
    func askAtBreak(top: [Recording]) -> String? {
        guard let window = LimitFlow.window(at: session.now(), in: library) else { return nil }
        var answer: LimitFlow.BreakAnswer?
        while answer == nil { answer = LimitFlow.answer(screen.ask(Self.questionPage(window))) }
        let home = Home(session: session, screen: screen)
        let after = "The use was not logged: u logs it whenever you want."
        switch answer! {
        case .goOn: return nil
        case .back: return "Nothing was logged."
        case .ride:
            let ridden = home.ride()
            return ridden == "Nothing was logged." ? ridden : [ridden, after].compactMap { $0 }.joined(separator: "  ")
        case .message:
            guard !top.isEmpty else { return FirstRun.noMessages }
            do {
                return [try home.perform(.play(1), lib: library, top: top), after].compactMap { $0 }.joined(
                    separator: "  ")
            } catch {
                return OffScreen.note(failed: error)
            }
        }
    }
}
