import CraveyLibrary
import CraveyMedia
import CraveyMessages
import Foundation
import TerminalKit

/// Everything cravey takes from its environment, read once when it starts. Every `CRAVEY_*`
/// variable is read here and nowhere else: what a floor needs of them is handed to it from here,
/// as a value. The floors below read only the system's own variables, where they need them (the
/// terminal's `TERM` and `NO_COLOR`, a display's `DISPLAY`, the locale, `TMPDIR`).
struct Configuration: Sendable {
    /// The variables as they were at start: the terminal's kind, the home and data directories.
    let environment: [String: String]

    /// The library used without `--library`: `CRAVEY_LIBRARY`, else
    /// `${XDG_DATA_HOME:-~/.local/share}/cravey`.
    let defaultLibrary: String
    /// `CRAVEY_NOW` (`YYYY-MM-DDTHH:MM:SS`, local time): the moment the local clock starts at, for
    /// tests (it runs on from there in real time).
    let clockStart: String?
    /// `CRAVEY_LOCK_WAIT`: how many seconds a change waits for another cravey process (10).
    let lockWaitSeconds: Double
    /// `CRAVEY_FAULT_FAIL=site[,site…]`, `CRAVEY_FAULT_KILL_AT=N`, `CRAVEY_FAULT_TRACE=1`,
    /// `CRAVEY_FAULT_HANG=site:seconds[,…]`: the library's fault-injection seam, for tests (see
    /// `Faults`).
    let failingSites: Set<String>
    let killAtStep: Int?
    let traceSites: Bool
    let hangingSites: [String: Double]
    /// `CRAVEY_WHISPER`: the Whisper engine's directory, or `off`; nil: where cravey looks.
    let whisper: String?
    /// `CRAVEY_TRANSCRIBE=background|now|later`: when transcripts are made after a save (background).
    let transcribe: Transcriber.Timing
    /// `CRAVEY_SPEECH_MODEL`: PocketSphinx's model directory (another model, or a test's unreadable one).
    let speechModel: String
    /// `CRAVEY_CHECKIN_TRANSCRIPT_WAIT`: seconds the check-in waits for its transcript (5).
    let checkInTranscriptWait: Double
    /// `CRAVEY_JPEG_DECODER=libv4l2`: a webcam's JPEG pictures decoded by libv4l2, for the webcam
    /// benchmark's comparison; else by cravey.
    let jpeg: VideoInput.JPEGDecoding
    /// `CRAVEY_REDUCED_MOTION=1` (or `TERM=dumb`): calm screens, nothing redrawn in place.
    let calm: Bool
    /// `CRAVEY_GRAPHICS=kitty|sixel|blocks`: how pictures are drawn in the terminal; nil: asked.
    let graphics: String?
    /// `CRAVEY_TIMINGS=1`: playback and recording print how long their stages took (benchmarks).
    let timings: Bool
    /// `CRAVEY_TEST_STOP_WINDOW_MS`, test use only: the milliseconds a recording waits between the
    /// recorder's start and its publishing, after saying `stop window open` on stderr. It widens
    /// the window in which a stop signal finds no recorder yet, so a test can aim signals at it.
    let stopWindowMilliseconds: UInt32?
    /// `CRAVEY_RIDE_MINUTE_SECONDS`, test use only: how many seconds a minute of a ride lasts
    /// (60), so that a test rides 15 "minutes" in seconds. Ratings keep the real seconds.
    let rideMinuteSeconds: Double
    /// `CRAVEY_RIDE_ASK_SECONDS`, test use only: the real seconds between a ride's "How strong is
    /// it now?" (3 of its minutes).
    let rideAskSeconds: Double?

    /// Why `defaultLibrary` cannot be used (the variable naming it is not UTF-8), in one line; nil
    /// when it can. Asked only when no `--library` is given.
    let defaultLibraryRefusal: String?

