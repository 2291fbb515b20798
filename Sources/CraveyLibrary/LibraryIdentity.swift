import Foundation

/// A library's own id: a random UUID made once, the first time something needs to tell this
/// library from another (a backup). It is kept as a setting, so the journal, every snapshot and
/// every backup carry it, and `restore` brings it into the new library: a library restored from a
/// backup is that library again, and backs up to the same folder as before.
extension Library {
    /// This library's id, made (under the library lock, once) when it has none yet.
    public func identity() throws -> String {
        if let id = try setting(.libraryId), Self.isIdentity(id) { return id }
        let lock = try lockLibrary()
        defer { lock.release() }
        if let id = try setting(.libraryId), Self.isIdentity(id) { return id }  // made meanwhile
        let id = UUID().uuidString.lowercased()
        try setSetting(.libraryId, to: id)
        return id
    }

    /// Whether `text` is an id as cravey makes one: a UUID in lowercase.
    static func isIdentity(_ text: String) -> Bool {
        text.count == 36 && UUID(uuidString: text) != nil && text == text.lowercased()
    }
}
