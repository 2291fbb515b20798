import CraveyLibrary
import Foundation

/// A change a person makes at leisure (an edit of a log, a use, a plan, a limit, a setting) starts
/// from what the other machines wrote: with a sync folder chosen and something new in it, that is
/// brought in first. A hard moment (a craving, a check-in) opens the library as it always did and
/// never waits on the folder: what is new there comes in after the log is said to be kept.
/// Bringing in never waits on the library's lock (another cravey holding it: next time), nor more
/// than a moment on a folder that does not answer (`Library.surveyAnswering`).
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

    /// `logging`, the folder's news brought in before the log is made.
    func loggingBringingInSync(_ log: (Library) throws -> Void) throws {
        try logging { library in
            library.syncBringInIfNew()
            try log(library)
        }
    }
}

extension Library {
    /// After a hard moment's log was said to be kept (and its message played or its ride
    /// ridden): the folder's news, brought in without waiting, once this machine's own change
    /// is written there (a folder that did not take it in a moment is left for next time).
    func syncBringInAfterAHardMoment() {
        fflush(nil)  // what was said is out before anything else is done
        guard Library.finishSyncPushes() else { return }
        syncBringInIfNew()
    }
}
