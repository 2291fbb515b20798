import CraveyMedia
import CraveyPlayer
import CraveyRecorder
import Foundation
import Synchronization
import TerminalKit

/// The camera seen live while recording a video, mirrored as every selfie view is: in a window
/// where there is a display, else a small picture of coloured half blocks above the meter. `v`
/// hides and shows it. It takes the camera's pictures from the recorder's `PreviewTap`, so a slow
/// window or terminal never holds the picture thread up. The window lives on a thread of its own
/// (the meter must not wait for a display); the terminal picture is drawn by the meter's loop.
/// Shared state is under one lock (`state`), the terminal picture too: only the meter's loop
/// draws it, so the lock costs nothing there.
///
/// The preview must never cost the recording a frame. So the window is opened before the
/// recording starts (loading a display's libraries is the costly part; the recording waits for it,
/// up to `windowWait`), and from then on its thread runs in the idle scheduling class: it only
/// gets the time the recording leaves, and shows fewer pictures on a machine that has none to spare.
final class CameraPreview: Sendable {
    /// Where the preview goes: `auto` is a window where there is a display, else the terminal.
    enum Choice: String, CaseIterable {
        case auto, window, terminal, off
    }

    /// What a key in the window asks of the recording.
    enum Request { case stop, pause }

    private struct State {
        /// The recording's pictures, once it has started (`attach`).
        var tap: PreviewTap?
        var output: PictureOutput
        var shownWanted = true
        var requests: [Request] = []
        /// Why the window is not used, said above the picture in the terminal.
        var notice: String?
        /// Pictures shown (window) or drawn (terminal), and how long the window took to open.
        var shownCount = 0
        var openMilliseconds: Int?
        var closing = false
        /// The window's thread was started and not yet waited for (`close`).
        var windowRunning = false
        // The terminal picture (drawn by the meter's thread).
        var terminalPicture: [String] = []
        var drawnAt: UInt64 = 0
    }
    private let state: Mutex<State>
    private let windowOpened = DispatchSemaphore(value: 0)
    private let windowDone = DispatchSemaphore(value: 0)
    /// How many columns the terminal picture takes, and how often it is redrawn at most (its lines
    /// are long: about 40 bytes a cell).
    static let columns = 32
    static let terminalInterval: UInt64 = 125_000_000
    /// The window shows at most 15 pictures a second: enough to see oneself, and half the drawing
    /// of every frame (measured with Tests/bench/webcam.sh: drawing all 30 cost frames on a busy
    /// machine).
    static let windowInterval: UInt64 = 66_000_000
    /// How long the recording waits for the window to open: a laptop's display takes a fraction
    /// of a second; a slower one (a remote display) gets its window while the recording runs.
    static let windowWait: Double = 5
    /// Linux's SCHED_IDLE (sched.h defines it only for _GNU_SOURCE, so Swift does not see it).
    static let idleSchedulingClass: Int32 = 5

    /// Made before a video recording starts; `expected` is the picture size asked for, if any (the
    /// window is sized again to the camera's first picture).
    init?(choice: Choice, calm: Bool, expected: (width: Int, height: Int)?) {
        guard choice != .off else { return nil }
        var output: PictureOutput
        switch choice {
        case .window: output = .window
        case .terminal: output = .terminal
        default: output = PictureOutput.choose(outputIsTerminal: Terminal.stderrIsTerminal)
        }
        // Calm screens draw no moving picture in the terminal; a window is the person's to close.
        if output == .terminal && calm { output = .none }
        guard output != .none else { return nil }
        state = Mutex(State(output: output, windowRunning: output == .window))
        if output == .window {
            let size =
                expected.map { VideoSize.fitting(width: $0.width, height: $0.height, maxWidth: 640, maxHeight: 480) }
                ?? VideoSize(width: 640, height: 360)
            let thread = Thread { [self] in
                // Named from inside, through its own /proc entry (a name set before the start
                // never reaches the system on Linux): `top -H` shows "cravey preview".
                try? Data("cravey preview".utf8).write(to: URL(fileURLWithPath: "/proc/thread-self/comm"))
                runWindow(size)
            }
            thread.start()
        }
    }

    /// Waits until the window is open, or could not be, at most `windowWait` seconds.
    func waitForWindow() {
        guard state.withLock({ $0.windowRunning }) else { return }
        _ = windowOpened.wait(timeout: .now() + Self.windowWait)
    }

    /// The recording has started: the preview shows its pictures.
    func attach(_ tap: PreviewTap) { state.withLock { $0.tap = tap } }

    var isShown: Bool { state.withLock { $0.shownWanted } }

    /// `v`: hides or shows the picture (from any thread).
    func toggle() { state.withLock { $0.shownWanted.toggle() } }

