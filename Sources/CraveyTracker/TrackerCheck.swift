import CraveyLibrary
import Foundation

/// `check` over the logs: every row read as stored (another program can switch the schema's
/// checks off) against the rules, and every link against the rows it names.
extension Tracker {
    public struct Finding: Sendable, Equatable {
        public enum Kind: String, Sendable {
            /// A log holding a value cravey would refuse: reported, left as it is (it is the
            /// user's data; `log edit` or `log delete` mends it).
            case invalidLog
            /// A link to a recording or craving that is not there: `repair` clears it.
            case danglingLink
            /// The search over the logs' notes out of step with them: `repair` rebuilds it.
            case searchIndex
        }

        public var kind: Kind
        public var subject: String
    }

    /// Checks every log; with `repair`, clears dangling links and rebuilds the notes' search.
    public func check(repair: Bool) throws -> [Finding] {
        let rows = try library.logCheckRows(repair: repair)
        var findings = Self.problems(cravings: rows.cravings, uses: rows.uses).map {
            Finding(kind: .invalidLog, subject: $0)
        }
        for (kind, target, dangling) in [
            ("craving", "recording", rows.missingRecordings), ("use", "craving", rows.missingCravings),
        ] {
            for row in dangling {
                findings.append(
                    Finding(
                        kind: .danglingLink,
                        subject:
                            "\(kind) \(Self.label(row)) → \(target) \(row["target"].string ?? "?") that is not there"))
            }
        }
        if rows.indexedNotes != rows.logsWithNotes {
            findings.append(
                Finding(
                    kind: .searchIndex,
                    subject: "\(rows.indexedNotes) notes indexed for \(rows.logsWithNotes) logs with notes"))
        }
        return findings
    }

    /// The logs of another cravey database (a backup's, before it is restored) held to the same
    /// rules as typed logs: one line for each value cravey would refuse.
    public static func problems(inDatabaseAt path: String) throws -> [String] {
        let rows = try Library.logRows(inDatabaseAt: path)
        return problems(cravings: rows.cravings, uses: rows.uses)
    }

    /// One line for each value cravey would refuse, cravings first.
    static func problems(cravings: [StoredRow], uses: [StoredRow]) -> [String] {
        cravings.flatMap { row in problems(inCraving: row).map { "craving \(label(row)): \($0)" } }
            + uses.flatMap { row in problems(inUse: row).map { "use \(label(row)): \($0)" } }
    }

    static func label(_ row: StoredRow) -> String {
        row["id"].string.map { String($0.prefix(8)) } ?? "(rowid \(rowid(row)))"
    }

    static func rowid(_ row: StoredRow) -> Int64 {
        if case let .integer(rowid) = row["rowid"] { rowid } else { 0 }
    }

    static func problems(inCraving row: StoredRow) -> [String] {
        var problems = common(row)
        if exactInt(row["intensity"]).map(Intensity.range.contains) != true {
            problems.append("intensity \(row["intensity"]) is not from 1 to 10")
        }
        let ratings = row["ratings"]
        if !ratings.isNull, !Self.areRatings(ratings.string) {
            problems.append("ratings \(ratings) are not a ride's [[seconds, 1-10], …] in time order")
        }
        let played = row["played"]
        if !played.isNull,
            played.string.map({
                $0.isEmpty
                    || $0.split(separator: ",", omittingEmptySubsequences: false).allSatisfy {
                        UUID(uuidString: String($0)) != nil
                    }
            }) != true
        {
            problems.append("played \(played) is not a list of recordings' ids")
        }
        return problems
    }

    /// Whether stored ratings are as a ride keeps them: at least one pair of whole numbers,
    /// seconds from 0 on in time order, each rating 1–10 (what `noteRatings` accepts).
    static func areRatings(_ text: String?) -> Bool {
        guard let data = text?.data(using: .utf8), let pairs = try? JSONDecoder().decode([[Double]].self, from: data),
            !pairs.isEmpty, pairs.allSatisfy({ $0.count == 2 })
        else { return false }
        let ratings = pairs.compactMap { pair in
            Int(exactly: pair[0]).flatMap { seconds in
                Int(exactly: pair[1]).map { Craving.Rating(seconds: seconds, value: $0) }
            }
        }
        return ratings.count == pairs.count && (try? Tracker.checkRatings(ratings)) != nil
    }

    static func problems(inUse row: StoredRow) -> [String] {
        var problems = common(row)
        guard let methodName = row["method"].string, let method = Method(rawValue: methodName) else {
            return problems + [
                "method \(row["method"]) is not one of \(Method.allCases.map(\.rawValue).joined(separator: ", "))"
            ]
        }
        let amount = row["amount"]
        if case let .real(value) = amount, method.allows(value) {
        } else if case let .integer(value) = amount, method.allows(Double(value)) {
        } else {
            problems.append("amount \(amount) is not an amount of \(methodName)")
        }
        let mood = row["moodAfter"]
        if !mood.isNull, exactInt(mood).map(MoodAfter.range.contains) != true {
            problems.append("moodAfter \(mood) is not from 1 to 10")
        }
        return problems
    }

    /// A whole number as stored (an integer, or a real with nothing after the point); nil for
    /// anything else.
    static func exactInt(_ value: StoredValue) -> Int? {
        switch value {
        case let .integer(number): Int(exactly: number)
        case let .real(number): Int(exactly: number)
        default: nil
        }
    }

    /// What cravings and uses share: id, times, triggers, location, notes.
    static func common(_ row: StoredRow) -> [String] {
        var problems: [String] = []
        if row["id"].string.flatMap(UUID.init(uuidString:)) == nil { problems.append("id is not a UUID") }
        for column in ["at", "createdAt", "modifiedAt"] where row[column].string.flatMap(StoredDate.date) == nil {
            problems.append("\(column) is not a time")
        }
        if exactInt(row["utcOffset"]).map({ abs($0) <= 18 * 3_600 }) != true {
            problems.append("utcOffset is not a UTC offset")
        }
        let triggers = row["triggers"].string ?? "?"
        if triggers != Trigger.text(Set(Trigger.set(triggers))) {
            problems.append(
                "triggers '\(triggers)' are not names from \(Trigger.allCases.map(\.rawValue).joined(separator: ", ")), each once in that order"
            )
        }
        let location = row["location"]
        if !location.isNull, location.string.flatMap(Location.init(rawValue:)) == nil {
            problems.append(
                "location \(location) is not one of \(Location.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let notes = row["notes"]
        if !notes.isNull {
            if let text = notes.string {
                do {
                    if try LogRules.notes(text) != text {
                        problems.append("notes are empty or start or end with spaces")
                    }
                } catch {
                    problems.append("\(error)")
                }
            } else {
                problems.append("notes are not text")
            }
        }
        return problems
    }
}
