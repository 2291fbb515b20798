import ArgumentParser
import CraveyLibrary
import CraveyTracker
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey log`: the cravings and uses logged, newest first; `show`, `edit` and `delete` one.
    struct LogCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log",
            abstract: "List the cravings and uses logged (newest first); show, edit or delete one.",
            subcommands: [List.self, Show.self, Edit.self, Delete.self],
            defaultSubcommand: List.self)

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "List the logs, newest first.")

            @OptionGroup var library: LibraryOptions

            @Flag(help: "Only cravings.")
            var cravings = false

            @Flag(name: .customLong("use"), help: "Only uses.")
            var uses = false

            @Option(help: ArgumentHelp("Only logs since: 7d, 30d, 90d, or a date YYYY-MM-DD.", valueName: "when"))
            var since: String?

            @OptionGroup var output: OutputOptions

            func run() throws {
                let bound = try since.map { text in
                    try given(as: "--since") { try LogInput.since(text, now: LocalClock.now()) }
                }
                if output.json {
                    // Streamed: ten years of logs are written a block at a time, never held whole.
                    var writer = LogExport.JSONArrayWriter { StandardOutput.write(Data($0)) }
                    try library.existing().map {
                        try Tracker(library: $0).forEachLogJSON(
                            .listing, cravings: !uses || cravings, uses: !cravings || uses, since: bound
                        ) { writer.append(object: $0) }
                    }
                    writer.finish()
                    StandardOutput.write("\n")
                    return
                }
                let entries =
                    try library.existing().map {
                        try Tracker(library: $0).entries(
                            cravings: !uses || cravings, uses: !cravings || uses, since: bound)
                    } ?? []
                guard !entries.isEmpty else {
                    print(
                        since == nil
                            ? "Nothing logged yet. 'cravey craving' logs a craving, 'cravey use' a use."
                            : "Nothing logged in that time.")
                    return
                }
                for entry in entries {
                    print(LogText.line(entry, width: Terminal.stdoutIsTerminal ? Terminal.columns : nil))
                }
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one log in full.")

            @OptionGroup var library: LibraryOptions

            @Argument(help: "The log's id, or a unique start of it.")
            var id: String

            @OptionGroup var output: OutputOptions

            func run() throws {
                let lib = try library.openExisting()
                let entry = try Tracker(library: lib).entry(matching: id)
                if output.json {
                    try JSONOutput.print(entry)
                    return
                }
                for line in try LogText.details(entry, lib) { print(line) }
            }
        }

        struct Edit: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "edit",
                abstract:
                    "Change a log: any of the flags of 'cravey craving' or 'cravey use' ('none' clears a trigger or location, --notes '' the notes)."
            )

            @OptionGroup var library: LibraryOptions

            @Argument(help: "The log's id, or a unique start of it.")
            var id: String

            @Option(help: ArgumentHelp("A craving's intensity, 1–10.", valueName: "N"))
            var intensity: String?

            @Option(
                help: ArgumentHelp("A use's method: bowls (joints, blunts), vape, dab, edible.", valueName: "method"))
            var method: String?

            @Option(help: ArgumentHelp("A use's amount, in its method's unit.", valueName: "amount"))
            var amount: String?

            @OptionGroup var details: LogDetails

            @Option(help: ArgumentHelp("A use's mood after, 1–10 ('none' clears it).", valueName: "N"))
            var moodAfter: String?

            @Option(help: ArgumentHelp("The craving a use followed: id, 'last', or 'none'.", valueName: "id|last|none"))
            var afterCraving: String?

            @OptionGroup var output: OutputOptions

            func run() throws {
                let lib = try library.openExistingBringingInSync()
                let tracker = Tracker(library: lib)
                let edited: LogEntry
                var movedUse = false
                switch try tracker.entry(matching: id) {
                case .craving(var c):
                    guard method == nil, amount == nil, moodAfter == nil, afterCraving == nil else {
                        throw TrackerError.invalid(
                            field: "edit",
                            reason:
                                "--method, --amount, --mood-after and --after-craving are for uses; this is a craving")
                    }
                    if let intensity { c.intensity = try LogInput.intensity(intensity) }
                    try apply(&c.time, &c.triggers, &c.location, &c.notes)
                    edited = .craving(try tracker.edit(c, now: LocalClock.now()))
                case .use(var u):
                    guard intensity == nil else {
                        throw TrackerError.invalid(field: "edit", reason: "--intensity is for cravings; this is a use")
                    }
                    if let method {
                        let new = try LogInput.method(method)
                        u.amount = new.amount(switchingFrom: u.method, amount: u.amount)
                        u.method = new
                    }
                    if let amount { u.amount = try LogInput.amount(amount, of: u.method) }
                    if let moodAfter { u.moodAfter = try LogInput.clearing(moodAfter, LogInput.moodAfter) }
                    if let afterCraving {
                        u.cravingId = try LogInput.clearing(afterCraving) {
                            try tracker.craving(named: $0, before: u.time.instant).id
                        }
                    }
                    let day = LocalDay(u.time)
                    try apply(&u.time, &u.triggers, &u.location, &u.notes)
                    edited = .use(try tracker.edit(u, now: LocalClock.now()))
                    movedUse = LocalDay(u.time) != day
                }
                if output.json { try JSONOutput.print(edited) } else { print("Updated: " + LogText.line(edited)) }
                if movedUse, case let .use(u) = edited { noteIfWithdrawn(u, in: lib) }
            }

            func apply(
                _ time: inout LogTime, _ triggers: inout [Trigger], _ location: inout Location?, _ notes: inout String?
            ) throws {
                if details.at != nil { time = try details.time() }
                if !details.triggers.isEmpty { triggers = Trigger.allCases.filter(try details.triggerSet().contains) }
                if details.location != nil { location = try details.place() }
                if let text = details.notes { notes = text }
            }
        }

        struct Delete: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "delete", abstract: "Delete a log (a use never changes its craving).")

            @OptionGroup var library: LibraryOptions

            @Argument(help: "The log's id, or a unique start of it.")
            var id: String

            @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
            var yes = false

            @Flag(help: "Deleting a craving: delete the uses that followed it too.")
            var withLinked = false

            @Flag(help: "Deleting a craving: keep the uses that followed it (no longer linked).")
            var keepLinked = false

            func validate() throws {
                if withLinked && keepLinked { throw ValidationError("give --with-linked or --keep-linked, not both") }
            }

            /// `--yes`, or "y" at a terminal; a no says "Nothing deleted." (a choice, not a failure).
            func confirmed(_ entry: LogEntry) throws -> Bool {
                guard
                    try Terminal.confirmed("Delete this log? \(LogText.line(entry))", yes: yes, action: "delete a log")
                else {
                    print(Terminal.nothingDeleted)
                    return false
                }
                return true
            }

            func run() throws {
                let tracker = Tracker(library: try library.openExistingBringingInSync())
                let entry = try tracker.entry(matching: id)
                switch entry {
                case let .use(u):
                    guard try confirmed(entry) else { return }
                    try tracker.deleteUse(u.id)
                    print("Deleted the use of \(u.time.localText).")
                case let .craving(c):
                    var linked: Tracker.LinkedUses? = withLinked ? .delete : keepLinked ? .keep : nil
                    let uses = try tracker.uses(following: c.id)
                    if !uses.isEmpty && linked == nil {
                        // The question is the confirmation: yes deletes both, no only the craving.
                        let question = "This craving has a linked usage log. Delete both?"
                        guard Terminal.stdinIsTerminal else {
                            throw CraveyFailure(
                                message:
                                    "\(question) Say --with-linked (delete both) or --keep-linked (delete only the craving)"
                            )
                        }
                        linked = Self.askLinked(
                            "\(LogText.line(entry))\n\(question) [y]es / [n]o, only the craving / [c]ancel ")
                        guard linked != nil else {
                            print(Terminal.nothingDeleted)
                            return
                        }
                    } else {
                        guard try confirmed(entry) else { return }
                    }
                    let deleted = try tracker.deleteCraving(c.id, linked: uses.isEmpty ? nil : linked)
                    print(
                        "Deleted the craving of \(c.time.localText)"
                            + (deleted > 0 ? " and the use that followed it." : "."))
                }
            }

            /// The linked question: y deletes both, n only the craving, at once on a terminal; c,
            /// Esc, Enter (or any other line) cancels (nil).
            static func askLinked(_ question: String) -> Tracker.LinkedUses? {
                enum Answer { case both, craving, cancel }
                let answer = Prompt.choice(
                    question,
                    key: { key -> Answer? in
                        switch key.letter {
                        case "y": .both
                        case "n": .craving
                        case "c", "q": .cancel
                        default: key == .enter || key == .escape ? .cancel : nil
                        }
                    },
                    line: { line -> Answer? in
                        switch line.trimmingCharacters(in: .whitespaces).lowercased() {
                        case "y", "yes": .both
                        case "n", "no": .craving
                        default: .cancel
                        }
                    }, ended: .cancel)
                switch answer {
                case .both: return .delete
                case .craving: return .keep
                case .cancel: return nil
                }
            }
        }
    }
}
