import FoundationEssentials
import Glibc

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
        /// A new version of a recording's file (trimmed), waiting to replace it: `edit_<UUID>.<ext>`.
        case edit
        /// The new thumbnail that goes with it: `edit_<UUID>_thumb.jpg`.
        case editThumbnail
        /// The recording's file as it was, kept (a second link) while its replacement is committed:
        /// `old_<UUID>.<ext>`. Recovery puts it back if the replacement's row did not commit.
        case previous
        /// The thumbnail as it was: `old_<UUID>_thumb.jpg`.
        case previousThumbnail
        /// The recording's file with new tags, waiting to replace it: `tags_<UUID>.<ext>`.
        case tagged

        /// The role's name prefix, and whether it names a thumbnail.
        var spelling: (prefix: String, thumbnail: Bool)? {
            switch self {
            case .part: return nil
            case .final: return ("save_", false)
            case .thumbnail: return ("save_", true)
            case .edit: return ("edit_", false)
            case .editThumbnail: return ("edit_", true)
            case .previous: return ("old_", false)
            case .previousThumbnail: return ("old_", true)
            case .tagged: return ("tags_", false)
            }
        }
    }

    /// The temporary name of a file of recording `id`.
    public static func name(_ role: Role, id: UUID, kind: Recording.Kind) -> String {
        guard let (prefix, thumbnail) = role.spelling else {
            return "rec_\(kind.rawValue)_\(id.uuidString).\(kind.fileExtension).part"
        }
        return prefix + id.uuidString + (thumbnail ? "_thumb.jpg" : "." + kind.fileExtension)
    }

    static let roles: [Role] = [
        .part, .final, .thumbnail, .edit, .editThumbnail, .previous, .previousThumbnail, .tagged,
    ]

    /// The role, recording and kind a temporary name stands for; nil for any other name.
    public static func parse(_ name: String) -> (role: Role, id: UUID, kind: Recording.Kind)? {
        for role in roles {
            let prefix = role.spelling?.prefix
            for kind in Recording.Kind.allCases {
                let start = prefix ?? "rec_\(kind.rawValue)_"
                guard name.hasPrefix(start), let id = UUID(uuidString: String(name.dropFirst(start.count).prefix(36))),
                    name == Self.name(role, id: id, kind: kind)
                else { continue }
                return (role, id, role.spelling?.thumbnail == true ? .video : kind)
            }
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
