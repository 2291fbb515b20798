import CraveyDocument
import CraveyLibrary
import CraveyTracker
import Foundation

/// `cravey report --pdf`: the report drawn as A4 pages in cravey's own process (cairo and pango):
/// the same content as the HTML page (`ReportPage`) — the period and the goal, the main figures,
/// the day-by-day calendar, the progress charts and their sentences, the messages that help, and
/// the notes only when asked for — as vector shapes and text. A section is kept whole on a page
/// where it fits; a longer one (the calendar, the notes) breaks between its rows and goes on,
/// titled again, with the calendar's weekdays repeated.
enum ReportPDF {
    /// The drawing stopped because a stop was asked for (Ctrl-C, SIGTERM, SIGHUP).
    struct Stopped: Error {}

    /// The PDF's bytes; `stopRequested` is asked between rows. The fonts' cache, if fontconfig
    /// writes one, goes into a private folder in `temporaryDirectory`, removed before this returns.
    static func document(
        _ report: Report, generated: Date, temporaryDirectory: String,
        stopRequested: @escaping () -> Bool = { false }
    ) throws -> Data {
        let pdf = try PDFDocument(
            width: Page.width, height: Page.height, title: ReportContent.title, temporaryDirectory: temporaryDirectory)
        let canvas = ReportCanvas(pdf, stopRequested: stopRequested)
        let content = ReportContent(report: report, generated: generated)
        try canvas.header(content)
        for block in blocks(content) {
            switch block {
            case let .wide(section): try canvas.place(section)
            case let .pair(left, right): try canvas.place(left, beside: right)
            }
        }
        canvas.footer()
        return try pdf.finish()
    }

    /// A4 in points, its margin (12 mm) and the space between sections.
    enum Page {
        static let width = 595.28
        static let height = 841.89
        static let margin = 34.0
        static let gap = 10.0
    }

    /// The page's colours (as the printed HTML page's light ones).
    enum Ink {
        static let text = PDFDocument.Color(0x1F2328)
        static let muted = PDFDocument.Color(0x5B6169)
        static let line = PDFDocument.Color(0xC9CCC6)
        static let accent = PDFDocument.Color(0x167A74)
        static let track = PDFDocument.Color(0xE8EBE6)
    }

    enum Typeface {
        static let title = PDFDocument.Font(size: 17, bold: true)
        static let heading = PDFDocument.Font(size: 11, bold: true)
        static let body = PDFDocument.Font(size: 9)
        static let strong = PDFDocument.Font(size: 9, bold: true)
        static let small = PDFDocument.Font(size: 7.5)
        static let smallStrong = PDFDocument.Font(size: 7.5, bold: true)
        static let figure = PDFDocument.Font(size: 15, bold: true)
    }

    /// A section on the page: a title, an introduction, rows drawn one under another, and a head
    /// above the rows, repeated where the section goes on over a page.
    struct Section {
        var title: String
        var intro: [Row] = []
        var head: Row?
        var rows: [Row]
    }

    /// Draws itself with its top left corner at (x, y) in `width` and gives the height it took;
    /// on a measuring canvas it only gives the height.
    typealias Row = (_ canvas: ReportCanvas, _ x: Double, _ y: Double, _ width: Double) -> Double

    enum Block {
        case wide(Section)
        case pair(Section, Section?)
    }

