import CraveyTracker
import Foundation
import TerminalKit

/// `progress --html`: the dashboard as one self-contained page — the same sections and sentences
/// with charts drawn as inline SVG, light or dark as the reader's system prefers, readable on
/// paper. Nothing is loaded from anywhere: no script, no link, no font, no image from outside,
/// and the page's own policy (Content-Security-Policy `default-src 'none'`) forbids any request
/// a browser might otherwise make, so opening it never touches the network.
enum ProgressPage {
    static func html(_ f: ProgressFigures, generated: Date = Date()) -> String {
        var body = ""
        func card(
            _ title: String, _ figure: String? = nil, _ chart: String = "", _ sentence: String?, wide: Bool = false
        ) {
            body += "<section\(wide ? " class=\"wide\"" : "")><h2>\(escape(title))</h2>"
            if let figure { body += "<p class=\"figure\">\(escape(figure))</p>" }
            body += chart
            if let sentence { body += "<p class=\"insight\">\(escape(sentence))</p>" }
            body += "</section>\n"
        }
        card("Summary", f.summaryLine, "", f.summaryInsight)
        card(f.currentStreakTitle, f.currentStreakText, "", f.currentStreakInsight ?? ProgressFigures.startLogging)
        card(f.longestStreakTitle, f.longestStreakText ?? "—", "", nil)
        card(
            "🌱 Days in Progress", f.daysInProgress.map(String.init) ?? "—",
            f.daysSinceLastUseText.map { "<p>\(escape($0))</p>" } ?? "", f.daysInProgressInsight)
        card("📈 Craving Intensity Over Time", nil, intensityChart(f), f.intensityInsight, wide: true)
        card("📊 Amount Trends", nil, amountCharts(f), f.amountsInsight, wide: true)
        card(
            "🧩 Trigger Breakdown", nil, bars(f.triggers.map { ($0.label, $0.count, "\($0.percent)%") }),
            f.triggerInsight)
        card(
            "📍 Location Patterns", nil, bars(f.locations.map { ($0.label, $0.count, "\($0.percent)%") }),
            f.locationInsight)
        card(
            "🕐 Time of Day Patterns", nil,
            f.cravings > 0 ? columns(f.hours, labels: (0..<24).map { $0 % 6 == 0 ? hourLabel($0) : "" }) : "",
            f.timeInsight)
        card(
            "📅 Weekly Patterns", nil,
            f.cravings > 0 ? columns(f.weekdays, labels: LocalDay.weekdayNames.map { String($0.prefix(3)) }) : "",
            f.weekdayInsight)
        card("🌿 Method Breakdown", nil, bars(f.methods.map { ($0.label, $0.count, "\($0.percent)%") }), f.methodInsight)
        card(
            "💪 Cravings Resisted", f.cravings > 0 ? "\(f.resisted) of \(f.cravings)" : nil,
            f.cravings > 0 ? "<p>\(escape(f.resistedText))</p>" : "",
            f.resistedInsight)
        card(f.reductionTitle, f.reductionText, "", f.reductionInsight)
        let chips = ProgressRange.allCases.map { "<span class=\"chip\($0 == f.range ? " on" : "")\">\($0.chip)</span>" }
            .joined(separator: " ")
        let period = "\(f.from.span(to: f.today, currentYear: f.currentYear)), \(f.today.civil.year)"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>cravey — Progress</title>
            <style>
            \(style)
            </style>
            </head>
            <body>
            <header><h1>📊 Progress</h1><p class="range">\(chips)</p><p class="period">\(escape(period)) · made by cravey on \(escape(LocalDay(generated, in: .current).text)), on this device only</p></header>
            <main>
            \(body)</main>
            </body>
            </html>

