import CraveyLibrary

/// What is asked before something is deleted for good, and what is said when nothing was: the
/// same words from a command and from a screen.
enum Questions {
    /// Deleting one recording ("Delete 'Remember why'?"), and its warning.
    static func deleteRecording(_ recording: Recording) -> String { "Delete '\(recording.shownTitle)'?" }
    static let deleteRecordingWarning = "This recording will be permanently deleted. This cannot be undone."

    /// Deleting all data (`cravey purge`, settings' `d`), and its warning.
    static let deleteAll = "Delete All Data?"
    static let deleteAllWarning =
        "This will permanently delete all cravings, usage logs, recordings, and check-ins. This cannot be undone."

    /// A form closed without saving.
    static let nothingChanged = "Nothing was changed."
}
