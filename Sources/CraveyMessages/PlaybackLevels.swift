import CraveyLibrary
import CraveyMedia

extension PlaybackLevel {
    /// The level to play `recording` at, from its stored measurement. A recording saved before
    /// cravey measured loudness is measured now (a decode of the file) and the measurement kept;
    /// one that cannot be measured plays as recorded.
    public static func of(_ recording: Recording, in library: Library) -> PlaybackLevel {
        guard recording.media.sampleRate != nil,
            let media = recording.media.isMeasured ? recording.media : library.measureLoudness(recording)?.media
        else {
            return .original
        }
        return PlaybackLevel(loudness: media.loudness, truePeak: media.truePeak, gain: media.playbackGain)
    }
}
