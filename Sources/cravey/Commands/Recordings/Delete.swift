import ArgumentParser
import TerminalKit
import CraveyLibrary

extension Cravey {
    /// `cravey delete ID`: delete one recording, its file and thumbnail.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a recording permanently.")

        @OptionGroup var library: LibraryOptions

        @Argument(help: "The recording's id, or a unique start of it.")
        var id: String

        @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
        var yes = false

        func run() throws {
            let lib = try library.openExisting()
            let recording = try lib.recording(matching: id)
            guard
                try Terminal.confirmed(
                    Questions.deleteRecording(recording) + " " + Questions.deleteRecordingWarning, yes: yes,
                    action: "delete '\(recording.shownTitle)'")
            else {
                print(Terminal.nothingDeleted)
                return
            }
            try lib.delete(recording)
            print(Self.deleted(recording))
        }

        /// What a delete says it did.
        static func deleted(_ recording: Recording) -> String { "Deleted '\(recording.shownTitle)'." }
    }
}
