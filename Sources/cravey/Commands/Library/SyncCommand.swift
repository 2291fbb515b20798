import ArgumentParser
import CraveyLibrary
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey sync`: one history on two machines, through a folder the person chooses.
    struct SyncCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract:
                "Share your logs, plans, goal and recordings with your other machine through a folder you choose (Syncthing, a USB stick, a git repository); nothing goes over a network from cravey.",
            discussion: """
                Once on each machine: 'cravey sync --folder DIR' (the same folder, as your sync tool or stick carries it). \
                Then 'cravey sync' brings in the other machine's changes and writes this one's. \
                Each machine writes only its own files in DIR/cravey/devices/.
                """)

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        @Option(help: ArgumentHelp("Choose the shared folder on this machine (once).", valueName: "dir"))
        var folder: String?

        @Flag(help: "Say the folder, the devices seen and how far each is taken in; change nothing.")
        var status = false

        @Flag(help: "Give this machine its own id in the folder (a library copied from another machine).")
        var newDevice = false

        @Flag(
            help:
                "Sync, then compact this machine's changes in the folder into a snapshot (done by itself as they grow)."
        )
        var compact = false

        func validate() throws {
            guard [folder != nil, status, newDevice, compact].filter({ $0 }).count <= 1 else {
                throw ValidationError("--folder, --status, --new-device and --compact go one at a time")
            }
        }

        func run() throws {
            // A folder that is not there is said before anything is made. Every look at the folder
            // is bounded: one that does not answer is said, and the command ends (`notAnswering`).
            let chosen = try folder.map { folder -> String in
                guard !folder.isEmpty else {
                    throw CraveyFailure(message: "--folder needs a directory; nothing was changed")
                }
                let path = (folder as NSString).expandingTildeInPath
                guard try Self.bounded(.reading, { Library.syncFolderIsDirectory(path) })
                else {
                    throw CraveyFailure(
                        message:
                            "the folder \(Terminal.safe(folder)) cannot be reached or is not a directory; make it first, or plug in the stick it is on; nothing was changed"
                    )
                }
                let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
                return (absolute as NSString).standardizingPath
            }
            // Choosing a folder may start a library (a new machine joining); the rest needs one.
            let lib = try chosen != nil ? library.open() : library.openExisting()
            let report: Library.SyncReport
            do {
                let (status, newDevice, compact) = (status, newDevice, compact)
                report = try Self.bounded(status ? .reading : chosen != nil || newDevice ? .setting : .syncing) {
                    if let chosen { return try lib.syncChoose(folder: chosen) }
                    if status { return try lib.syncStatus() }
                    if newDevice { return try lib.syncNewDevice() }
                    if compact { return try lib.syncCompact() }
                    return try lib.syncNow()
                }
            } catch let notSet as Library.SyncNotSet {
                throw CraveyFailure(message: notSet.description)
            }
            // Recordings taken in from the other machine get their transcripts here, as saved ones
            // do (a file that came after its line, too).
            if report.broughtIn > 0 || report.recordingsTakenIn > 0 {
                Transcribing.afterSave(lib, saved: nil, quiet: output.json)
            }
            if output.json {
                try JSONOutput.print(report)
            } else {
                for line in Self.lines(report, status: status, chosen: folder != nil) { print(Terminal.safe(line)) }
            }
            if !report.reachable {
                throw CraveyFailure(message: Self.unreachable(report, status: status))
            }
            if !report.problems.isEmpty {
                throw CraveyFailure(
                    message: "the sync folder holds what cravey would not merge (named above); the rest was synced")
            }
        }

        /// `body` on a thread of its own, waited for while the folder answers; a folder that has not
        /// answered one call for `SyncFolderWatch.patience` seconds is said in one line, and the
        /// command ends at once (the thread left waiting in the folder goes no further).
        static func bounded<T: Sendable>(_ doing: Doing, _ body: @escaping @Sendable () throws -> T) throws -> T {
            do {
                return try SyncFolderWatch.bounded(body)
            } catch let stuck as SyncFolderWatch.NotAnswering {
                throw CraveyFailure(message: notAnswering(stuck, doing))
            }
        }

        /// What a bounded part of the command does: reads only, syncs, or sets this machine's
        /// folder or device id first (then syncs).
        enum Doing { case reading, syncing, setting }

        /// Said of a folder that stopped answering: which, for how long, and what that left as it was.
        static func notAnswering(_ stuck: SyncFolderWatch.NotAnswering, _ doing: Doing) -> String {
            let waits = "what this machine has still to write waits in the library and goes with the next sync"
            let what =
                switch doing {
                case .reading: "nothing was changed"
                case .setting:
                    "what was done before it stopped is kept whole, and 'cravey sync' goes on from there once it answers; "
                        + waits
                case .syncing where stuck.broughtIn == 0:
                    "nothing was brought in and nothing in your library changed; " + waits
                case .syncing:
                    "the \(Format.count(stuck.broughtIn, "change")) brought in before it stopped \(stuck.broughtIn == 1 ? "is" : "are") kept whole; the rest, and what this machine has still to write, go with the next sync"
                }
            return
                "the sync folder \(Terminal.safe(stuck.folder)) has not answered for \(Int(stuck.seconds)) seconds (a stick going bad, or a network mount that stopped answering?); \(what)"
        }

        /// The report for people: what happened first, then the devices and what is wrong. A
        /// folder whose file system keeps no modes (FAT, exFAT) is said where the folder is chosen
        /// and by the status, not at every sync.
        static func lines(_ report: Library.SyncReport, status: Bool, chosen: Bool = false) -> [String] {
            var lines: [String] = []
            let waiting =
                report.historyToShare
                ? "Everything this machine has waits"
                : "\(Format.count(report.waiting, "change")) of this machine \(report.waiting == 1 ? "waits" : "wait")"
            if !status {
                let synced =
                    "Synced through \(report.folder): \(Format.count(report.broughtIn, "change")) brought in, "
                    + (report.rewritten ? "this machine's changes written again" : "\(report.written) written")
                if report.reachable {
                    lines.append(synced + ".")
                } else if Self.syncedBeforeTheFolderWent(report) {
                    lines.append(
                        synced
                            + "; then the folder could not be reached (a stick pulled out?). \(waiting) here until it is back."
                    )
                } else {
                    lines.append(
                        "Nothing synced: the folder \(report.folder) is not there (a stick not plugged in?). \(waiting) here until it is."
                    )
                }
            } else {
                lines.append("Syncing through \(report.folder)\(report.reachable ? "" : " (not there now)").")
                if !report.reachable {
                    lines.append("\(waiting) here until it is back.")
                }
            }
            if !status, report.recordingsTakenIn > 0 {
                let taken = report.recordingsTakenIn
                lines.append(
                    taken == 1
                        ? "1 recording came with its file and is here now."
                        : "\(taken) recordings came with their files and are here now.")
            }
            if report.rewritten {
                lines.append(Self.rewritten)
            }
            if !report.modesKept, status || chosen {
                lines.append(Self.noModes)
            }
            if let through = report.compacted {
                lines.append(
                    "This machine's changes up to change \(through) are compacted into one snapshot in the folder.")
            }
            for device in report.devices {
                let who = device.thisMachine ? "this machine" : "another machine"
                lines.append("  \(device.device.prefix(8)) (\(who)): \(Format.count(Int(device.changes), "change"))")
            }
            if report.historyToShare, report.reachable {
                lines.append(
                    "Everything this machine has is still to be written to the folder (its first sync did not get that far); 'cravey sync' writes it."
                )
            } else if report.waiting > 0, report.reachable {
                lines.append(
                    "\(Format.count(report.waiting, "change")) of this machine still to be written to the folder.")
            }
            lines += report.problems
            return lines
        }

        /// Whether a sync whose folder could not be reached at its end had brought in or written
        /// something before (a stick pulled out half-way): that is kept, and said.
        static func syncedBeforeTheFolderWent(_ report: Library.SyncReport) -> Bool {
            report.broughtIn > 0 || report.recordingsTakenIn > 0 || report.written > 0 || report.rewritten
        }

        /// The one line a sync or a status ends with when the folder cannot be reached.
        static func unreachable(_ report: Library.SyncReport, status: Bool) -> String {
            guard !status, syncedBeforeTheFolderWent(report) else {
                return "the sync folder cannot be reached; nothing was brought in"
            }
            return
                "the sync folder could not be reached at the end of the sync; what it brought in and wrote before then is kept, and the rest goes with the next sync"
        }

        /// Said by the sync that found this machine's changes in the folder older than its own.
        static let rewritten =
            "This machine's changes in the folder were older than its own (an older copy put back, or a file cut short); they are written again, and nothing is lost."

        /// Said once of a folder on FAT or exFAT (most USB sticks).
        static let noModes =
            "The folder's file system keeps no file modes (FAT or exFAT, as on most USB sticks): its files can be read by anyone who can open that folder, as the library could be."
    }
}
