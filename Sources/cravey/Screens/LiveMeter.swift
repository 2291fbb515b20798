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

/// The live recording display: the camera's picture (when it is shown in the terminal), level
/// meter in dBFS with clip marker, scrolling waveform, elapsed and remaining time, and warnings,
/// redrawn in place on stderr.
final class LiveMeter {
    let maxSeconds: Double
    let device: String
    private var block = LiveBlock()
    private var calmLines = StatusLines()

    init(maxSeconds: Double, device: String) {
        self.maxSeconds = maxSeconds
        self.device = device
    }

    func render(_ status: Recorder.Status, preview: CameraPreview? = nil) {
        if Calm.isOn { return calmLines.offer(Self.summary(status), to: .standardError) }
        let picture = preview?.lines ?? []
        var lines: [String] = []
        // Every line within the window (a wrapped line would break the redraw in place): the bar
        // narrows down to 10 columns.
        let columns = max(20, Terminal.columns - 1)
        let width = max(10, min(40, columns - 34))
        let rms = status.level.rms
        // The bar spans -60…0 dBFS.
        let filled = max(0, min(width, Int(((rms + 60) / 60) * Double(width))))
        let peakColumn = max(0, min(width - 1, Int(((status.level.peak + 60) / 60) * Double(width))))
        var bar = ""
        for column in 0..<width {
            if column == peakColumn && status.level.peak > -60 {
                bar += "|"
            } else {
                bar += column < filled ? "█" : "░"
            }
        }
        let clip =
            status.level.clipped ? Terminal.style(" CLIP", "1;31") : (status.clipped ? Terminal.dim(" clipped") : "")
        let state = status.paused ? "\(Terminal.style("‖", "1;33")) PAUSED" : "\(Terminal.style("●", "31")) REC "
        lines.append(
            "\(state) \(Format.clock(status.elapsed)) / \(Format.clock(maxSeconds))   "
                + "\(Format.clock(max(0, status.remaining))) left   \(Terminal.dim(device))")
        if let mode = status.cameraMode {
            let size =
                status.videoSize.map {
                    $0.width == mode.width && $0.height == mode.height ? "" : " → \($0.width)x\($0.height)"
                } ?? ""
            let dropped =
                status.droppedFrames > 0 ? Terminal.style("\(status.droppedFrames) dropped", "33") : "0 dropped"
            lines.append("Video \(mode)\(size)   \(status.frames) frames, \(dropped)")
        }
        if !status.hasAudio {
            lines.append(Terminal.dim("No sound: a silent video"))
        } else {
            lines.append(
                "Level [\(Terminal.style(bar, filled > width * 9 / 10 ? "31" : "32"))] "
                    + String(format: "%6.1f dBFS  peak %6.1f", max(rms, -99), max(status.level.peak, -99)) + clip)
            lines.append("      " + Format.sparkline(Array(status.waveform.suffix(width + 12)), columns: width + 12))
        }
        var note = "Enter or q to stop · p or space pauses · Ctrl-C also stops and keeps it"
        if Terminal.width(note) > columns { note = "Enter or q to stop · p or space pauses" }
        if let preview { note += preview.isShown ? " · v hides the camera" : " · v shows the camera" }
        if status.paused {
            note = Terminal.style("Paused — p or space resumes; nothing is recorded meanwhile", "1;33")
        } else if status.remaining <= 10 && status.remaining > 0 {
            let left = max(1, Format.wholeSeconds(status.remaining))
            note = Terminal.style("\(left) second\(left == 1 ? "" : "s") left", "1;33")
        } else if status.hasAudio && status.silentSeconds >= 3 {
            note = Terminal.style("No sound for \(Int(status.silentSeconds)) s — is the microphone muted?", "1;33")
        }
        lines.append(note)
        block.draw(picture + lines.map { Terminal.fit($0, columns) }, to: .standardError)
    }

    /// The calm screens' status line: time, level, frames and what needs attention.
    static func summary(_ status: Recorder.Status) -> String {
        var parts = [
            "\(status.paused ? "Paused" : "Recording") \(Format.clock(status.elapsed)) of \(Format.clock(status.maxSeconds))"
                + ", \(Format.clock(max(0, status.remaining))) left"
        ]
        if status.cameraMode != nil { parts.append("\(status.frames) frames, \(status.droppedFrames) dropped") }
        if status.hasAudio {
            parts.append(
                String(format: "level %.0f dBFS", max(status.level.rms, -99))
                    + (status.level.clipped ? ", too loud" : ""))
            if status.silentSeconds >= 3 && !status.paused {
                parts.append("no sound for \(Int(status.silentSeconds)) s: is the microphone muted?")
            }
        }
        return parts.joined(separator: "; ")
    }

}
