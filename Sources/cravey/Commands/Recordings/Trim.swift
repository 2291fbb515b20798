import ArgumentParser
import TerminalKit
import CraveyLibrary
import CraveyMedia
import CraveyMessages

extension Cravey {
    /// `cravey trim ID --start T --end T`: keep exactly one span of a saved recording.
    struct Trim: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trim",
            abstract: "Keep exactly one span of a recording (times as seconds or m:ss).",
            discussion: """
                The sound is cut to the sample; a video is encoded again from its cut points, so its first \
                picture is the one shown at the start. The file is replaced atomically: until the new one is \
                committed the old one is kept, and an interrupted trim leaves the recording as it was. \
                Thumbnail, waveform and loudness are updated; title, notes, dates and play count stay.
                """)

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The recording's id, or a unique start of it.")
        var id: String

        @Option(help: ArgumentHelp("Where the kept span starts (default: the beginning).", valueName: "time"))
        var start: String?

        @Option(help: ArgumentHelp("Where it ends (default: the end).", valueName: "time"))
        var end: String?

        func validate() throws {
            if start == nil && end == nil { throw ValidationError("give --start, --end or both") }
            for (name, value) in [("--start", start), ("--end", end)] {
                if let value, Timecode.parse(value) == nil {
                    throw ValidationError(
                        "\(name) must be seconds (42, 4.5) or minutes:seconds (1:05), not '\(Terminal.safe(value))'")
                }
            }
        }

        func run() throws {
            let lib = try library.openExisting()
            let recording = try lib.recording(matching: id)
            let span = MediaSpan(
                start: start.flatMap(Timecode.parse) ?? 0, end: end.flatMap(Timecode.parse) ?? recording.duration)
            let trimmed: Recording
            do {
                trimmed = try RecordingTrim.trim(recording, in: lib, to: span)
            } catch let failure as RecordingTrim.BadSpan {
                throw CraveyFailure(message: "cannot trim '\(recording.shownTitle)': \(failure)")
            }
            if output.json {
                try JSONOutput.print(trimmed)
            } else {
                print(
                    "Trimmed '\(trimmed.shownTitle)' to \(Timecode.text(span.start))–\(Timecode.text(span.end)): "
                        + "now \(Format.duration(trimmed.duration)) (\(String(format: "%.3f", trimmed.duration)) s).")
            }
            // The words and their times changed: the transcript is made again.
            Transcribing.afterSave(lib, saved: trimmed, quiet: output.json, redo: true)
        }
    }
}
