import Foundation

/// Files being written inside the library under temporary names, in `.incoming/`. Every temporary
/// name cravey uses is spelled here, and recovery reads names back with `parse`: a file in
/// `.incoming/` whose name does not parse is not cravey's, and is left alone.
public enum Staging {
    /// What a staged file is for.
    public enum Role: Sendable, Equatable {
        /// A recording being captured, fragmented so a crash loses at most its last second:
        /// `rec_<kind>_<UUID>.<ext>.part`. Recovered into a recording after a crash.
        case part
        /// A finished media file waiting for its row: `save_<UUID>.<ext>`.
        case final
        /// A thumbnail waiting for its row: `save_<UUID>_thumb.jpg`.
        case thumbnail
    }

    /// The temporary name of a file of recording `id`.
    public static func name(_ role: Role, id: UUID, kind: Recording.Kind) -> String {
        switch role {
        case .part: return "rec_\(kind.rawValue)_\(id.uuidString).\(kind.fileExtension).part"
        case .final: return "save_\(id.uuidString).\(kind.fileExtension)"
        case .thumbnail: return "save_\(id.uuidString)_thumb.jpg"
        }
    }

    /// The role, recording and kind a temporary name stands for; nil for any other name.
    public static func parse(_ name: String) -> (role: Role, id: UUID, kind: Recording.Kind)? {
        for kind in Recording.Kind.allCases {
            for role in [Role.part, .final] {
                let prefix = role == .part ? "rec_\(kind.rawValue)_" : "save_"
                guard name.hasPrefix(prefix), let id = UUID(uuidString: String(name.dropFirst(prefix.count).prefix(36))),
                      name == Self.name(role, id: id, kind: kind) else { continue }
                return (role, id, kind)
            }
        }
        if name.hasPrefix("save_"), let id = UUID(uuidString: String(name.dropFirst(5).prefix(36))),
           name == Self.name(.thumbnail, id: id, kind: .video) {
            return (.thumbnail, id, .video)
        }
        return nil
    }
}

extension Library {
    /// A new, empty temporary file for recording `id` (0600, locked by this process until it is
    /// saved or discarded, so recovery in another process leaves it alone).
    public func stage(_ role: Staging.Role, id: UUID, kind: Recording.Kind) throws -> StagedFile {
        try makeStagedFile(named: Staging.name(role, id: id, kind: kind))
    }
}