    /// From the meter's loop: draws the terminal picture when one is due; returns what a key in
    /// the window asked for since.
    func update() -> Request? {
        let (wanted, place, request, source) = state.withLock {
            ($0.shownWanted, $0.output, $0.requests.isEmpty ? nil : $0.requests.removeFirst(), $0.tap)
        }
        guard place == .terminal, let source else { return request }
        guard wanted else {
            source.cancel()
            state.withLock { $0.terminalPicture = [] }
            return request
        }
        drawTerminalPicture(from: source)
        return request
    }

    /// Closes the window (its thread ends); call when the recording has stopped, or did not start.
    func close() {
        let running = state.withLock {
            if $0.windowRunning { $0.closing = true }
            return $0.windowRunning
        }
        if running {
            windowDone.wait()
            state.withLock { $0.windowRunning = false }
        }
        state.withLock { $0.tap }?.cancel()
    }

    /// The window's thread: opens the window at once, then (in the idle class) shows the
    /// recording's pictures and passes its keys on; closed while hidden (`v` or its close button),
    /// opened again when shown.
    private func runWindow(_ size: VideoSize) {
        defer { windowDone.signal() }
        let started = monotonicNanoseconds()
        var window: VideoWindow?
        do {
            window = try VideoWindow(
                title: "cravey — recording", width: size.width, height: size.height, mirrored: true)
        } catch {
            // No window after all: the terminal, when there is one.
            let notice = "No preview window (\(error)); the camera is shown here"
            state.withLock {
                $0.notice = notice
                $0.output = Terminal.stderrIsTerminal ? .terminal : .none
            }
            windowOpened.signal()
            return
        }
        let opened = Int((monotonicNanoseconds() - started) / 1_000_000)
        state.withLock { $0.openMilliseconds = opened }
        windowOpened.signal()
        var priority = sched_param(sched_priority: 0)
        _ = sched_setscheduler(0, Self.idleSchedulingClass, &priority)
        var shownAt: UInt64 = 0
        while !state.withLock({ $0.closing }) {
            guard let tap = state.withLock({ $0.tap }) else {
                usleep(20_000)
                continue
            }
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
            // At the camera's own size up to 640×480 (drawn without scaling, the cheapest), else scaled down.
            let fitted = VideoSize.fitting(width: frame.width, height: frame.height, maxWidth: 640, maxHeight: 480)
            do {
                if let window, window.width != frame.width || window.height != frame.height {
                    try window.setFrameSize(width: frame.width, height: frame.height, size: fitted)
                } else if window == nil {
                    window = try VideoWindow(
                        title: "cravey — recording", width: frame.width, height: frame.height, size: fitted,
                        mirrored: true)
                }
            } catch {
                window = nil
                state.withLock { $0.shownWanted = false }
                continue
            }
            guard let window else { continue }
            window.show(frame.data)
            state.withLock { $0.shownCount += 1 }
            while let event = window.poll() {
                switch event {
                case .close: toggle()
                case .key(.character("q")), .key(.character("Q")), .key(.character("\r")):
                    state.withLock { $0.requests.append(.stop) }
                case .key(.character("p")), .key(.character("P")), .key(.character(" ")):
                    state.withLock { $0.requests.append(.pause) }
                case .key(.character("v")), .key(.character("V")): toggle()
                default: continue
                }
            }
        }
    }

    /// Asks for a picture when one is due, and draws it when it has come.
    private func drawTerminalPicture(from tap: PreviewTap) {
        guard monotonicNanoseconds() - state.withLock({ $0.drawnAt }) >= Self.terminalInterval else { return }
        guard let frame = tap.take() else { return tap.request() }
        let columns = min(Self.columns, max(8, Terminal.columns - 2))
        let rows = max(1, Int((Double(columns) * Double(frame.height) / Double(max(1, frame.width)) / 2).rounded()))
        let picture = Picture(yuv420p: frame, width: columns, height: rows * 2, mirrored: true)
        let lines = TerminalImage.halfBlocks(picture, lineEnd: "\n").split(separator: "\n").map(String.init)
        let drawnAt = monotonicNanoseconds()
        state.withLock {
            $0.terminalPicture = lines
            $0.drawnAt = drawnAt
            $0.shownCount += 1
        }
    }

    /// The lines above the meter: the picture in the terminal (none for a window or when hidden).
    var lines: [String] {
        let (place, said, picture) = state.withLock { ($0.output, $0.notice, $0.terminalPicture) }
        guard place == .terminal else { return [] }
        return (said.map { [Terminal.dim($0)] } ?? []) + picture
    }

    /// For the benchmark and tests: where the preview went and how many pictures it showed.
    var figures: String {
        let (output, shownCount, openMilliseconds) = state.withLock { ($0.output, $0.shownCount, $0.openMilliseconds) }
        return
            "preview=\(output == .window ? "window" : output == .terminal ? "terminal" : "off") preview_shown=\(shownCount)"
            + (openMilliseconds.map { " preview_open_ms=\($0)" } ?? "")
    }
}