    /// The sections in the HTML page's order: the wide ones across the page, the narrow ones two
    /// by two.
    static func blocks(_ content: ReportContent) -> [Block] {
        let f = content.report.figures
        var wide: [Block] = [
            .wide(Section(title: "Figures", rows: content.figures.map(figureRow))),
            .wide(
                Section(
                    title: "Day by day",
                    intro: [paragraph(ReportContent.calendarNote, font: Typeface.small, color: Ink.muted)],
                    head: weekdayRow, rows: content.weeks.map(weekRow))),
            .wide(
                Section(
                    title: "Craving intensity over time", rows: [intensityChart(f)] + sentence(f.intensityInsight))),
            .wide(
                Section(
                    title: "Amounts",
                    rows: f.amounts.flatMap { method, points in
                        [
                            paragraph(
                                ProgressFigures.amountLabel(method, points), font: Typeface.body, color: Ink.text),
                            amountChart(f, points),
                        ]
                    } + sentence(f.amountsInsight))),
        ]
        if let chart = f.withdrawalChart {
            wide.append(
                .wide(
                    Section(
                        title: ProgressPage.plain(ProgressFigures.withdrawalTitle),
                        rows: (withdrawalLines(chart) + [chart.axis]).map {
                            paragraph($0, font: Typeface.small, color: Ink.text)
                        }
                            + sentence(WithdrawalWindow.timeCourse))))
        }
        var narrow = [
            Section(title: "Triggers", rows: bars(ReportContent.shares(f.triggers)) + sentence(f.triggerInsight)),
            Section(title: "Places", rows: bars(ReportContent.shares(f.locations)) + sentence(f.locationInsight)),
            Section(
                title: "Time of day",
                rows: (f.cravings > 0 ? [columns(f.hours, labels: ReportContent.hourLabels)] : [])
                    + sentence(f.timeInsight)),
            Section(
                title: "Weekdays",
                rows: (f.cravings > 0 ? [columns(f.weekdays, labels: ReportContent.weekdayLabels)] : [])
                    + sentence(f.weekdayInsight)),
            Section(title: "Methods", rows: bars(ReportContent.shares(f.methods)) + sentence(f.methodInsight)),
        ]
        narrow += [
            Section(
                title: ProgressPage.plain(ProgressFigures.messagesTitle),
                rows: f.messages.map { bullet(ProgressFigures.messageLine($0)) } + sentence(f.messagesInsight)),
            Section(
                title: ProgressPage.plain(ProgressFigures.lengthTitle),
                rows: (f.cravingLengthText.map { [paragraph($0, font: Typeface.figure, color: Ink.text)] } ?? [])
                    + sentence(f.cravingLengthInsight)),
        ]
        wide += stride(from: 0, to: narrow.count, by: 2).map {
            .pair(narrow[$0], $0 + 1 < narrow.count ? narrow[$0 + 1] : nil)
        }
        if let limits = f.limits {
            wide.append(.wide(Section(title: "Limits", rows: limits.lines.map(bullet) + sentence(limits.sentence))))
        }
        if !content.report.plans.isEmpty {
            wide.append(.wide(Section(title: "Plans", rows: content.report.plans.map { bullet($0.sentence) })))
        }
        if !content.report.notes.isEmpty {
            wide.append(.wide(Section(title: "Notes", rows: content.report.notes.map(noteRow))))
        }
        if let screens = content.report.screens {
            wide.append(
                .wide(
                    Section(
                        title: SelfScreenWords.reportTitle,
                        rows: SelfScreenWords.reportLines(screens).map {
                            paragraph($0, font: Typeface.body, color: Ink.text)
                        })))
        }
        return wide
    }

    /// Words wrapped to the row's width (emoji left out: no font may have them).
    static func paragraph(_ text: String, font: PDFDocument.Font, color: PDFDocument.Color) -> Row {
        { canvas, x, y, width in
            canvas.text(ProgressPage.plain(text), x: x, y: y, width: width, font: font, color: color) + 3
        }
    }

    static func sentence(_ text: String?) -> [Row] {
        guard let text else { return [] }
        let words = paragraph(text, font: Typeface.body, color: Ink.text)
        return [{ canvas, x, y, width in 4 + words(canvas, x, y + 4, width) }]
    }

    static func bullet(_ text: String) -> Row {
        { canvas, x, y, width in
            canvas.text("•", x: x, y: y, font: Typeface.body, color: Ink.accent)
            return paragraph(text, font: Typeface.body, color: Ink.text)(canvas, x + 10, y, width - 10)
        }
    }

    static func figureRow(_ figure: (term: String, value: String)) -> Row {
        { canvas, x, y, width in
            let termWidth = min(150, width * 0.3)
            let term = canvas.text(figure.term, x: x, y: y, width: termWidth, font: Typeface.body, color: Ink.muted)
            let value = canvas.text(
                figure.value, x: x + termWidth + 10, y: y, width: width - termWidth - 10, font: Typeface.body,
                color: Ink.text)
            return max(term, value) + 4
        }
    }

