import CraveyTracker
import Foundation
import TerminalKit

/// `cravey report`: a period's report as one printable, self-contained page (A4, light) to bring
/// to a therapist — the period and the goal, the main figures, a day-by-day calendar in the manner
/// of the Timeline Followback (weeks as rows; each day its amount per method, its cravings and
/// the strongest), the progress charts and their sentences, the messages that help, and the notes
/// only when asked for. As the progress page: no script, nothing loaded from anywhere, and the
/// page's own policy (`default-src 'none'`) forbids any request a browser might otherwise make.
enum ReportPage {
    static func html(_ report: Report, generated: Date = Date()) -> String {
        let f = report.figures
        let escape = ProgressPage.escape
        let days = report.to - report.from + 1
        let period =
            "\(report.from.span(toWithYear: report.to)) (\(ProgressFigures.days(days)))"
        let goal = f.goal.map { "\($0.label) — “\($0.line)”" } ?? "No goal chosen"
        var body = section("Figures", figures(f), wide: true)
        body += section(
            "Day by day",
            "<p class=\"note\">Each day: the amount used per method (0: none logged; —: before tracking began), then the cravings logged and the strongest (1–10).</p>"
                + calendar(report), wide: true)
        body += section(
            "Craving intensity over time", ProgressPage.intensityChart(f) + sentence(f.intensityInsight), wide: true)
        body += section("Amounts", ProgressPage.amountCharts(f) + sentence(f.amountsInsight), wide: true)
        body += section(
            "Triggers",
            ProgressPage.bars(f.triggers.map { ($0.label, $0.count, "\($0.percent)%") })
                + sentence(f.triggerInsight))
        body += section(
            "Places",
            ProgressPage.bars(f.locations.map { ($0.label, $0.count, "\($0.percent)%") })
                + sentence(f.locationInsight))
        body += section(
            "Time of day",
            (f.cravings > 0
                ? ProgressPage.columns(f.hours, labels: (0..<24).map { $0 % 6 == 0 ? ProgressPage.hourLabel($0) : "" })
                : "")
                + sentence(f.timeInsight))
        body += section(
            "Weekdays",
            (f.cravings > 0
                ? ProgressPage.columns(f.weekdays, labels: LocalDay.weekdayNames.map { String($0.prefix(3)) }) : "")
                + sentence(f.weekdayInsight))
        body += section(
            "Methods",
            ProgressPage.bars(f.methods.map { ($0.label, $0.count, "\($0.percent)%") })
                + sentence(f.methodInsight))
        for help in ProgressPage.helpCards(f) {
            body += section(
                ProgressPage.plain(help.title),
                (help.figure.map { "<p class=\"figure\">\(escape(ProgressPage.plain($0)))</p>" } ?? "") + help.html
                    + sentence(help.sentence))
        }
        if !report.notes.isEmpty { body += section("Notes", notes(report.notes), wide: true) }
        return ProgressPage.head(title: "Report", style: ProgressPage.style + "\n" + style)
            + """
            <body>
            <header><h1>Cannabis use and cravings: a report</h1>
            <p class="range"><strong>Period</strong>: \(escape(period))</p>
            <p class="range"><strong>Goal</strong>: \(escape(goal))</p>
            <p class="period">Made by cravey on \(escape(LocalDay(generated, in: .current).text)) from the person's own logs, on their device; shared only by them.\(report.notes.isEmpty ? "" : " With their notes.")</p></header>
            <main>
            \(body)</main>
            </body>
            </html>

            """
    }

    /// Light only, on A4 paper; sections kept whole and the calendar's head repeated on each page.
    static let style = """
        html:root { color-scheme: light; --bg: #ffffff; --card: #ffffff; --text: #1f2328; --muted: #5b6169; --line: #c9ccc6; --accent: #167a74; --track: #e8ebe6; }
        @page { size: A4; margin: 12mm; }
        main { grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); }
        h1 { font-size: 24px; }
        .note { color: var(--muted); font-size: 13px; margin: 0 0 8px; }
        table.calendar { width: 100%; border-collapse: collapse; table-layout: fixed; font-size: 12px; }
        .calendar th { color: var(--muted); font-weight: 600; text-align: left; padding: 2px 4px; }
        .calendar td { border: 1px solid var(--line); vertical-align: top; padding: 3px 4px; height: 58px; }
        .calendar td.out { background: var(--track); border-color: var(--track); }
        .calendar .date { font-weight: 650; display: block; }
        .calendar .use { display: block; }
        .calendar .zero { color: var(--muted); display: block; }
        .calendar .cravings { display: block; color: var(--accent); }
        .calendar tr { break-inside: avoid; }
        .calendar thead { display: table-header-group; }
        dl.figures { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
        dl.figures dt { color: var(--muted); }
        dl.figures dd { margin: 0; }
        .notes { margin: 0; padding-left: 18px; }
        @media print { body { font-size: 12px; } header, main { max-width: none; padding-left: 0; padding-right: 0; } section { padding: 10px 12px; } }
        """

