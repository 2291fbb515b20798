import ArgumentParser
import CraveyLibrary

extension Cravey {
    /// `cravey check [--repair]`: make sure rows and files agree.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check that every recording has its file and every file its recording; --repair fixes what it finds.")

        /// What a person types to repair what a check finds (named in the findings it repairs).
        static let repairCommand = "cravey check --repair"

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        @Flag(help: "Fix what the check finds (remove rows whose file is gone and files no recording owns).")
        var repair = false

        func run() throws {
            let lib = try library.open()
            let report = try lib.check(repair: repair)
            let count = try lib.count()
            if output.json {
                struct Result: Encodable { var ok, repaired: Bool; var recordings: Int; var findings: [String] }
                try JSONOutput.print(Result(ok: !report.hasProblems || repair, repaired: repair, recordings: count, findings: report.lines(repairCommand: Self.repairCommand)))
            } else {
                for line in report.lines(repairCommand: Self.repairCommand) { print(Terminal.safe(line)) }
                if !report.hasProblems || repair {
                    print("Library OK: \(count) recording\(count == 1 ? "" : "s"), every one with its file.")
                }
            }
            let unresolved = !repair && report.hasProblems
            if unresolved { throw CraveyFailure(message: "the library has problems; run 'cravey check --repair' to fix them") }
        }
    }
}
