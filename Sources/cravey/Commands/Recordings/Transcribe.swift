import ArgumentParser
import CraveyLibrary
import CraveyMedia
import CraveyMessages
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey transcribe ID | --all`: make transcripts now.
    struct Transcribe: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "transcribe",
            abstract: "Make a recording's transcript now, or every one still to be made (--all).",
            discussion: """
                Transcripts are automatic drafts, made offline on this machine: by Whisper (tiny.en, \
                with punctuation and capitals) where its engine is installed, else by PocketSphinx \
                (US English model); nothing is sent anywhere. After each save, import, trim, recovery \
                and check-in the transcript is queued and made by a background worker (the command \
                returns at once); CRAVEY_TRANSCRIBE=now makes it in the foreground with a progress \
                line (q skips), CRAVEY_TRANSCRIBE=later only queues it. This command queues the \
                recording's transcript (made again), or every one still to be made (--all), the same \
                way; --wait makes them now, in the foreground. --engine chooses the engine: with --all, every transcript \
                another engine made is made again with it; --upgrade is --engine whisper (the \
                PocketSphinx drafts made again by Whisper). A failed redo keeps the transcript there was.
                """)

        @OptionGroup var library: LibraryOptions

        @Argument(help: "The recording (id, unique start of an id, or start of a title); a check-in by its id.")
        var key: String?

        @Flag(help: "Every recording and check-in without a transcript (or whose last try failed).")
        var all = false

        @Option(help: "The engine: whisper or pocketsphinx (default: Whisper where it is installed).")
        var engine: Transcriber.Engine?

        @Flag(help: "With --all: also remake PocketSphinx's transcripts with Whisper.")
        var upgrade = false

        @Flag(help: "Make them now, in the foreground, with a progress line (instead of by the background worker).")
        var wait = false

        @Flag(help: .hidden)
        var worker = false

        @Flag(help: "Print the outcome as JSON.")
        var json = false

        func validate() throws {
            if worker { return }
            if all == (key != nil) { throw ValidationError("give a recording, or --all") }
            if upgrade && !all { throw ValidationError("--upgrade goes with --all") }
            if upgrade && engine == .pocketsphinx {
                throw ValidationError("--upgrade makes transcripts with Whisper, not PocketSphinx")
            }
        }

        func run() throws {
            if worker {
                let lib = try library.openExisting()
                // The worker starts no other worker when it is done.
                Transcribing.forgetOpened()
                return try TranscriptWorker.run(lib)
            }
            let engine = upgrade ? .whisper : engine
            // Whisper by name is started first: if it cannot work, one line and nothing changes.
            let whisper = engine == .whisper ? try Self.startWhisper() : nil
            let lib = try library.openExisting()
            let recordings =
                try all
                ? engine.map { try lib.recordingsNeedingTranscripts(madeBy: $0.storedName) }
                    ?? lib.recordingsNeedingTranscripts()
                : [lib.recording(idOrTitle: key!)]
            let timing = wait ? .now : LibraryOptions.configuration.transcribe
            if timing != .now {
                try lib.queueTranscripts(recordings.map(\.id), engine: engine?.rawValue)
                whisper?.finish()
                if timing == .background { TranscriptWorker.start(for: lib) }
                if json {
                    try JSONOutput.print(
                        recordings.map {
                            TranscribeOutcome(id: $0.id.uuidString, outcome: "queued", words: nil, problem: nil)
                        })
                } else if recordings.isEmpty {
                    print("Every recording has its transcript.")
                } else {
                    let what =
                        recordings.count == 1
                        ? "'\(Terminal.safe(recordings[0].shownTitle))'" : "\(recordings.count) recordings"
                    print(
                        timing == .background
                            ? "Queued \(what) for transcripts, made in the background ('cravey show' shows each when it is ready; --wait makes them now)."
                            : "Queued \(what) for transcripts (CRAVEY_TRANSCRIBE=later: 'cravey transcribe --all --wait' makes them)."
                    )
                }
                return
            }
            let outcomes = Transcribing(library: lib, quiet: true, engine: engine, whisper: whisper).run(recordings)
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
                    if !json {
                        print(
                            "Skipped '\(title)' (and the rest): made after the next save, or by 'cravey transcribe --all'"
                        )
                    }
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

        /// Whisper asked for by name must be there and answer (its model checked and loaded).
        static func startWhisper() throws -> WhisperRecognizer {
            switch WhisperInstallation.find(named: LibraryOptions.configuration.whisper) {
            case let .installed(installation):
                let whisper = WhisperRecognizer(installation)
                do { try whisper.start() } catch {
                    throw CraveyFailure(
                        message: "the Whisper engine in \(installation.directory) cannot be used: \(error)")
                }
                return whisper
            case .notInstalled:
                throw CraveyFailure(
                    message:
                        "the Whisper engine is not installed (bash Whisper/install.sh PREFIX/lib/cravey/whisper; 'cravey doctor' says where cravey looks)"
                )
            case let found:
                throw CraveyFailure(message: found.problem ?? "the Whisper engine cannot be used")
            }
        }
    }

    struct TranscribeOutcome: Encodable {
        let id: String
        let outcome: String
        let words: Int?
        let problem: String?
    }
}

extension Transcriber.Engine: ExpressibleByArgument {}
