import ArgumentParser
import TerminalKit
import CraveyLibrary
import CraveyTracker

extension Cravey {
    /// `cravey purge`: delete all data — every craving and use log, every recording and its files —
    /// all or nothing.
    struct Purge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "purge",
            abstract: "Delete all data: every craving and usage log, every recording and check-in with its files.")

        @OptionGroup var library: LibraryOptions

        @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
        var yes = false

        func run() throws {
            let lib = try library.openExisting()
            let checkIns = try lib.checkIns().count
            let messages = try lib.count() - checkIns
            let logs = try Tracker(library: lib).counts()
            guard
                try Terminal.confirmed(
                    Questions.deleteAll + " " + Questions.deleteAllWarning, yes: yes,
                    action: "delete all data")
            else { return print(Terminal.nothingDeleted) }
            try lib.purge()
            print(
                "Deleted \(Format.count(messages, "recording")), \(Format.count(checkIns, "check-in")), "
                    + "\(Format.count(logs.cravings, "craving")) and \(Format.count(logs.uses, "usage log")).")
        }
    }
}
