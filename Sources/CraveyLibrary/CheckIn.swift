import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A daily check-in: one short spoken entry for a local calendar day, with the day's mood and
/// prompt. It is stored as a recording (same files, same atomic rules) marked with its day, and
/// kept apart from the messages: listings of messages never include it.
public struct CheckIn: Sendable, Equatable {
    /// How the day feels, overall; from low to amazing.
    public enum Mood: String, Sendable, CaseIterable, Codable {
        case low, down, okay, happy, amazing

        /// "Low", "Down", …
        public var label: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

        /// The mood from its name (any case) or its place, 1–5.
        public init?(text: String) {
            let key = text.trimmingCharacters(in: .whitespaces).lowercased()
            if let number = Int(key), (1...5).contains(number) {
                self = Self.allCases[number - 1]
            } else if let mood = Mood(rawValue: key) {
                self = mood
            } else {
                return nil
            }
        }
    }

    /// The local day, `YYYY-MM-DD`: the day the recording started.
    public var day: String
    public var mood: Mood
    /// The day's question, as it was shown.
    public var prompt: String?

    public init(day: String, mood: Mood, prompt: String?) {
        self.day = day
        self.mood = mood
        self.prompt = prompt
    }

    /// The calm, open questions a day's check-in asks (one a day). None asks for a score or an
    /// explanation; each can be answered with a sentence; none names a time of day, since the
    /// day's question is the same from morning to night.
    public static let prompts = [
        "What stayed with you today?",
        "What is one thing you are glad you did today?",
        "What felt heavy today, and what felt light?",
        "Who did you think about today?",
        "What gave you a little energy today?",
        "What did you notice today that you usually miss?",
        "What are you looking forward to, even a little?",
        "What was the quietest moment of your day?",
        "What would you tell a friend who had your day?",
        "What did your body need today?",
        "What made you smile, even briefly?",
        "What was harder than expected today?",
        "What was easier than expected today?",
        "What is on your mind right now?",
        "Where did you feel most like yourself today?",
        "What small thing went right today?",
        "What would make tomorrow a little kinder?",
        "What did you learn about yourself today?",
        "What sound, smell or sight do you remember from today?",
        "What did you say no to, or wish you had?",
        "Who helped you today, even without knowing it?",
        "What are you proud of, however small?",
        "What would you like to remember about this week?",
        "How did you look after yourself today?",
        "What surprised you today?",
        "What do you want to carry into tomorrow?",
        "What was a moment of calm today?",
        "If today had a colour, what would it be, and why?",
        "What would you like to let go of?",
        "What are you grateful for right now?",
    ]

    /// The local calendar day of `date`, `YYYY-MM-DD`.
    public static func day(of date: Date) -> String { LocalDay(date, in: .current).text }

    /// The hour (0–23) of `date` in local time.
    public static func localHour(of date: Date) -> Int { localCalendar.component(.hour, from: date) }

    /// The one calendar cravey counts days and times by: Gregorian, in `timeZone`.
    public static func calendar(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// The calendar in the local time zone (TZ).
    public static var localCalendar: Calendar { calendar(in: .current) }

    /// "Saturday, 21 November": how a day is shown to people.
    public static func displayDay(_ day: String) -> String {
        guard let local = LocalDay(parsing: day) else { return day }
        let (_, month, dayOfMonth) = local.civil
        return "\(LocalDay.weekdayNames[local.weekday]), \(dayOfMonth) \(monthNames[month - 1])"
    }

    public static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December",
    ]
}

extension Validation {
    /// A check-in day given by the user: a real `YYYY-MM-DD` date, not after `today`.
    public static func checkInDay(_ text: String, today: String) throws -> String {
        let day = text.trimmingCharacters(in: .whitespaces)
        _ = try LocalDay.parse(day, field: "date")
        guard day <= today else {
            throw LibraryError.invalid(
                field: "date",
                reason: "\(day) is in the future (today is \(today)); a check-in is for today or a day that has passed")
        }
        return day
    }

    /// A mood given by the user: its name or its place (1–5).
    public static func mood(_ text: String) throws -> CheckIn.Mood {
        guard let mood = CheckIn.Mood(text: text) else {
            throw LibraryError.invalid(
                field: "mood", reason: "'\(text.prefix(40))' is not one of low, down, okay, happy, amazing")
        }
        return mood
    }

    /// The name shown in the check-in's greeting: 1–40 characters, no control characters.
    public static func name(_ text: String) throws -> String {
        let name = text.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 40 else {
            throw LibraryError.invalid(field: "name", reason: "must be 1 to 40 characters")
        }
        guard !name.unicodeScalars.contains(where: isUnsafe) else {
            throw LibraryError.invalid(field: "name", reason: "must not contain control characters")
        }
        return name
    }
}
