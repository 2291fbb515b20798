import ArgumentParser
import CraveyLibrary

extension Cravey {
    /// `cravey purge`: delete every recording and its files, all or nothing.
    struct Purge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "purge",
            abstract: "Delete all recordings and their files.")

        @OptionGroup var library: LibraryOptions

        @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
        var yes = false

        func run() throws {
            let lib = try library.open()
            let count = try lib.count()
            try Terminal.requireConfirmation(
                "Delete all \(count) recording\(count == 1 ? "" : "s") and their files? This cannot be undone.",
                yes: yes, action: "delete all recordings")
            try lib.purge()
            print("Deleted \(count) recording\(count == 1 ? "" : "s").")
        }
    }
}
