import ArgumentParser
import CraveyLibrary
import CraveyMedia
import CraveyPlayer
import CraveyRecorder
import Dispatch
import Foundation
import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

extension Cravey {
    /// `cravey record audio|video`: record a message from the microphone (and camera) into the library.
    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "record",
            abstract: "Record a message to your future self (at most 120 seconds).",
            discussion: """
                Stop with Enter, q, Ctrl-C, SIGTERM or SIGHUP: every one of them keeps the recording. \
                Then listen back, give it a title, notes and a purpose, and save or discard it. With \
                --title/--notes/--purpose/--yes, or without a terminal, it is saved without asking and \
                its id is printed (--json prints the whole row). A video is H.264 + AAC in .mov, at most \
                1280x720; when the camera cannot be used, cravey offers to record sound only \
                (--fallback audio accepts without asking); when the microphone cannot, a silent video \
                (--no-audio). While recording, p or space (or SIGUSR1) pauses and resumes (the file has \
                no gap, and the time paused does not count towards the 2 minutes). After it stops, listening back \
                offers to trim the silence at the start and end; --trim-silence trims it without asking.
                """)

        @OptionGroup var library: LibraryOptions

        @Argument(help: "What to record: audio or video.")
        var kind: Recording.Kind

        @Option(help: ArgumentHelp("ALSA capture device (see 'cravey devices').", valueName: "name"))
        var mic: String = "default"

        @Option(
            help: ArgumentHelp(
                "Camera for video: its node (/dev/video0), a /dev/v4l/by-id path, or its name (default: the front webcam).",
                valueName: "camera"))
        var camera: String?

        @Option(
            help: ArgumentHelp(
                "Largest video size, e.g. 640x360 (default and most: 1280x720; the camera's best mode up to it is used).",
                valueName: "WxH"))
        var size: String?

        @Option(
            help: ArgumentHelp(
                "When the camera cannot be used: 'audio' records sound only without asking.", valueName: "audio"))
        var fallback: Fallback?

        @Flag(help: "Record a video without sound (no microphone).")
        var noAudio = false

        @Option(
            help: ArgumentHelp(
                "Where the camera is seen while recording a video, mirrored: 'auto' (a window where there is a display, else in the terminal above the meter), 'window', 'terminal' or 'off'; v hides and shows it.",
                valueName: "where"))
        var preview: CameraPreview.Choice = .auto

        @Option(help: ArgumentHelp("ALSA playback device for listening back before saving.", valueName: "name"))
        var speaker: String = "default"

        @Option(help: ArgumentHelp("Stop after this many seconds (more than 0, at most 120).", valueName: "seconds"))
        var maxSeconds: Double = 120

        @Option(help: ArgumentHelp("Count down this many seconds before recording.", valueName: "n"))
        var countdown: Int = 0

        @OptionGroup var details: DetailOptions

        @Flag(
            help:
                "Trim the silence at the start and end without asking (the threshold follows the take's own level; 0.2 s of margin is kept)."
        )
        var trimSilence = false

        @Flag(name: [.short, .long], help: "Save without asking.")
        var yes = false

        @Flag(help: "Print the saved recording as JSON.")
        var json = false

        enum Fallback: String, ExpressibleByArgument { case audio }

        /// `--size` as numbers.
        var largest: (width: Int, height: Int)? {
            let parts = (size ?? "").lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts[0] >= 16, parts[1] >= 16 else { return nil }
            return (parts[0], parts[1])
        }

        func validate() throws {
            guard maxSeconds.isFinite, maxSeconds > 0, maxSeconds <= Validation.maxDuration else {
                throw ValidationError("--max-seconds must be more than 0 and at most 120 (got \(maxSeconds))")
            }
            guard (0...60).contains(countdown) else { throw ValidationError("--countdown must be 0 to 60 seconds") }
            if kind == .audio && (camera != nil || noAudio || fallback != nil || size != nil) {
                throw ValidationError("--camera, --size, --no-audio and --fallback are for 'cravey record video'")
            }
            if size != nil && largest == nil {
                throw ValidationError("--size must be WIDTHxHEIGHT, e.g. 640x360 (got '\(size!)')")
            }
            if noAudio && fallback != nil {
                throw ValidationError("--no-audio and --fallback audio contradict each other")
            }
        }

        func run() throws {
            // Bad details are refused before anything is recorded.
            let draft = try details.draft()
            let session = try library.session(mic: mic, speaker: speaker)
            let plan = RecordSession.Plan(
                devices: .init(
                    kind: kind, mic: noAudio ? nil : mic, camera: camera, largest: largest,
                    fallbackToAudio: fallback == .audio),
                mayAsk: Terminal.stdinIsTerminal && !yes)
            let recording = RecordSession(
                session, plan: plan, maxSeconds: maxSeconds, draft: draft,
                interactive: RecordFlow.asksDetails && !yes && details.isEmpty, json: json, trimSilence: trimSilence,
                preview: preview)
            try RecordFlow.record(recording, countdown: countdown)
        }
    }
}

extension CameraPreview.Choice: ExpressibleByArgument {}
