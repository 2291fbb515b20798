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
            abstract: "Delete all data: every craving and usage log, and every recording with its files.")

        @OptionGroup var library: LibraryOptions

        @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
        var yes = false

        func run() throws {
            let lib = try library.open()
            let count = try lib.count()
            let logs = try Tracker(library: lib).counts()
            try Terminal.requireConfirmation(
                "Delete All Data? This will permanently delete all cravings, usage logs, and recordings. This cannot be undone.",
                yes: yes, action: "delete all data")
            try lib.purge()
            print(
                "Deleted \(Export.count(count, "recording")), \(Export.count(logs.cravings, "craving")) and \(Export.count(logs.uses, "usage log"))."
            )
        }
    }
}
