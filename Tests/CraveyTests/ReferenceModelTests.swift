import CraveyLibrary
import CraveyTestSupport
import Foundation
import Synchronization
import XCTest

/// An independent model of the figures, written from the rules (not from the code), against
/// `status`, `progress --json`, `report --json` (its calendar and figures) and the milestones stored, on random histories: uses, cravings
/// (some followed by a use that names them), rides, gaps of days, each goal, days answered for
/// (no use, or not remembered; some on a day of use, withdrawn by it) that change no figure but
/// the calendar's kinds of day and the days confirmed. Each history is
/// written into its own library in one transaction; the seed is printed with every difference
/// (`CRAVEY_MODEL_SEED=… CRAVEY_MODEL_HISTORIES=…` runs the same again). A whole run takes 150
/// histories of a new seed each time (500 were an eighth of the binary part's seconds under load);
/// `CRAVEY_MODEL_HISTORIES=5000` looks further.
final class ReferenceModelTests: CommandTestCase {
    // MARK: - The histories

    struct Craving {
        var minute: Int  // minutes since 1970, UTC (the clock's zone)
        var intensity: Int
        var ratings: [[Int]]
    }

    struct Use {
        var minute: Int
        var after: Int?  // the craving it names as the one it followed
    }

    struct History {
        var nowSecond: Int  // seconds since 1970
        var goal: String?
        var cravings: [Craving] = []
        var uses: [Use] = []
        /// Days answered for: day → "none" or "unknown" (written before the uses).
        var marks: [Int: String] = [:]
    }

