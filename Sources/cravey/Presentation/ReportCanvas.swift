import CraveyDocument
import Foundation

/// The report's pages as they fill: where the next section goes, a new page where it does not
/// fit. A row is measured by running it on the canvas while `drawing` is off (the same code
/// draws and measures, so the two never disagree).
final class ReportCanvas {
    typealias Page = ReportPDF.Page
    typealias Ink = ReportPDF.Ink
    typealias Typeface = ReportPDF.Typeface

    private let pdf: PDFDocument
    private let stopRequested: () -> Bool
    private var drawing = true
    /// Where the next block goes on this page.
    private var y = Page.margin
    private var pageNumber = 1
    /// Inside a section's frame: from its edge to its words.
    private let padding = 9.0

    init(_ pdf: PDFDocument, stopRequested: @escaping () -> Bool) {
        (self.pdf, self.stopRequested) = (pdf, stopRequested)
    }

    private var width: Double { Page.width - 2 * Page.margin }
    private var bottom: Double { Page.height - Page.margin - 12 }
    private var atTop: Bool { y == Page.margin }

    // MARK: Drawing (nothing while measuring)

    @discardableResult
    func text(
        _ text: String, x: Double, y: Double, width: Double? = nil, font: PDFDocument.Font,
        color: PDFDocument.Color, alignment: PDFDocument.Alignment = .left
    ) -> Double {
        drawing
            ? pdf.text(text, x: x, y: y, width: width, font: font, color: color, alignment: alignment)
            : pdf.measure(text, font: font, width: width).height
    }

    func height(of text: String, font: PDFDocument.Font, width: Double) -> Double {
        pdf.measure(text, font: font, width: width).height
    }

    /// The width of `text` on one line.
    func width(of text: String, font: PDFDocument.Font) -> Double { pdf.measure(text, font: font).width }

    func fill(x: Double, y: Double, width: Double, height: Double, radius: Double = 0, color: PDFDocument.Color) {
        if drawing { pdf.fill(x: x, y: y, width: width, height: height, radius: radius, color: color) }
    }

    func frame(
        x: Double, y: Double, width: Double, height: Double, radius: Double = 0, lineWidth: Double,
        color: PDFDocument.Color
    ) {
        if drawing {
            pdf.frame(x: x, y: y, width: width, height: height, radius: radius, lineWidth: lineWidth, color: color)
        }
    }

    func dot(x: Double, y: Double, radius: Double, color: PDFDocument.Color) {
        if drawing { pdf.dot(x: x, y: y, radius: radius, color: color) }
    }

    func line(_ points: [(x: Double, y: Double)], lineWidth: Double, color: PDFDocument.Color) {
        if drawing { pdf.line(points, lineWidth: lineWidth, color: color) }
    }

    // MARK: Laying out

    /// The height `row` takes in `width`.
    func measure(_ row: ReportPDF.Row, width: Double) -> Double {
        let was = drawing
        drawing = false
        defer { drawing = was }
        return row(self, 0, 0, width)
    }

    /// The title, the period, the goal and who made it, at the top of the first page.
    func header(_ content: ReportContent) throws {
        y += text(ReportContent.title, x: Page.margin, y: y, width: width, font: Typeface.title, color: Ink.text) + 4
        for (term, value) in [("Period", content.period), ("Goal", content.goal)] {
            let termWidth = pdf.measure(term + ": ", font: Typeface.strong).width
            text(term + ":", x: Page.margin, y: y, font: Typeface.strong, color: Ink.text)
            y += text(
                value, x: Page.margin + termWidth, y: y, width: width - termWidth, font: Typeface.body, color: Ink.text)
        }
        y += 3
        y += text(content.madeBy, x: Page.margin, y: y, width: width, font: Typeface.small, color: Ink.muted) + Page.gap
    }

    /// A section across the page: whole where it fits (on this page or the next); a longer one
    /// breaks between its rows and goes on on the next page, titled again.
    func place(_ section: ReportPDF.Section) throws {
        let inner = width - 2 * padding
        let title = measure(heading(section.title), width: inner)
        let intro = section.intro.reduce(0) { $0 + measure($1, width: inner) }
        let head = section.head.map { measure($0, width: inner) } ?? 0
        let rows = section.rows.map { measure($0, width: inner) }
        let whole = 2 * padding + title + intro + head + rows.reduce(0, +)
        if y + whole > bottom, whole <= bottom - Page.margin { newPage() }
        var next = 0
        var first = true
        repeat {
            var end = next
            var height = 2 * padding + title + (first ? intro : 0) + head
            while end < rows.count, y + height + rows[end] <= bottom || (end == next && atTop) {
                height += rows[end]
                end += 1
            }
            if end == next, next < rows.count {
                newPage()
                continue
            }
            if stopRequested() { throw ReportPDF.Stopped() }
            draw(
                first ? section.title : section.title + " (continued)",
                rows: (first ? section.intro : []) + (section.head.map { [$0] } ?? []) + section.rows[next..<end],
                x: Page.margin, width: width, height: height)
            y += height + Page.gap
            (next, first) = (end, false)
            if next < rows.count { newPage() }
        } while next < rows.count
    }

    /// Two narrow sections side by side, kept whole, their frames as tall as the taller.
    func place(_ left: ReportPDF.Section, beside right: ReportPDF.Section?) throws {
        let column = (width - Page.gap) / 2
        let sections = [left] + (right.map { [$0] } ?? [])
        let heights = sections.map { section in
            2 * padding
                + ([heading(section.title)] + section.rows).reduce(0) {
                    $0 + measure($1, width: column - 2 * padding)
                }
        }
        let height = heights.max() ?? 0
        if y + height > bottom, !atTop { newPage() }
        if stopRequested() { throw ReportPDF.Stopped() }
        for (index, section) in sections.enumerated() {
            draw(
                section.title, rows: section.rows, x: Page.margin + Double(index) * (column + Page.gap), width: column,
                height: height)
        }
        y += height + Page.gap
    }

    /// The page number at the foot of the last page (the others have theirs).
    func footer() {
        text(
            "cravey · page \(pageNumber)", x: Page.margin, y: Page.height - Page.margin, width: width,
            font: Typeface.small,
            color: Ink.muted, alignment: .right)
    }

    private func newPage() {
        footer()
        pdf.newPage()
        pageNumber += 1
        y = Page.margin
    }

    private func heading(_ title: String) -> ReportPDF.Row {
        { canvas, x, y, width in
            canvas.text(ProgressPage.plain(title), x: x, y: y, width: width, font: Typeface.heading, color: Ink.text)
                + 4
        }
    }

    /// A section's frame, its title and `rows`, at the current height.
    private func draw<Rows: Sequence<ReportPDF.Row>>(
        _ title: String, rows: Rows, x: Double, width: Double, height: Double
    ) {
        frame(x: x, y: y, width: width, height: height, radius: 7, lineWidth: 0.8, color: Ink.line)
        var top = y + padding
        for row in [heading(title)] + Array(rows) { top += row(self, x + padding, top, width - 2 * padding) }
    }
}
