import ArgumentParser
import TerminalKit
import CraveyLibrary

extension Cravey {
    /// `cravey edit ID`: change a recording's title, notes or purpose.
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change a recording's title, notes or purpose.",
            discussion:
                "A blank title gives the automatic title 'Recording <date>'. Titles are 1–40 characters, notes at most 200."
        )

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The recording's id, or a unique start of it.")
        var id: String

        @OptionGroup var details: DetailOptions

        @Flag(help: "Remove the purpose.")
        var clearPurpose = false

        func validate() throws {
            if details.purpose != nil && clearPurpose {
                throw ValidationError("--purpose and --clear-purpose cannot be used together")
            }
            if details.isEmpty && !clearPurpose {
                throw ValidationError("nothing to change: give --title, --notes, --purpose or --clear-purpose")
            }
        }

        func run() throws {
            let lib = try library.open()
            let recording = try lib.recording(matching: id)
            let newPurpose: Recording.Purpose?? =
                clearPurpose ? .some(nil) : try details.purpose.map { try Validation.purpose($0) }
            let updated = try lib.edit(
                recording, title: details.title, notes: details.notes.map { Optional($0) }, purpose: newPurpose)
            if output.json {
                try JSONOutput.print(updated)
            } else {
                print("Updated '\(updated.shownTitle)' (\(updated.id.uuidString.prefix(8))).")
            }
        }
    }
}
