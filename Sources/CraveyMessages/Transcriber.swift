import CraveyLibrary
import CraveyMedia
import Foundation

/// Makes recordings' transcripts with an offline speech recognizer and stores them in the
/// library. A transcript is made after a recording is saved and never holds the save up: it may
/// be stopped (it is then made later), and a failure is stored as "unavailable" and tried again
/// later, never reported as the save's failure.
///
/// The engine is Whisper where it is installed and works; otherwise PocketSphinx, and the
/// transcript stores which one made it. An installation that is there but broken (a model whose
/// checksum does not match, a missing interpreter, a helper that fails) is told once
/// (`fallback`), and the rest of the run uses PocketSphinx.
public final class Transcriber {
    /// What became of one recording's transcript.
    public enum Outcome: Equatable {
        /// Made and stored (`words` of them).
        case made(words: Int)
        /// The recognizer failed: stored as unavailable with this reason (unless the recording
        /// already had a transcript, which is kept).
        case unavailable(String)
        /// Stopped by the user: nothing stored, made later.
        case stopped
        /// The recording was deleted meanwhile: nothing stored.
        case gone
    }

    /// The speech recognizers cravey can use.
    public enum Engine: String, CaseIterable, Sendable {
        case whisper, pocketsphinx

        /// How the engine's name starts in a stored transcript.
        public var storedName: String { self == .whisper ? WhisperRecognizer.engineName : "PocketSphinx" }
    }

    /// How transcripts are made after a save, an import, a trim, a recovery or a check-in (the
    /// person's choice, read by the executable). They are queued in every case.
    public enum Timing: String, Sendable {
        /// By the background worker: the command returns at once (the default).
        case background
        /// In the foreground right after the save, with a progress line (q skips).
        case now
        /// Only queued: made by `cravey transcribe`.
        case later
    }

    /// Where the engines are: the Whisper installation found (or why there is none) and
    /// PocketSphinx's model directory (the standard one, another model, or a test's unreadable one).
    public struct Engines: Sendable {
        public var whisper: WhisperInstallation.Found
        public var modelDirectory: String
        public init(
            whisper: WhisperInstallation.Found, modelDirectory: String = PocketSphinxRecognizer.standardModelDirectory
        ) {
            self.whisper = whisper
            self.modelDirectory = modelDirectory
        }
    }

    private let library: Library
    private let modelDirectory: String
    /// The engine asked for; nil: the best there is.
    private let engine: Engine?
    private var whisper: Result<WhisperRecognizer, WhisperError>?
    private var pocketSphinx: Result<PocketSphinxRecognizer, Error>?

    /// Why Whisper was wanted and PocketSphinx made the transcripts instead; nil while Whisper
    /// works or is simply not installed (or turned off).
    public private(set) var fallback: String?

    /// `started`: a Whisper recognizer already started (whose helper answered), to use as it is.
    public init(library: Library, engine: Engine? = nil, engines: Engines, started: WhisperRecognizer? = nil) {
        let whisper = engines.whisper
        self.library = library
        self.engine = engine
        self.modelDirectory = engines.modelDirectory
        if let started {
            self.whisper = .success(started)
            return
        }
        if case let .installed(installation) = whisper {
            self.whisper = .success(WhisperRecognizer(installation))
        } else {
            self.whisper = .failure(WhisperError(whisper.problem ?? ""))
        }
        if engine == nil, case .broken = whisper { fallback = whisper.problem }
    }

    /// Ends the Whisper helper, if one runs, once the work is done (it is killed if this object
    /// goes first).
    public func finish() { try? whisper?.get().finish() }

    /// Makes and stores `recording`'s transcript. `progress` hears the fraction done and returns
    /// false to stop.
    public func transcribe(_ recording: Recording, progress: (Double) -> Bool = { _ in true }) -> Outcome {
        var used: SpeechEngine?
        let result: Result<RecognizedSpeech?, Error> = Result {
            let samples = try SpeechSound.decode(path: try library.file(of: recording))
            let spans = SpeechSegments.split(samples, rate: SpeechSound.rate)
            if engine != .pocketsphinx, case let .success(whisper)? = whisper {
                do {
                    used = whisper
                    return try whisper.recognize(samples, speech: spans, progress: progress)
                } catch let error as WhisperError {
                    // Asked for by name: its failure is the outcome. Otherwise PocketSphinx
                    // makes this one and the rest.
                    if engine == .whisper { throw error }
                    self.whisper = .failure(error)
                    fallback = error.description
                }
            } else if engine == .whisper, case let .failure(error)? = whisper {
                throw error
            }
            if pocketSphinx == nil {
                pocketSphinx = Result { try PocketSphinxRecognizer(modelDirectory: modelDirectory) }
            }
            let recognizer = try pocketSphinx!.get()
            used = recognizer
            return try recognizer.recognize(samples, speech: spans, progress: progress)
        }
        let engineName =
            used?.engine ?? (engine == .whisper ? WhisperRecognizer.engineName : PocketSphinxRecognizer.engine)
        let modelName = used?.model ?? (engine == .whisper ? WhisperInstallation.model : PocketSphinxRecognizer.model)
        let transcript: Transcript
        switch result {
        case .success(nil):
            return .stopped
        case let .success(speech?):
            transcript = Transcript(
                recordingId: recording.id, state: .done, text: speech.text,
                words: speech.words.map { Transcript.Word(text: $0.word, start: $0.start, end: $0.end) },
                engine: engineName, model: modelName)
        case let .failure(error):
            // A failed redo keeps the transcript there was (and is out of the queue).
            if (try? library.transcript(of: recording.id))??.state == .done {
                try? library.dequeueTranscript(recording.id)
                return .unavailable("\(error)")
            }
            transcript = Transcript(
                recordingId: recording.id, state: .unavailable, text: "", words: [],
                engine: engineName, model: modelName, problem: "\(error)")
        }
        do {
            guard try library.storeTranscript(transcript) else { return .gone }
        } catch {
            return .unavailable("the transcript could not be stored: \(error)")
        }
        return transcript.state == .done ? .made(words: transcript.words.count) : .unavailable(transcript.problem ?? "")
    }
}
