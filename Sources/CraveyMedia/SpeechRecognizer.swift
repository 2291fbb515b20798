internal import CSphinx
import FoundationEssentials
import Glibc

/// One recognized word and where it is in the recording, in seconds from the start.
public struct SpokenWord: Sendable, Equatable, Codable {
    public var word: String
    public var start: Double
    public var end: Double

    public init(word: String, start: Double, end: Double) {
        self.word = word
        self.start = start
        self.end = end
    }
}

/// One stretch of speech: its text as the engine wrote it (Whisper: a sentence with its
/// punctuation and capitals; PocketSphinx: the words) and its words with their times.
public struct SpokenLine: Sendable, Equatable {
    public var text: String
    public var words: [SpokenWord]

    public init(text: String, words: [SpokenWord]) {
        self.text = text
        self.words = words
    }

    public init(words: [SpokenWord]) {
        self.init(text: words.map(\.word).joined(separator: " "), words: words)
    }
}

/// What a recognizer heard in a recording: a line per stretch of speech, each with its words.
public struct RecognizedSpeech: Sendable, Equatable {
    public var lines: [SpokenLine]

    public init(lines: [SpokenLine]) { self.lines = lines }

    public var words: [SpokenWord] { lines.flatMap(\.words) }
    /// The text, a line per stretch of speech.
    public var text: String { lines.map(\.text).joined(separator: "\n") }
}

/// An offline speech recognizer: Whisper (`WhisperRecognizer`) or PocketSphinx (`PocketSphinxRecognizer`).
public protocol SpeechEngine: AnyObject {
    /// The engine and model that made a transcript, stored with it.
    var engine: String { get }
    var model: String { get }
    /// Recognizes `samples` (16 kHz mono, `SpeechSound.decode`) whose speech lies in `speech`
    /// (`SpeechSegments.split`). `progress` is told the fraction done and returns false to stop:
    /// the answer is then nil.
    func recognize(_ samples: [Int16], speech: [Range<Int>], progress: (Double) -> Bool) throws -> RecognizedSpeech?
}

extension SpeechEngine {
    /// Recognizes the speech in the sound of the file at `path`.
    public func recognize(path: String, progress: (Double) -> Bool = { _ in true }) throws -> RecognizedSpeech? {
        let samples = try SpeechSound.decode(path: path)
        return try recognize(samples, speech: SpeechSegments.split(samples, rate: SpeechSound.rate), progress: progress)
    }
}

/// A recording's sound the way both recognizers take it.
public enum SpeechSound {
    /// 16 kHz mono, the rate both models were trained at.
    public static let rate = 16_000

    /// The file's sound, decoded and resampled by cravey's own decoder.
    public static func decode(path: String) throws -> [Int16] {
        let decoder = try AudioDecoder(path: path, sampleRate: rate, channels: 1)
        var samples: [Int16] = []
        while true {
            let block = try decoder.read(frames: 16_384)
            if block.isEmpty { return samples }
            samples += block
        }
    }
}

/// Offline speech recognition of a recording's sound with PocketSphinx and its US English model:
/// the fallback when Whisper is not installed or does not work. Nothing leaves the machine: the
/// model is read from a local directory, never fetched.
public final class PocketSphinxRecognizer: SpeechEngine {
    /// The engine's name, stored with each transcript.
    public static let engine = "PocketSphinx 5prealpha"
    /// Where Debian's pocketsphinx-en-us package puts the US English model.
    public static let standardModelDirectory = "/usr/share/pocketsphinx/model/en-us"
    /// The model's name, stored with each transcript.
    public static let model = "CMU Sphinx US English (en-us, en-us.lm.bin, cmudict-en-us.dict)"

    public var engine: String { Self.engine }
    public var model: String { Self.model }

    private let recognizer: OpaquePointer

    /// Loads the model in `modelDirectory` (about half a second).
    public init(modelDirectory: String = PocketSphinxRecognizer.standardModelDirectory) throws {
        try SharedLibrary.speech.load()
        var pointer: OpaquePointer?
        let result = CSphinx_open(modelDirectory, &pointer)
        guard result == 0, let pointer else {
            throw MediaError.system(result, "load the speech model in \(modelDirectory)")
        }
        recognizer = pointer
        assert(Int(CSphinx_sample_rate) == SpeechSound.rate)
    }

    deinit { CSphinx_free(recognizer) }

