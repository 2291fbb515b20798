import ArgumentParser
import TerminalKit
import CraveyLibrary

extension Cravey {
    /// `cravey edit ID`: change a recording's title, notes, purpose or the triggers it is made for.
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change a recording's title, notes, purpose or the triggers it is made for.",
            discussion:
                "A blank title gives the automatic title 'Recording <date>'. Titles are 1–40 characters, notes at most 200. On a terminal, 'cravey edit ID' alone opens the Edit Recording form."
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
            if details.isEmpty && !clearPurpose && !Self.asksOnTerminal {
                throw ValidationError("nothing to change: give --title, --notes, --purpose, --clear-purpose or --for")
            }
        }

        func run() throws {
            let lib = try library.openExisting()
            let recording = try lib.recording(matching: id)
            let updated: Recording
            if details.isEmpty && !clearPurpose {
                guard let edited = try EditFlow.interactively(recording, in: lib) else {
                    // Nothing changed: `--json` prints the recording as it stands.
                    return output.json ? try JSONOutput.print(recording) : print(Questions.nothingChanged)
                }
                updated = edited
            } else {
                let newPurpose: Recording.Purpose?? =
                    clearPurpose ? .some(nil) : try details.purpose.map { try Validation.purpose($0) }
                updated = try lib.edit(
                    recording, title: details.title, notes: details.notes.map { Optional($0) }, purpose: newPurpose,
                    forTriggers: try details.triggerNames())
            }
            if output.json {
                try JSONOutput.print(updated)
            } else {
                print(Self.updated(updated))
            }
        }

        /// Whether the form can be asked for: a terminal to read keys from and draw it on.
        static var asksOnTerminal: Bool { Terminal.stdinIsTerminal && Terminal.stderrIsTerminal }

        /// What an edit says it kept.
        static func updated(_ recording: Recording) -> String {
            "Updated '\(recording.shownTitle)' (\(recording.id.uuidString.prefix(8)))."
        }
    }
}
