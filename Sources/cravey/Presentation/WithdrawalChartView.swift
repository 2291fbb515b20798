import CraveyTracker
import TerminalKit

/// The withdrawal check's chart, a row per symptom (a block per day 1–14, · for a day not
/// checked, then its figures), in the terminal, on the HTML pages and in the PDF.
extension ProgressView {
    /// Each row with its figures beside it when they fit the width, else beneath it.
    var withdrawalChartLines: [String] {
        guard let chart = figures.withdrawalChart else { return [] }
        let pad = Symptom.allCases.map(\.name.count).max() ?? 0
        var out: [String] = []
        for symptom in Symptom.allCases {
            let row = symptom.name.padding(toLength: pad, withPad: " ", startingAt: 0) + "  " + chart.spark(symptom)
            let summary = chart.summary(symptom)
            if row.count + 2 + summary.count <= width - 3 {
                out.append(row + "  " + Terminal.dim(summary))
            } else {
                out += [row, String(repeating: " ", count: pad + 2) + Terminal.dim(summary)]
            }
        }
        return out + Terminal.wrap(chart.axis, width: width - 3).map(Terminal.dim)
    }
}

extension ProgressPage {
    /// The chart as a preformatted block (empty without a check since the last use).
    static func withdrawalChart(_ f: ProgressFigures) -> String {
        guard let chart = f.withdrawalChart else { return "" }
        return "<pre class=\"withdrawal\">" + chart.lines.map(escape).joined(separator: "\n") + "</pre>"
            + "<p class=\"note\">\(escape(chart.axis))</p>"
    }
}

extension ReportPDF {
    /// The chart's rows for a proportional face: the days first, so that they line up, then the
    /// symptom and its figures ("▂·▆···········  Sleep trouble — peak 7 on day 3 · last 7 (day 3)").
    static func withdrawalLines(_ chart: WithdrawalChart) -> [String] {
        Symptom.allCases.map { chart.spark($0) + "  " + $0.name + " — " + chart.summary($0) }
    }
}
