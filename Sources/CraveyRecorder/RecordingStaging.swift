import FoundationEssentials
import Glibc

/// Where a recording is written: temporary files its owner keeps until the take is saved or
/// discarded. The recorder only captures into them; what becomes of them is its owner's (the
/// library's staging area, through the application layer).
public protocol RecordingStaging: Sendable {
    /// A new, empty temporary file for recording `id`, held by this process until it is discarded
    /// or its owner takes it over.
    func stage(_ role: StagedRecordingRole, id: UUID, video: Bool) throws -> any StagedRecordingFile
    /// Removes a temporary file that will not be kept.
    func discard(_ file: any StagedRecordingFile)
    /// The fault seam: throws (or ends the process) at the named step when a test asks for it.
    func hit(_ site: String) throws
    /// The seam of a step passed too often to be counted (each second's fsync of a take): waits
    /// there when a test asks, and never fails.
    func holdUp(_ site: String)
}

/// What a staged file of a recording is for.
public enum StagedRecordingRole: Sendable, Equatable {
    /// The fragmented file the recording is captured into (a crash loses at most its last second).
    case part
    /// The regular `.m4a` / `.mov` it is finalized into.
    case final
}

/// A temporary file the recorder writes into.
public protocol StagedRecordingFile: AnyObject, Sendable {
    var path: String { get }
    /// fsync: what was written so far survives a crash or power cut.
    func sync() throws
}
