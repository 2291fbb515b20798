internal import CSphinx
import Foundation

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

/// What the recognizer heard in a recording: its words with their times, one line per stretch of
/// speech between pauses.
public struct RecognizedSpeech: Sendable, Equatable {
    public var lines: [[SpokenWord]]

    public var words: [SpokenWord] { lines.flatMap { $0 } }
    /// The words as text, a line per stretch of speech.
    public var text: String { lines.map { $0.map(\.word).joined(separator: " ") }.joined(separator: "\n") }
}

/// Offline speech recognition of a recording's sound with PocketSphinx and its US English model.
/// Nothing leaves the machine: the model is read from a local directory, never fetched.
public final class SpeechRecognizer {
    /// The engine's name, stored with each transcript.
    public static let engine = "PocketSphinx 5prealpha"
    /// Where Debian's pocketsphinx-en-us package puts the US English model.
    public static let standardModelDirectory = "/usr/share/pocketsphinx/model/en-us"
    /// The model's name, stored with each transcript.
    public static let model = "CMU Sphinx US English (en-us, en-us.lm.bin, cmudict-en-us.dict)"

    private let recognizer: OpaquePointer

    /// Loads the model in `modelDirectory` (about half a second).
    public init(modelDirectory: String = SpeechRecognizer.standardModelDirectory) throws {
        try SharedLibrary.speech.load()
        var pointer: OpaquePointer?
        let result = CSphinx_open(modelDirectory, &pointer)
        guard result == 0, let pointer else { throw MediaError.system(result, "load the speech model in \(modelDirectory)") }
        recognizer = pointer
    }

    deinit { CSphinx_free(recognizer) }

    /// Recognizes the speech in the sound of the file at `path`. `progress` is told the fraction
    /// done as it goes and returns false to stop: the answer is then nil.
    public func recognize(path: String, progress: (Double) -> Bool = { _ in true }) throws -> RecognizedSpeech? {
        let samples = try Self.decode(path: path)
        let rate = Int(CSphinx_sample_rate)
        var lines: [[SpokenWord]] = []
        let chunk = rate / 4
        for span in SpeechSegments.split(samples, rate: rate) {
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
            if !line.isEmpty { lines.append(line) }
        }
        _ = progress(1)
        return RecognizedSpeech(lines: lines)
    }

    private func check(_ result: Int32, _ operation: String) throws {
        if result < 0 { throw MediaError.system(result, operation) }
    }

    /// The file's sound as 16 kHz mono, the rate the model was trained at.
    static func decode(path: String) throws -> [Int16] {
        let decoder = try AudioDecoder(path: path, sampleRate: Int(CSphinx_sample_rate), channels: 1)
        var samples: [Int16] = []
        while true {
            let block = try decoder.read(frames: 16_384)
            if block.isEmpty { return samples }
            samples += block
        }
    }
}

/// Cuts a recording's sound into stretches of speech at its pauses, so the recognizer takes each
/// as one utterance: fed a long recording as one, it keeps only the first few dozen words.
public enum SpeechSegments {
    /// Frames of 10 ms; a pause is at least `pauseFrames` of them below the speech threshold.
    static let pauseFrames = 30
    /// A stretch longer than this is cut at its quietest moment.
    static let longest = 15.0

    /// The spans (in samples) of speech, pauses split at their middle, silence alone left out.
    public static func split(_ samples: [Int16], rate: Int) -> [Range<Int>] {
        let frame = rate / 100
        let count = samples.count / frame + (samples.count % frame == 0 ? 0 : 1)
        guard count > 0 else { return [] }
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
        // Speech is what stands well above the recording's own floor.
        let threshold = max(floor + max(6, (loud - floor) * 0.3), -60)
        let speech = levels.map { $0 >= threshold }

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
        return result
            .filter { span in span.filter { speech[$0] }.count >= 10 }
            .map { ($0.lowerBound * frame)..<min($0.upperBound * frame, samples.count) }
    }
}
