import CraveyLibrary
import CraveyMedia
import Foundation

/// Makes recordings' transcripts with the offline speech recognizer and stores them in the
/// library. A transcript is made after a recording is saved and never holds the save up: it may
/// be stopped (it is then made later), and a failure is stored as "unavailable" and tried again
/// later, never reported as the save's failure.
public final class Transcriber {
    /// What became of one recording's transcript.
    public enum Outcome: Equatable {
        /// Made and stored (`words` of them).
        case made(words: Int)
        /// The recognizer failed: stored as unavailable with this reason.
        case unavailable(String)
        /// Stopped by the user: nothing stored, made later.
        case stopped
        /// The recording was deleted meanwhile: nothing stored.
        case gone
    }

    /// When transcripts are made by themselves: after each save (`now`, the default) or only by
    /// `cravey transcribe` (`later`), set by `CRAVEY_TRANSCRIBE`.
    public static func automatic(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        environment["CRAVEY_TRANSCRIBE"] != "later"
    }

    /// The model's directory: the standard one, or `CRAVEY_SPEECH_MODEL` (another model, or a
    /// test's unreadable one).
    public static func modelDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        environment["CRAVEY_SPEECH_MODEL"].flatMap { $0.isEmpty ? nil : $0 } ?? SpeechRecognizer.standardModelDirectory
    }

    private let library: Library
    private let modelDirectory: String
    private var recognizer: Result<SpeechRecognizer, Error>?

    public init(library: Library, modelDirectory: String = Transcriber.modelDirectory()) {
        self.library = library
        self.modelDirectory = modelDirectory
    }

    /// Makes and stores `recording`'s transcript. `progress` hears the fraction done and returns
    /// false to stop.
    public func transcribe(_ recording: Recording, progress: (Double) -> Bool = { _ in true }) -> Outcome {
        let result: Result<RecognizedSpeech?, Error> = Result {
            let file = try library.file(of: recording)
            if recognizer == nil { recognizer = Result { try SpeechRecognizer(modelDirectory: modelDirectory) } }
            return try recognizer!.get().recognize(path: file, progress: progress)
        }
        let transcript: Transcript
        switch result {
        case .success(nil):
            return .stopped
        case let .success(speech?):
            transcript = Transcript(
                recordingId: recording.id, state: .done, text: speech.text,
                words: speech.words.map { Transcript.Word(text: $0.word, start: $0.start, end: $0.end) },
                engine: SpeechRecognizer.engine, model: SpeechRecognizer.model)
        case let .failure(error):
            transcript = Transcript(recordingId: recording.id, state: .unavailable, text: "", words: [],
                                    engine: SpeechRecognizer.engine, model: SpeechRecognizer.model, problem: "\(error)")
        }
        do {
            guard try library.storeTranscript(transcript) else { return .gone }
        } catch {
            return .unavailable("the transcript could not be stored: \(error)")
        }
        return transcript.state == .done ? .made(words: transcript.words.count) : .unavailable(transcript.problem ?? "")
    }
}