    /// Each stretch of speech is one utterance: fed a long recording as one, PocketSphinx keeps
    /// only the first few dozen words.
    public func recognize(_ samples: [Int16], speech spans: [Range<Int>], progress: (Double) -> Bool) throws
        -> RecognizedSpeech?
    {
        let rate = SpeechSound.rate
        var lines: [SpokenLine] = []
        let chunk = rate / 4
        for span in spans {
            guard progress(Double(span.lowerBound) / Double(max(samples.count, 1))) else { return nil }
            try check(CSphinx_begin(recognizer), "start an utterance")
            var at = span.lowerBound
            while at < span.upperBound {
                let end = min(at + chunk, span.upperBound)
                try samples.withUnsafeBufferPointer { buffer in
                    try check(CSphinx_feed(recognizer, buffer.baseAddress! + at, end - at), "recognize speech")
                }
                at = end
                if at < span.upperBound, !progress(Double(at) / Double(samples.count)) {
                    _ = CSphinx_end(recognizer)
                    return nil
                }
            }
            let count = CSphinx_end(recognizer)
            try check(count < 0 ? count : 0, "end an utterance")
            let offset = Double(span.lowerBound) / Double(rate)
            var line: [SpokenWord] = []
            var text = [CChar](repeating: 0, count: 256)
            for index in 0..<count {
                var start = 0.0, end = 0.0
                guard CSphinx_word(recognizer, index, &text, text.count, &start, &end) == 0 else { continue }
                let word = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                line.append(SpokenWord(word: word, start: offset + start, end: offset + end))
            }
            if !line.isEmpty { lines.append(SpokenLine(words: line)) }
        }
        _ = progress(1)
        return RecognizedSpeech(lines: lines)
    }

    private func check(_ result: Int32, _ operation: String) throws {
        if result < 0 { throw MediaError.system(result, operation) }
    }
}

/// Cuts a recording's sound into stretches of speech at its pauses: PocketSphinx takes each as one
/// utterance, and Whisper's lines that lie outside all of them (words "heard" in silence) are
/// dropped.
public enum SpeechSegments {
    /// Frames of 10 ms; a pause is at least `pauseFrames` of them below the speech threshold.
    static let pauseFrames = 30
    /// A stretch longer than this is cut at its quietest moment.
    static let longest = 15.0

    /// Each 10 ms frame's level (dBFS) and whether it is speech: what stands well above the
    /// recording's own floor.
    static func frames(_ samples: [Int16], rate: Int) -> (levels: [Double], speech: [Bool]) {
        let frame = rate / 100
        let count = samples.count / frame + (samples.count % frame == 0 ? 0 : 1)
        guard count > 0 else { return ([], []) }
        var levels = [Double](repeating: -120, count: count)
        for index in 0..<count {
            let slice = samples[(index * frame)..<min((index + 1) * frame, samples.count)]
            var sum = 0.0
            for sample in slice { sum += Double(sample) * Double(sample) }
            let rms = (sum / Double(slice.count)).squareRoot() / 32768
            levels[index] = rms > 0 ? 20 * log10(rms) : -120
        }
        let sorted = levels.sorted()
        let floor = sorted[count / 10], loud = sorted[count * 95 / 100]
        let threshold = max(floor + max(6, (loud - floor) * 0.3), -60)
        return (levels, levels.map { $0 >= threshold })
    }

    /// Where sound is heard, in seconds: runs of speech frames, gaps shorter than 0.15 s (a
    /// stop inside a word) bridged.
    public static func heard(_ samples: [Int16], rate: Int) -> [ClosedRange<Double>] {
        let speech = frames(samples, rate: rate).speech
        var runs: [ClosedRange<Int>] = []
        for (index, isSpeech) in speech.enumerated() where isSpeech {
            if let last = runs.last, index - last.upperBound <= 15 {
                runs[runs.count - 1] = last.lowerBound...index
            } else {
                runs.append(index...index)
            }
        }
        return runs.map { Double($0.lowerBound) / 100...Double($0.upperBound + 1) / 100 }
    }

    /// The spans (in samples) of speech, pauses split at their middle, silence alone left out.
    public static func split(_ samples: [Int16], rate: Int) -> [Range<Int>] {
        let frame = rate / 100
        let (levels, speech) = frames(samples, rate: rate)
        let count = levels.count
        guard count > 0 else { return [] }

        // Cut points: the middle of every pause.
        var spans: [Range<Int>] = []
        var start = 0, quietRun = 0
        for index in 0..<count {
            if speech[index] {
                if quietRun >= pauseFrames && index - quietRun > start {
                    let cut = index - quietRun / 2
                    spans.append(start..<cut)
                    start = cut
                }
                quietRun = 0
            } else {
                quietRun += 1
            }
        }
        spans.append(start..<count)

        // Long stretches are cut at their quietest frame, silence alone is dropped.
        let longestFrames = Int(longest * 100)
        var result: [Range<Int>] = []
        for var span in spans {
            while span.count > longestFrames {
                let window = (span.lowerBound + longestFrames / 3)..<(span.lowerBound + longestFrames)
                let cut = window.min { levels[$0] < levels[$1] } ?? window.upperBound
                result.append(span.lowerBound..<cut)
                span = cut..<span.upperBound
            }
            result.append(span)
        }
        return
            result
            .filter { span in span.filter { speech[$0] }.count >= 10 }
            .map { ($0.lowerBound * frame)..<min($0.upperBound * frame, samples.count) }
    }
}
