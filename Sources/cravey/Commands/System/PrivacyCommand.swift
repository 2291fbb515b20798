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

        /// On a terminal the paragraphs wrap between words to its width (a list's item hangs under
        /// its first word); elsewhere the lines as they are.
        func run() throws {
            let lines = Privacy.statement(libraryPath: library.root)
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
