import CraveyLibrary
import Foundation
import TerminalKit

/// What cravey keeps, where, and who can read it — shown by `cravey privacy`, in settings, and in
/// the user guide.
enum Privacy {
    /// One kind of thing kept: its words in the statement, the library's tables that hold it,
    /// the settings among them, and the library's files and folders it is in (a name, or the
    /// start of one: `library.sqlite` is also its `-wal` and `-shm`).
    struct Kept {
        let words: String
        var tables: [String] = []
        var settings: [String] = []
        var files: [String] = []
    }

    /// Everything the library holds, each table, setting and file of it named once: a table
    /// added to the library needs its words here (a test holds the library's tables to it).
    static let kept: [Kept] = [
        Kept(
            words:
                "Your logs: each craving (how strong, its triggers, place and notes, how it went in a ride and the messages played) and each use (the method, amount, triggers, place, notes and mood after).",
            tables: ["craving", "usage", "logSearch"]),
        Kept(
            words:
                "Your messages and check-ins: the sound and video files (in Recordings), their titles, notes, what each was made for, how often it played, its loudness and its transcript, and each day's check-in with its mood, its prompt and whether you put it off.",
            tables: [
                "recording", "transcript", "transcriptJob", "recordingSearch", "checkinDay", "pendingTags",
                "recordingPlays",
            ],
            files: ["Recordings"]),
        Kept(
            words: "Your if-then plans: for a trigger, what you will do instead and the message to play.",
            tables: ["plan"]),
        Kept(
            words: "The days you answered for: no use, or not remembered, and when you said so.", tables: ["dayMark"]),
        Kept(words: "Your withdrawal checks: the six scores of each day's check.", tables: ["withdrawalCheck"]),
        Kept(words: "Your self-screens: the eight answers, the score and when you took each.", tables: ["selfScreen"]),
        Kept(
            words:
                "Your limits: the break windows you set, a weekly target, and the use you plan for (methods, an amount a day, its hours).",
            tables: ["limitRule"]),
        Kept(words: "The milestones you reached, each with the day it came.", tables: ["milestone"]),
        Kept(
            words:
                "When you share your history with another machine through a folder you chose: this machine's id there, the folder's place, each change written to it or brought in from it, and how far each machine's changes were read.",
            tables: ["syncState", "syncField", "syncOutbox", "syncSeen", "syncRecordingWaiting"]),
        Kept(
            words:
                "Your settings: your goal, your name, the prices and currency you set, and the choices you made (Quick Play's order, the withdrawal check, the limits and the self-screen's reminder when you asked for them, the notes you put away, whether the welcome was shown, where and when the last backup went, and when home last said it was old), and the library's own id.",
            tables: ["setting"],
            settings: [
                "name", "goal", "quickPlay", "prices", "currency", "welcomed", "goalAsked", "lastBackup", "libraryId",
                "planSuggestion", "withdrawalOffer", "screenReminder", "screenReminderDismissed", "limitOffer",
                "backupNoted",
            ]),
        Kept(
            words:
                "What keeps it safe: the database (library.sqlite) with the versions of its layout it has, a journal beside it of all you typed (logs.journal), a snapshot of the database each day (Snapshots), search indexes of your words, notes of work under way (a save, a trim, a deleted entry still to leave the snapshots) so that a crash loses nothing, space held in reserve so that a full disk still keeps a log, and what 'cravey check --repair' set aside (Quarantine).",
            tables: ["pendingSave", "pendingReplace", "pendingScrub", "pendingJournal", "grdb_migrations"],
            files: [
                "library.sqlite", "library.lock", "logs.journal", "logs.waiting", "transcripts.lock", "sync.lock",
                "Snapshots",
                "Quarantine", ".reserve", ".incoming", ".trash", ".purging", ".backup", ".rebuilding",
            ]),
        Kept(
            words:
                "The nudge's two files (nudge.state, nudge.pending): when the last nudge came, whether a command followed it, and when it rests.",
            files: ["nudge.state", "nudge.pending"]),
    ]

    /// Where the data is, in one line: this device, or with a sync folder chosen (`folder`), the
    /// person's devices and that folder.
    static func headline(folder: String?) -> String {
        guard let folder else { return "Your data is private and local-only." }
        return
            "Your data stays on your devices and in the folder you chose (\(Terminal.safe(folder))); cravey sends nothing over a network."
    }

    /// Who can read a sync folder's files, said wherever the folder is named.
    static let folderReadable =
        "The folder's files are as readable as the library to anyone who can open that folder."

    /// The statement: what is kept, where, and who can read it; a sync folder chosen (`folder`)
    /// is said where the data is, what leaves this machine and who can read it.
    static func statement(libraryPath: String, folder: String? = nil) -> [String] {
        [
            headline(folder: folder), "",
            "What is stored, all in one library on this device: \(libraryPath)",
        ]
            + kept.flatMap { item in
                Terminal.wrap("- " + item.words, width: 94).enumerated().map {
                    $0.offset == 0 ? $0.element : "  " + $0.element
                }
            }
            + [
                "",
                "Outside the library: the reminders you turn on (the check-in's, the nudge, the evening question)",
                "and the daily backup are systemd user timers in ~/.config/systemd/user (cravey-checkin,",
                "cravey-nudge, cravey-today, cravey-backup); they hold their time and the library's path (the",
                "backup's also its folder), none of your logs. A shortcut you add is kept in your desktop's",
                "settings. A backup, an export or a sync folder is written only where you put it.",
                "",
            ] + network(folder: folder)
            + [
                "",
                "Who can read it: only you, on this computer account. Other people with their own accounts on",
                "this computer cannot open it. An administrator of this computer (anyone who can use sudo or",
                "sign in as root) can read every file on it, yours included. 'cravey check' says if any of the",
                "library's files could be read by others, and 'cravey check --repair' makes them private again.",
            ] + (folder == nil ? [] : [folderReadable])
            + [
                "",
                "Take it with you: cravey export --format csv|json (or Settings → Export data).",
                "Delete everything: cravey purge (or Settings → Delete all data).",
            ]
    }

    /// What leaves this machine: nothing, or with a sync folder chosen, what the person's own
    /// tool carries from it.
    static func network(folder: String?) -> [String] {
        guard let folder else {
            return [
                "Nothing leaves this machine: cravey has no network code — no cloud sync, no analytics, no",
                "accounts. Transcripts are made on this device; import reads local files only.",
            ]
        }
        return [
            "The sync folder you chose (\(Terminal.safe(folder))) holds this machine's changes to what your machines share",
            "(see 'cravey sync --help'); what reaches your other machine is carried by the tool you chose",
            "(Syncthing, a USB stick, a git repository you push), never by cravey: cravey has no network code",
            "— no cloud, no analytics, no accounts. Transcripts are made on this device; import reads local",
            "files only.",
        ]
    }

    /// `lines` with each paragraph (lines between empty ones; a list's item, `- `, starts one of
    /// its own) joined into one line, for a page or a terminal that wraps them to its own width.
    static func paragraphs(_ lines: [String]) -> [String] {
        var joined: [String] = []
        var current: [String]?
        for line in lines {
            if line.isEmpty || line.hasPrefix("- "), let paragraph = current {
                joined.append(paragraph.joined(separator: " "))
                current = nil
            }
            if line.isEmpty {
                joined.append("")
            } else {
                current = (current ?? []) + [line.trimmingCharacters(in: .whitespaces)]
            }
        }
        return joined + (current.map { [$0.joined(separator: " ")] } ?? [])
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
