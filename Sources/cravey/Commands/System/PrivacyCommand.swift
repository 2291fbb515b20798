import ArgumentParser
import CraveyLibrary
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey privacy`: the privacy statement.
    struct PrivacyCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "privacy", abstract: "What cravey keeps, where, and who can read it.")

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        /// `--json`: where the library is, the sync folder chosen (null: none), and the statement's
        /// paragraphs.
        struct Shown: Encodable {
            var library: String
            var syncFolder: String?
            var paragraphs: [String]

            private enum Key: String, CodingKey { case library, syncFolder, paragraphs }

            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: Key.self)
                try c.encode(library, forKey: .library)
                try c.encode(syncFolder, forKey: .syncFolder)  // null without a folder, not left out
                try c.encode(paragraphs, forKey: .paragraphs)
            }
        }

        /// On a terminal the paragraphs wrap between words to its width (a list's item hangs under
        /// its first word); elsewhere the lines as they are. A library not there yet is not made;
        /// one that cannot be read leaves out only the folder.
        func run() throws {
            let folder = (try? library.existing().flatMap { try $0.syncFolder() }) ?? nil
            let lines = Privacy.statement(libraryPath: library.root, folder: folder)
            if output.json {
                return try JSONOutput.print(
                    Shown(
                        library: library.root, syncFolder: folder,
                        paragraphs: Privacy.paragraphs(lines).filter { !$0.isEmpty }))
            }
            guard Terminal.stdoutIsTerminal else { return print(lines.joined(separator: "\n")) }
            let width = max(40, Terminal.columns - 1)
            print(
                Privacy.paragraphs(lines).flatMap { paragraph in
                    guard paragraph.hasPrefix("- ") else {
                        return paragraph.isEmpty ? [""] : Terminal.wrap(paragraph, width: width)
                    }
                    return Terminal.wrap(paragraph, width: width - 2).enumerated().map {
                        $0.offset == 0 ? $0.element : "  " + $0.element
                    }
                }.joined(separator: "\n"))
        }
    }
}
