import CraveyLibrary
import Foundation

extension Library {
    /// Copies an existing file (and thumbnail) into the library and saves it, through the same
    /// staging and atomic save as a recording: how tests fill a library with opaque bytes.
    @discardableResult
    public func save(
        copying source: String, thumbnail: String? = nil, kind: Recording.Kind, draft: Draft,
        duration: Double, media: MediaFacts, id: UUID = UUID(), createdAt: Date = Date()
    ) throws -> Recording {
        let staged = try stage(.final, id: id, kind: kind)
        var stagedThumb: StagedFile?
        do {
            try copy(source, into: staged)
            if let thumbnail {
                let thumb = try stage(.thumbnail, id: id, kind: kind)
                stagedThumb = thumb
                try copy(thumbnail, into: thumb)
            }
        } catch {
            discard(staged)
            if let stagedThumb { discard(stagedThumb) }
            throw error
        }
        return try save(
            staged, thumbnail: stagedThumb, kind: kind, draft: draft, duration: duration,
            media: media, id: id, createdAt: createdAt)
    }

    private func copy(_ source: String, into staged: StagedFile) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: staged.path))
        try handle.write(contentsOf: data)
        try handle.close()
        try staged.sync()
    }
}