    init(environment: [String: String], refusing: ([String]) -> String? = { _ in nil }) {
        self.environment = environment
        if let dir = environment["CRAVEY_LIBRARY"], !dir.isEmpty {
            defaultLibrary = dir
            defaultLibraryRefusal = refusing(["CRAVEY_LIBRARY"])
        } else if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            defaultLibrary = data + "/cravey"
            defaultLibraryRefusal = refusing(["XDG_DATA_HOME"])
        } else {
            defaultLibrary =
                (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.local/share/cravey"
            defaultLibraryRefusal = refusing(["HOME"])
        }
        clockStart = environment["CRAVEY_NOW"]
        lockWaitSeconds = environment["CRAVEY_LOCK_WAIT"].flatMap(Double.init) ?? 10
        failingSites = Set((environment["CRAVEY_FAULT_FAIL"] ?? "").split(separator: ",").map(String.init))
        killAtStep = environment["CRAVEY_FAULT_KILL_AT"].flatMap { Int($0) }
        traceSites = environment["CRAVEY_FAULT_TRACE"] == "1"
        hangingSites = Dictionary(
            (environment["CRAVEY_FAULT_HANG"] ?? "").split(separator: ",").compactMap { entry in
                let parts = entry.split(separator: ":")
                guard parts.count == 2, let seconds = Double(parts[1]), seconds > 0 else { return nil }
                return (String(parts[0]), seconds)
            }
        ) { $1 }
        whisper = environment["CRAVEY_WHISPER"].flatMap { $0.isEmpty ? nil : $0 }
        transcribe = environment["CRAVEY_TRANSCRIBE"].flatMap(Transcriber.Timing.init(rawValue:)) ?? .background
        speechModel =
            environment["CRAVEY_SPEECH_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
            ?? PocketSphinxRecognizer.standardModelDirectory
        checkInTranscriptWait = environment["CRAVEY_CHECKIN_TRANSCRIPT_WAIT"].flatMap(Double.init) ?? 5
        jpeg = environment["CRAVEY_JPEG_DECODER"] == "libv4l2" ? .libv4l2 : .cravey
        let reducedMotion = environment["CRAVEY_REDUCED_MOTION"].map {
            !["", "0", "no", "false", "off"].contains($0.lowercased())
        }
        calm = environment["TERM"] == "dumb" || reducedMotion == true
        graphics = environment["CRAVEY_GRAPHICS"]
        timings = environment["CRAVEY_TIMINGS"] == "1"
        stopWindowMilliseconds = environment["CRAVEY_TEST_STOP_WINDOW_MS"].flatMap(UInt32.init)
        rideMinuteSeconds =
            environment["CRAVEY_RIDE_MINUTE_SECONDS"].flatMap(Double.init).flatMap {
                $0 > 0 ? $0 : nil
            } ?? 60
        rideAskSeconds = environment["CRAVEY_RIDE_ASK_SECONDS"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil }
    }

    /// `path` with a leading `~` or `~/` read as a shell reads it: `$HOME`, or the password
    /// database's home only where HOME is unset or empty (`~name` is that account's home).
    func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"], !home.isEmpty else {
            return (path as NSString).expandingTildeInPath
        }
        return home + path.dropFirst()
    }

    /// The environment of this run, read on first use.
    static let current = Configuration(
        environment: ProcessInfo.processInfo.environment, refusing: RawArguments.refusal(ofVariables:))

    /// Where the speech engines are, looked for now.
    func engines() -> Transcriber.Engines {
        Transcriber.Engines(whisper: WhisperInstallation.find(named: whisper), modelDirectory: speechModel)
    }

    /// Hands the toolkit what it draws by.
    func apply() {
        Calm.choose(calm)
    }

    /// A fresh fault-injection seam as configured (it counts the steps of one library).
    func faults() -> Faults {
        Faults(failing: failingSites, killAt: killAtStep, trace: traceSites, hanging: hangingSites)
    }
}

extension Calm {
    /// Whether screens are calm for this environment (see `Configuration.calm`).
    static func isOn(_ environment: [String: String]) -> Bool { Configuration(environment: environment).calm }
}
