import CraveyLibrary
import Foundation

/// The private self-screen: the CUDIT-R's eight questions (Adamson et al. 2010), each with its
/// published answers and their scores — items 1–7 score 0–4, item 8 scores 0, 2 or 4, so the
/// total is 0–32. A screen keeps nothing until the eighth answer; then the answers, as scored,
/// are kept under the logs' rules.
public enum SelfScreen {
    /// One question and its answers, each with the score the published key gives it.
    public struct Item: Sendable, Equatable {
        public var question: String
        public var answers: [(text: String, score: Int)]

        public static func == (a: Item, b: Item) -> Bool {
            a.question == b.question && a.answers.map(\.text) == b.answers.map(\.text)
                && a.answers.map(\.score) == b.answers.map(\.score)
        }
    }

    /// What the screen asks about: the last six months.
    public static let preface = "Your cannabis use over the past six months."

    private static let often = ["Never", "Less than monthly", "Monthly", "Weekly", "Daily or almost daily"]
    private static func scored(_ texts: [String]) -> [(text: String, score: Int)] {
        texts.enumerated().map { ($0.element, $0.offset) }
    }

    /// The eight questions, in the published order and words.
    public static let items: [Item] = [
        Item(
            question: "How often do you use cannabis?",
            answers: scored([
                "Never", "Monthly or less", "2-4 times a month", "2-3 times a week", "4 or more times a week",
            ])
        ),
        Item(
            question:
                "How many hours were you \u{201C}stoned\u{201D} on a typical day when you had been using cannabis?",
            answers: scored(["Less than 1", "1 or 2", "3 or 4", "5 or 6", "7 or more"])),
        Item(
            question:
                "How often during the past 6 months did you find that you were not able to stop using cannabis once you had started?",
            answers: scored(often)),
        Item(
            question:
                "How often during the past 6 months did you fail to do what was normally expected from you because of using cannabis?",
            answers: scored(often)),
        Item(
            question:
                "How often in the past 6 months have you devoted a great deal of your time to getting, using, or recovering from cannabis?",
            answers: scored(often)),
        Item(
            question:
                "How often in the past 6 months have you had a problem with your memory or concentration after using cannabis?",
            answers: scored(often)),
        Item(
            question:
                "How often do you use cannabis in situations that could be physically hazardous, such as driving, operating machinery, or caring for children?",
            answers: scored(often)),
        Item(
            question: "Have you ever thought about cutting down, or stopping, your use of cannabis?",
            answers: [("Never", 0), ("Yes, but not in the past 6 months", 2), ("Yes, during the past 6 months", 4)]),
    ]

    /// The highest total: 7 items of 4 and item 8's 4.
    public static let highest = 32

    /// The published bands, said only when asked what the number means.
    public static let hazardousFrom = 8
    public static let possibleDisorderFrom = 12
    public static let possibleDisorderInCommunityFrom = 13

    /// The scores typed as "0,1,2,0,0,1,0,2": eight, each one its item's scores; or a one-line
    /// refusal (nothing is kept).
    public static func answers(parsing text: String) throws -> [Int] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == items.count else {
            throw TrackerError.invalid(
                field: "answers",
                reason:
                    "give 8 scores, one for each question, separated by commas (e.g. 0,1,2,0,0,1,0,2); \(parts.count == 1 && parts[0].isEmpty ? "none was" : parts.count == 1 ? "1 was" : "\(parts.count) were") given"
            )
        }
        return try parts.enumerated().map { index, part in
            let scores = items[index].answers.map(\.score)
            guard let value = Int(part), scores.contains(value) else {
                let allowed = index == 7 ? "0, 2 or 4" : "0 to 4"
                let shown = String(
                    String.UnicodeScalarView(part.unicodeScalars.filter { (0x21..<0x7F).contains($0.value) }.prefix(12))
                )
                throw TrackerError.invalid(
                    field: "answers", reason: "question \(index + 1)'s score is \(allowed), not '\(shown)'")
            }
            return value
        }
    }

    /// The total of answers already held to their items' scores.
    public static func score(_ answers: [Int]) -> Int { answers.reduce(0, +) }
}

/// A self-screen taken: when, its answers as scored, its total.
public struct SelfScreenTaken: Sendable, Equatable, Encodable {
    public var id: String
    public var takenAt: Date
    public var answers: [Int]
    public var score: Int

    private enum Key: String, CodingKey { case id, localTime, answers, score }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(id, forKey: .id)
        try c.encode(LogTime(takenAt).localText, forKey: .localTime)
        try c.encode(answers, forKey: .answers)
        try c.encode(score, forKey: .score)
    }
}

/// The words of a self-screen: the score and its trend, calm; what the number means, only when asked.
public enum SelfScreenWords {
    /// "Your score: 9 of 32."
    public static func score(_ taken: SelfScreenTaken) -> String {
        "Your score: \(taken.score) of \(SelfScreen.highest)."
    }

