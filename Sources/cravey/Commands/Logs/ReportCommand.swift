import ArgumentParser
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

extension Cravey {
    /// `cravey report`: a period's report to bring to a therapist, as a printable page (`--html`)
    /// or a PDF printed from that page by Chromium (`--pdf`).
    struct ReportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract:
                "A report to bring to a therapist: the period, your goal, a day-by-day calendar of use and cravings, your progress figures and charts, as a printable page (--html) or PDF (--pdf).",
            discussion: """
                The page is self-contained: nothing is loaded from anywhere, and it is written readable by you \
                only. --pdf prints the same page with Chromium (headless, on this computer) where it is \
                installed. The period is --range (7d, 30d, 90d or all; 30d when not given) or --from and --to \
                (YYYY-MM-DD; --to at most today). Notes are left out unless --with-notes is given. An existing \
                file is replaced only with --force.
                """)

        @OptionGroup var library: LibraryOptions

        @Option(help: ArgumentHelp("Write the report as one HTML page to this file.", valueName: "file"))
        var html: String?

        @Option(help: ArgumentHelp("Write the report as a PDF to this file (needs Chromium).", valueName: "file"))
        var pdf: String?

        @Option(help: ArgumentHelp("The period: 7d, 30d, 90d or all (default 30d).", valueName: "range"))
        var range: ProgressRange?

        @Option(help: ArgumentHelp("The period's first day (YYYY-MM-DD).", valueName: "day"))
        var from: String?

        @Option(help: ArgumentHelp("The period's last day (YYYY-MM-DD; default today).", valueName: "day"))
        var to: String?

        @Flag(help: "Put the notes of the period's logs on the report.")
        var withNotes = false

        @Flag(help: "Replace the files if they exist.")
        var force = false

        func run() throws {
            guard html != nil || pdf != nil else {
                throw CraveyFailure(message: "say where to write the report: --html FILE or --pdf FILE")
            }
            if html != nil, html == pdf { throw CraveyFailure(message: "--html and --pdf name the same file") }
            if range != nil, from != nil || to != nil {
                throw CraveyFailure(message: "give --range or --from/--to, not both")
            }
            let now = LocalClock.now()
            let today = LocalDay(now, in: .current)
            let first = try from.map { try Self.day($0, option: "--from") }
            let last = try to.map { try Self.day($0, option: "--to") }
            if let last, last > today { throw CraveyFailure(message: "--to \(last.text) is after today") }
            if let first, first > (last ?? today) {
                throw CraveyFailure(message: "--from \(first.text) is after the period's last day")
            }
            if let first, (last ?? today) - first >= Report.longest {
                throw CraveyFailure(message: "a report covers at most \(Report.longest) days")
            }
            for (path, option) in [(html, "--html"), (pdf, "--pdf")] {
                if let path { try refuseExisting(path, option: option) }
            }
            let chromium = try pdf.map { _ in try Self.chromium() }
            let report = try Tracker(library: library.open()).report(
                range: range ?? .month, from: first, to: last, withNotes: withNotes, now: now)
            let page = ReportPage.html(report, generated: now)
            if let html {
                try RecordingExport.write(
                    Data(page.utf8), to: html, replacing: force, another: "choose another with --html",
                    replace: "replace it with --force")
                print("Wrote your report to \(Terminal.safe(html))")
            }
            if let pdf, let chromium {
                try RecordingExport.write(
                    try Self.printed(page, with: chromium), to: pdf, replacing: force,
                    another: "choose another with --pdf", replace: "replace it with --force")
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

        /// A day as typed: YYYY-MM-DD, a real date.
        static func day(_ text: String, option: String) throws -> LocalDay {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts.map(\.count) == [4, 2, 2], parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
                let year = Int(parts[0]), let month = Int(parts[1]), let date = Int(parts[2]),
                LocalDay(year: year, month: month, day: date).text == text
            else {
                throw CraveyFailure(
                    message: "invalid \(option): '\(Terminal.safe(String(text.prefix(20))))' is not a day (YYYY-MM-DD)")
            }
            return LocalDay(year: year, month: month, day: date)
        }

        /// Chromium on the PATH, or the one line saying it is not there.
        static func chromium() throws -> String {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
            for directory in path.split(separator: ":") where directory.hasPrefix("/") {
                for name in ["chromium", "chromium-browser"] {
                    let candidate = "\(directory)/\(name)"
                    if access(candidate, X_OK) == 0 { return candidate }
                }
            }
            throw CraveyFailure(
                message:
                    "--pdf needs Chromium, which is not installed here (Debian: the chromium package); --html FILE writes the same page to print from any browser"
            )
        }

        /// How long Chromium may take to print.
        static let printLimit: TimeInterval = 120

        /// The page printed to PDF by headless Chromium, all in a private folder (0700) that is
        /// removed afterwards: the page (0600), Chromium's own profile, the PDF. Chromium is told
        /// not to reach out for anything of its own (updates, sync, extensions); the page forbids
        /// every request itself.
        static func printed(_ page: String, with chromium: String) throws -> Data {
            var template = Array((NSTemporaryDirectory() + "/cravey-report-XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else {
                throw CraveyFailure(
                    message: "cannot make a private folder to print in: \(String(cString: strerror(errno)))")
            }
            let folder = String(cString: made)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let source = folder + "/report.html"
            let output = folder + "/report.pdf"
            try RecordingExport.write(Data(page.utf8), to: source, replacing: false, another: "", replace: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: chromium)
            process.arguments = [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer", "--print-to-pdf=\(output)",
                "--user-data-dir=\(folder)/profile", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--no-first-run", "--no-default-browser-check",
                "file://\(source)",
            ]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch {
                throw CraveyFailure(
                    message: "Chromium (\(chromium)) could not be started: \(error.localizedDescription)")
            }
            let deadline = Date().addingTimeInterval(printLimit)
            while process.isRunning && Date() < deadline { usleep(50_000) }
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
                throw CraveyFailure(message: "Chromium did not print the report within \(Int(printLimit)) seconds")
            }
            guard let data = FileManager.default.contents(atPath: output), data.starts(with: Data("%PDF-".utf8)) else {
                throw CraveyFailure(
                    message: "Chromium did not print the report (exit status \(process.terminationStatus))")
            }
            return data
        }
    }
}
