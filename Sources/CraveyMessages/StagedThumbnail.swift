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
