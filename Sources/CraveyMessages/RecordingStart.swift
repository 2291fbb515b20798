import CraveyLibrary
import CraveyMedia
import CraveyRecorder
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
        /// Who decodes a webcam's JPEG pictures.
        public var jpeg: VideoInput.JPEGDecoding = .cravey

        public init(
            kind: Recording.Kind, mic: String?, camera: String?, largest: (width: Int, height: Int)?,
            fallbackToAudio: Bool
        ) {
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
    }

    /// Which device could not be used, and the error that said so (the command line words it).
    public enum Trouble: Sendable {
        /// The camera at `path` failed to open or start.
        case camera(path: String, MediaError)
        /// The microphone `name` failed to open.
        case microphone(name: String, MediaError)
        /// No camera could be chosen: none, no such one, or none with a usable mode.
        case noCamera(any Error)
    }

    /// A device could not be used, and what could replace it was declined (or nothing could).
    public struct Refusal: Error {
        public let trouble: Trouble
        public let declined: Fallback?
    }

    /// Starts a recorder for `plan`. When a device cannot be used, `offer(trouble, fallback, accepted)`
    /// is told why and what could be recorded instead — `accepted` is true when the plan accepted
    /// it beforehand — and returns whether to go on with it.
    public static func start(
        library: Library, plan: Plan, maxSeconds: Double,
        offer: (_ trouble: Trouble, _ fallback: Fallback, _ accepted: Bool) -> Bool
    ) throws -> Recorder {
        var mic = plan.mic
        var useCamera = plan.kind == .video
        while true {
            var camera: Recorder.Camera?
            do {
                if useCamera {
                    let (info, mode) = try CameraInfo.choose(plan.camera, largest: plan.largest)
                    camera = Recorder.Camera(path: info.path, mode: mode, jpeg: plan.jpeg)
                }
                let recorder = Recorder(library: library, microphone: mic, camera: camera, maxSeconds: maxSeconds)
                try recorder.start()
                return recorder
            } catch let error as RecorderError {
                switch error {
                case let .camera(problem):
                    let trouble = Trouble.camera(path: camera?.path ?? plan.camera ?? "", problem)
                    guard mic != nil else { throw Refusal(trouble: trouble, declined: nil) }
                    guard offer(trouble, .soundOnly, plan.fallbackToAudio) else {
                        throw Refusal(trouble: trouble, declined: .soundOnly)
                    }
                    useCamera = false
                case let .microphone(problem):
                    let trouble = Trouble.microphone(name: mic ?? "", problem)
                    guard useCamera else { throw Refusal(trouble: trouble, declined: nil) }
                    guard offer(trouble, .silentVideo, false) else {
                        throw Refusal(trouble: trouble, declined: .silentVideo)
                    }
                    mic = nil
                default:
                    throw error
                }
            } catch  where useCamera && camera == nil && (error is CameraTrouble || error is MediaError) {
                // No camera to choose (none, the named one is not there, or it has no usable mode).
                let trouble = Trouble.noCamera(error)
                guard mic != nil else { throw Refusal(trouble: trouble, declined: nil) }
                guard offer(trouble, .soundOnly, plan.fallbackToAudio) else {
                    throw Refusal(trouble: trouble, declined: .soundOnly)
                }
                useCamera = false
            }
        }
    }
}
