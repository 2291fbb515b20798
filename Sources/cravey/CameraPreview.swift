import ArgumentParser
import CraveyMedia
import CraveyPlayer
import CraveyRecorder
import Foundation

/// The camera seen live while recording a video, mirrored as every selfie view is: in a window
/// where there is a display, else a small picture of coloured half blocks above the meter. `v`
/// hides and shows it. It takes the camera's pictures from the recorder's `PreviewTap`, so a slow
/// window or terminal never holds the picture thread up. The window lives on a thread of its own
/// (opening a display can take a moment, and the meter must not wait for it); the terminal
/// picture is drawn by the meter's loop. Shared state is under one lock.
final class CameraPreview: @unchecked Sendable {
    /// Where the preview goes: `auto` is a window where there is a display, else the terminal.
    enum Choice: String, CaseIterable, ExpressibleByArgument {
        case auto, window, terminal, off
    }

    /// What a key in the window asks of the recording.
    enum Request { case stop, pause }

    private let tap: PreviewTap
    private let lock = NSLock()
    private var output: PictureOutput
    private var shownWanted = true
    private var requests: [Request] = []
    /// Why the window is not used, said above the picture in the terminal.
    private var notice: String?
    /// Pictures shown (window) or drawn (terminal).
    private var shownCount = 0
    private var closing = false
    private var windowThread: Thread?
    private let windowDone = DispatchSemaphore(value: 0)
    // The terminal picture (the meter's thread only).
    private var terminalPicture: [String] = []
    private var drawnAt: UInt64 = 0
    /// How many columns the terminal picture takes, and how often it is redrawn at most (its lines
    /// are long: about 40 bytes a cell).
    static let columns = 32
    static let terminalInterval: UInt64 = 125_000_000
    /// The window shows at most 15 pictures a second: enough to see oneself, and half the drawing
    /// of every frame (measured with Tests/bench/webcam.sh: drawing all 30 cost frames on a busy
    /// machine).
    static let windowInterval: UInt64 = 66_000_000

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
        if output == .window {
            let thread = Thread { [self] in runWindow() }
            thread.name = "cravey preview window"
            windowThread = thread
            thread.start()
        }
    }

    var isShown: Bool { lock.withLock { shownWanted } }

    /// `v`: hides or shows the picture (from any thread).
    func toggle() { lock.withLock { shownWanted.toggle() } }

    /// From the meter's loop: draws the terminal picture when one is due; returns what a key in
    /// the window asked for since.
    func update() -> Request? {
        let wanted = isShown
        let place: PictureOutput = lock.withLock { output }
        let request: Request? = lock.withLock { requests.isEmpty ? nil : requests.removeFirst() }
        guard place == .terminal else { return request }
        guard wanted else {
            tap.cancel()
            terminalPicture = []
            return request
        }
        drawTerminalPicture()
        return request
    }

    /// Closes the window (its thread ends); call when the recording has stopped.
    func close() {
        guard windowThread != nil else { return }
        lock.withLock { closing = true }
        windowDone.wait()
        tap.cancel()
        self.windowThread = nil
    }

    /// The window's thread: opens it at the first picture, shows each new one, passes its keys on;
    /// closed while hidden (`v` or its close button), opened again when shown.
    private func runWindow() {
        defer { windowDone.signal() }
        var window: VideoWindow?
        var shownAt: UInt64 = 0
        while !lock.withLock({ closing }) {
            guard isShown else {
                window = nil
                tap.cancel()
                usleep(20_000)
                continue
            }
            // Asleep until the next picture is due, then waiting for it in short naps.
            let now = monotonicNanoseconds()
            if now - shownAt < Self.windowInterval {
                usleep(UInt32((Self.windowInterval - (now - shownAt)) / 1000))
                continue
            }
            tap.request()
            guard let frame = tap.take() else {
                usleep(5_000)
                continue
            }
            shownAt = monotonicNanoseconds()
            if window == nil {
                // At the camera's own size up to 640×480 (drawn without scaling, the cheapest), else scaled down.
                let size = VideoSize.fitting(width: frame.width, height: frame.height, maxWidth: 640, maxHeight: 480)
                do {
                    window = try VideoWindow(title: "cravey — recording", width: frame.width, height: frame.height, size: size, mirrored: true)
                } catch {
                    // No window after all: the terminal, when there is one.
                    lock.withLock {
                        notice = "No preview window (\(error)); the camera is shown here"
                        output = Terminal.stderrIsTerminal ? .terminal : .none
                    }
                    tap.cancel()
                    return
                }
            }
            guard let window else { continue }
            window.show(frame.data)
            lock.withLock { shownCount += 1 }
            while let event = window.poll() {
                switch event {
                case .close: toggle()
                case .key(.character("q")), .key(.character("Q")), .key(.character("\r")): lock.withLock { requests.append(.stop) }
                case .key(.character("p")), .key(.character("P")), .key(.character(" ")): lock.withLock { requests.append(.pause) }
                case .key(.character("v")), .key(.character("V")): toggle()
                default: continue
                }
            }
        }
    }

    /// Asks for a picture when one is due, and draws it when it has come.
    private func drawTerminalPicture() {
        guard monotonicNanoseconds() - drawnAt >= Self.terminalInterval else { return }
        guard let frame = tap.take() else { return tap.request() }
        let columns = min(Self.columns, max(8, Terminal.columns - 2))
        let rows = max(1, Int((Double(columns) * Double(frame.height) / Double(max(1, frame.width)) / 2).rounded()))
        let picture = Picture(yuv420p: frame, width: columns, height: rows * 2, mirrored: true)
        terminalPicture = TerminalImage.halfBlocks(picture, lineEnd: "\n").split(separator: "\n").map(String.init)
        drawnAt = monotonicNanoseconds()
        lock.withLock { shownCount += 1 }
    }

    /// The lines above the meter: the picture in the terminal (none for a window or when hidden).
    var lines: [String] {
        let place: PictureOutput = lock.withLock { output }
        let said: String? = lock.withLock { notice }
        guard place == .terminal else { return [] }
        return (said.map { [Terminal.dim($0)] } ?? []) + terminalPicture
    }

    /// For the benchmark and tests: where the preview went and how many pictures it showed.
    var figures: String {
        lock.withLock {
            "preview=\(output == .window ? "window" : output == .terminal ? "terminal" : "off") preview_shown=\(shownCount)"
        }
    }
}
