import Foundation

/// Where the Whisper engine is installed: a private Python environment with faster-whisper, the
/// tiny.en model and cravey's helper program (`Whisper/install.sh DIR` makes one).
public struct WhisperInstallation: Sendable, Equatable {
    /// The model's checksum (SHA-256 of its model.bin). The helper refuses a model that does not
    /// match before it loads anything from it.
    public static let modelSHA256 = "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"
    /// The model's name, stored with each transcript.
    public static let model = "Whisper tiny.en (Systran faster-whisper-tiny.en, int8)"

    public let directory: String
    public var python: String { directory + "/venv/bin/python" }
    public var helper: String { directory + "/cravey-whisper.py" }
    public var modelDirectory: String { directory + "/model" }

    public init(directory: String) { self.directory = directory }

    /// What looking for the engine found.
    public enum Found: Sendable, Equatable {
        /// Installed and complete (whether it works is known once its helper answers).
        case installed(WhisperInstallation)
        /// An installation that cannot work: the reason.
        case broken(directory: String, reason: String)
        /// None anywhere cravey looks.
        case notInstalled
        /// Turned off (named `off`).
        case off

        /// Why Whisper cannot be used, in one line; nil when it is installed.
        public var problem: String? {
            switch self {
            case .installed: return nil
            case let .broken(directory, reason): return "the Whisper engine in \(directory) cannot be used: \(reason)"
            case .notInstalled: return "the Whisper engine is not installed"
            case .off: return "the Whisper engine is turned off"
            }
        }
    }

    /// Looks for the engine: `named` (a directory, or `off`), else next to the running program —
    /// PREFIX/lib/cravey/whisper for PREFIX/bin/cravey, BUILD/whisper for a program in
    /// BUILD/<platform>/<configuration>/.
    public static func find(named: String?) -> Found {
        if let named, !named.isEmpty {
            return named == "off" ? .off : check(named)
        }
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        for candidate in ["../lib/cravey/whisper", "../../whisper"] {
            let directory = folder.appendingPathComponent(candidate).standardizedFileURL.path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue {
                return check(directory)
            }
        }
        return .notInstalled
    }

    private static func check(_ directory: String) -> Found {
        let installation = WhisperInstallation(directory: directory)
        if access(installation.python, X_OK) != 0 {
            return .broken(directory: directory, reason: "its Python interpreter (\(installation.python)) is missing")
        }
        if access(installation.helper, R_OK) != 0 {
            return .broken(directory: directory, reason: "its helper (\(installation.helper)) is missing")
        }
        if access(installation.modelDirectory + "/model.bin", R_OK) != 0 {
            return .broken(
                directory: directory, reason: "its model (\(installation.modelDirectory)/model.bin) is missing")
        }
        return .installed(installation)
    }
}

/// Offline speech recognition with Whisper (faster-whisper, tiny.en, int8 on the CPU): sentences
/// with punctuation and capitals, each word with its time. The recognition runs in cravey's helper
/// program (Python, in the installation's private environment), one process for as many
/// recordings as this object is given: it is started with the first, gets the sound cravey
/// decoded itself (16 kHz samples on its stdin) and answers a JSON line per stretch of speech, so
/// progress is known as it goes and a stop kills it at once. Nothing leaves the machine: the model
/// is opened by its path, the helper runs with the model hub's offline switches set and no
/// network code of cravey's own is involved. It runs with a private home (HOME, XDG folders,
/// caches: a fresh folder removed with it), and within time limits: a helper that has not loaded
/// the model, or not answered a recording, in time is killed with everything it started.
public final class WhisperRecognizer: SpeechEngine {
    public let installation: WhisperInstallation
    /// How the engine's name starts (the helper adds its version once it answers).
    public static let engineName = "faster-whisper"
    public private(set) var engine = WhisperRecognizer.engineName
    public var model: String { WhisperInstallation.model }
    /// Seconds the helper took to check and load the model (once it has).
    public private(set) var loadSeconds: Double?
    /// Threads the engine computes with.
    private let threads: Int
    private var helper: HelperProcess?
    /// How long the helper may take.
    public let limits: Limits

    /// How long the helper may take: to load the model, and for a recording (`least`, and
    /// `perSecond` more for each second of sound). Past a limit it is killed.
    public struct Limits: Sendable, Equatable {
        public var start, least, perSecond: Double

