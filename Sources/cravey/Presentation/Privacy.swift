import CraveyLibrary
import Foundation
import TerminalKit

/// What cravey keeps, where, and who can read it — shown by `cravey privacy`, in settings, and in
/// the user guide.
enum Privacy {
    static func statement(libraryPath: String) -> [String] {
        [
            "Your data is private and local-only.",
            "",
            "What is stored: your craving and use logs, your messages and check-ins (the sound and video",
            "files, their titles, notes, play counts and transcripts), your goal, your name and any prices",
            "you set, your limits (break windows, a weekly target, the use you plan for)",
            "— all in one library on this device: \(libraryPath)",
            "",
            "Nothing leaves this machine: cravey has no network code — no cloud sync, no analytics, no",
            "accounts. Transcripts are made on this device; import reads local files only.",
            "",
            "Who can read it: only you, on this computer account. Other people with their own accounts on",
            "this computer cannot open it. An administrator of this computer (anyone who can use sudo or",
            "sign in as root) can read every file on it, yours included. 'cravey check' says if any of the",
            "library's files could be read by others, and 'cravey check --repair' makes them private again.",
            "",
            "Take it with you: cravey export --format csv|json (or Settings → Export data).",
            "Delete everything: cravey purge (or Settings → Delete all data).",
        ]
    }

    /// `lines` with each paragraph (lines between empty ones) joined into one line, for a page
    /// or a terminal that wraps them to its own width.
    static func paragraphs(_ lines: [String]) -> [String] {
        Array(
            lines.split(separator: "", omittingEmptySubsequences: false).map { [$0.joined(separator: " ")] }
                .joined(separator: [""]))
    }

    /// Where to report a problem or send feedback.
    static let contact = [
        "Contact & feedback",
        "",
        "Found a problem or have an idea? Tell whoever gave you cravey, or the people who keep its",
        "source, what you did, what you saw, and the line 'cravey --version' prints.",
        "Never attach your library: it is yours, and nobody needs it to help.",
        "'cravey doctor' says what is wrong with a microphone or camera, 'cravey check' with the library.",
    ]
}
