import ArgumentParser
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey status`: one short line of progress for a shell prompt, tmux or a status bar.
    struct StatusCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "One short line of progress for a prompt or a status bar: Day, days since use, resisted today.",
            discussion: """
                Reads the library without changing it (no library yet: a quiet line). --json prints one JSON object \
                as waybar's custom module reads it (text, tooltip, class, alt). --format takes fields in \
                braces: {days} Days in Progress, {since} days since last use, {resisted} cravings resisted today, \
                {cravings} cravings today, {milestone} a new milestone, {text} the whole line; {{ and }} are braces. \
                A field with nothing to say is empty. --discreet names neither cannabis, cravings nor use, for places \
                others can see.
                """)

        @OptionGroup var library: LibraryOptions

        @Flag(help: "Print one JSON object as waybar's custom module reads it (return-type json).")
        var json = false

        @Option(help: ArgumentHelp("The line with fields in braces, e.g. '{days}d {resisted}✓'.", valueName: "format"))
        var format: String?

        @Flag(help: "Words that name neither cannabis, cravings nor use (others can see a status bar).")
        var discreet = false

        func run() throws { try Self.show(root: library.root, json: json, format: format, discreet: discreet) }

        /// `cravey status` as typed, its arguments read without the argument parser (whose
        /// reflection costs more than the status itself): `--library DIR`, `--json`, `--format F`,
        /// `--discreet` (also `--option=value`). nil for anything else (`--help`, a mistake), which
        /// the parser then reads and answers as usual.
        static func quickly(_ arguments: [String]) -> (() throws -> Void)? {
            guard arguments.first == "status" else { return nil }
            var (library, format): (String?, String?) = (nil, nil)
            var (json, discreet) = (false, false)
            var rest = arguments.dropFirst()
            while let argument = rest.popFirst() {
                let (name, attached) =
                    argument.firstIndex(of: "=").map {
                        (String(argument[..<$0]), String(argument[argument.index(after: $0)...]))
                    } ?? (argument, nil)
                switch name {
                case "--json" where attached == nil: json = true
                case "--discreet" where attached == nil: discreet = true
                case "--library", "--format":
                    guard let value = attached ?? rest.popFirst(), attached != nil || !value.hasPrefix("-") else {
                        return nil
                    }
                    if name == "--library" { library = value } else { format = value }
                default: return nil
                }
            }
            return { try show(root: LibraryOptions.root(library), json: json, format: format, discreet: discreet) }
        }

        static func show(root: String, json: Bool, format: String?, discreet: Bool) throws {
            let template = try format.map(StatusLine.parse)
            let glance: Glance?
            do {
                glance = try Glance.read(root: root, now: LocalClock.now())
            } catch {
                // A prompt must not break: the quiet line, and why on stderr.
                Terminal.printNote("the library could not be read: \(Problem.of(error)?.message ?? "\(error)")")
                glance = nil
            }
            let line = StatusLine(glance: glance, discreet: discreet)
            if json {
                try JSONOutput.print(line.module)
            } else if let template {
                print(line.filled(template))
            } else {
                print(line.text)
            }
        }
    }
}
