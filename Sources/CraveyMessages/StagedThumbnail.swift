import CraveyLibrary
import CraveyMedia
import Foundation

extension Library {
    /// The thumbnail of a finished video (the frame at 1.0 s, 320 px wide) as a staged file, to be
    /// saved with the video; nil when no frame can be decoded: the recording is then saved without
    /// one, never with a thumbnail path that has no file. Used by recording, recovery and import,
    /// and (as `.editThumbnail`) by trimming.
    func stageThumbnail(of video: String, id: UUID, role: Staging.Role = .thumbnail) -> Library.StagedFile? {
        guard let staged = try? stage(role, id: id, kind: .video) else { return nil }
        do {
            try Thumbnailer.make(from: video, to: staged.path)
            return staged
        } catch {
            discard(staged)
            return nil
        }
    }
}

extension Library {
    /// A finished file read once: its sound's waveform, loudness and speech span and, for a video,
    /// its thumbnail caught in the same pass (a silent video has its thumbnail made alone). Either
    /// is nil when it cannot be had; the recording is then saved without it.
    func readFinished(_ path: String, id: UUID, kind: Recording.Kind, hasSound: Bool) -> (
        sound: SoundAnalysis?, thumbnail: StagedFile?
    ) {
        guard hasSound else { return (nil, kind == .video ? stageThumbnail(of: path, id: id) : nil) }
        guard kind == .video, let staged = try? stage(.thumbnail, id: id, kind: .video) else {
            return (try? SoundAnalysis(file: path), nil)
        }
        let sound = try? SoundAnalysis(file: path, thumbnail: staged.path)
        if sound?.thumbnailWritten == true { return (sound, staged) }
        discard(staged)
        return (sound, sound == nil ? stageThumbnail(of: path, id: id) : nil)
    }
}