    static func weekdayRow(_ canvas: ReportCanvas, _ x: Double, _ y: Double, _ width: Double) -> Double {
        for (index, name) in ReportContent.weekdayLabels.enumerated() {
            canvas.text(
                name, x: x + width / 7 * Double(index) + 3, y: y, font: Typeface.smallStrong, color: Ink.muted)
        }
        return 12
    }

    /// A week of the calendar: seven cells as tall as the fullest, a day outside the period shaded.
    static func weekRow(_ week: [ReportContent.Cell?]) -> Row {
        { canvas, x, y, width in
            let cellWidth = width / 7
            let heights = week.map { cell in
                cell.map { cell in
                    3
                        + cell.lines.reduce(
                            canvas.height(of: cell.label, font: Typeface.smallStrong, width: cellWidth - 6)
                        ) {
                            $0 + canvas.height(of: $1.text, font: Typeface.small, width: cellWidth - 6)
                        } + 3
                } ?? 0
            }
            let height = max(40, heights.max() ?? 0)
            for (index, cell) in week.enumerated() {
                let left = x + cellWidth * Double(index)
                guard let cell else {
                    canvas.fill(x: left, y: y, width: cellWidth, height: height, color: Ink.track)
                    continue
                }
                canvas.frame(x: left, y: y, width: cellWidth, height: height, lineWidth: 0.6, color: Ink.line)
                var top = y + 3
                top += canvas.text(
                    cell.label, x: left + 3, y: top, width: cellWidth - 6, font: Typeface.smallStrong, color: Ink.text)
                for line in cell.lines {
                    let color =
                        switch line.kind {
                        case .untracked, .zero, .notReported, .notRemembered: Ink.muted
                        case .use: Ink.text
                        case .cravings: Ink.accent
                        }
                    top += canvas.text(
                        line.text, x: left + 3, y: top, width: cellWidth - 6, font: Typeface.small, color: color)
                }
            }
            return height
        }
    }

    /// Intensity 1–10 over the period: the line through the means of slices of time (as the
    /// HTML page's chart), its levels and dates.
    static func intensityChart(_ f: ProgressFigures) -> Row {
        { canvas, x, y, width in
            let (height, left, bottom) = (130.0, 20.0, 14.0)
            let plotWidth = width - left - 4
            let plotHeight = height - bottom - 6
            for level in [1, 5, 10] {
                let levelY = y + 6 + plotHeight * (1 - Double(level - 1) / 9)
                canvas.line([(x + left, levelY), (x + width - 4, levelY)], lineWidth: 0.6, color: Ink.track)
                canvas.text(
                    String(level), x: x, y: levelY - 5, width: left - 5, font: Typeface.small, color: Ink.muted,
                    alignment: .right)
            }
            canvas.line(
                [(x + left, y + 6 + plotHeight), (x + width - 4, y + 6 + plotHeight)], lineWidth: 0.6, color: Ink.line)
            dates(canvas, f, y: y + height - 10, left: x + left, right: x + width - 4)
            let points = f.intensityMeans(slices: 300).map {
                (
                    x: x + left + plotWidth * (Double($0.slice) + 0.5) / 300,
                    y: y + 6 + plotHeight * (1 - ($0.mean - 1) / 9)
                )
            }
            canvas.line(points, lineWidth: 1.6, color: Ink.accent)
            if points.count <= 60 {
                for point in points { canvas.dot(x: point.x, y: point.y, radius: 2.4, color: Ink.accent) }
            }
            return height + 4
        }
    }

    /// A method's daily amounts as columns on its own scale, 0 to its busiest day.
    static func amountChart(_ f: ProgressFigures, _ points: [ProgressFigures.AmountPoint]) -> Row {
        { canvas, x, y, width in
            let (height, left, bottom) = (66.0, 26.0, 13.0)
            let plotWidth = width - left - 4
            let plotHeight = height - bottom - 5
            let values = f.amountColumns(points, most: 180)
            let top = max(values.max() ?? 1, 0.5)
            for (value, lineY) in [(top, y + 5), (0, y + 5 + plotHeight)] {
                canvas.line([(x + left, lineY), (x + width - 4, lineY)], lineWidth: 0.6, color: Ink.track)
                canvas.text(
                    Method.number(value), x: x, y: lineY - 5, width: left - 5, font: Typeface.small, color: Ink.muted,
                    alignment: .right)
            }
            let slot = plotWidth / Double(values.count)
            for (index, value) in values.enumerated() where value > 0 {
                let barHeight = max(1.5, plotHeight * value / top)
                canvas.fill(
                    x: x + left + Double(index) * slot + slot * 0.15, y: y + 5 + plotHeight - barHeight,
                    width: max(0.7, slot * 0.7), height: barHeight, radius: 0.7, color: Ink.accent)
            }
            dates(canvas, f, y: y + height - 10, left: x + left, right: x + width - 4)
            return height + 4
        }
    }

