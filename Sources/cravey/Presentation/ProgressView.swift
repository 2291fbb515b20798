import CraveyLibrary
import CraveyTracker
import TerminalKit

/// The progress dashboard as terminal lines, drawn to a width (at least 60 columns): the header
/// that stays on screen (title, range line) and the sections in the dashboard's order, each with
/// its chart and its sentence. Charts are characters (blocks, braille) and read the same without
/// colour; colour only tints them.
struct ProgressView {
    let figures: ProgressFigures
    let width: Int

    init(_ figures: ProgressFigures, width: Int) {
        self.figures = figures
        self.width = max(60, width)
    }

    /// "📊 Progress" and the range line, the chosen range highlighted (in brackets alone without colour).
    static func header(_ range: ProgressRange, width: Int) -> [String] {
        let chips = ProgressRange.allCases.map { chip -> String in
            let name = chip.chip
            if chip == range { return Terminal.useColor ? Terminal.style(" \(name) ", "7;1") : "[\(name)]" }
            return " \(name) "
        }
        return [
            Terminal.bold("📊 Progress"), chips.joined(separator: " "),
            Terminal.dim(String(repeating: "─", count: max(60, width) - 1)),
        ]
    }

    /// Every section, top to bottom (the tracker's list).
    var sections: [String] {
        var out: [String] = []
        for section in figures.sections {
            if !out.isEmpty { out.append("") }
            out.append(Terminal.bold(section.title))
            out += lines(of: section.kind).map { "  " + $0 }
            if let sentence = section.sentence {
                out += Terminal.wrap(sentence, width: width - 3).map { "  " + $0 }
            }
            if section.kind == .daysInProgress { out += withdrawalLines }
        }
        return out
    }

    /// What a section shows between its title and its sentence.
    private func lines(of kind: ProgressSection.Kind) -> [String] {
        let f = figures
        switch kind {
        case .summary: return [Terminal.bold(f.summaryLine)]
        case .currentStreak: return f.currentStreakText.map { [Terminal.bold($0)] } ?? []
        case .longestStreak: return [f.longestStreakText ?? "—"]
        case .daysInProgress:
            return [Terminal.bold(f.daysInProgress.map(String.init) ?? "—")]
                + (f.daysSinceLastUseText.map { [$0] } ?? []) + knownLines
        case .intensity: return intensityChart
        case .amounts: return amountRows
        case .triggers: return bars(f.triggers)
        case .locations: return bars(f.locations)
        case .timeOfDay: return f.cravings > 0 ? hourColumns : []
        case .weekdays: return f.cravings > 0 ? weekdayBars : []
        case .methods: return bars(f.methods)
        case .resisted:
            return f.cravings > 0
                ? [Terminal.bold(f.resistedText) + (f.resistedPercent.map { Terminal.dim("  (\($0)%)") } ?? "")] : []
        case .reduction: return f.reductionText.map { [Terminal.bold($0)] } ?? []
        case .money: return moneyLines
        case .messages: return messageLines
        case .cravingLength: return f.cravingLengthText.map { [Terminal.bold($0)] } ?? []
        case .milestones: return milestoneLines
        case .withdrawal: return withdrawalChartLines
        case .limits: return (f.limits?.lines ?? []).flatMap { Terminal.wrap($0, width: width - 3) }
        }
    }

    /// The range's days known, once any day was answered for ("Days known: 5 of 7 days confirmed
    /// without use · 2 with use").
    private var knownLines: [String] {
        let known = figures.known
        guard known.confirmed + known.dontRemember > 0, let line = known.line else { return [] }
        return Terminal.wrap("Days known: " + line, width: width - 3).map(Terminal.dim)
    }

    private var chartWidth: Int { width - 10 }

    /// The range's first, middle and last day under a chart `columns` wide that starts `indent`
    /// columns in (the middle one where it fits).
    private func axis(columns: Int, indent: Int) -> String {
        let first = figures.from.short
        let last = figures.today.short
        var line = first + String(repeating: " ", count: max(1, columns - first.count - last.count)) + last
        let days = figures.dayCount
        let middle = figures.middleDay.short
        let start = (columns - middle.count) / 2
        if days > 2, start >= first.count + 2, start + middle.count + 2 <= columns - last.count {
            var characters = Array(line)
            characters.replaceSubrange(start..<(start + middle.count), with: middle)
            line = String(characters)
        }
        return String(repeating: " ", count: indent) + line
    }

