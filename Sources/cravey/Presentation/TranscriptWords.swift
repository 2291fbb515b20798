import CraveyLibrary
import CraveyMedia
import CraveyMessages
import Foundation
import TerminalKit

/// A recording's transcript and loudness in words: what `cravey show`, the check-in's entries
/// and its close screen say of them.
enum TranscriptWords {
    /// The transcript under its heading, wrapped to the terminal, each line with the time of its
    /// first word; or why there is none (`queued`: it is on its way).
    static func lines(_ transcript: Transcript?, id: UUID, queued: Bool = false) -> [String] {
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
    static func preview(_ transcript: Transcript?, count: Int, width: Int, queued: Bool = false)
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
    static func loudness(_ r: Recording) -> String? {
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