    /// The period's first, middle and last day along a chart's bottom.
    static func dates(_ canvas: ReportCanvas, _ f: ProgressFigures, y: Double, left: Double, right: Double) {
        let days = f.today - f.from + 1
        canvas.text(f.from.short, x: left, y: y, font: Typeface.small, color: Ink.muted)
        if days > 2 {
            let middle = left + (right - left) * (Double(days / 2) + 0.5) / Double(days)
            canvas.text(
                LocalDay(number: f.from.number + days / 2).short, x: middle - 40, y: y, width: 80, font: Typeface.small,
                color: Ink.muted, alignment: .center)
        }
        canvas.text(
            f.today.short, x: right - 80, y: y, width: 80, font: Typeface.small, color: Ink.muted, alignment: .right)
    }

    /// Horizontal bars, each as long as its count against the largest, with its share.
    static func bars(_ rows: [(label: String, count: Int, share: String)]) -> [Row] {
        guard let most = rows.map(\.count).max(), most > 0 else { return [] }
        return [
            { canvas, x, y, width in
                let labelWidth = min(
                    width * 0.5, (rows.map { canvas.width(of: $0.label, font: Typeface.body) }.max() ?? 0) + 8)
                let track = width - labelWidth - 32
                for (index, row) in rows.enumerated() {
                    let top = y + 17 * Double(index)
                    canvas.text(row.label, x: x, y: top + 2, font: Typeface.body, color: Ink.text)
                    canvas.fill(x: x + labelWidth, y: top + 4, width: track, height: 9, radius: 2.5, color: Ink.track)
                    canvas.fill(
                        x: x + labelWidth, y: top + 4, width: max(2, track * Double(row.count) / Double(most)),
                        height: 9,
                        radius: 2.5, color: Ink.accent)
                    canvas.text(
                        row.share, x: x + width - 30, y: top + 2, width: 30, font: Typeface.body, color: Ink.muted,
                        alignment: .right)
                }
                return 17 * Double(rows.count)
            }
        ]
    }

    /// Columns, one per value, labelled beneath.
    static func columns(_ values: [Int], labels: [String]) -> Row {
        { canvas, x, y, width in
            let (height, bottom) = (80.0, 13.0)
            let most = Double(values.max() ?? 0)
            let slot = width / Double(values.count)
            canvas.line([(x, y + height - bottom), (x + width, y + height - bottom)], lineWidth: 0.6, color: Ink.line)
            for (index, value) in values.enumerated() {
                if value > 0, most > 0 {
                    let barHeight = (height - bottom - 4) * Double(value) / most
                    canvas.fill(
                        x: x + Double(index) * slot + slot * 0.15, y: y + height - bottom - barHeight,
                        width: slot * 0.7,
                        height: barHeight, radius: 1.2, color: Ink.accent)
                }
                guard !labels[index].isEmpty else { continue }
                let center = x + Double(index) * slot + slot / 2
                canvas.text(
                    labels[index], x: index == 0 ? x : center - 20, y: y + height - 10, width: 40,
                    font: Typeface.small, color: Ink.muted, alignment: index == 0 ? .left : .center)
            }
            return height
        }
    }

    /// A note: when and what, then the words.
    static func noteRow(_ note: Report.Note) -> Row {
        { canvas, x, y, width in
            let head = canvas.text(
                "\(note.time.localText) · \(note.what)", x: x, y: y, width: width, font: Typeface.strong,
                color: Ink.text)
            return head
                + canvas.text(
                    note.text, x: x + 10, y: y + head, width: width - 10, font: Typeface.body, color: Ink.text)
                + 5
        }
    }
}