        public init(start: Double, least: Double, perSecond: Double) {
            (self.start, self.least, self.perSecond) = (start, least, perSecond)
        }

        /// Generous for a slow, busy machine (tiny.en runs at a fraction of real time on one core).
        public static let standard = Limits(start: 180, least: 120, perSecond: 5)

        /// The limit for a recording of `seconds`.
        func recognizing(_ seconds: Double) -> Double { least + perSecond * seconds }
    }

    public init(
        _ installation: WhisperInstallation,
        threads: Int = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount)),
        limits: Limits = .standard
    ) {
        self.installation = installation
        self.threads = threads
        self.limits = limits
    }

    /// The helper's process id while it runs (for tests that watch it go).
    public var helperProcess: Int32? { helper?.pid }

    /// The helper's private folder while it runs (for tests that watch it go).
    public var helperFolder: String? { helper?.folder?.path }

    /// Starts the helper now and waits for it to load the model, so that a broken installation is
    /// known before anything is transcribed. `progress` is asked as it waits; false stops it.
    /// Returns false when stopped.
    @discardableResult
    public func start(progress: (Double) -> Bool = { _ in true }) throws -> Bool {
        if helper != nil { return true }
        let process: HelperProcess
        do {
            process = try HelperProcess(
                executable: installation.python,
                arguments: [
                    "-I", installation.helper, "--model", installation.modelDirectory,
                    "--sha256", WhisperInstallation.modelSHA256, "--threads", String(threads),
                ],
                environment: [
                    "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                    "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1",
                    "OMP_NUM_THREADS": "1",
                ], privateFolder: true)
        } catch {
            throw WhisperError("\(error)")
        }
        let deadline = Date().addingTimeInterval(limits.start)
        while true {
            switch try read(process) {
            case .waiting:
                guard progress(0) else { process.kill(); return false }
                if Date() > deadline {
                    process.kill()
                    throw WhisperError(
                        "the Whisper helper did not load its model within \(Int(limits.start)) s; it was stopped")
                }
            case .ended:
                process.wait()
                throw WhisperError("the Whisper helper ended at its start (exit status \(process.status ?? -1))")
            case let .line(line):
                let message = Self.parse(line)
                if let ready = message["ready"] as? [String: Any] {
                    engine = (ready["engine"] as? String) ?? engine
                    loadSeconds = ready["load"] as? Double
                    helper = process
                    return true
                }
                process.kill()
                throw WhisperError((message["error"] as? String) ?? "the Whisper helper answered '\(line.prefix(200))'")
            }
        }
    }

    /// Ends the helper at once (a stop part way: what it was doing is dropped).
    public func stop() {
        helper?.kill()
        helper = nil
    }

    /// Ends the helper once its work is done: its input closed, it exits by itself.
    public func finish() {
        helper?.finish(within: 1)
        helper = nil
    }

    deinit { stop() }

    public func recognize(_ samples: [Int16], speech spans: [Range<Int>], progress: (Double) -> Bool) throws
        -> RecognizedSpeech?
    {
        // Nothing stands out of the recording's own floor: nothing was said (and Whisper, given
        // silence, tends to "hear" a word or two).
        guard !spans.isEmpty else { return progress(1) ? RecognizedSpeech(lines: []) : nil }
        guard try start(progress: progress) else { return nil }
        guard let helper else { return nil }
        let seconds = Double(samples.count) / Double(SpeechSound.rate)
        do {
            let header = Array("pcm \(samples.count)\n".utf8)
            try header.withUnsafeBytes { try helper.write($0) }
            // Samples go as they are in memory: little-endian on every machine cravey runs on.
            try samples.withUnsafeBytes { try helper.write($0) }
        } catch {
            stop()
            throw WhisperError("the Whisper helper stopped (\(error))")
        }
        let heard = spans.map {
            (Double($0.lowerBound) / Double(SpeechSound.rate) - 0.3)...(Double($0.upperBound) / Double(SpeechSound.rate)
                + 0.3)
        }
        var lines: [SpokenLine] = []
        var fraction = 0.0
        let limit = limits.recognizing(seconds)
        let deadline = Date().addingTimeInterval(limit)
        while true {
            let read: HelperProcess.Read
            do { read = try self.read(helper) } catch { stop(); throw error }
            if Date() > deadline {
                stop()
                throw WhisperError("the Whisper helper did not finish within \(Int(limit)) s; it was stopped")
            }
            switch read {
            case .waiting:
                guard progress(fraction) else { stop(); return nil }
            case .ended:
                helper.wait()
                let status = helper.status ?? -1
                self.helper = nil
                throw WhisperError("the Whisper helper stopped (exit status \(status))")
            case let .line(line):
                let message = Self.parse(line)
                if let segment = message["segment"] as? [String: Any] {
                    let start = segment["start"] as? Double ?? 0, end = segment["end"] as? Double ?? start
                    fraction = min(1, max(fraction, end / max(seconds, 0.001)))
                    // A line lying wholly in a pause was "heard" in silence: left out.
                    if heard.contains(where: { $0.overlaps(start...max(start, end)) }), let line = Self.line(segment) {
                        lines.append(line)
                    }
                    guard progress(fraction) else { stop(); return nil }
                } else if message["done"] != nil {
                    _ = progress(1)
                    return RecognizedSpeech(
                        lines: Self.timed(lines, heard: SpeechSegments.heard(samples, rate: SpeechSound.rate)))
                } else {
                    stop()
                    throw WhisperError(
                        (message["failed"] as? String).map { "Whisper failed: \($0)" }
                            ?? "the Whisper helper answered '\(line.prefix(200))'")
                }
            }
        }
    }

    /// Whisper places a word by where the model looked, which can be half a second off at the
    /// edges of speech: a sentence's first word starting in the pause before it, its last word
    /// ending in the pause after. cravey's own measure of where sound is heard puts those edges
    /// back: a word that starts (ends) in a pause starts (ends) where the sound does, and the first
    /// (last) word of a run of sound starts (ends) with it.
    static func timed(_ lines: [SpokenLine], heard runs: [ClosedRange<Double>]) -> [SpokenLine] {
        guard !runs.isEmpty else { return lines }
        let words = lines.flatMap(\.words)
        var timed = words
        for index in words.indices {
            var word = words[index]
            if let run = runs.first(where: { $0.contains(word.start) }) {
                let previousEnd = index > 0 ? timed[index - 1].end : -.infinity
                if previousEnd <= run.lowerBound { word.start = run.lowerBound }
            } else if let next = runs.first(where: { $0.lowerBound > word.start }), next.lowerBound < word.end {
                word.start = next.lowerBound
            }
            if let run = runs.first(where: { $0.contains(word.end) }) {
                let nextStart = index + 1 < words.count ? words[index + 1].start : .infinity
                if nextStart >= run.upperBound { word.end = run.upperBound }
            } else if let previous = runs.last(where: { $0.upperBound < word.end }), previous.upperBound > word.start {
                word.end = previous.upperBound
            }
            timed[index] = word
        }
        var at = 0
        return lines.map { line in
            defer { at += line.words.count }
            return SpokenLine(text: line.text, words: Array(timed[at..<(at + line.words.count)]))
        }
    }

    private func read(_ process: HelperProcess) throws -> HelperProcess.Read {
        do { return try process.readLine(waiting: 100) } catch { throw WhisperError("\(error)") }
    }

    private static func parse(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }

    /// A segment's text and words. A word keeps its letters, digits and inner apostrophes (the
    /// punctuation stays in the text): "journey." is found and played from as "journey".
    static func line(_ segment: [String: Any]) -> SpokenLine? {
        let text = (segment["text"] as? String ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let words: [SpokenWord] = (segment["words"] as? [[Any]] ?? []).compactMap { item in
            guard item.count == 3, let raw = item[0] as? String else { return nil }
            let word = raw.trimmingCharacters(in: CharacterSet.alphanumerics.inverted)
            guard !word.isEmpty, let start = (item[1] as? NSNumber)?.doubleValue,
                let end = (item[2] as? NSNumber)?.doubleValue
            else { return nil }
            return SpokenWord(word: word, start: start, end: end)
        }
        guard !words.isEmpty, !text.isEmpty else { return nil }
        return SpokenLine(text: text, words: words)
    }
}

/// The Whisper engine could not be used: why, in a few words.
public struct WhisperError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