    /// SplitMix64: the same seed, the same histories.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func history(_ g: inout Generator) -> History {
        let today = 20_740 + Int.random(in: 0..<30, using: &g)  // Oct–Nov 2026
        let nowSecond = today * 86_400 + Int.random(in: 3_600..<82_800, using: &g) / 60 * 60 + 30
        var h = History(
            nowSecond: nowSecond,
            goal: [nil, "quit", "cut-down", "monitor", "harm-reduction", "exploring"].randomElement(using: &g)!)
        let span = [0, 1, 2, 6, 13, 40, 90].randomElement(using: &g)!
        let useChance = [0.0, 0.1, 0.4, 0.9].randomElement(using: &g)!
        let cravingChance = [0.2, 0.6, 1.0].randomElement(using: &g)!
        var gapLeft = 0
        for day in (today - span)...today {
            if gapLeft > 0 {
                gapLeft -= 1
                continue
            }
            if Double.random(in: 0..<1, using: &g) < 0.05 { gapLeft = Int.random(in: 1...10, using: &g) }
            let last = day == today ? (nowSecond / 60 - day * 1_440) : 1_439
            for _ in 0..<Int.random(in: 0...3, using: &g) where Double.random(in: 0..<1, using: &g) < cravingChance {
                let minute = day * 1_440 + Int.random(in: 0...last, using: &g)
                let intensity = Int.random(in: 1...10, using: &g)
                var ratings: [[Int]] = []
                if Double.random(in: 0..<1, using: &g) < 0.3 {
                    ratings = [[0, intensity]]
                    for step in 1...Int.random(in: 1...5, using: &g) {
                        ratings.append([step * 180, Int.random(in: 1...10, using: &g)])
                    }
                }
                h.cravings.append(Craving(minute: minute, intensity: intensity, ratings: ratings))
            }
            if Double.random(in: 0..<1, using: &g) < useChance {
                let minute = day * 1_440 + Int.random(in: 0...last, using: &g)
                // Now and then exactly 2 hours after a craving, or naming one before it.
                let before = h.cravings.indices.filter { h.cravings[$0].minute <= minute }
                let named = before.last.flatMap { Double.random(in: 0..<1, using: &g) < 0.3 ? $0 : nil }
                let edge = before.last.map { h.cravings[$0].minute + 120 }
                let at =
                    edge.map { $0 * 60 <= nowSecond && Double.random(in: 0..<1, using: &g) < 0.2 ? $0 : minute }
                    ?? minute
                h.uses.append(Use(minute: at, after: named))
            }
        }
        if h.cravings.isEmpty && h.uses.isEmpty {
            h.cravings.append(Craving(minute: nowSecond / 60 - 1, intensity: 5, ratings: []))
        }
        let first = (h.cravings.map(\.minute) + h.uses.map(\.minute)).min()! / 1_440
        let markChance = [0.0, 0.3, 0.8].randomElement(using: &g)!
        for day in first...today where Double.random(in: 0..<1, using: &g) < markChance {
            h.marks[day] = Double.random(in: 0..<1, using: &g) < 0.75 ? "none" : "unknown"
        }
        return h
    }

    // MARK: - The model, from the rules

    struct Figures: Equatable {
        var status: String
        var daysInProgress: Int?
        var daysSinceLastUse: Int?
        var currentStreak: Int?
        var longestStreak: String
        var resisted: Int
        var open: Int
        var ridesHalved: Int
        var milestones: [String]
        var stored: [String]
        /// The report's calendar, a day each: "day cravings peak amount"; and its resisted and open.
        var calendar: [String]
        var reportResisted: String
        /// `progress --json`'s days confirmed without use, and the report's.
        var confirmed: String
    }

    static let dayThresholds = [1, 3, 7, 14, 30, 60, 90, 180, 365]
    static let countThresholds = [1, 5, 10, 25, 50, 100]

    static func model(_ h: History) -> Figures {
        let now = h.nowSecond / 60
        let today = h.nowSecond / 86_400
        let useDays = Set(h.uses.map { $0.minute / 1_440 })
        let logDays = h.cravings.map { $0.minute / 1_440 } + h.uses.map { $0.minute / 1_440 }
        let first = logDays.min()!
        let lastUse = useDays.max()
        // A craving: followed by a use (named, or one within its 2 hours), resisted once its 2
        // hours have passed, else open.
        func outcome(_ index: Int) -> String {
            let c = h.cravings[index]
            if h.uses.contains(where: { $0.after == index || ($0.minute >= c.minute && $0.minute <= c.minute + 120) }) {
                return "use"
            }
            return c.minute + 120 <= now ? "resisted" : "open"
        }
        let outcomes = h.cravings.indices.map(outcome)
        let resistedDays = h.cravings.indices.filter { outcomes[$0] == "resisted" }.map {
            h.cravings[$0].minute / 1_440
        }
        .sorted()
        // Runs of days without use, from the first day to today.
        var runs: [(from: Int, to: Int)] = []
        var start: Int?
        for day in first...today {
            if useDays.contains(day) {
                if let s = start { runs.append((s, day - 1)) }
                start = nil
            } else if start == nil {
                start = day
            }
        }
        if let s = start { runs.append((s, today)) }
        let longest = runs.reduce(nil as (from: Int, to: Int)?) { best, run in
            guard let best else { return run }
            return run.to - run.from >= best.to - best.from ? run : best
        }
        // Milestones.
        var milestones: [(kind: String, count: Int, day: Int)] = []
        for t in dayThresholds where t <= today - first + 1 { milestones.append(("daysInProgress", t, first + t - 1)) }
        for t in countThresholds where t <= resistedDays.count {
            milestones.append(("cravingsResisted", t, resistedDays[t - 1]))
        }
        var since: [Int: Int] = [:]
        let uses = useDays.sorted()
        for (i, day) in uses.enumerated() {
            let end = i + 1 < uses.count ? uses[i + 1] - 1 : today
            for t in dayThresholds where t <= end - day && since[t] == nil { since[t] = day + t }
        }
        milestones += since.map { ("daysSinceUse", $0.key, $0.value) }
        milestones.sort { ($0.day, $0.kind, $0.count) < ($1.day, $1.kind, $1.count) }
        func text(_ m: (kind: String, count: Int, day: Int)) -> String { "\(m.kind) \(m.count) \(m.day)" }
        // Status, before anything stored one: a milestone of days only on the day it is first
        // reached — Days in Progress, or the stretch since the last use reaching a count no
        // earlier stretch reached — the larger count, Days in Progress first.
        let reachedToday = milestones.filter { $0.day == today && $0.kind != "cravingsResisted" }
        let todays = reachedToday.sorted { $0.count != $1.count ? $0.count > $1.count : $0.kind < $1.kind }.first
        let words = todays.map { m in
            "🏅 \(m.count) day\(m.count == 1 ? "" : "s")"
                + (m.kind == "daysInProgress" ? " in progress" : " since your last use")
        }
        let todayCravings = h.cravings.indices.filter { h.cravings[$0].minute / 1_440 == today }
        let status = [
            String(today - first + 1), lastUse.map { String(today - $0) } ?? "",
            String(todayCravings.filter { outcomes[$0] == "resisted" }.count), String(todayCravings.count),
            words ?? "",
        ].joined(separator: "|")
        // The report of all time: a day each from the first to today, with its kind: a use, else
        // the answer standing (a mark on a day of use is withdrawn), else not reported.
        func kind(_ day: Int) -> String {
            if useDays.contains(day) { return "used" }
            return h.marks[day].map { $0 == "none" ? "noUse" : "dontRemember" } ?? "notReported"
        }
        let calendar = (first...today).map { day in
            let cravings = h.cravings.filter { $0.minute / 1_440 == day }
            let used = h.uses.filter { $0.minute / 1_440 == day }.count * 2
            return "\(day) \(cravings.count) \(cravings.map(\.intensity).max() ?? 0) \(used) \(kind(day))"
        }
        let confirmed = (first...today).filter { kind($0) == "noUse" }.count
        return Figures(
            status: status, daysInProgress: today - first + 1, daysSinceLastUse: lastUse.map { today - $0 },
            currentStreak: today - max(lastUse ?? first - 1, first - 1),
            longestStreak: longest.map { "\($0.to - $0.from + 1) \($0.from) \($0.to)" } ?? "none",
            resisted: outcomes.filter { $0 == "resisted" }.count, open: outcomes.filter { $0 == "open" }.count,
            ridesHalved: h.cravings.filter { c in c.ratings.dropFirst().contains { $0[1] * 2 <= c.intensity } }.count,
            milestones: milestones.map(text),
            stored: milestones.filter { !($0.kind == "daysSinceUse" && $0.day == today) }.map(text).sorted(),
            calendar: calendar,
            reportResisted: "\(outcomes.filter { $0 == "resisted" }.count) \(outcomes.filter { $0 == "open" }.count)",
            confirmed: "\(confirmed) \(confirmed)")
    }

    // MARK: - What cravey says

    static func stamp(_ minute: Int) -> String {
        ISO8601DateFormatter.string(
            from: Date(timeIntervalSince1970: Double(minute * 60)), timeZone: TimeZone(identifier: "UTC")!,
            formatOptions: [.withInternetDateTime, .withFractionalSeconds])
    }

    /// The history's rows, in one transaction, into a new library at `root`.
    static func write(_ h: History, to root: String) throws {
        _ = try Library(root: root)
        let ids = h.cravings.map { _ in UUID().uuidString }
        var sql = ["BEGIN;"]
        // Answers first: a use logged on a day answered for withdraws its answer.
        for (day, answer) in h.marks.sorted(by: { $0.key < $1.key }) {
            let text = Self.stamp(day * 1_440).prefix(10)
            sql.append(
                "INSERT INTO dayMark (day, answer, markedAt) VALUES ('\(text)', '\(answer)', '\(Self.stamp(day * 1_440))');"
            )
        }
        for (c, id) in zip(h.cravings, ids) {
            let ratings =
                c.ratings.isEmpty
                ? "NULL" : "'[" + c.ratings.map { "[\($0[0]),\($0[1])]" }.joined(separator: ",") + "]'"
            sql.append(
                "INSERT INTO craving (id, at, utcOffset, intensity, createdAt, modifiedAt, ratings) VALUES ('\(id)', '\(Self.stamp(c.minute))', 0, \(c.intensity), '\(Self.stamp(c.minute))', '\(Self.stamp(c.minute))', \(ratings));"
            )
        }
        for u in h.uses {
            let after = u.after.map { "'\(ids[$0])'" } ?? "NULL"
            sql.append(
                "INSERT INTO usage (id, at, utcOffset, method, amount, cravingId, createdAt, modifiedAt) VALUES ('\(UUID().uuidString)', '\(Self.stamp(u.minute))', 0, 'vape', 2, \(after), '\(Self.stamp(u.minute))', '\(Self.stamp(u.minute))');"
            )
        }
        if let goal = h.goal { sql.append("INSERT INTO setting (key, value) VALUES ('goal', '\(goal)');") }
        sql.append("COMMIT;")
        let result = try runProcess("/usr/bin/sqlite3", [root + "/library.sqlite", sql.joined(separator: "\n")])
        guard result.status == 0 else { throw Failure(text: "sqlite3: " + result.stderr) }
    }

    struct Failure: Error { var text: String }

    static func figures(of h: History, root: String, cravey: String) throws -> Figures {
        let now = ISO8601DateFormatter.string(
            from: Date(timeIntervalSince1970: Double(h.nowSecond)), timeZone: TimeZone(identifier: "UTC")!,
            formatOptions: [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate])
        let environment = ["NO_COLOR": "1", "TZ": "UTC", "CRAVEY_TRANSCRIBE": "later", "CRAVEY_NOW": now]
        func said(_ arguments: [String]) throws -> String {
            let result = try runProcess(cravey, arguments + ["--library", root], environment: environment)
            guard result.status == 0 else { throw Failure(text: "\(arguments): " + result.stderr) }
            return result.stdout
        }
        let status = try said(["status", "--format", "{days}|{since}|{resisted}|{cravings}|{milestone}"])
        let json = try said(["progress", "--json", "--range", "all"])
        guard let p = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw Failure(text: "progress --json: " + json)
        }
        func day(_ text: Any?) -> Int {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let parts = (text as? String ?? "").split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3,
                let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
            else { return -1 }
            return Int(date.timeIntervalSince1970) / 86_400
        }
        let longest = (p["longestStreak"] as? [String: Any]).map {
            "\($0["days"] as? Int ?? -1) \(day($0["from"])) \(day($0["to"]))"
        }
        let resisted = p["resisted"] as? [String: Any]
        let milestones = (p["milestones"] as? [[String: Any]] ?? []).map {
            "\($0["kind"]!) \($0["count"]!) \(day($0["reachedOn"]))"
        }
        let stored = try runProcess(
            "/usr/bin/sqlite3", [root + "/library.sqlite", "SELECT kind, count, reachedOn FROM milestone"]
        ).stdout.split(separator: "\n").map { row in
            let parts = row.split(separator: "|").map(String.init)
            return "\(parts[0]) \(parts[1]) \(day(parts[2]))"
        }.sorted()
        let reportJSON = try said(["report", "--json", "--range", "all"])
        guard let report = try JSONSerialization.jsonObject(with: Data(reportJSON.utf8)) as? [String: Any],
            let days = report["days"] as? [[String: Any]], let figures = report["figures"] as? [String: Any]
        else { throw Failure(text: "report --json: " + reportJSON) }
        let calendar = days.map { d in
            let amount = (d["amounts"] as? [[String: Any]] ?? []).map { ($0["amount"] as? Double) ?? -1 }
                .reduce(0, +)
            return
                "\(day(d["day"])) \(d["cravings"] as? Int ?? -1) \(d["peak"] as? Int ?? 0) \(Int(amount)) \(d["kind"] as? String ?? "")"
        }
        let confirmed = [p["knownDays"], figures["knownDays"]].map {
            (($0 as? [String: Any])?["confirmed"] as? Int).map(String.init) ?? "none"
        }
        let reportResisted = (figures["resisted"] as? [String: Any]).map {
            "\($0["count"] as? Int ?? -1) \($0["open"] as? Int ?? -1)"
        }
        return Figures(
            status: String(status.dropLast()), daysInProgress: p["daysInProgress"] as? Int,
            daysSinceLastUse: p["daysSinceLastUse"] as? Int,
            currentStreak: (p["currentStreak"] as? [String: Any])?["days"] as? Int, longestStreak: longest ?? "none",
            resisted: resisted?["count"] as? Int ?? -1, open: resisted?["open"] as? Int ?? -1,
            ridesHalved: (p["cravingLength"] as? [String: Any])?["rides"] as? Int ?? -1, milestones: milestones,
            stored: stored, calendar: calendar, reportResisted: reportResisted ?? "none",
            confirmed: confirmed.joined(separator: " "))
    }

    func testTheModelAgreesOnRandomHistories() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["CRAVEY_MODEL_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64.max / 2)
        let count = environment["CRAVEY_MODEL_HISTORIES"].flatMap { Int($0) } ?? 150
        let started = Date()
        let (base, cravey) = (self.base, self.cravey)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in stride(from: worker, to: count, by: 4) {
                var g = Generator(state: seed &+ UInt64(index))
                let h = Self.history(&g)
                let root = base + "/h\(index)"
                do {
                    try Self.write(h, to: root)
                    let said = try Self.figures(of: h, root: root, cravey: cravey)
                    let expected = Self.model(h)
                    if said != expected {
                        let fields = zip(Mirror(reflecting: said).children, Mirror(reflecting: expected).children)
                            .filter { "\($0.value)" != "\($1.value)" }
                            .map { "\($0.label ?? ""): cravey \($0.value), model \($1.value)" }
                        failures.withLock {
                            $0.append("seed \(seed) history \(index): \(fields.joined(separator: "; "))\nhistory \(h)")
                        }
                    }
                } catch {
                    failures.withLock { $0.append("seed \(seed) history \(index): \(error)") }
                }
                try? FileManager.default.removeItem(atPath: root)
            }
        }
        let differing = failures.withLock { $0 }
        for failure in differing.prefix(3) { XCTFail(failure) }
        XCTAssertEqual(differing.count, 0, "seed \(seed)")
        print(
            "reference model: \(count - differing.count) of \(count) histories agree in \(Int(Date().timeIntervalSince(started))) s (seed \(seed))"
        )
    }
}
