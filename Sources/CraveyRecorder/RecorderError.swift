import CraveyMedia
import FoundationEssentials
import Glibc

public enum RecorderError: Error, CustomStringConvertible {
    case notStarted
    case nothingRecorded(Bool)
    case camera(MediaError)
    case microphone(MediaError)

    public var description: String {
        switch self {
        case .notStarted: return "the recorder was not started"
        case let .nothingRecorded(video):
            return video
                ? "nothing was recorded (stopped before the first frame arrived)"
                : "nothing was recorded (stopped before the first sound arrived)"
        case let .camera(error): return "cannot record from the camera: \(error.message)"
        case let .microphone(error): return "cannot record from the microphone: \(error.message)"
        }
    }
}
