import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

/// `progress --html`: the dashboard as one self-contained page — the same sections and sentences
/// with charts drawn as inline SVG, light or dark as the reader's system prefers, readable on
/// paper. Nothing is loaded from anywhere: no script, no link, no font, no image from outside,
/// and the page's own policy (Content-Security-Policy `default-src 'none'`) forbids any request
/// a browser might otherwise make, so opening it never touches the network.
enum ProgressPage {
    static func html(_ f: ProgressFigures, generated: Date) -> String {
        var body = ""
        func card(
            _ title: String, _ figure: String? = nil, _ chart: String = "", _ sentence: String?, wide: Bool = false
        ) {
            body += "<section\(wide ? " class=\"wide\"" : "")><h2>\(heading(title))</h2>"
            if let figure { body += "<p class=\"figure\">\(escape(plain(figure)))</p>" }
            body += chart
            if let sentence { body += "<p class=\"insight\">\(escape(plain(sentence)))</p>" }
            body += "</section>\n"
        }
        for section in f.sections {
            let (figure, html) = shown(section.kind, f)
            card(section.title, figure, html, section.sentence, wide: [.intensity, .amounts].contains(section.kind))
        }
        let period = f.from.span(toWithYear: f.today)
        let goal = f.goal.map { "Your goal: \($0.label)" } ?? "No goal chosen yet"
        let other =
            "cravey progress --html FILE --range "
            + ProgressRange.allCases.filter { $0 != f.range }.map(\.rawValue).joined(separator: "|")
        return head(title: "Progress", style: style)
            + """
            <body>
            <header><h1>\(heading("📊 Progress"))</h1><p class="range"><strong>\(escape(f.range.name))</strong>: \(escape(period)) · \(escape(goal))</p><p class="period">Made by cravey on \(escape(LocalDay(generated, in: .current).text)), on this device only. Another range: <code>\(escape(other))</code></p></header>
            <main>
            \(body)</main>
            </body>
            </html>

            """
    }

    /// What a section's card shows between its title and its sentence: its figure and its HTML.
    static func shown(_ kind: ProgressSection.Kind, _ f: ProgressFigures) -> (figure: String?, html: String) {
        switch kind {
        case .summary: return (f.summaryLine, "")
        case .currentStreak: return (f.currentStreakText, "")
        case .longestStreak: return (f.longestStreakText ?? "—", "")
        case .daysInProgress:
            return (
                f.daysInProgress.map(String.init) ?? "—",
                (f.daysSinceLastUseText.map { "<p>\(escape($0))</p>" } ?? "") + withdrawalParagraph(f)
            )
        case .intensity: return (nil, intensityChart(f))
        case .amounts: return (nil, amountCharts(f))
        case .triggers: return (nil, bars(f.triggers.map { ($0.label, $0.count, "\($0.percent)%") }))
        case .locations: return (nil, bars(f.locations.map { ($0.label, $0.count, "\($0.percent)%") }))
        case .timeOfDay:
            return (
                nil, f.cravings > 0 ? columns(f.hours, labels: (0..<24).map { $0 % 6 == 0 ? hourLabel($0) : "" }) : ""
            )
        case .weekdays:
            return (
                nil,
                f.cravings > 0 ? columns(f.weekdays, labels: LocalDay.weekdayNames.map { String($0.prefix(3)) }) : ""
            )
        case .methods: return (nil, bars(f.methods.map { ($0.label, $0.count, "\($0.percent)%") }))
        case .resisted:
            return (
                f.closedCravings > 0 ? "\(f.resisted) of \(f.closedCravings)" : nil,
                f.cravings > 0 ? "<p>\(escape(f.resistedText))</p>" : ""
            )
        case .reduction: return (f.reductionText, "")
        case .money: return (f.money?.figure, moneyParagraph(f))
        case .messages: return (nil, messageList(f))
        case .cravingLength: return (f.cravingLengthText, "")
        case .milestones: return (nil, milestoneList(f))
        case .withdrawal: return (nil, withdrawalChart(f))
        case .limits: return (nil, (f.limits?.lines ?? []).map { "<p>\(escape($0))</p>" }.joined())
        }
    }

    /// A page's head: its own policy (`default-src 'none'`) forbids every request a browser
    /// might make — scripts, fonts, images from anywhere but the page itself — and no referrer
    /// is ever sent; the style is inline.
    static func head(title: String, style: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
        <meta name="referrer" content="no-referrer">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>cravey — \(title)</title>
        <style>
        \(style)
        </style>
        </head>

        """
    }

    static let style = """
        :root { color-scheme: light dark; --bg: #fbfaf7; --card: #ffffff; --text: #1f2328; --muted: #5b6169; --line: #d9dcd6; --accent: #167a74; --track: #e8ebe6; }
        @media (prefers-color-scheme: dark) { :root { --bg: #15181c; --card: #1e2227; --text: #e8eaed; --muted: #a4abb4; --line: #3a4048; --accent: #5cc8bd; --track: #2c3238; } }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--text); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Cantarell, "Noto Sans", sans-serif; }
        header { padding: 24px 24px 8px; max-width: 980px; margin: 0 auto; }
        h1 { margin: 0 0 8px; font-size: 28px; }
        .range { margin: 0; }
        .icon { display: inline-block; width: 1.1em; height: 1.1em; margin-right: 6px; vertical-align: -0.15em; fill: none; stroke: var(--accent); stroke-width: 2; stroke-linecap: round; stroke-linejoin: round; }
        .period { color: var(--muted); margin: 8px 0 0; font-size: 14px; }
        main { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: 16px; padding: 16px 24px 32px; max-width: 980px; margin: 0 auto; }
        section { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 16px 18px; break-inside: avoid; }
        section.wide { grid-column: 1 / -1; }
        h2 { font-size: 17px; margin: 0 0 6px; }
        .figure { font-size: 24px; font-weight: 650; margin: 4px 0; }
        .insight { margin: 8px 0 0; }
        .messages { margin: 4px 0; padding-left: 20px; }
        svg:not(.icon) { display: block; width: 100%; height: auto; }
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

    /// The icons of the section titles, drawn as inline SVG (24×24, stroked): an emoji needs a
    /// font that may not be installed, and would show as a box.
    static let icons: [Character: String] = [
        "📊": "<path d=\"M3 20h18M6 20v-7M11 20V5M16 20v-10\"/>",
        "📈": "<path d=\"M3 17l6-6 4 4 8-8M15 7h6v6\"/>",
        "📉": "<path d=\"M3 7l6 6 4-4 8 8M15 17h6v-6\"/>",
        "🔥": "<path d=\"M12 3c1 4 6 6 6 11a6 6 0 0 1-12 0c0-3 2-5 3-7 1 2 2 3 3 3 0-3-1-5 0-7z\"/>",
        "🌅": "<path d=\"M3 18h18M7 18a5 5 0 0 1 10 0M12 5v4M4.5 10.5l2 1.5M19.5 10.5l-2 1.5\"/>",
        "📏": "<rect x=\"2\" y=\"8\" width=\"20\" height=\"8\" rx=\"1\"/><path d=\"M6 8v3M10 8v4M14 8v3M18 8v4\"/>",
        "🌱": "<path d=\"M12 21v-9M12 12C12 8 9 6 5 6c0 4 3 6 7 6zM12 14c0-4 3-6 7-6 0 4-3 6-7 6z\"/>",
        "🧩": "<path d=\"M4 8h4a2 2 0 1 1 4 0h4v4a2 2 0 1 1 0 4v4H4z\"/>",
        "📍": "<path d=\"M12 21s-6-6-6-11a6 6 0 0 1 12 0c0 5-6 11-6 11z\"/><circle cx=\"12\" cy=\"10\" r=\"2\"/>",
        "🕐": "<circle cx=\"12\" cy=\"12\" r=\"9\"/><path d=\"M12 7v5l3 2\"/>",
        "📅": "<rect x=\"3\" y=\"5\" width=\"18\" height=\"16\" rx=\"2\"/><path d=\"M3 10h18M8 3v4M16 3v4\"/>",
        "🌿": "<path d=\"M5 20c0-9 6-15 15-15 0 9-6 15-15 15zM5 20l9-9\"/>",
        "💰": "<rect x=\"3\" y=\"6\" width=\"18\" height=\"12\" rx=\"2\"/><circle cx=\"12\" cy=\"12\" r=\"2.5\"/>",
        "🎧":
            "<path d=\"M4 15v-3a8 8 0 0 1 16 0v3\"/><rect x=\"3\" y=\"14\" width=\"4\" height=\"6\" rx=\"1\"/><rect x=\"17\" y=\"14\" width=\"4\" height=\"6\" rx=\"1\"/>",
        "⏳": "<path d=\"M6 3h12M6 21h12M7 3c0 5 10 7 10 9s-10 4-10 9M17 3c0 5-10 7-10 9s10 4 10 9\"/>",
        "💪": "<path d=\"M12 3l7 3v6c0 4-3 7-7 9-4-2-7-5-7-9V6z\"/><path d=\"M9 12l2 2 4-4\"/>",
        "🏅": "<path d=\"M8 3l4 7 4-7\"/><circle cx=\"12\" cy=\"15\" r=\"6\"/><path d=\"M10 15l1.5 1.5 3-3\"/>",
    ]

    /// A title as HTML: its leading emoji as an inline SVG icon (or nothing), then its words.
    static func heading(_ title: String) -> String {
        guard let first = title.first, isEmoji(first) else { return escape(plain(title)) }
        let icon = icons[first].map {
            "<svg class=\"icon\" viewBox=\"0 0 24 24\" aria-hidden=\"true\">\($0)</svg>"
        }
        return (icon ?? "") + escape(plain(String(title.dropFirst())))
    }

    /// `text` without emoji (no font may have them), spaces tidied.
    static func plain(_ text: String) -> String {
        text.filter { !isEmoji($0) }.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// Whether a character is drawn as an emoji (a colour picture from an emoji font).
    static func isEmoji(_ character: Character) -> Bool {
        character.unicodeScalars.contains {
            $0.properties.isEmojiPresentation || $0.value == 0xFE0F || ($0.properties.isEmoji && $0.value >= 0x1F000)
        }
    }

    private static func number(_ value: Double) -> String { String(format: "%.1f", value) }

    static func hourLabel(_ hour: Int) -> String {
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
        svg += dates(f, y: h - 6, left: left, right: w - 10)
        let points = f.intensityMeans(slices: 300).map {
            (left + plotW * (Double($0.slice) + 0.5) / 300, 10 + plotH * (1 - ($0.mean - 1) / 9))
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

    /// Each method's daily totals as columns across the range, each on its own scale: its line
    /// (total and busiest day), the scale from 0 to its busiest day, and the dates beneath.
    static func amountCharts(_ f: ProgressFigures) -> String {
        var out = ""
        for (method, points) in f.amounts {
            let (w, h, left, bottom) = (720.0, 110.0, 40.0, 22.0)
            let plotW = w - left - 10
            let plotH = h - bottom - 8
            let values = f.amountColumns(points, most: 180)
            let slices = values.count
            let top = max(values.max() ?? 1, 0.5)
            let name = "\(method.label): daily amounts"
            out +=
                "<p>\(escape(ProgressFigures.amountLabel(method, points)))</p><svg viewBox=\"0 0 \(Int(w)) \(Int(h))\" role=\"img\" aria-label=\"\(escape(name))\">"
            for (value, y) in [(top, 8.0), (0, 8 + plotH)] {
                out +=
                    "<line class=\"grid\" x1=\"\(number(left))\" y1=\"\(number(y))\" x2=\"\(number(w - 10))\" y2=\"\(number(y))\"/>"
                out +=
                    "<text x=\"\(number(left - 6))\" y=\"\(number(y + 4))\" text-anchor=\"end\">\(escape(Method.number(value)))</text>"
            }
            let slot = plotW / Double(slices)
            for (i, value) in values.enumerated() where value > 0 {
                let barH = max(2, plotH * value / top)
                out +=
                    "<rect class=\"bar\" x=\"\(number(left + Double(i) * slot + slot * 0.15))\" y=\"\(number(8 + plotH - barH))\" width=\"\(number(max(1, slot * 0.7)))\" height=\"\(number(barH))\" rx=\"1\"/>"
            }
            out += dates(f, y: h - 4, left: left, right: w - 10)
            out += "</svg>"
        }
        return out
    }

    /// The range's first, middle and last day along a chart's bottom.
    static func dates(_ f: ProgressFigures, y: Double, left: Double, right: Double) -> String {
        let days = f.dayCount
        var out = "<text x=\"\(number(left))\" y=\"\(number(y))\">\(escape(f.from.short))</text>"
        if days > 2 {
            let middle = f.middleDay
            let x = left + (right - left) * (Double(days / 2) + 0.5) / Double(days)
            out += "<text x=\"\(number(x))\" y=\"\(number(y))\" text-anchor=\"middle\">\(escape(middle.short))</text>"
        }
        return out
            + "<text x=\"\(number(right))\" y=\"\(number(y))\" text-anchor=\"end\">\(escape(f.today.short))</text>"
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
