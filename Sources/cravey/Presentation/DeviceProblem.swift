import CraveyMedia
import CraveyMessages
import CraveyRecorder
import Foundation
import TerminalKit

/// Why a microphone or camera cannot be used right now, in a user's words, and what to do about
/// it: the one place `cravey doctor`'s findings and `cravey record`'s refusals and fallback offers
/// come from. It looks the way an administrator would (device modes and groups before error
/// codes, the processes holding a busy device), through `DeviceAccess`.
struct DeviceProblem: Sendable, Equatable {
    /// What is wrong ("busy: held by arecord (pid 412)").
    var detail: String
    /// What to do, with a pointer into udev-notes.md.
    var fix: String

    static let audioGroupFix =
        "join group 'audio' (sudo usermod -aG audio $USER, then log in again) or use a local desktop session (udev-notes.md, \"Who may open a device\")"
    static let videoGroupFix =
        "join group 'video' (sudo usermod -aG video $USER, then log in again) or use a local desktop session (udev-notes.md, \"Who may open a device\")"

    /// The microphone `name` failed to open with `error`.
    static func microphone(_ name: String, _ error: MediaError) -> DeviceProblem {
        let card = DeviceAccess.alsaCardAndDevice(name)
        let nodes =
            (card.map { DeviceAccess.soundCaptureNodes(card: $0.card, device: $0.device) }
                ?? DeviceAccess.soundCaptureNodes()) + (card.map { ["/dev/snd/controlC\($0.card)"] } ?? [])
        if error.kind == .cannotCapture, nodes.allSatisfy({ DeviceAccess.permissionProblem($0) == nil }) {
            return DeviceProblem(
                detail: "cannot capture (no capture side, or no usable format)",
                fix: "choose a capture device from 'cravey devices'")
        }
        return sound(
            error, nodes: nodes,
            busyFix: "close it, or record through the sound server with --mic default (udev-notes.md, \"Device busy\")",
            missingFix: { _ in
                "list the microphones with 'cravey devices' (udev-notes.md, \"Microphones and ALSA names\")"
            })
    }

