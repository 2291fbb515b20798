import CraveyLibrary

/// A change a person makes at leisure (an edit of a log, a setting) starts from what the other
/// machines wrote: with a sync folder chosen and something new in it, that is brought in first.
/// A hard moment (a craving, a ride, a play) opens the library as it always did and never waits
/// on the folder.
extension LibraryOptions {
    /// The library opened (made when it is not there), the folder's news brought in.
    func openBringingInSync() throws -> Library {
        let library = try open()
        library.syncBringInIfNew()
        return library
    }

    /// The library that is there already, the folder's news brought in.
    func openExistingBringingInSync() throws -> Library {
        let library = try openExisting()
        library.syncBringInIfNew()
        return library
    }
}