            """
    }

    static let style = """
        :root { color-scheme: light dark; --bg: #fbfaf7; --card: #ffffff; --text: #1f2328; --muted: #5b6169; --line: #d9dcd6; --accent: #167a74; --track: #e8ebe6; }
        @media (prefers-color-scheme: dark) { :root { --bg: #15181c; --card: #1e2227; --text: #e8eaed; --muted: #a4abb4; --line: #3a4048; --accent: #5cc8bd; --track: #2c3238; } }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--text); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Cantarell, "Noto Sans", sans-serif; }
        header { padding: 24px 24px 8px; max-width: 980px; margin: 0 auto; }
        h1 { margin: 0 0 8px; font-size: 28px; }
        .chip { display: inline-block; padding: 2px 12px; margin-right: 4px; border: 1px solid var(--line); border-radius: 999px; color: var(--muted); }
        .chip.on { background: var(--accent); border-color: var(--accent); color: var(--card); font-weight: 600; }
        .period { color: var(--muted); margin: 8px 0 0; font-size: 14px; }
        main { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: 16px; padding: 16px 24px 32px; max-width: 980px; margin: 0 auto; }
        section { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 16px 18px; break-inside: avoid; }
        section.wide { grid-column: 1 / -1; }
        h2 { font-size: 17px; margin: 0 0 6px; }
        .figure { font-size: 24px; font-weight: 650; margin: 4px 0; }
        .insight { margin: 8px 0 0; }
        svg { display: block; width: 100%; height: auto; }
        svg text { fill: var(--muted); font: 13px system-ui, sans-serif; }
        .axis { stroke: var(--line); stroke-width: 1; }
        .grid { stroke: var(--track); stroke-width: 1; }
        .line { fill: none; stroke: var(--accent); stroke-width: 2.5; stroke-linejoin: round; stroke-linecap: round; }
        .dot { fill: var(--accent); }
        .bar { fill: var(--accent); }
        .track { fill: var(--track); }
        @media print { body { background: #fff; color: #000; } section { border-color: #bbb; } }
        """

    /// Text for HTML: the five characters that could start markup escaped.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    private static func number(_ value: Double) -> String { String(format: "%.1f", value) }

    private static func hourLabel(_ hour: Int) -> String {
        hour == 0 ? "12a" : hour == 12 ? "12p" : hour < 12 ? "\(hour)a" : "\(hour - 12)p"
    }

    /// Intensity 1–10 over the range: a line through the mean of each of up to 300 slices of time.
    static func intensityChart(_ f: ProgressFigures) -> String {
        let (w, h, left, bottom) = (720.0, 220.0, 34.0, 24.0)
        let plotW = w - left - 10
        let plotH = h - bottom - 10
        var svg = "<svg viewBox=\"0 0 \(Int(w)) \(Int(h))\" role=\"img\" aria-label=\"Craving intensity over time\">"
        for level in [1, 5, 10] {
            let y = 10 + plotH * (1 - Double(level - 1) / 9)
            svg +=
                "<line class=\"grid\" x1=\"\(number(left))\" y1=\"\(number(y))\" x2=\"\(number(w - 10))\" y2=\"\(number(y))\"/>"
            svg += "<text x=\"\(number(left - 6))\" y=\"\(number(y + 4))\" text-anchor=\"end\">\(level)</text>"
        }
        svg +=
            "<line class=\"axis\" x1=\"\(number(left))\" y1=\"\(number(10 + plotH))\" x2=\"\(number(w - 10))\" y2=\"\(number(10 + plotH))\"/>"
        svg += "<text x=\"\(number(left))\" y=\"\(number(h - 6))\">\(escape(f.from.short))</text>"
        svg +=
            "<text x=\"\(number(w - 10))\" y=\"\(number(h - 6))\" text-anchor=\"end\">\(escape(f.today.short))</text>"
        let slices = 300
        var sums = [Double](repeating: 0, count: slices)
        var counts = [Int](repeating: 0, count: slices)
        for point in f.intensity {
            let slice = max(0, min(slices - 1, Int(f.position(point.time) * Double(slices))))
            sums[slice] += Double(point.intensity)
            counts[slice] += 1
        }
        let points = (0..<slices).compactMap { s -> (Double, Double)? in
            counts[s] == 0
                ? nil
                : (
                    left + plotW * (Double(s) + 0.5) / Double(slices),
                    10 + plotH * (1 - (sums[s] / Double(counts[s]) - 1) / 9)
                )
        }
        if points.count > 1 {
            svg +=
                "<polyline class=\"line\" points=\""
                + points.map { "\(number($0.0)),\(number($0.1))" }.joined(separator: " ") + "\"/>"
        }
        if points.count <= 60 {
            for (x, y) in points { svg += "<circle class=\"dot\" cx=\"\(number(x))\" cy=\"\(number(y))\" r=\"4\"/>" }
        }
        return svg + "</svg>"
    }

    /// Each method's daily totals as columns across the range, with its total.
    static func amountCharts(_ f: ProgressFigures) -> String {
        var out = ""
        for (method, points) in f.amounts {
            let (w, h) = (720.0, 70.0)
            let slices = min(180, f.today - f.from + 1)
            var sums = [Double](repeating: 0, count: slices)
            for point in points {
                let slice = max(
                    0, min(slices - 1, Int(Double(point.day - f.from) / Double(f.today - f.from + 1) * Double(slices))))
                sums[slice] += point.amount
            }
            let top = sums.max() ?? 1
            let total = method.amountText(points.reduce(0) { $0 + $1.amount })
            out +=
                "<p>\(escape(method.label)): \(escape(total))</p><svg viewBox=\"0 0 \(Int(w)) \(Int(h))\" role=\"img\" aria-label=\"\(escape(method.label)) over time\">"
            out += "<line class=\"axis\" x1=\"0\" y1=\"\(number(h - 1))\" x2=\"\(number(w))\" y2=\"\(number(h - 1))\"/>"
            let slot = w / Double(slices)
            for (i, sum) in sums.enumerated() where sum > 0 {
                let barH = max(2, (h - 4) * sum / top)
                out +=
                    "<rect class=\"bar\" x=\"\(number(Double(i) * slot + slot * 0.15))\" y=\"\(number(h - 1 - barH))\" width=\"\(number(max(1, slot * 0.7)))\" height=\"\(number(barH))\" rx=\"1\"/>"
            }
            out += "</svg>"
        }
        return out
    }

    /// Horizontal bars, each as long as its count against the largest, with its share.
    static func bars(_ rows: [(label: String, count: Int, share: String)]) -> String {
        guard let top = rows.map(\.count).max(), top > 0 else { return "" }
        let (w, rowH) = (300.0, 26.0)
        let labelW = min(150, 8 * Double(rows.map(\.label.count).max() ?? 8) + 8)
        var svg = "<svg viewBox=\"0 0 \(Int(w)) \(Int(rowH * Double(rows.count)))\" role=\"img\">"
        for (i, row) in rows.enumerated() {
            let y = Double(i) * rowH
            let barW = (w - labelW - 50) * Double(row.count) / Double(top)
            svg += "<text x=\"0\" y=\"\(number(y + 17))\">\(escape(row.label))</text>"
            svg +=
                "<rect class=\"track\" x=\"\(number(labelW))\" y=\"\(number(y + 6))\" width=\"\(number(w - labelW - 50))\" height=\"14\" rx=\"3\"/>"
            svg +=
                "<rect class=\"bar\" x=\"\(number(labelW))\" y=\"\(number(y + 6))\" width=\"\(number(max(2, barW)))\" height=\"14\" rx=\"3\"/>"
            svg += "<text x=\"\(number(w))\" y=\"\(number(y + 17))\" text-anchor=\"end\">\(escape(row.share))</text>"
        }
        return svg + "</svg>"
    }

    /// Columns, one per value, labelled beneath.
    static func columns(_ values: [Int], labels: [String]) -> String {
        let (w, h, bottom) = (300.0, 120.0, 18.0)
        let top = Double(values.max() ?? 0)
        let slot = w / Double(values.count)
        var svg = "<svg viewBox=\"0 0 \(Int(w)) \(Int(h))\" role=\"img\">"
        svg +=
            "<line class=\"axis\" x1=\"0\" y1=\"\(number(h - bottom))\" x2=\"\(number(w))\" y2=\"\(number(h - bottom))\"/>"
        for (i, value) in values.enumerated() {
            if value > 0, top > 0 {
                let barH = (h - bottom - 6) * Double(value) / top
                svg +=
                    "<rect class=\"bar\" x=\"\(number(Double(i) * slot + slot * 0.15))\" y=\"\(number(h - bottom - barH))\" width=\"\(number(slot * 0.7))\" height=\"\(number(barH))\" rx=\"2\"/>"
            }
            if !labels[i].isEmpty {
                let anchor = i == 0 ? "start" : "middle"
                svg +=
                    "<text x=\"\(number(i == 0 ? 0 : Double(i) * slot + slot / 2))\" y=\"\(number(h - 4))\" text-anchor=\"\(anchor)\">\(escape(labels[i]))</text>"
            }
        }
        return svg + "</svg>"
    }
}
