import ArgumentParser
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

extension ProgressRange: ExpressibleByArgument {}

extension Cravey {
    /// `cravey progress`: the dashboard — patterns and progress from day 1.
    struct ProgressCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "progress",
            abstract:
                "See your patterns and progress: streaks, Days in Progress, intensity, triggers, places, times, methods, cravings resisted, reduction.",
            discussion: """
                On a terminal the dashboard opens as a screen: 1–4 or ←/→ change the range, ↑/↓ and PgUp/PgDn \
                scroll, q leaves. Without a terminal the same sections are printed once. --json prints every figure; \
                --html writes one self-contained page (charts included, nothing loaded from anywhere) to open in a \
                browser or print.
                """)

        @OptionGroup var library: LibraryOptions

        @Option(help: ArgumentHelp("The charts' range: 7d, 30d, 90d or all.", valueName: "range"))
        var range: ProgressRange = .week

        @Option(help: ArgumentHelp("Write the dashboard as one HTML page to this file.", valueName: "file"))
        var html: String?

        @Flag(help: "Replace the --html file if it exists.")
        var force = false

        @OptionGroup var output: OutputOptions

        func run() throws {
            // Where there is no library yet, the dashboard of a library with nothing in it; none is made.
            let lib = try library.existing()
            let figures = {
                try lib.map { try Tracker(library: $0).progressNotingMilestones(range, now: LocalClock.now()) }
                    ?? ProgressFigures(ProgressFacts(), range: range, now: LocalClock.now())
            }
            if output.json {
                try JSONOutput.print(try figures())
            } else if let html {
                let figures = try figures()
                try RecordingExport.write(
                    Data(ProgressPage.html(figures, generated: LocalClock.now()).utf8), to: html, replacing: force,
                    another: "choose another with --html", replace: "replace it with --force")
                print("Wrote your progress page to \(Terminal.safe(html))")
            } else if let lib {
                try ProgressFlow.show(range, in: library.session(lib))
            } else {
                print(ProgressFlow.plain(try figures(), width: Terminal.stdoutIsTerminal ? Terminal.columns : 80))
            }
        }
    }
}
