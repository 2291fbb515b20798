import CraveyLibrary
import CraveyTracker
import Foundation

/// What a report says, worked out once as plain words, drawn by the HTML page (`ReportPage`) and
/// by the PDF (`ReportPDF`): the header's lines, the main figures, the calendar's cells, the
/// shares of the bar charts and the notes.
struct ReportContent {
    static let title = "Cannabis use and cravings: a report"
    static let calendarNote =
        "Each day: the amount used per method (0: no use, confirmed; ?: not reported; ~: not remembered; —: before tracking began), then the cravings logged and the strongest (1–10)."

    let report: Report
    let generated: Date

    var period: String {
        "\(report.from.span(toWithYear: report.to)) (\(ProgressFigures.days(report.to - report.from + 1)))"
    }

    var goal: String { report.figures.goal.map { "\($0.label) — “\($0.line)”" } ?? "No goal chosen" }

    var madeBy: String {
        "Made by cravey on \(LocalDay(generated, in: .current).text) from the person's own logs, on their device; shared only by them."
            + (report.notes.isEmpty ? "" : " With their notes.")
    }

    /// The main figures: each term and its value (plain words, no emoji).
    var figures: [(term: String, value: String)] {
        let f = report.figures
        var rows: [(String, String)] = [
            ("Logged", f.summaryLine),
            (
                "Cravings resisted",
                f.cravings > 0 ? f.resistedText + (f.resistedPercent.map { " (\($0)%)" } ?? "") : "—"
            ),
            ("Days in Progress", f.daysInProgress.map(String.init) ?? "—"),
            ("Since the last use", f.daysSinceLastUseText ?? (f.everUsed ? "a use on the last day" : "no use logged")),
            (ProgressPage.plain(f.longestStreakTitle), f.longestStreakText ?? "—"),
            (ProgressPage.plain(f.reductionTitle), f.reductionText ?? ProgressPage.plain(f.reductionInsight)),
        ]
        if let trend = f.intensityTrend {
            rows.append(("Craving intensity", "first \(Self.level(trend.first))/10, last \(Self.level(trend.last))/10"))
        }
        if let money = f.money {
            rows.append(
                (
                    "Money kept",
                    [[money.figure, money.line].compactMap { $0 }.joined(separator: " "), money.insight]
                        .filter { !$0.isEmpty }.joined(separator: ". ")
                ))
        }
        if let withdrawal = f.withdrawal { rows.append(("The first two weeks", withdrawal)) }
        if let known = f.known.line { rows.append(("Days known", known)) }
        return rows.map { ($0.0, ProgressPage.plain($0.1)) }
    }

    private static func level(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }

    /// One day of the calendar: its date as shown, then its lines.
    struct Cell {
        enum Kind { case untracked, zero, notReported, notRemembered, use, cravings }
        var day: LocalDay
        var label: String
        var lines: [(kind: Kind, text: String)]
    }

    /// The calendar: a row per week, Monday first; nil for a day outside the period.
    var weeks: [[Cell?]] {
        report.weeks.map { week in
            week.map { day in
                guard let day else { return nil }
                let date = day.day.civil.day
                var lines: [(kind: Cell.Kind, text: String)] = []
                switch day.kind {
                case .beforeTracking: lines.append((.untracked, day.kind.symbol))
                case .noUse: lines.append((.zero, day.kind.symbol))
                case .notReported: lines.append((.notReported, day.kind.symbol))
                case .dontRemember: lines.append((.notRemembered, day.kind.symbol))
                case .used: break
                }
                lines += day.amounts.map { (.use, $0.method.amountText($0.amount)) }
                if day.cravings > 0 {
                    let cravings = day.cravings == 1 ? "1 craving" : "\(day.cravings) cravings"
                    lines.append((.cravings, "\(cravings), peak \(day.peak ?? 0)"))
                }
                return Cell(
                    day: day.day, label: date == 1 || day.day == report.from ? day.day.short : String(date),
                    lines: lines)
            }
        }
    }

    /// The shares of a bar chart: each label, its count and its percent as shown.
    static func shares(_ shares: [ProgressFigures.Share]) -> [(label: String, count: Int, share: String)] {
        shares.map { ($0.label, $0.count, "\($0.percent)%") }
    }

    /// The labels beneath the time of day's columns (every sixth hour) and the weekdays'.
    static let hourLabels = (0..<24).map { $0 % 6 == 0 ? ProgressPage.hourLabel($0) : "" }
    static let weekdayLabels = LocalDay.weekdayNames.map { String($0.prefix(3)) }
}
