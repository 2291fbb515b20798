import ArgumentParser
import CraveyMedia
import CraveyPlayer
import CraveyRecorder
import Foundation

/// The camera seen live while recording a video, mirrored as every selfie view is: in a window
/// where there is a display, else a small picture of coloured half blocks above the meter. `v`
/// hides and shows it. It takes the camera's pictures from the recorder's `PreviewTap`, so a slow
/// window or terminal never holds the picture thread up; driven from the meter's loop (one thread;
/// only `toggle`, under its lock, comes from the key reader).
final class CameraPreview: @unchecked Sendable {
    /// Where the preview goes: `auto` is a window where there is a display, else the terminal.
    enum Choice: String, CaseIterable, ExpressibleByArgument {
        case auto, window, terminal, off
    }

    /// What the window asks of the recording.
    enum Request { case stop, pause }

    private let tap: PreviewTap
    private var output: PictureOutput
    private let toggles = NSLock()
    private var shownWanted = true
    private var window: VideoWindow?
    private var latest: VideoFrame?
    private var terminalPicture: [String] = []
    private var drawnAt: UInt64 = 0
    /// Why the window is not used, said once above the picture in the terminal.
    private var notice: String?
    /// Pictures shown (window) or drawn (terminal).
    private(set) var shown = 0
    /// How many columns the terminal picture takes, and how often it is redrawn at most (its lines
    /// are long: about 40 bytes a cell).
    static let columns = 32
    static let terminalInterval: UInt64 = 125_000_000

    init?(recorder: Recorder, choice: Choice, calm: Bool) {
        guard recorder.camera != nil, choice != .off else { return nil }
        tap = recorder.preview
        switch choice {
        case .window: output = .window
        case .terminal: output = .terminal
        default: output = PictureOutput.choose(outputIsTerminal: Terminal.stderrIsTerminal)
        }
        // Calm screens draw no moving picture in the terminal; a window is the person's to close.
        if output == .terminal && calm { output = .none }
        guard output != .none else { return nil }
        tap.isWanted = true
    }

    var isShown: Bool { toggles.withLock { shownWanted } }

    /// `v`: hides or shows the picture (from any thread; acted on at the next update).
    func toggle() { toggles.withLock { shownWanted.toggle() } }

    /// Takes the newest picture and shows it; returns what a key in the window asked for.
    func update() -> Request? {
        let wanted = isShown
        tap.isWanted = wanted
        if let frame = tap.take() { latest = frame }
        guard wanted else {
            window = nil  // closed; `v` opens it again
            terminalPicture = []
            return nil
        }
        switch output {
        case .window: return updateWindow()
        case .terminal: drawTerminalPicture()
        case .none: tap.isWanted = false
        }
        return nil
    }

    private func updateWindow() -> Request? {
        guard let frame = latest else { return nil }
        if window == nil {
            let size = VideoSize.fitting(width: frame.width, height: frame.height, maxWidth: 480, maxHeight: 360)
            do {
                window = try VideoWindow(title: "cravey — recording", width: frame.width, height: frame.height, size: size, mirrored: true)
            } catch {
                notice = "No preview window (\(error)); the camera is shown here"
                output = Terminal.stderrIsTerminal ? .terminal : .none
                return nil
            }
        }
        guard let window else { return nil }
        window.show(frame.data)
        shown += 1
        latest = nil
        while let event = window.poll() {
            switch event {
            case .close: toggle()
            case .key(.character("q")), .key(.character("Q")), .key(.character("\r")): return .stop
            case .key(.character("p")), .key(.character("P")), .key(.character(" ")): return .pause
            case .key(.character("v")), .key(.character("V")): toggle()
            default: continue
            }
        }
        return nil
    }

    private func drawTerminalPicture() {
        guard let frame = latest, monotonicNanoseconds() - drawnAt >= Self.terminalInterval else { return }
        let columns = min(Self.columns, max(8, Terminal.columns - 2))
        let rows = max(1, Int((Double(columns) * Double(frame.height) / Double(max(1, frame.width)) / 2).rounded()))
        let picture = Picture(yuv420p: frame, width: columns, height: rows * 2, mirrored: true)
        terminalPicture = TerminalImage.halfBlocks(picture, lineEnd: "\n").split(separator: "\n").map(String.init)
        drawnAt = monotonicNanoseconds()
        latest = nil
        shown += 1
    }

    /// The lines above the meter: the picture in the terminal (none for a window or when hidden).
    var lines: [String] {
        guard output == .terminal else { return [] }
        return (notice.map { [Terminal.dim($0)] } ?? []) + terminalPicture
    }

    /// For the benchmark and tests: where the preview went and how many pictures it showed.
    var figures: String { "preview=\(output == .window ? "window" : output == .terminal ? "terminal" : "off") preview_shown=\(shown)" }
}
