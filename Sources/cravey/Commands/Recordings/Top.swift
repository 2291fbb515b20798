import ArgumentParser
import TerminalKit
import CraveyLibrary
import CraveyTracker

extension Cravey {
    /// `cravey top [N]`: the most played recordings, the ones to reach for in a hard moment.
    struct Top: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "top",
            abstract:
                "Show Quick Play's messages: the most played (by plays, then last played, then newest), or those that helped most ('cravey settings quick-play helped-most')."
        )

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        // Gathered with whatever else the parser does not know, so that a negative number is
        // refused in the number's own words (`RawArguments.number`).
        @Argument(
            parsing: .allUnrecognized, help: ArgumentHelp("How many to show (3 when left out).", valueName: "count"))
        var countTyped: [String] = []

        /// How many to show.
        var count: Int { RawArguments.value(countTyped).flatMap { Int($0) } ?? 3 }

        func validate() throws {
            if let typed = try RawArguments.number(countTyped), Int(typed) == nil {
                throw ValidationError("The value '\(typed)' is invalid for '<count>'")
            }
            guard count >= 1 else { throw ValidationError("the count must be at least 1") }
        }

        func run() throws {
            let recordings =
                try library.existing().map { try Tracker(library: $0).quickPlay(count, now: LocalClock.now()) } ?? []
            if output.json {
                print(RecordingExport.jsonArray(recordings))
                return
            }
            guard !recordings.isEmpty else {
                print(
                    "No recordings yet. Record a message to your future self with 'cravey record audio' or 'cravey record video'."
                )
                return
            }
            for (rank, r) in recordings.enumerated() {
                print(
                    "\(rank + 1). \(Format.icon(r.kind)) \(Terminal.bold(Terminal.fit(r.shownTitle, 40))) "
                        + "\(Terminal.fit(Format.plays(r.playCount), 9)) \(Format.duration(r.duration))  "
                        + Terminal.dim(Format.sparkline(r.media.waveform, columns: 24)) + "  "
                        + Terminal.accent(String(r.id.uuidString.prefix(8))))
            }
        }
    }
}
