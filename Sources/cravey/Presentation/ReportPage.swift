import CraveyLibrary
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
    static func html(_ report: Report, generated: Date) -> String {
        let f = report.figures
        let escape = ProgressPage.escape
        let content = ReportContent(report: report, generated: generated)
        var body = section("Figures", figures(content), wide: true)
        body += section(
            "Day by day",
            "<p class=\"note\">\(escape(ReportContent.calendarNote))</p>" + calendar(content), wide: true)
        body += section(
            "Craving intensity over time", ProgressPage.intensityChart(f) + sentence(f.intensityInsight), wide: true)
        body += section("Amounts", ProgressPage.amountCharts(f) + sentence(f.amountsInsight), wide: true)
        body += section(
            "Triggers",
            ProgressPage.bars(ReportContent.shares(f.triggers))
                + sentence(f.triggerInsight))
        body += section(
            "Places",
            ProgressPage.bars(ReportContent.shares(f.locations))
                + sentence(f.locationInsight))
        body += section(
            "Time of day",
            (f.cravings > 0
                ? ProgressPage.columns(f.hours, labels: ReportContent.hourLabels)
                : "")
                + sentence(f.timeInsight))
        body += section(
            "Weekdays",
            (f.cravings > 0 ? ProgressPage.columns(f.weekdays, labels: ReportContent.weekdayLabels) : "")
                + sentence(f.weekdayInsight))
        body += section(
            "Methods",
            ProgressPage.bars(ReportContent.shares(f.methods))
                + sentence(f.methodInsight))
        for help in f.sections where [.withdrawal, .limits, .messages, .cravingLength].contains(help.kind) {
            let (figure, html) = ProgressPage.shown(help.kind, f)
            body += section(
                ProgressPage.plain(help.title),
                (figure.map { "<p class=\"figure\">\(escape(ProgressPage.plain($0)))</p>" } ?? "") + html
                    + sentence(help.sentence))
        }
        if !report.plans.isEmpty { body += section("Plans", PlanWords.html(report.plans), wide: true) }
        if !report.notes.isEmpty { body += section("Notes", notes(report.notes), wide: true) }
        if let screens = report.screens {
            body += section(
                SelfScreenWords.reportTitle,
                SelfScreenWords.reportLines(screens).map { "<p>\(ProgressPage.escape($0))</p>" }.joined(), wide: true)
        }
        return ProgressPage.head(title: "Report", style: ProgressPage.style + "\n" + style)
            + """
            <body>
            <header><h1>\(ReportContent.title)</h1>
            <p class="range"><strong>Period</strong>: \(escape(content.period))</p>
            <p class="range"><strong>Goal</strong>: \(escape(content.goal))</p>
            <p class="period">\(content.madeBy)</p></header>
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
    static func figures(_ content: ReportContent) -> String {
        "<dl class=\"figures\">"
            + content.figures.map {
                "<dt>\(ProgressPage.escape($0.term))</dt><dd>\(ProgressPage.escape($0.value))</dd>"
            }
            .joined() + "</dl>"
    }

    /// The calendar: a row per week, Monday first; a day outside the period is an empty cell.
    static func calendar(_ content: ReportContent) -> String {
        var out = "<table class=\"calendar\"><thead><tr>"
        for name in LocalDay.weekdayNames { out += "<th>\(name.prefix(3))</th>" }
        out += "</tr></thead><tbody>"
        for week in content.weeks {
            out += "<tr>"
            for cell in week {
                guard let cell else {
                    out += "<td class=\"out\"></td>"
                    continue
                }
                out += "<td class=\"day\" data-day=\"\(cell.day.text)\"><span class=\"date\">\(cell.label)</span>"
                for (kind, text) in cell.lines {
                    let attributes =
                        switch kind {
                        case .untracked: "class=\"zero\" title=\"not tracked yet\""
                        case .zero: "class=\"zero\" title=\"no use, confirmed\""
                        case .notReported: "class=\"zero\" title=\"not reported\""
                        case .notRemembered: "class=\"zero\" title=\"not remembered\""
                        case .use: "class=\"use\""
                        case .cravings: "class=\"cravings\""
                        }
                    out += "<span \(attributes)>\(ProgressPage.escape(text))</span>"
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