    static func section(_ title: String, _ html: String, wide: Bool = false) -> String {
        "<section\(wide ? " class=\"wide\"" : "")><h2>\(ProgressPage.escape(title))</h2>\(html)</section>\n"
    }

    static func sentence(_ text: String?) -> String {
        text.map { "<p class=\"insight\">\(ProgressPage.escape(ProgressPage.plain($0)))</p>" } ?? ""
    }

    /// The main figures as a list of terms and values.
    static func figures(_ f: ProgressFigures) -> String {
        var rows: [(String, String)] = [
            ("Logged", f.summaryLine),
            ("Cravings resisted", f.cravings > 0 ? "\(f.resistedText) (\(f.resistedPercent ?? 0)%)" : "—"),
            ("Days in Progress", f.daysInProgress.map(String.init) ?? "—"),
            ("Since the last use", f.daysSinceLastUseText ?? (f.everUsed ? "a use on the last day" : "no use logged")),
            (ProgressPage.plain(f.longestStreakTitle), f.longestStreakText ?? "—"),
            (ProgressPage.plain(f.reductionTitle), f.reductionText ?? ProgressPage.plain(f.reductionInsight)),
        ]
        if let trend = f.intensityTrend {
            rows.append(("Craving intensity", "first \(level(trend.first))/10, last \(level(trend.last))/10"))
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
        return "<dl class=\"figures\">"
            + rows.map {
                "<dt>\(ProgressPage.escape($0.0))</dt><dd>\(ProgressPage.escape(ProgressPage.plain($0.1)))</dd>"
            }.joined() + "</dl>"
    }

    private static func level(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }

    /// The calendar: a row per week, Monday first; a day outside the period is an empty cell.
    static func calendar(_ report: Report) -> String {
        var out = "<table class=\"calendar\"><thead><tr>"
        for name in LocalDay.weekdayNames { out += "<th>\(name.prefix(3))</th>" }
        out += "</tr></thead><tbody>"
        // Days before the first log, message or check-in were not tracked: no use is known of them.
        let firstTracked = report.figures.daysInProgress.map { report.figures.today.number - $0 + 1 } ?? Int.max
        for week in report.weeks {
            out += "<tr>"
            for day in week {
                guard let day else {
                    out += "<td class=\"out\"></td>"
                    continue
                }
                let date = day.day.civil.day
                let label = date == 1 || day.day == report.from ? day.day.short : String(date)
                out += "<td class=\"day\" data-day=\"\(day.day.text)\"><span class=\"date\">\(label)</span>"
                if day.day.number < firstTracked {
                    out += "<span class=\"zero\" title=\"not tracked yet\">—</span>"
                } else if day.amounts.isEmpty {
                    out += "<span class=\"zero\">0</span>"
                }
                for amount in day.amounts {
                    out += "<span class=\"use\">\(ProgressPage.escape(amount.method.amountText(amount.amount)))</span>"
                }
                if day.cravings > 0 {
                    let cravings = day.cravings == 1 ? "1 craving" : "\(day.cravings) cravings"
                    out += "<span class=\"cravings\">\(cravings), peak \(day.peak ?? 0)</span>"
                }
                out += "</td>"
            }
            out += "</tr>"
        }
        return out + "</tbody></table>"
    }

    /// The notes, oldest first: when, what, and the words.
    static func notes(_ notes: [Report.Note]) -> String {
        "<ul class=\"notes\">"
            + notes.map {
                "<li><strong>\(ProgressPage.escape($0.time.localText))</strong> · \(ProgressPage.escape($0.what)): \(ProgressPage.escape($0.text))</li>"
            }.joined() + "</ul>"
    }
}
