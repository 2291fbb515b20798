import ArgumentParser
import TerminalKit
import CraveyLibrary
import CraveyTracker

extension Cravey {
    /// `cravey check [--repair]`: make sure rows and files agree.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract:
                "Check that every recording has its file and every file its recording; --repair fixes what it finds.")

        /// What a person types to repair what a check finds (named in the findings it repairs).
        static let repairCommand = "cravey check --repair"

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        @Flag(help: "Fix what the check finds (remove rows whose file is gone and files no recording owns).")
        var repair = false

        func run() throws {
            let lib = try library.openExisting()
            let report = try lib.check(repair: repair, now: LocalClock.now())
            let tracker = Tracker(library: lib)
            let logFindings = try tracker.check(repair: repair)
            let falseMilestones = try tracker.falseMilestones(repair: repair)
            let count = try lib.count()
            let logs = try tracker.counts()
            // A milestone the logs no longer reach is kept: a note, never a problem.
            let notes = try tracker.milestoneNotes(now: LocalClock.now())
            let syncFindings = try Self.syncFindings(lib)  // the shared folder's, named; `cravey sync` mends
            let lines =
                report.lines(repairCommand: Self.repairCommand) + logFindings.map { Self.line($0, repaired: repair) }
                + falseMilestones.map { Self.line(never: $0.milestone, use: $0.use, repaired: repair) } + syncFindings
            // Invalid logs are the user's data: reported until edited or deleted, never removed.
            let unresolved =
                (!repair && (report.hasProblems || !logFindings.isEmpty || !falseMilestones.isEmpty))
                || logFindings.contains { $0.kind == .invalidLog } || !syncFindings.isEmpty
            if output.json {
                struct Result: Encodable {
                    var ok, repaired: Bool; var recordings, cravings, uses: Int; var findings, notes: [String]
                }
                try JSONOutput.print(
                    Result(
                        ok: !unresolved, repaired: repair, recordings: count, cravings: logs.cravings, uses: logs.uses,
                        findings: lines, notes: notes))
            } else {
                for line in lines + notes { print(Terminal.safe(line)) }
                if !unresolved {
                    let logText =
                        logs.cravings + logs.uses > 0
                        ? " \(Format.count(logs.cravings, "craving")) and \(Format.count(logs.uses, "usage log")) checked."
                        : ""
                    print("Library OK: \(count) recording\(count == 1 ? "" : "s"), every one with its file." + logText)
                }
            }
            if unresolved {
                let fix =
                    lines == syncFindings
                    ? "the sync folder's findings are named above"
                    : logFindings.contains { $0.kind == .invalidLog } && (repair || !report.hasProblems)
                        ? "mend the logs named with 'cravey log edit' or 'cravey log delete'"
                        : "run 'cravey check --repair' to fix them"
                throw CraveyFailure(message: "the library has problems; \(fix)")
            }
        }

        /// What the sync folder holds that is wrong; a folder that does not answer a look for
        /// `SyncFolderWatch.patience` seconds is named as such, and the check goes on without it.
        static func syncFindings(_ lib: Library) throws -> [String] {
            do {
                return try SyncFolderWatch.bounded { try lib.syncFindings() }
            } catch let stuck as SyncFolderWatch.NotAnswering {
                return [
                    "the sync folder \(stuck.folder) has not answered for \(Int(stuck.seconds)) seconds (a stick going bad, or a network mount that stopped answering?); it was not checked, and nothing was changed"
                ]
            }
        }

        /// A milestone the logs say was never reached, for people: "a milestone that was never
        /// reached: '7 days since your last use' on 2026-10-12, with a use logged on 2026-10-09".
        static func line(never milestone: Milestone, use: LocalDay, repaired: Bool) -> String {
            let what =
                "'\(milestone.words)' on \(milestone.reachedOn.text), with a use logged on \(use.text)"
            return repaired
                ? "removed a milestone that was never reached: " + what
                : "a milestone that was never reached (run '\(repairCommand)' to remove it): " + what
        }

        /// A finding about the logs, for people.
        static func line(_ finding: Tracker.Finding, repaired: Bool) -> String {
            switch finding.kind {
            case .invalidLog:
                "invalid log (left as it is; 'cravey log edit' or 'cravey log delete' mends it): \(finding.subject)"
            case .danglingLink:
                (repaired
                    ? "cleared a link to something deleted" : "link to something deleted (run '\(repairCommand)')")
                    + ": \(finding.subject)"
            case .searchIndex:
                (repaired
                    ? "rebuilt the search of the logs' notes" : "search of the logs' notes (run '\(repairCommand)')")
                    + ": \(finding.subject)"
            }
        }
    }
}