    /// The speaker `name` failed to open with `error`.
    static func speaker(_ name: String, _ error: MediaError) -> DeviceProblem {
        let card = DeviceAccess.alsaCardAndDevice(name)
        let nodes = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd")) ?? []).filter {
            $0.hasPrefix(card.map { "pcmC\($0.card)D" } ?? "pcmC") && $0.hasSuffix("p")
        }.sorted().map { "/dev/snd/" + $0 }
        return sound(
            error, nodes: nodes,
            busyFix:
                "close it, or play through the sound server with --speaker default (udev-notes.md, \"Device busy\")",
            missingFix: { noCard in
                noCard
                    ? "plug in speakers or headphones, or check the sound driver"
                    : "list the speakers with 'aplay -L' and pass one with --speaker"
            })
    }

    /// A sound device (its device nodes `nodes`) that failed with `error`, either way: the nodes'
    /// modes first (ALSA reports an unreadable card as ENODEV or ENOENT as often as EACCES), then
    /// the error's kind. `missingFix` says what to do when there is no such device (true: no sound
    /// card at all).
    private static func sound(
        _ error: MediaError, nodes: [String], busyFix: String, missingFix: (_ noCard: Bool) -> String
    ) -> DeviceProblem {
        if let why = nodes.compactMap(DeviceAccess.permissionProblem).first {
            return DeviceProblem(detail: "permission denied: \(why)", fix: audioGroupFix)
        }
        switch error.kind {
        case .busy:
            return DeviceProblem(detail: "busy: held by \(holders(nodes))", fix: busyFix)
        case .permission:
            return DeviceProblem(detail: "permission denied: \(error.message)", fix: audioGroupFix)
        case .missing:
            let cards = (try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8)) ?? ""
            let none = cards.contains("no soundcards") || cards.isEmpty
            return DeviceProblem(
                detail: none ? "no sound card found" : "ALSA has no device of that name", fix: missingFix(none))
        default:
            return DeviceProblem(detail: error.message, fix: "see udev-notes.md")
        }
    }

    /// The camera at `path` failed to open or stream with `error`.
    static func camera(_ path: String, _ error: MediaError) -> DeviceProblem {
        switch error.kind {
        case .busy:
            return DeviceProblem(
                detail: "busy: held by \(holders([path]))",
                fix: "close it: only one program can stream from a camera (udev-notes.md, \"Device busy\")")
        case .permission:
            return DeviceProblem(
                detail: "permission denied: \(DeviceAccess.permissionProblem(path) ?? error.message)",
                fix: videoGroupFix)
        case .missing:
            return DeviceProblem(
                detail: "no such device node",
                fix:
                    "list the cameras with 'cravey devices'; use /dev/v4l/by-id paths (udev-notes.md, \"Cameras and stable names\")"
            )
        case .cannotCapture, .gone:
            return DeviceProblem(
                detail: error.message + " (no video capture capability)",
                fix: "a webcam often has a second node for metadata: pick the capture one from 'cravey devices'")
        default:
            if let why = DeviceAccess.permissionProblem(path) {
                return DeviceProblem(detail: "permission denied: \(why)", fix: videoGroupFix)
            }
            return DeviceProblem(detail: error.message, fix: "see udev-notes.md")
        }
    }

    /// No camera was found: unreadable video nodes, or none at all.
    static func noCamera() -> DeviceProblem {
        let nodes = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []).filter {
            $0.hasPrefix("video")
        }
        if let unreadable = nodes.map({ "/dev/" + $0 }).compactMap(DeviceAccess.permissionProblem).first {
            return DeviceProblem(detail: "permission denied: \(unreadable)", fix: videoGroupFix)
        }
        return DeviceProblem(
            detail: "no camera found (no /dev/video* node that captures)",
            fix:
                "plug one in, or check the driver with 'udevadm info --name=/dev/video0' (udev-notes.md); audio recording still works"
        )
    }

    /// The short form, for a refusal or an offer while recording: a busy device names its holder,
    /// a permission problem what is missing; anything else is the library's own message.
    /// `hints` say where to look for a kind of problem the error alone leaves open.
    static func brief(_ error: MediaError, nodes: [String], hints: [MediaError.Kind: String] = [:]) -> String {
        if error.kind == .busy {
            let holders = DeviceAccess.holders(of: nodes)
            return "the device is busy"
                + (holders.isEmpty
                    ? " (another program is using it)"
                    : ", held by " + holders.map(\.description).joined(separator: ", "))
        }
        if let problem = nodes.compactMap(DeviceAccess.permissionProblem).first {
            return "permission denied: \(problem)"
        }
        return error.message + (hints[error.kind].map { " (\($0))" } ?? "")
    }

    /// The one line for a device a recording could not use (`RecordingStart.Trouble`).
    static func line(_ trouble: RecordingStart.Trouble) -> String {
        switch trouble {
        case let .camera(path, error):
            return "cannot use the camera \(path): "
                + brief(error, nodes: [path], hints: [.permission: "see udev-notes.md: the 'video' group and uaccess"])
        case let .microphone(name, error):
            let nodes =
                DeviceAccess.alsaCardAndDevice(name).map {
                    DeviceAccess.soundCaptureNodes(card: $0.card, device: $0.device)
                } ?? []
            return "cannot record from '\(name)': "
                + brief(
                    error, nodes: nodes,
                    hints: [.permission: "see udev-notes.md: the 'audio' group", .missing: "see 'cravey devices'"])
        case let .noCamera(error):
            switch error {
            case CameraTrouble.noneFound:
                return
                    "cannot use a camera: no camera found (no V4L2 capture device; see 'cravey devices' and 'cravey doctor')"
            case let CameraTrouble.noSuchCamera(key):
                return "cannot use a camera: \(CameraTrouble.noSuchCamera(key).message) (see 'cravey devices')"
            case let trouble as CameraTrouble:
                return "cannot use a camera: \(trouble.message)"
            case let error as MediaError:
                return "cannot use a camera: \(error.message)"
            default:
                return "cannot use a camera: \(error)"
            }
        }
    }

    private static func holders(_ nodes: [String]) -> String {
        let holders = DeviceAccess.holders(of: nodes)
        return holders.isEmpty ? "another program" : holders.map(\.description).joined(separator: ", ")
    }
}

extension RecordingStart.Fallback {
    /// The question for the user.
    var question: String { self == .soundOnly ? "Record sound only instead?" : "Record a silent video instead?" }
    /// The option that accepts it beforehand, for a refusal where nobody could be asked.
    var option: String {
        self == .soundOnly ? "pass --fallback audio to record sound only" : "pass --no-audio to record a silent video"
    }
}
