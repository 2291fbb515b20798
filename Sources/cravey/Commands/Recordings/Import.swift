import ArgumentParser
import CraveyLibrary
import CraveyMessages
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey import FILE`: bring an audio or video file (a voice memo, another recorder's clip) into the library.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import an audio or video file (any format FFmpeg reads, at most 2 minutes) as a recording.",
            discussion: """
                It is re-encoded like a recording: sound to AAC (.m4a); video to H.264 + AAC (.mov) at \
                most 1280x720, with a thumbnail. The title defaults to the file's name.
                """)

        @OptionGroup var library: LibraryOptions
        @OptionGroup var details: DetailOptions

        @Argument(help: "The file to import.")
        var file: String

        @Flag(help: "Keep the first 2 minutes of a longer file instead of refusing it.")
        var trim = false

        @Flag(
            help:
                "Leave out the silence at the start and end (the threshold follows the file's own level; 0.2 s of margin is kept)."
        )
        var trimSilence = false

        @Flag(help: "Print the new recording as JSON.")
        var json = false

        func run() throws {
            let draft = try details.draft()
            let lib = try library.open()
            let saved: Recording
            do {
                saved = try MediaImport.importFile(
                    file, into: lib, draft: draft, trim: trim, trimSilence: trimSilence,
                    now: LocalClock.now())
            } catch let failure as MediaImport.Failure {
                guard case .tooLong = failure else { throw CraveyFailure(message: failure.description) }
                throw CraveyFailure(message: failure.description + " (use --trim to keep the first 2:00)")
            }
            if json {
                try JSONOutput.print(saved)
            } else {
                print("Imported '\(saved.shownTitle)' (\(Format.duration(saved.duration))) as \(saved.id.uuidString).")
            }
            Transcribing.afterSave(lib, saved: saved, quiet: json)
        }
    }
}
