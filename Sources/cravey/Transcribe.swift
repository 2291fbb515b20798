import ArgumentParser
import CraveyLibrary
import CraveyMessages
import Foundation

extension Cravey {
    /// `cravey transcribe ID | --all`: make transcripts now.
    struct Transcribe: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "transcribe",
            abstract: "Make a recording's transcript now, or every one still to be made (--all).",
            discussion: """
                Transcripts are automatic drafts, made offline on this machine (PocketSphinx, US English \
                model): nothing is sent anywhere. They are made after each save and import (q skips; \
                CRAVEY_TRANSCRIBE=later leaves them all for this command); one that was skipped or \
                failed is made after the next save, or by --all. Given a recording, its transcript is \
                made again.
                """)

        @OptionGroup var library: LibraryOptions

        @Argument(help: "The recording (id, unique start of an id, or start of a title); a check-in by its id.")
        var key: String?

        @Flag(help: "Every recording and check-in without a transcript (or whose last try failed).")
        var all = false

        @Flag(help: "Print the outcome as JSON.")
        var json = false

        func validate() throws {
            if all == (key != nil) { throw ValidationError("give a recording, or --all") }
        }

        func run() throws {
            let lib = try library.open()
            let recordings = all ? try lib.recordingsNeedingTranscripts() : [try lib.recording(idOrTitle: key!)]
            let outcomes = Transcribing(library: lib, quiet: true).run(recordings)
            var failed = 0
            var objects: [TranscribeOutcome] = []
            for (recording, outcome) in outcomes {
                let title = Terminal.safe(recording.shownTitle)
                let id = recording.id.uuidString
                switch outcome {
                case let .made(words):
                    objects.append(.init(id: id, outcome: "made", words: words, problem: nil))
                    if !json { print("Transcribed '\(title)': \(words) word\(words == 1 ? "" : "s")") }
                case let .unavailable(problem):
                    failed += 1
                    objects.append(.init(id: id, outcome: "unavailable", words: nil, problem: problem))
                    if !json { print("Transcript of '\(title)' unavailable: \(Terminal.safe(problem))") }
                case .stopped:
                    objects.append(.init(id: id, outcome: "skipped", words: nil, problem: nil))
                    if !json { print("Skipped '\(title)' (and the rest): made after the next save, or by 'cravey transcribe --all'") }
                case .gone:
                    objects.append(.init(id: id, outcome: "deleted", words: nil, problem: nil))
                }
            }
            if json {
                try JSONOutput.print(objects)
            } else if recordings.isEmpty {
                print("Every recording has its transcript.")
            }
            if failed > 0 { throw ExitCode(1) }
        }
    }

    struct TranscribeOutcome: Encodable {
        let id: String
        let outcome: String
        let words: Int?
        let problem: String?
    }
}