    /// Intensity 1–10 against time: the mean of the cravings in each dot column, joined.
    private var intensityChart: [String] {
        let height = 5
        let f = figures
        var rows: [String]
        if f.intensity.isEmpty {
            rows = Array(repeating: String(repeating: " ", count: chartWidth), count: height)
        } else {
            let columns = chartWidth * 2
            let points = f.intensityMeans(slices: columns).map {
                (x: Double($0.slice) / Double(columns - 1), y: ($0.mean - 1) / 9)
            }
            rows = Charts.line(points, width: chartWidth, height: height).map { Terminal.accent($0) }
        }
        let labels = ["10", "", "5", "", "1"]
        return zip(labels, rows).map { label, row in String(repeating: " ", count: 3 - label.count) + label + " ┤" + row
        }
            + ["    └" + String(repeating: "─", count: chartWidth), Terminal.dim(axis(columns: chartWidth, indent: 5))]
    }

    /// Each method's daily totals across the range, each on its own scale: its line (total and
    /// busiest day), columns from 0 to its busiest day, and the dates beneath.
    private var amountRows: [String] {
        let f = figures
        guard !f.amounts.isEmpty else { return [] }
        let room = chartWidth
        // A column per day as wide as fits; with more days than columns, each column shows the
        // busiest of its days, so the scale stays "a day".
        let columnWidth = max(1, room / f.dayCount)
        let count = min(f.dayCount, room)
        var rows: [String] = []
        for (method, points) in f.amounts {
            let values = f.amountColumns(points, most: room)
            let top = Method.number(values.max() ?? 0)
            let labels = [top, "", ""]
            let chart = Charts.columns(values, height: 3, columnWidth: columnWidth)
            if !rows.isEmpty { rows.append("") }
            rows.append(ProgressFigures.amountLabel(method, points))
            let labelWidth = max(3, top.count)
            rows += zip(labels, chart).map { label, row in
                String(repeating: " ", count: labelWidth - label.count) + label + " ┤" + Terminal.accent(row)
            }
            rows.append(
                String(repeating: " ", count: labelWidth - 1) + "0 └"
                    + String(repeating: "─", count: count * columnWidth))
            rows.append(Terminal.dim(axis(columns: count * columnWidth, indent: labelWidth + 2)))
        }
        return rows
    }

    private func bars(_ shares: [ProgressFigures.Share]) -> [String] {
        guard let top = shares.first else { return [] }
        let labelWidth = min(24, shares.map { Terminal.width($0.label) }.max() ?? 8)
        let barWidth = width - labelWidth - 12
        return shares.map { share in
            let (filled, track) = Charts.bar(Double(share.count) / Double(top.count), width: barWidth)
            return Terminal.fit(share.label, labelWidth) + " " + Terminal.accent(filled) + Terminal.dim(track) + " "
                + Self.percent(share.percent)
        }
    }

    private static func percent(_ value: Int) -> String {
        let text = "\(value)%"
        return String(repeating: " ", count: max(0, 4 - text.count)) + text
    }

    /// 24 columns, two characters each, midnight to midnight.
    private var hourColumns: [String] {
        let rows = Charts.columns(figures.hours.map(Double.init), height: 4, columnWidth: 2).map {
            "│" + Terminal.accent($0)
        }
        var labels = [Character](repeating: " ", count: 49)
        for (hour, name) in [(0, "12a"), (6, "6a"), (12, "12p"), (18, "6p")] {
            for (i, c) in name.enumerated() { labels[1 + hour * 2 + i] = c }
        }
        return rows + ["└" + String(repeating: "─", count: 48), Terminal.dim(String(labels))]
    }

    private var weekdayBars: [String] {
        let top = figures.weekdays.max() ?? 0
        return figures.weekdays.enumerated().map { index, count in
            let (filled, track) = Charts.bar(top > 0 ? Double(count) / Double(top) : 0, width: width - 16)
            let name = String(LocalDay.weekdayNames[index].prefix(3))
            return name + " " + Terminal.accent(filled) + Terminal.dim(track) + " "
                + String(repeating: " ", count: max(0, 4 - String(count).count)) + String(count)
        }
    }
}
