import ArgumentParser
import CraveyLibrary
import Foundation
import TerminalKit

extension Cravey.CheckInCommand {
    /// `cravey checkin calendar [YYYY-MM]`: a month with each day's mood, today highlighted.
    struct Calendar: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "calendar",
            abstract: "A month's calendar with each day's mood.",
            discussion: """
                On a colour terminal a day with a check-in is shown in its mood's colour and today in \
                reverse; without colour (NO_COLOR, or not a terminal) each such day carries its mood's \
                letter (L, D, O, H, A) and today is marked with *.
                """)

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: ArgumentHelp("The month (default: this one).", valueName: "YYYY-MM"))
        var month: String?

        func run() throws {
            let today = CheckIn.day(of: LocalClock.now())
            let chosen = month ?? String(today.prefix(7))
            guard LocalDay(parsing: chosen + "-01") != nil, chosen.count == 7 else {
                throw CraveyFailure(
                    message: "'\(Terminal.safe(String(chosen.prefix(20))))' is not a month written as YYYY-MM")
            }
            let entries = try library.existing()?.checkIns(month: chosen) ?? []
            var moods: [Int: CheckIn.Mood] = [:]
            for entry in entries {
                if let c = entry.checkIn, let d = LocalDay(parsing: c.day) { moods[d.civil.day] = c.mood }
            }
            if output.json {
                let days = entries.reversed().map { entry -> String in
                    let c = entry.checkIn!
                    return
                        "{\"day\":\"\(c.day)\",\"mood\":\"\(c.mood.rawValue)\",\"duration\":\(entry.duration),\"id\":\"\(entry.id.uuidString)\"}"
                }
                print("{\"month\":\"\(chosen)\",\"today\":\"\(today)\",\"days\":[" + days.joined(separator: ",") + "]}")
                return
            }
            print(Self.grid(month: chosen, moods: moods, today: today, color: Terminal.useColor))
        }

        /// The month as a grid of weeks, Monday first.
        static func grid(month: String, moods: [Int: CheckIn.Mood], today: String, color: Bool) -> String {
            let firstDay = LocalDay(parsing: month + "-01")!
            let (year, number, _) = firstDay.civil
            let title = "\(CheckIn.monthNames[number - 1]) \(year)"
            var lines = [
                String(repeating: " ", count: max(0, (35 - title.count) / 2)) + (color ? Terminal.bold(title) : title)
            ]
            let weekdays = "  Mon  Tue  Wed  Thu  Fri  Sat  Sun"
            lines.append(color ? Terminal.dim(weekdays) : weekdays)
            let first = firstDay.weekday  // Monday = 0
            var line = String(repeating: " ", count: first * 5)
            let days = firstDay.daysInMonth
            for day in 1...days {
                let isToday = String(format: "%@-%02d", month, day) == today
                let mood = moods[day]
                let digits = (day < 10 ? " " : "") + "\(day)"
                var cell: String
                if color {
                    var styled = digits
                    if let mood { styled = Terminal.style(digits, "1;" + Mood.color(mood)) }
                    if isToday { styled = Terminal.style(digits, "7" + (mood.map { ";1;" + Mood.color($0) } ?? "")) }
                    cell = "  " + styled + " "
                } else {
                    cell = "  " + digits + String(mood.map(Mood.letter) ?? " ")
                    cell = String(cell.dropFirst()) + (isToday ? "*" : " ")
                }
                line += cell
                if (first + day) % 7 == 0 || day == days {
                    lines.append(line)
                    line = ""
                }
            }
            lines.append("")
            let legend = CheckIn.Mood.allCases.map {
                color ? Mood.colored($0, $0.label) : "\(Mood.letter($0)) \($0.label)"
            }
            lines.append("  " + legend.joined(separator: "  ") + (color ? "" : "  * today"))
            return lines.joined(separator: "\n")
        }
    }
}
