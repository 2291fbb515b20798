import FoundationEssentials
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// The library's limits, checked in one place: titles, notes, purposes, durations and the paths rows may hold.
public enum Validation {
    public static let maxTitleLength = 40
    public static let maxNotesLength = 200
    public static let maxDuration: Double = 120

    /// The most Unicode scalars a title may hold: the table's own CHECK (`length(title) <= 400`,
    /// which counts code points). With at most 4 bytes each, a title is at most 1,600 bytes of UTF-8.
    public static let maxTitleScalars = 400
    /// The most Unicode scalars in notes (at most 8,000 bytes of UTF-8).
    public static let maxNotesScalars = 2000

    /// A title as it will be stored: trimmed; blank becomes the automatic title for `date`.
    /// Lengths count user-perceived characters (an emoji with modifiers or a letter with
    /// combining marks is one), and the scalars behind them are bounded too, so a "character"
    /// of 500 combining marks cannot pass here and fail in the table later.
    public static func title(_ raw: String?, createdAt date: Date) throws -> String {
        let trimmed = (raw ?? "").trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return automaticTitle(for: date) }
        if let bad = trimmed.unicodeScalars.first(where: isUnsafe) {
            throw LibraryError.invalid(field: "title", reason: "\(describe(bad)) is not allowed")
        }
        guard trimmed.count <= maxTitleLength else {
            throw LibraryError.invalid(
                field: "title", reason: "\(trimmed.count) characters; at most \(maxTitleLength) are allowed")
        }
        guard trimmed.unicodeScalars.count <= maxTitleScalars else {
            throw LibraryError.invalid(
                field: "title",
                reason:
                    "too many combining marks (\(trimmed.unicodeScalars.count) code points; at most \(maxTitleScalars))"
            )
        }
        return trimmed
    }

    /// A title made from a name nobody typed as one (an imported file's name): the characters a
    /// typed title is refused for are left out, and it is cut to the title's limits. Blank when
    /// nothing is left (the automatic title for the date is used then).
    public static func automaticTitle(from name: String) -> String {
        let kept = String(String.UnicodeScalarView(name.unicodeScalars.filter { !isUnsafe($0) }))
        var title = String(kept.trimmingCharacters(in: .whitespaces).prefix(maxTitleLength))
        while title.unicodeScalars.count > maxTitleScalars { title.removeLast() }
        return title.trimmingCharacters(in: .whitespaces)
    }

    /// Notes as stored: nil when blank; at most 200 characters; newlines and tabs allowed.
    public static func notes(_ raw: String?) throws -> String? {
        guard let raw, !raw.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        if let bad = raw.unicodeScalars.first(where: { isUnsafe($0) && $0 != "\n" && $0 != "\t" }) {
            throw LibraryError.invalid(field: "notes", reason: "\(describe(bad)) is not allowed")
        }
        guard raw.count <= maxNotesLength else {
            throw LibraryError.invalid(
                field: "notes", reason: "\(raw.count) characters; at most \(maxNotesLength) are allowed")
        }
        guard raw.unicodeScalars.count <= maxNotesScalars else {
            throw LibraryError.invalid(
                field: "notes",
                reason: "too many combining marks (\(raw.unicodeScalars.count) code points; at most \(maxNotesScalars))"
            )
        }
        return raw
    }

    /// Characters that could change how a terminal shows text: control characters (C0, DEL,
    /// C1 — escape sequences start with them), line and paragraph separators, bidirectional
    /// overrides and isolates (which reorder what is displayed), and invisible zero-width
    /// characters. They are refused in titles and notes and never printed raw.
    /// (Spelled out rather than looked up: the control category is exactly C0, DEL and C1, and
    /// the separator categories exactly U+2028 and U+2029; listings check every character.)
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: return true  // C0, DEL, C1
        case 0x20..<0x7F: return false
        case 0x061C, 0x200B, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2060, 0x2066...0x2069, 0xFEFF:
            return true
        default: return false
        }
    }

    static func describe(_ scalar: Unicode.Scalar) -> String {
        let code =
            "U+" + String(repeating: "0", count: max(0, 4 - String(scalar.value, radix: 16).count))
            + String(scalar.value, radix: 16, uppercase: true)
        return scalar.properties.generalCategory == .control
            ? "control character \(code)" : "invisible or direction-changing character \(code)"
    }

    /// A purpose name, or nil for none; unknown names are refused with the list of known ones.
    /// A purpose by its word (`craving`), its name (`During Craving`) or its place in the list (1–4).
    public static func purpose(_ raw: String?) throws -> Recording.Purpose? {
        guard let raw, !raw.isEmpty else { return nil }
        let key = raw.trimmingCharacters(in: .whitespaces).lowercased()
        let all = Recording.Purpose.allCases
        if let found = Recording.Purpose(rawValue: key) ?? all.first(where: { $0.name.lowercased() == key }) {
            return found
        }
        if let number = Int(key), (1...all.count).contains(number) { return all[number - 1] }
        let known = all.map(\.rawValue).joined(separator: ", ")
        throw LibraryError.invalid(field: "purpose", reason: "'\(raw)' is not one of \(known)")
    }

    public static func kind(_ raw: String) throws -> Recording.Kind {
        guard let kind = Recording.Kind(rawValue: raw.lowercased()) else {
            throw LibraryError.invalid(field: "kind", reason: "'\(raw)' is not audio or video")
        }
        return kind
    }

    /// Duration in seconds: 0 < d ≤ 120.
    public static func duration(_ seconds: Double) throws -> Double {
        guard seconds.isFinite, seconds > 0, seconds <= maxDuration else {
            throw LibraryError.invalid(
                field: "duration", reason: "\(seconds) s; a recording lasts more than 0 and at most 120 seconds")
        }
        return seconds
    }

    /// A path stored in a row: relative, without `..`, `.` or empty components, under `Recordings/`.
    /// A row that fails this is never opened or deleted.
    public static func libraryRelativePath(_ path: String) throws -> String {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"), components.first == "Recordings", components.count >= 2,
            !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
            !path.unicodeScalars.contains(where: isUnsafe)
        else {
            throw LibraryError.unsafePath(path)
        }
        return path
    }

    /// `Recovered recording Oct 25, 2025 3:42 PM`, shortened to fit the 40-character limit: the
    /// title of a recording rebuilt after a crash or from a file no row listed.
    public static func recoveredTitle(for date: Date) -> String {
        let full = automaticTitle(for: date, prefix: "Recovered recording")
        if full.count <= maxTitleLength { return full }
        return full.replacingOccurrences(of: ", \(CheckIn.localCalendar.component(.year, from: date))", with: "")
    }

    /// What is wrong with a stored row (written by something other than cravey), or nil.
    /// A row that fails this is never used to open or delete a file.
    static func problem(inRow values: [String: DatabaseValue]) -> String? {
        func text(_ name: String) -> String? {
            if case let .string(value)? = values[name]?.storage { return value }
            return nil
        }
        guard let idText = text("id"), let id = UUID(uuidString: idText), id.uuidString == idText else {
            return "id is not a UUID"
        }
        guard let kindText = text("kind"), let kind = Recording.Kind(rawValue: kindText) else {
            return "kind is not audio or video"
        }
        guard let title = text("title") else { return "title is not text" }
        if (try? Validation.title(title, createdAt: Date())) != title { return "title breaks the limits" }
        if case .blob? = values["notes"]?.storage { return "notes are not text" }
        if let notes = text("notes"), (try? Validation.notes(notes)) != notes { return "notes break the limits" }
        guard text("createdAt").flatMap(StoredDate.date) != nil else { return "createdAt is not a date" }
        let duration: Double? =
            switch values["duration"]?.storage {
            case let .double(value)?: value
            case let .int64(value)?: Double(value)
            default: nil
            }
        guard let duration, duration.isFinite, duration > 0, duration <= maxDuration else {
            return "duration is not within 0–120 s"
        }
        guard case let .int64(plays)? = values["playCount"]?.storage, plays >= 0 else {
            return "playCount is negative or not a number"
        }
        guard text("filePath") == "Recordings/" + Recording.fileName(id: id, kind: kind) else {
            return "filePath is not this recording's file"
        }
        if let thumb = values["thumbnailPath"], !thumb.isNull,
            text("thumbnailPath") != "Recordings/Thumbnails/" + Recording.thumbnailName(id: id, kind: kind)
        {
            return "thumbnailPath is not this recording's thumbnail"
        }
        if let day = values["checkinDay"], !day.isNull {
            guard text("checkinDay").flatMap(LocalDay.init(parsing:)) != nil else { return "checkinDay is not a date" }
            guard text("mood").flatMap(CheckIn.Mood.init(rawValue:)) != nil else { return "a check-in without a mood" }
        }
        return nil
    }

    /// `Recording Oct 25, 2025 3:42 PM`, in local time.
    public static func automaticTitle(for date: Date, prefix: String = "Recording", timeZone: TimeZone? = nil) -> String
    {
        "\(prefix) \(displayDate(date, timeZone: timeZone))"
    }

    /// `Oct 25, 2025 3:42 PM`: how dates appear in titles and listings (local time unless
    /// `timeZone` is given). Built from localtime_r, as listings format thousands of them.
    public static func displayDate(_ date: Date, timeZone: TimeZone? = nil) -> String {
        var seconds = time_t(
            date.millisecondsSince1970 >= 0
                ? date.millisecondsSince1970 / 1000
                : (date.millisecondsSince1970 - 999) / 1000)
        if let timeZone { seconds += time_t(timeZone.secondsFromGMT(for: date)) }
        var parts = tm()
        if timeZone == nil { localtime_r(&seconds, &parts) } else { gmtime_r(&seconds, &parts) }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let hour12 = parts.tm_hour % 12 == 0 ? 12 : parts.tm_hour % 12
        let minute = parts.tm_min < 10 ? "0\(parts.tm_min)" : "\(parts.tm_min)"
        return
            "\(months[Int(parts.tm_mon)]) \(parts.tm_mday), \(parts.tm_year + 1900) \(hour12):\(minute) \(parts.tm_hour < 12 ? "AM" : "PM")"
    }

    /// Validates every field of a row before it is written.
    public static func check(_ recording: Recording) throws {
        _ = try title(recording.title, createdAt: recording.createdAt)
        if recording.title != recording.title.trimmingCharacters(in: .whitespaces) || recording.title.isEmpty {
            throw LibraryError.invalid(field: "title", reason: "must not be blank or padded")
        }
        _ = try notes(recording.notes)
        _ = try duration(recording.duration)
        _ = try libraryRelativePath(recording.filePath)
        guard recording.filePath == recording.canonicalFilePath,
            recording.thumbnailPath == nil || recording.thumbnailPath == recording.canonicalThumbnailPath
        else {
            throw LibraryError.unsafePath(recording.thumbnailPath ?? recording.filePath)
        }
        if let thumb = recording.thumbnailPath { _ = try libraryRelativePath(thumb) }
        guard recording.playCount >= 0 else {
            throw LibraryError.invalid(field: "playCount", reason: "must not be negative")
        }
        guard recording.forTriggers == triggerNames.filter(Set(recording.forTriggers).contains) else {
            throw LibraryError.invalid(
                field: "for", reason: "triggers are named once each, from: \(triggerNames.joined(separator: ", "))")
        }
    }

    // MARK: - Settings and milestones as stored

    /// The goals a person can choose (the tracker's `Goal` is this list, in its order).
    public static let goalNames = ["quit", "cut-down", "monitor", "harm-reduction", "exploring"]
    /// The methods a price is set for (the tracker's `Method` is this list, in its order).
    public static let priceMethods = ["bowls", "vape", "dab", "edible"]
    /// What a milestone counts (the tracker's `Milestone.Kind` is this list).
    public static let milestoneKinds = [
        "daysInProgress", "cravingsResisted", "messagesRecorded", "checkIns", "daysSinceUse",
    ]
    /// The largest count a milestone can reach (a thousand years of days, or a million logs).
    public static let maxMilestoneCount: Int64 = 1_000_000

    /// A setting as stored, held to the rules typed input meets: what of it may be kept (nil:
    /// nothing) and one line for each part that breaks them. Prices keep their valid entries.
    /// Restore, the journal's replay and `check` all ask here.
    public static func setting(_ key: String, _ value: String) -> (kept: String?, problems: [String]) {
        func rule(_ holds: Bool, _ problem: String) -> (kept: String?, problems: [String]) {
            holds ? (value, []) : (nil, [problem])
        }
        switch Library.Setting(rawValue: key) {
        case nil: return (nil, ["setting '\(key.prefix(40))' is not one cravey keeps"])
        case .name: return rule((try? name(value)) == value, "the name setting is not 1 to 40 plain characters")
        case .goal:
            return rule(
                goalNames.contains(value),
                "the goal setting '\(value.prefix(40))' is not one of \(goalNames.joined(separator: ", "))")
        case .quickPlay:
            return rule(["most-played", "helped-most"].contains(value), "the quick-play setting is not an order")
        case .prices: return prices(value)
        case .currency:
            return rule(
                value == "none" || (value.utf8.count == 3 && value.allSatisfy({ $0.isASCII && $0.isUppercase })),
                "the currency setting is not a currency code")
        case .libraryId: return rule(Library.isIdentity(value), "the library id is not one cravey would make")
        case .withdrawalOffer: return rule(value == "any-goal", "the withdrawal check's setting is not any-goal")
        case .limitOffer: return rule(value == "any-goal", "the limits' setting is not any-goal")
        case .screenReminder, .screenReminderDismissed:
            return rule(StoredDate.date(value) != nil, "the \(key) setting is not a time")
        case .backupNoted: return rule(LocalDay(parsing: value) != nil, "the backupNoted setting is not a day")
        case .welcomed, .goalAsked, .lastBackup, .planSuggestion:
            return rule(
                value.utf8.count <= 4096 && !value.unicodeScalars.contains(where: isUnsafe),
                "the \(key) setting is not one cravey would write")
        }
    }

    /// Prices as cravey writes them: a JSON object of method names to whole cents, 1 to
    /// 9,999,999. Each valid entry is kept (in the methods' order); each other one is named.
    public static func prices(_ value: String) -> (kept: String?, problems: [String]) {
        /// One entry's value: whole cents, or nil for anything else (a string, true, 12.5).
        struct Cents: Decodable {
            var cents: Int?
            init(from decoder: Decoder) throws {
                let container = try decoder.singleValueContainer()
                let number =
                    (try? container.decode(Int64.self)).map(Double.init) ?? (try? container.decode(Double.self))
                cents = number.flatMap { $0 == $0.rounded() && (1...9_999_999).contains($0) ? Int($0) : nil }
            }
        }
        guard value.utf8.count <= 4096,
            let object = try? JSONDecoder().decode([String: Cents].self, from: Data(value.utf8))
        else { return (nil, ["the prices setting is not a list of prices cravey would write"]) }
        var kept: [String: Int] = [:], problems: [String] = []
        for (method, price) in object.sorted(by: { $0.key < $1.key }) {
            if priceMethods.contains(method), let cents = price.cents {
                kept[method] = cents
            } else {
                problems.append(
                    "the prices setting's entry '\(method.prefix(40))' is not a price of \(priceMethods.joined(separator: ", ")) from 0.01 to 99999.99"
                )
            }
        }
        let fields = priceMethods.compactMap { method in kept[method].map { "\"\(method)\":\($0)" } }
        return (fields.isEmpty ? nil : "{" + fields.joined(separator: ",") + "}", problems)
    }

    /// What is wrong with a milestone as stored (nil: nothing): a kind cravey counts, a count from
    /// 1 to `maxMilestoneCount`, its id, a real day no later than `today` (a day's grace for a
    /// change of time zone), and when it was shown, if it was.
    public static func milestoneProblem(
        id: String?, kind: String?, count: Int64?, reachedOn: String?, shownAt: String?, today: String
    ) -> String? {
        let name = "milestone '\((id ?? "?").prefix(40))'"
        guard let kind, milestoneKinds.contains(kind) else { return "\(name) counts nothing cravey counts" }
        guard let count, (1...maxMilestoneCount).contains(count) else {
            return "\(name): its count is not from 1 to \(maxMilestoneCount)"
        }
        guard id == kind + ":" + String(count) else { return "\(name) is not named for its kind and count" }
        guard let reachedOn, let day = LocalDay(parsing: reachedOn) else { return "\(name): its day is not a date" }
        if let today = LocalDay(parsing: today), day > today + 1 {
            return "\(name) is dated \(reachedOn), a day that has not come yet"
        }
        if let shownAt, StoredDate.date(shownAt) == nil { return "\(name): when it was shown is not a time" }
        return nil
    }

    /// The triggers a craving, a use or a message can name, in their set's order (the schema's
    /// CHECKs spell the same set; the tracker's `Trigger` is this list).
    public static let triggerNames = [
        "hungry", "angry", "anxious", "lonely", "tired", "sad", "bored", "social", "habit", "paraphernalia",
    ]
}
