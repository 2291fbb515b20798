import ArgumentParser
import CraveyDocument
import CraveyLibrary
import CraveyTracker
import Foundation
import Synchronization
import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

extension Cravey {
    /// `cravey report`: a period's report to bring to a therapist, as a printable page (`--html`)
    /// or a PDF (`--pdf`) drawn in cravey's own process with cairo and pango.
    struct ReportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract:
                "A report to bring to a therapist: the period, your goal, a day-by-day calendar of use and cravings, your progress figures and charts, as a printable page (--html) or PDF (--pdf).",
            discussion: """
                The page is self-contained: nothing is loaded from anywhere, and it is written readable by you \
                only. --pdf draws the same report as A4 pages in cravey itself (cairo and pango): no browser, no \
                network, nothing written but the file. --json prints the period, its figures and its calendar. The period is --range (7d, 30d, 90d or all; 30d when not given) or --from and --to \
                (YYYY-MM-DD; --to at most today). Notes are left out unless --with-notes is given, self-screens unless --with-screen is. An existing \
                file is replaced only with --force.
                """)

        @OptionGroup var library: LibraryOptions

        @Option(help: ArgumentHelp("Write the report as one HTML page to this file.", valueName: "file"))
        var html: String?

        @Option(help: ArgumentHelp("Write the report as a PDF (A4) to this file.", valueName: "file"))
        var pdf: String?

        @Option(help: ArgumentHelp("The period: 7d, 30d, 90d or all (default 30d).", valueName: "range"))
        var range: ProgressRange?

        @Option(help: ArgumentHelp("The period's first day (YYYY-MM-DD).", valueName: "day"))
        var from: String?

        @Option(help: ArgumentHelp("The period's last day (YYYY-MM-DD; default today).", valueName: "day"))
        var to: String?

        @Flag(help: "Put the notes of the period's logs on the report.")
        var withNotes = false

        @Flag(help: "Put the self-screens taken in the period on the report (CUDIT-R scores).")
        var withScreen = false

        @Flag(help: "Replace the files if they exist.")
        var force = false

        @Flag(help: "Print the report's period, figures and day-by-day calendar as JSON.")
        var json = false

        func run() throws {
            guard html != nil || pdf != nil || json else {
                throw CraveyFailure(
                    message: "say where to write the report: --html FILE or --pdf FILE (or --json to print it)")
            }
            if json, html != nil || pdf != nil {
                throw CraveyFailure(message: "--json prints the report: give it without --html or --pdf")
            }
            if html != nil, html == pdf { throw CraveyFailure(message: "--html and --pdf name the same file") }
            if range != nil, from != nil || to != nil {
                throw CraveyFailure(message: "give --range or --from/--to, not both")
            }
            let now = LocalClock.now()
            let first = try from.map { try LocalDay.parse($0, field: "--from") }
            let last = try to.map { try LocalDay.parse($0, field: "--to") }
            _ = try Report.period(from: first, to: last, today: LocalDay(now, in: .current))
            for (path, option) in [(html, "--html"), (pdf, "--pdf")] {
                if let path { try refuseExisting(path, option: option) }
            }
            let tracker = try Tracker(library: library.openExisting())
            var report = try tracker.report(
                range: range ?? .month, from: first, to: last, withNotes: withNotes, now: now)
            if withScreen { report.screens = try tracker.selfScreens(from: report.from, to: report.to) }
            if json { try JSONOutput.print(report) }
            // Ctrl-C, SIGTERM and SIGHUP are heard from the drawing of the PDF until the files are
            // written: one that comes while it draws stops it between rows, and nothing is written.
            let heard = HeardStop()
            let signals = pdf.map { _ in StopSignals(onStop: { signo in heard.signal.withLock { $0 = signo } }) }
            defer { signals?.cancel() }
            let document = try signals.map { try Self.drawn(report, generated: now, signals: $0, heard: heard) }
            if let html {
                try RecordingExport.write(
                    Data(ReportPage.html(report, generated: now).utf8), to: html, replacing: force,
                    another: "choose another with --html", replace: "replace it with --force")
                print("Wrote your report to \(Terminal.safe(html))")
            }
            if let pdf, let document {
                try RecordingExport.write(
                    document, to: pdf, replacing: force, another: "choose another with --pdf",
                    replace: "replace it with --force")
                print("Wrote your report to \(Terminal.safe(pdf))")
            }
        }

        /// A file already there is refused before any work (`RecordingExport.write` checks again).
        func refuseExisting(_ path: String, option: String) throws {
            var info = stat()
            guard lstat(path, &info) == 0 else { return }
            if (info.st_mode & S_IFMT) != S_IFREG {
                throw CraveyFailure(
                    message: "\(Terminal.safe(path)) is not a regular file; choose another with \(option)")
            }
            if !force {
                throw CraveyFailure(
                    message:
                        "\(Terminal.safe(path)) already exists; choose another with \(option) or replace it with --force"
                )
            }
        }

        /// The report as a PDF; a stop `signals` hear ends the drawing between rows. The fonts'
        /// private cache folder is gone either way.
        static func drawn(_ report: Report, generated: Date, signals: StopSignals, heard: HeardStop) throws -> Data {
            do {
                let document = try ReportPDF.document(
                    report, generated: generated, temporaryDirectory: NSTemporaryDirectory(),
                    stopRequested: { signals.stopRequested })
                // A stop that came while the last page was finished is a stop too.
                if signals.stopRequested { throw ReportPDF.Stopped() }
                return document
            } catch is ReportPDF.Stopped {
                throw CraveyFailure(message: "stopped; no report written", code: 128 + heard.signal.withLock { $0 })
            } catch let failure as PDFDocument.Failure {
                throw CraveyFailure(message: "cannot make the PDF: \(failure.description)")
            }
        }

        /// The stop signal heard while the report is made (0 before one).
        final class HeardStop: Sendable {
            let signal = Mutex<Int32>(0)
        }
    }
}
