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

        /// On a terminal the paragraphs wrap between words to its width; elsewhere the lines as they are.
        func run() throws {
            let lines = Privacy.statement(libraryPath: library.root)
            guard Terminal.stdoutIsTerminal else { return print(lines.joined(separator: "\n")) }
            let width = max(40, Terminal.columns - 1)
            print(
                Privacy.paragraphs(lines).flatMap { $0.isEmpty ? [""] : Terminal.wrap($0, width: width) }
                    .joined(separator: "\n"))
        }
    }
}
