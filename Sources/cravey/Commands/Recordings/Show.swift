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
            if let loudness = TranscriptWords.loudness(r) { lines.append("  loudness   " + loudness) }
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
            lines += TranscriptWords.lines(transcript, id: r.id, queued: Transcribing.onItsWay(r.id, in: lib))
            print(lines.joined(separator: "\n"))
            // The thumbnail, drawn in the terminal (not into pipes, and not without colour).
            if let path = (try? lib.thumbnail(of: r)) ?? nil, Terminal.stdoutIsTerminal, Terminal.useColor {
                let columns = max(8, min(40, Terminal.columns - 4))
                if let picture = try? TerminalImage.draw(
                    path, columns: columns, method: TerminalImage.method(LibraryOptions.configuration))
                {
                    FileHandle.standardOutput.show(Data(("\n" + picture).utf8))
                }
            }
        }
    }
}