    /// The trend against the screens before: "The first time you took it." or "Last time (Oct
    /// 29): 12. The times before: 14, 13." — the numbers, lower and higher named plainly.
    public static func trend(_ screens: [SelfScreenTaken]) -> String {
        guard let last = screens.last else { return "" }
        let before = screens.dropLast()
        guard let previous = before.last else { return "The first time you took it; the next ones will show a trend." }
        let day = LocalDay(previous.takenAt, in: .current).short
        let change =
            last.score < previous.score
            ? "\(previous.score - last.score) lower than"
            : last.score > previous.score ? "\(last.score - previous.score) higher than" : "the same as"
        var words = "That is \(change) last time (\(day): \(previous.score))."
        let older = before.dropLast().suffix(4).map { String($0.score) }
        if !older.isEmpty { words += " Before that: \(older.reversed().joined(separator: ", "))." }
        return words
    }

    /// What the number means, when asked: the published bands, and that it is not a diagnosis.
    public static func meaning(_ score: Int) -> [String] {
        [
            "The CUDIT-R's authors published these bands: \(SelfScreen.hazardousFrom) or more suggests hazardous use; "
                + "\(SelfScreen.possibleDisorderFrom) or more, a possible cannabis use disorder "
                + "(\(SelfScreen.possibleDisorderInCommunityFrom) or more in community samples, Bruno et al.).",
            "Your \(score) is "
                + (score >= SelfScreen.possibleDisorderFrom
                    ? "in the band of \(SelfScreen.possibleDisorderFrom) or more."
                    : score >= SelfScreen.hazardousFrom
                        ? "in the band of \(SelfScreen.hazardousFrom) or more."
                        : "below \(SelfScreen.hazardousFrom)."),
            notADiagnosis,
        ]
    }

    public static let notADiagnosis = "This is not a diagnosis; a clinician can tell you more."

    /// The report's section (only with --with-screen): the source, then each screen of the period.
    public static let reportTitle = "Self-screen (CUDIT-R)"
    public static func reportLines(_ screens: [SelfScreenTaken]) -> [String] {
        ["CUDIT-R (Adamson et al. 2010): 8 questions, total 0–32; taken privately and shared by the person."]
            + (screens.isEmpty
                ? ["No self-screen was taken in this period."]
                : screens.map { "\(LogTime($0.takenAt).localText): \($0.score) of \(SelfScreen.highest)" })
    }

    /// Home's note once, after the first run: the screen is there, never asked for.
    public static let offer =
        "When you like, a private self-screen is here: 8 questions, about 2 minutes, only for you. "
        + "s\u{A0}then\u{A0}s takes it; nothing else is needed."

    /// Home's quiet note once the reminder is due (its key held to its words).
    public static let reminder =
        "It has been 4 weeks since your last self-screen. s\u{A0}then\u{A0}s takes it   x\u{A0}not\u{A0}now"
}

extension Tracker {
    /// The days after the last self-screen (or after the reminder was turned on, or put away)
    /// when home's quiet reminder comes, if it is on.
    public static let selfScreenReminderDays = 28

    /// The self-screens taken from `from` to `to` (local days, both counted), oldest first.
    public func selfScreens(from: LocalDay, to: LocalDay) throws -> [SelfScreenTaken] {
        try selfScreens().filter { (from...to).contains(LocalDay($0.takenAt, in: .current)) }
    }

    /// Every self-screen taken, oldest first (one stored with a time cravey cannot read is left out).
    public func selfScreens() throws -> [SelfScreenTaken] {
        try library.selfScreens().compactMap { row in
            guard let at = StoredDate.date(row.takenAt) else { return nil }
            let answers = row.answers.split(separator: ",").compactMap { Int($0) }
            return SelfScreenTaken(id: row.id, takenAt: at, answers: answers, score: row.score)
        }
    }

    /// Keeps a self-screen of `answers` (held to the published key first: a refusal keeps nothing).
    @discardableResult
    public func takeSelfScreen(_ answers: [Int], now: Date) throws -> SelfScreenTaken {
        _ = try SelfScreen.answers(parsing: answers.map(String.init).joined(separator: ","))
        let row = try library.saveSelfScreen(answers: answers, at: now)
        return SelfScreenTaken(id: row.id, takenAt: now, answers: answers, score: row.score)
    }

    /// Whether the 4-week reminder is on.
    public func selfScreenReminderOn() throws -> Bool { try library.setting(.screenReminder) != nil }

    /// Turns the reminder on (counting its 4 weeks from now when no screen was taken) or off.
    public func setSelfScreenReminder(_ on: Bool, now: Date) throws {
        if on, try selfScreenReminderOn() { return }
        try library.setSetting(.screenReminder, to: on ? StoredDate.text(now) : nil)
        if !on { try library.setSetting(.screenReminderDismissed, to: nil) }
    }

    /// Whether home shows the reminder: it is on, and 28 days have passed since the last screen,
    /// the moment it was turned on, and the last time it was put away, whichever is latest.
    public func selfScreenReminderDue(now: Date) throws -> Bool {
        guard let on = try library.setting(.screenReminder).flatMap(StoredDate.date) else { return false }
        let since =
            [
                on, try library.setting(.screenReminderDismissed).flatMap(StoredDate.date),
                try selfScreens().last?.takenAt,
            ].compactMap { $0 }.max() ?? on
        return LocalDay(now, in: .current) - LocalDay(since, in: .current) >= Self.selfScreenReminderDays
    }

    /// Puts home's reminder away for another 4 weeks.
    public func dismissSelfScreenReminder(now: Date) throws {
        try library.setSetting(.screenReminderDismissed, to: StoredDate.text(now))
    }
}
