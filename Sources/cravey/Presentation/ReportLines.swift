import Foundation
import TerminalKit
import CraveyLibrary

/// How a recovery or check report reads: one line per finding, in the order of the kinds.
extension Library.Report {
    /// The findings, one line each (but those of the kinds `leavingOut`); a problem
    /// `repairCommand` would repair names it.
    func lines(repairCommand: String?, leavingOut: Set<Kind> = []) -> [String] {
        var out: [String] = []
        if let rebuiltDatabase {
            out.append(rebuildLine(rebuiltDatabase))
        }
        for kind in Kind.allCases where !leavingOut.contains(kind) {
            if rebuiltDatabase != nil
                && [.fileWithoutRow, .relisted, .relistedFromTags, .refreshed, .forgotten, .replayedLogs, .setAside]
                    .contains(kind)
            {
                continue
            }  // said above
            out += lines(of: kind, repairCommand: repairCommand)
        }
        return out
    }

    /// The findings of one kind, one line each.
    func lines(of kind: Kind, repairCommand: String?) -> [String] {
        let fix = repaired ? "" : repairCommand.map { " (run '\($0)')" } ?? ""
        let label = Self.label(kind, repaired: repaired, fix: fix, repairCommand: repairCommand)
        return subjects(kind).map { $0.isEmpty ? label : "\(label): \($0)" }
    }

    /// The rebuild in one line: from what, and what came back from the files.
    private func rebuildLine(_ why: String) -> String {
        let tagged = subjects(.relistedFromTags).count, bare = subjects(.relisted).count
        var parts: [String] = []
        if restoredSnapshot != nil {
            let refreshed = subjects(.refreshed).count, forgotten = subjects(.forgotten).count
            if refreshed > 0 { parts.append("\(refreshed) brought up to date from their files") }
            if forgotten > 0 { parts.append("\(forgotten) deleted since") }
        }
        if tagged > 0 { parts.append("\(tagged) listed again with their own details") }
        if bare > 0 { parts.append("\(bare) listed again as 'Recovered recording <date>'") }
        let replayed = subjects(.replayedLogs).first
        if let replayed { parts.append("\(replayed) logs and settings from the journal") }
        // What could not come back is said on lines of its own, after this one.
        let lost =
            !subjects(.notBroughtBack).isEmpty
            ? "not everything could be brought back: see below"
            : restoredSnapshot != nil
                ? "only play counts changed since the snapshot were lost" : "play counts were lost"
        if let aside = subjects(.setAside).first { parts.append(aside) }
        let sources = restoredSnapshot.map { ["the snapshot of \($0.day) \(Self.clockTime($0.takenAt))"] } ?? []
        let source =
            (sources + (replayed != nil ? ["the journal of logs"] : [])).joined(separator: ", ")
            + (sources.isEmpty && replayed == nil ? "" : " and ") + "the recordings' files"
        return "\(why); rebuilt it from \(source) (" + (parts + [lost]).joined(separator: "; ") + ")"
    }

    private static func clockTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: date)
    }

    private static func label(_ kind: Kind, repaired: Bool, fix: String, repairCommand: String?) -> String {
        switch kind {
        case .recoveredRecording: "recovered an interrupted recording"
        case .unrecoverable: "could not recover an interrupted recording (kept; will try again)"
        case .removedTemporaryFile: "removed a leftover temporary file"
        case .undoneSave: "removed the file of a save that did not finish"
        case .finishedDelete: "finished an interrupted delete"
        case .undoneReplace: "undid an interrupted trim (the recording is as it was)"
        case .undoneDelete: "undid an interrupted delete"
        case .undonePurge: "undid an interrupted purge (nothing was deleted)"
        case .finishedPurge: "finished an interrupted purge"
        case .deferred: "could not finish now (will try again)"
        case .invalidRow: repaired ? "removed an invalid row (its file, if any, is listed again)" : "invalid row\(fix)"
        case .rowWithoutFile: repaired ? "removed a row whose file was missing" : "row whose file is missing\(fix)"
        case .fileWithoutRow: repaired ? "found a recording no row listed" : "recording no row lists\(fix)"
        case .relisted: "listed again"
        case .relistedFromTags: "listed again with its own details"
        case .refreshed: "brought up to date from its file"
        case .forgotten: "forgot a recording deleted since the snapshot"
        case .quarantined: "moved to Quarantine/ (looks like cravey's but cannot be played)"
        case .rowOutsideLibrary:
            repaired ? "removed a row pointing outside the library" : "row pointing outside the library\(fix)"
        case .journal:
            repaired
                ? "wrote the journal of logs again from the database"
                : "the journal of logs differs from the database\(fix)"
        case .replayedLogs: "brought back from the journal of logs (cravings, uses and settings)"
        case .setAside: "set aside, kept as they were"
        case .notBroughtBack:
            repaired
                ? "noted as known (what the database took with it cannot be brought back)"
                : "after the database was lost"
        case .invalidSetting:
            repaired ? "kept only what keeps the rules typed input meets" : "breaks the rules typed input meets\(fix)"
        case .danglingLink:
            repaired ? "cleared a link to something deleted" : "link to something deleted\(fix)"
        case .answerOnUseDay:
            repaired
                ? "withdrew a day's answer, as the use logged on that day does"
                : "a day's answer still stands on a day with a use logged\(fix)"
        case .beforeTracking: "kept, though dated before tracking began"
        case .notMedia:
            repaired
                ? "moved to Quarantine/ and removed its row (its file is not media cravey can play)"
                : "file is not media cravey can play\(fix)"
        case .missingThumbnail: repaired ? "forgot a missing thumbnail" : "thumbnail missing\(fix)"
        case .loosePermissions: repaired ? "made private" : "could be read by other accounts on this computer\(fix)"
        case .searchIndex: repaired ? "rebuilt the search index" : "search index\(fix)"
        case .foreignFile: "not made by cravey, left alone"
        case .unmeasured:
            "loudness not measured yet (measured when played" + (repairCommand.map { ", or by '\($0)')" } ?? ")")
        case .measured: "measured loudness"
        }
    }
}
