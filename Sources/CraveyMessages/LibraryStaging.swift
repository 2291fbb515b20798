import CraveyLibrary
import CraveyMedia
import CraveyRecorder
import Foundation

/// The library as the recorder's staging area: the recorder captures into `.incoming/` under the
/// temporary names recovery knows, and its fault sites are the library's.
struct LibraryStaging: RecordingStaging {
    let library: Library

    func stage(_ role: StagedRecordingRole, id: UUID, video: Bool) throws -> any StagedRecordingFile {
        try library.stage(role == .part ? .part : .final, id: id, kind: video ? .video : .audio)
    }

    func discard(_ file: any StagedRecordingFile) {
        library.discard(Self.staged(file))
    }

    func hit(_ site: String) throws {
        try library.faults.hit(site)
    }

    func holdUp(_ site: String) {
        library.faults.holdUp(site)
    }

    /// The library's own file behind one the recorder holds: every file it holds came from `stage`.
    static func staged(_ file: any StagedRecordingFile) -> Library.StagedFile {
        guard let staged = file as? Library.StagedFile else { preconditionFailure("not a file the library staged") }
        return staged
    }
}

extension Library.StagedFile: StagedRecordingFile {}

extension Recorder {
    /// A recorder that writes into `library`, capped at `maxSeconds` (no more than a recording may last).
    public convenience init(
        library: Library, microphone: String? = "default", camera: Camera? = nil, maxSeconds: Double = 120,
        encoder: VideoEncoderSettings = .default
    ) {
        self.init(
            staging: LibraryStaging(library: library), microphone: microphone, camera: camera,
            maxSeconds: min(maxSeconds, Validation.maxDuration), encoder: encoder)
    }

    /// The library the recorder writes into (it was made with `init(library:)`).
    public var library: Library {
        guard let staging = staging as? LibraryStaging else {
            preconditionFailure("a recorder not writing into a library")
        }
        return staging.library
    }

    public var kind: Recording.Kind { isVideo ? .video : .audio }
}

extension Recorder.Capture {
    public var kind: Recording.Kind { isVideo ? .video : .audio }
    /// The library's files behind `file` and `part`.
    var stagedFile: Library.StagedFile { LibraryStaging.staged(file) }
    var stagedPart: Library.StagedFile { LibraryStaging.staged(part) }
}
