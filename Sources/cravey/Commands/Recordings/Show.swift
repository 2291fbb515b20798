import ArgumentParser
import CraveyLibrary
import CraveyMedia
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey show ID`: everything the library knows about one recording.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one recording's details.",
            discussion: """
                On a terminal, a video's thumbnail is drawn below the details: with kitty's graphics \
                protocol or sixel where the terminal supports them, else with coloured half blocks \
                (CRAVEY_GRAPHICS=kitty|sixel|blocks chooses).
                """)

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The recording's id, a unique start of it, or the start of its title.")
        var id: String

        func run() throws {
            let lib = try library.openExisting()
            let r = try lib.recording(idOrTitle: id)
            let transcript = try lib.transcript(of: r.id)
            if output.json {
                try JSONOutput.print(RecordingDetail(r, transcript: transcript))
                return
            }
            var lines = [
                "\(Format.icon(r.kind)) \(Terminal.bold(r.shownTitle))",
                "  id         \(r.id.uuidString)",
                "  kind       \(r.kind.rawValue)",
                "  recorded   \(Validation.displayDate(r.createdAt))",
                "  length     \(Format.duration(r.duration)) (\(String(format: "%.3f", r.duration)) s)",
                "  plays      \(r.playCount)" + (r.lastPlayedAt.map { ", last \(Validation.displayDate($0))" } ?? ""),
                "  purpose    \(r.purpose.map { "\($0.name) — \($0.line)" } ?? "—")",
            ]
            if !r.forTriggers.isEmpty {
                lines.append("  made for   " + r.forTriggers.joined(separator: ", "))
            }
            if let checkIn = r.checkIn {
                lines.append(
                    "  check-in   \(CheckIn.displayDay(checkIn.day)) \(checkIn.day.prefix(4)), \(checkIn.mood.label) (kept as it was saved)"
                )
            }
            if let notes = r.notes.map(Terminal.safeLines) {
                lines.append("  notes      " + notes.replacingOccurrences(of: "\n", with: "\n             "))
            }
            var media = "  media      \(ByteCountFormatter.string(fromByteCount: r.media.sizeBytes, countStyle: .file))"
            if let w = r.media.width, let h = r.media.height { media += ", \(w)×\(h)" }
            if let fps = r.media.fps { media += String(format: " @ %.4g fps", fps) }
            if let rate = r.media.sampleRate { media += ", \(rate) Hz" }
            if let ch = r.media.channels { media += ch == 1 ? " mono" : " \(ch) ch" }
            lines.append(media)
            if let offset = r.media.avOffset {
                lines.append(String(format: "  a/v sync   worst offset %.0f ms", offset * 1000))
            }
            if let loudness = Show.loudnessLine(r) { lines.append("  loudness   " + loudness) }
            lines.append("  file       " + Terminal.safe((try? lib.file(of: r)) ?? "(refused: \(r.filePath))"))
            if r.thumbnailPath != nil {
                lines.append(
                    "  thumbnail  "
                        + Terminal.safe(((try? lib.thumbnail(of: r)) ?? nil) ?? "(refused: \(r.thumbnailPath ?? ""))"))
            }
            lines.append("  modified   \(Validation.displayDate(r.modifiedAt))")
            if !r.media.waveform.isEmpty {
                lines.append("  " + Terminal.dim(Format.sparkline(r.media.waveform, columns: 60)))
            }
            lines += Show.transcriptLines(transcript, id: r.id, queued: Transcribing.onItsWay(r.id, in: lib))
            print(lines.joined(separator: "\n"))
            // The thumbnail, drawn in the terminal (not into pipes, and not without colour).
            if let path = (try? lib.thumbnail(of: r)) ?? nil, Terminal.stdoutIsTerminal, Terminal.useColor {
                let columns = max(8, min(40, Terminal.columns - 4))
                if let picture = try? TerminalImage.draw(path, columns: columns, method: TerminalImage.method()) {
                    FileHandle.standardOutput.write(Data(("\n" + picture).utf8))
                }
            }
        }

        /// The transcript under its heading, wrapped to the terminal, each line with the time of its
        /// first word; or why there is none (`queued`: it is on its way).
        static func transcriptLines(_ transcript: Transcript?, id: UUID, queued: Bool = false) -> [String] {
            let heading = "  " + Terminal.bold("Transcript (automatic draft)")
            if queued && transcript?.state != .done {
                return [
                    "", heading,
                    "  transcript on its way: it is made in the background ('cravey transcribe \(id.uuidString.prefix(8)) --wait' makes it now)",
                ]
            }
            guard let transcript else {
                return ["", heading, "  not made yet: 'cravey transcribe \(id.uuidString.prefix(8))' makes it"]
            }
            if transcript.state == .unavailable {
                return [
                    "", heading,
                    "  unavailable: \(Terminal.safe(transcript.problem ?? "the recognizer failed")); 'cravey transcribe \(id.uuidString.prefix(8))' tries again",
                ]
            }
            if transcript.words.isEmpty { return ["", heading, "  (no speech heard)"] }
            var lines = ["", heading]
            let width = max(30, min(100, Terminal.columns) - 10)
            var start = 0
            for line in transcript.text.split(separator: "\n") {
                // The words of a line: its tokens with a letter or a digit (punctuation alone is none).
                let count = line.split(separator: " ").filter { $0.contains { $0.isLetter || $0.isNumber } }.count
                let time = start < transcript.words.count ? Format.start(transcript.words[start].start) : ""
                for (index, wrapped) in Terminal.wrap(Terminal.safe(String(line)), width: width).enumerated() {
                    lines.append(
                        "  " + Terminal.dim((index == 0 ? time : "").padding(toLength: 6, withPad: " ", startingAt: 0))
                            + wrapped)
                }
                start += count
            }
            lines.append("  " + Terminal.dim("\(transcript.engine), \(transcript.model)"))
            if queued { lines.append("  " + Terminal.dim("a new transcript is on its way")) }
            return lines
        }

        /// The first `count` lines of the transcript, wrapped to `width`, or why there is none
        /// (for the check-in's close screen).
        static func transcriptPreview(_ transcript: Transcript?, count: Int, width: Int, queued: Bool = false)
            -> [String]
        {
            if queued && transcript?.state != .done {
                return [Terminal.dim("Transcript on its way — ") + "cravey checkin show today"]
            }
            guard let transcript else {
                return [Terminal.dim("Transcript not made yet ('cravey transcribe --all' makes it)")]
            }
            guard transcript.state == .done else { return [Terminal.dim("Transcript unavailable")] }
            guard !transcript.words.isEmpty else { return [Terminal.dim("Transcript: no speech heard")] }
            let lines = transcript.text.split(separator: "\n").flatMap {
                Terminal.wrap(Terminal.safe(String($0)), width: width)
            }
            return [Terminal.dim("Transcript (automatic draft)")] + lines.prefix(count)
                + (lines.count > count ? [Terminal.dim("…")] : [])
        }

        /// "-31.2 LUFS, true peak -9.8 dBTP; played at +15.2 dB (peaks limited)".
        static func loudnessLine(_ r: Recording) -> String? {
            guard r.media.sampleRate != nil else { return nil }
            guard let peak = r.media.truePeak else {
                return "not measured yet (measured when first played, or by 'cravey check --repair')"
            }
            let level = PlaybackLevel(loudness: r.media.loudness, truePeak: peak, gain: r.media.playbackGain)
            guard let lufs = r.media.loudness else {
                return "too quiet to measure (under -70 LUFS); played as recorded"
            }
            let peakText = peak <= Loudness.floor ? "no peak" : String(format: "true peak %.1f dBTP", peak)
            return String(format: "%.1f LUFS, ", lufs) + peakText + "; played at \(level.gainText)"
                + (level.limits ? " (peaks limited under -1 dBTP)" : "")
                + (level.gain > PlaybackLevel.raisedFar
                    ? String(format: " — raised %.0f dB: it was recorded very quietly", level.gain) : "")
        }
    }
}
