import ArgumentParser
import TerminalKit
import CraveyLibrary

extension Cravey {
    /// `cravey list`: every recording, newest first.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List recordings, newest first.")

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        @Option(name: .customLong("type"), help: "Only recordings of this kind (audio or video).")
        var kind: Recording.Kind?

        @Option(help: "Only recordings with this purpose (motivational, milestone, reflection, craving).")
        var purpose: Recording.Purpose?

        func run() throws {
            try Self.show(try library.existing(), kind: kind, purpose: purpose, json: output.json)
        }

        /// The list as JSON or as a table (or the words for none): `cravey list`, and
        /// `cravey recordings` without a terminal.
        static func show(
            _ lib: Library?, kind: Recording.Kind? = nil, purpose: Recording.Purpose? = nil, json: Bool
        ) throws {
            guard let lib else { return print(json ? "[]" : none(kind: kind, purpose: purpose)) }
            let recordings = try lib.recordings(kind: kind, purpose: purpose)
            if json {
                print(RecordingExport.jsonArray(recordings))
            } else if recordings.isEmpty {
                print(none(kind: kind, purpose: purpose))
            } else {
                print(Format.table(recordings, onItsWay: Transcribing.onItsWay(in: lib)))
            }
        }

        /// The words for a list with nothing in it.
        static func none(kind: Recording.Kind?, purpose: Recording.Purpose?) -> String {
            "No recordings\(kind != nil || purpose != nil ? " match" : " yet"). Record one with 'cravey record audio' or 'cravey record video'."
        }
    }
}

extension Recording.Kind: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

extension Recording.Purpose: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
