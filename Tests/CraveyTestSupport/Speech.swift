import Foundation

/// A sentence of a spoken fixture and where it was placed, in seconds.
public struct SpokenSentence: Decodable {
    public let text: String
    public let start: Double
    public let end: Double
}

/// Speaks the first `sentences` lines of Media/speech-corpus.txt with flite into a WAV file
/// (0.8 s between sentences) and returns the file and where each sentence is. Spoken once in a
/// test process for each count (flite is deterministic): later calls copy that first file.
public func makeSpeech(_ path: String, sentences: Int) throws -> [SpokenSentence] {
    try spokenOnce(key: "first-\(sentences)", path) { into in
        try speak(corpus: repositoryRoot + "/Media/speech-corpus.txt", into, ["--first", String(sentences)])
    }
}

/// Speaks `lines` (each one a sentence) with flite into a WAV file, 0.8 s apart, and returns where
/// each sentence is.
public func makeSpeech(_ path: String, saying lines: [String]) throws -> [SpokenSentence] {
    let corpus = (path as NSString).deletingPathExtension + "-sentences.txt"
    try (lines.joined(separator: "\n") + "\n").write(toFile: corpus, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: corpus) }
    return try speak(corpus: corpus, path, [])
}

/// make-speech.py over `corpus` into `path` with `options`; where each sentence was placed.
private func speak(corpus: String, _ path: String, _ options: [String]) throws -> [SpokenSentence] {
    let result = try runProcess("/usr/bin/python3", [repositoryRoot + "/Media/make-speech.py", corpus, path] + options)
    guard result.status == 0 else {
        throw NSError(
            domain: "make-speech", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr])
    }
    struct Layout: Decodable { let sentences: [SpokenSentence] }
    let json = try Data(contentsOf: URL(fileURLWithPath: (path as NSString).deletingPathExtension + ".json"))
    return try JSONDecoder().decode(Layout.self, from: json).sentences
}

/// `make(path)` the first time `key` is asked for in this test process (with its .json); a copy
/// of that file after. Where each sentence was placed.
private func spokenOnce(key: String, _ path: String, _ make: (String) throws -> [SpokenSentence]) throws
    -> [SpokenSentence]
{
    try madeOnce(key: key, path, companions: ["json"]) { _ = try make($0) }
    struct Layout: Decodable { let sentences: [SpokenSentence] }
    let json = (path as NSString).deletingPathExtension + ".json"
    return try JSONDecoder().decode(Layout.self, from: Data(contentsOf: URL(fileURLWithPath: json))).sentences
}

/// The words of `text` as they are said: lower-cased, without punctuation, numbers up to twenty in
/// words.
public func spokenWords(_ text: String) -> [String] {
    let numbers = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
    ]
    return text.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "'") }.map { word in
        Int(word).flatMap { $0 < numbers.count ? numbers[$0] : nil } ?? String(word)
    }
}

/// Speaks Media/speech-corpus.txt's sentences with `voice` (flite or espeak-ng), `gap` seconds
/// apart (the whole corpus, or until the file is `seconds` long), and returns where each is.
public func makeSpeech(_ path: String, voice: String, gap: Double = 0.8, seconds: Int? = nil) throws -> [SpokenSentence]
{
    try speak(
        corpus: repositoryRoot + "/Media/speech-corpus.txt", path,
        ["--voice", voice, "--gap", String(gap)] + (seconds.map { ["--seconds", String($0)] } ?? []))
}

/// Speaks Media/speech-corpus.txt's sentences again and again into a WAV file `seconds` long,
/// `gap` seconds apart (spoken once in a test process, as above).
public func makeSpeech(_ path: String, seconds: Int, gap: Double = 0.8) throws {
    _ = try spokenOnce(key: "seconds-\(seconds)-gap-\(gap)", path) { into in
        try speak(
            corpus: repositoryRoot + "/Media/speech-corpus.txt", into,
            ["--seconds", String(seconds), "--gap", String(gap)])
    }
}

/// The sound of `wav` as the `file` plugin's microphone reads it: raw 48 kHz mono S16_LE.
public func microphoneRaw(from wav: String, to raw: String) throws {
    let result = try runProcess(
        "/usr/bin/sox", [wav, "-r", "48000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", raw])
    guard result.status == 0 else {
        throw NSError(domain: "sox", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr])
    }
}

/// Word error rate: word-level edit distance from `reference` to `hypothesis` over the
/// reference's length, on the words as spoken: case and punctuation do not count ("Monday
/// morning." is "monday morning"), and a number written as digits is its words ("7" is "seven").
public func wordErrorRate(reference: String, hypothesis: String) -> Double {
    let r = spokenWords(reference)
    let h = spokenWords(hypothesis)
    guard !r.isEmpty else { return h.isEmpty ? 0 : 1 }
    var previous = Array(0...h.count)
    for i in 1...r.count {
        var current = [i] + Array(repeating: 0, count: h.count)
        for j in stride(from: 1, through: h.count, by: 1) {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (r[i - 1] == h[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return Double(previous[h.count]) / Double(r.count)
}
