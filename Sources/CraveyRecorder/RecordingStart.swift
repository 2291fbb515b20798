import CraveyLibrary
import CraveyMedia
import Foundation

/// Opening the devices of a recording, and what may replace one that cannot be used: the policy
/// of `cravey record`. A camera that is missing, busy or not permitted may give way to a sound-only
/// recording (without asking when the user said so beforehand); a microphone that cannot be used
/// may give way to a silent video. Whether to accept is asked through `offer`.
public enum RecordingStart {
    /// What was asked for.
    public struct Plan: Sendable {
        public var kind: Recording.Kind
        public var mic: String?
        public var camera: String?
        public var largest: (width: Int, height: Int)?
        /// Record sound only, without asking, when the camera cannot be used.
        public var fallbackToAudio: Bool

        public init(kind: Recording.Kind, mic: String?, camera: String?, largest: (width: Int, height: Int)?, fallbackToAudio: Bool) {
            self.kind = kind
            self.mic = mic
            self.camera = camera
            self.largest = largest
            self.fallbackToAudio = fallbackToAudio
        }
    }

    /// What can still be recorded when a device cannot be used.
    public enum Fallback: Sendable, Equatable {
        case soundOnly, silentVideo

        /// The question for the user.
        public var question: String { self == .soundOnly ? "Record sound only instead?" : "Record a silent video instead?" }
        /// The option that accepts it beforehand, for a refusal where nobody could be asked.
        public var option: String {
            self == .soundOnly ? "pass --fallback audio to record sound only" : "pass --no-audio to record a silent video"
        }
    }

    /// A device could not be used, and what could replace it was declined (or nothing could).
    public struct Refusal: Error, CustomStringConvertible {
        public let why: String
        public let declined: Fallback?
        public var description: String { why }
    }

    /// Starts a recorder for `plan`. When a device cannot be used, `offer(why, fallback, accepted)`
    /// is told why and what could be recorded instead — `accepted` is true when the plan accepted
    /// it beforehand — and returns whether to go on with it.
    public static func start(library: Library, plan: Plan, maxSeconds: Double,
                             offer: (_ why: String, _ fallback: Fallback, _ accepted: Bool) -> Bool) throws -> Recorder {
        var mic = plan.mic
        var useCamera = plan.kind == .video
        while true {
            var camera: Recorder.Camera?
            do {
                if useCamera {
                    let (info, mode) = try CameraInfo.choose(plan.camera, largest: plan.largest)
                    camera = Recorder.Camera(path: info.path, mode: mode)
                }
                let recorder = Recorder(library: library, microphone: mic, camera: camera, maxSeconds: maxSeconds)
                try recorder.start()
                return recorder
            } catch let error as RecorderError {
                switch error {
                case let .camera(problem):
                    let path = camera?.path ?? plan.camera ?? ""
                    let why = "cannot use the camera \(path): \(DeviceProblem.brief(problem, nodes: camera.map { [$0.path] } ?? []))"
                    guard mic != nil else { throw Refusal(why: why, declined: nil) }
                    guard offer(why, .soundOnly, plan.fallbackToAudio) else { throw Refusal(why: why, declined: .soundOnly) }
                    useCamera = false
                case let .microphone(problem):
                    let nodes = DeviceAccess.alsaCardAndDevice(mic ?? "").map { DeviceAccess.soundCaptureNodes(card: $0.card, device: $0.device) } ?? []
                    let why = "cannot record from '\(mic ?? "")': \(DeviceProblem.brief(problem, nodes: nodes))"
                    guard useCamera else { throw Refusal(why: why, declined: nil) }
                    guard offer(why, .silentVideo, false) else { throw Refusal(why: why, declined: .silentVideo) }
                    mic = nil
                default:
                    throw error
                }
            } catch let error as MediaError where useCamera && camera == nil {
                // No camera to choose (none, or the named one is not there).
                let why = "cannot use a camera: \(error.message)"
                guard mic != nil else { throw Refusal(why: why, declined: nil) }
                guard offer(why, .soundOnly, plan.fallbackToAudio) else { throw Refusal(why: why, declined: .soundOnly) }
                useCamera = false
            }
        }
    }
}
