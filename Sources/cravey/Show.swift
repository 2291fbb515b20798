import ArgumentParser
import CraveyLibrary
import CraveyMedia
import Foundation

extension Cravey {
    /// `cravey show ID`: everything the library knows about one recording.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show one recording's details.",
            discussion: """
                On a terminal, a video's thumbnail is drawn below the details: with kitty's graphics \
                protocol or sixel where the terminal supports them, else with coloured half blocks \
                (CRAVEY_GRAPHICS=kitty|sixel|blocks chooses).
                """)

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The recording's id, or a unique start of it.")
        var id: String

        func run() throws {
            let lib = try library.open()
            let r = try lib.recording(matching: id)
            if output.json {
                print(RecordingExport.jsonObject(r, includeWaveform: true))
                return
            }
            var lines = [
                "\(Format.icon(r.kind)) \(Terminal.bold(r.shownTitle))",
                "  id         \(r.id.uuidString)",
                "  kind       \(r.kind.rawValue)",
                "  recorded   \(Validation.displayDate(r.createdAt))",
                "  length     \(Format.duration(r.duration)) (\(String(format: "%.3f", r.duration)) s)",
                "  plays      \(r.playCount)" + (r.lastPlayedAt.map { ", last \(Validation.displayDate($0))" } ?? ""),
                "  purpose    \(r.purpose?.rawValue ?? "—")",
            ]
            if let checkIn = r.checkIn {
                lines.append("  check-in   \(CheckIn.displayDay(checkIn.day)) \(checkIn.day.prefix(4)), \(checkIn.mood.label) (kept as it was saved)")
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
            if let offset = r.media.avOffset { lines.append(String(format: "  a/v sync   worst offset %.0f ms", offset * 1000)) }
            if let loudness = Show.loudnessLine(r) { lines.append("  loudness   " + loudness) }
            lines.append("  file       " + Terminal.safe((try? lib.file(of: r)) ?? "(refused: \(r.filePath))"))
            if r.thumbnailPath != nil {
                lines.append("  thumbnail  " + Terminal.safe(((try? lib.thumbnail(of: r)) ?? nil) ?? "(refused: \(r.thumbnailPath ?? ""))"))
            }
            lines.append("  modified   \(Validation.displayDate(r.modifiedAt))")
            if !r.media.waveform.isEmpty {
                lines.append("  " + Terminal.dim(Format.sparkline(r.media.waveform, columns: 60)))
            }
            print(lines.joined(separator: "\n"))
            // The thumbnail, drawn in the terminal (not into pipes, and not without colour).
            if let path = (try? lib.thumbnail(of: r)) ?? nil, Terminal.stdoutIsTerminal, Terminal.useColor {
                let columns = max(8, min(40, Terminal.columns - 4))
                if let picture = try? TerminalImage.draw(path, columns: columns, method: TerminalImage.method()) {
                    FileHandle.standardOutput.write(Data(("\n" + picture).utf8))
                }
            }
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
        }
    }
}
