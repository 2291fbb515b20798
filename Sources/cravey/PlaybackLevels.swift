import CraveyLibrary
import CraveyMedia
import CraveyPlayer
import Foundation

extension Loudness {
    /// The level to play `recording` at. A recording saved before cravey measured loudness is
    /// measured now (a decode of the file: tens of milliseconds) and the measurement is stored;
    /// if it cannot be stored (a read-only library), it is still used for this play.
    static func level(of recording: Recording, path: String, library: Library) -> PlaybackLevel {
        if recording.media.isMeasured {
            return PlaybackLevel(loudness: recording.media.loudness, truePeak: recording.media.truePeak,
                                 gain: recording.media.playbackGain)
        }
        guard recording.media.sampleRate != nil, let measured = try? Loudness.measure(file: path) else {
            return .original
        }
        try? library.recordLoudness(recording.id, loudness: measured.integrated, truePeak: measured.truePeak,
                                    playbackGain: measured.playbackGain)
        return PlaybackLevel(loudness: measured.integrated, truePeak: measured.truePeak, gain: measured.playbackGain)
    }
}
