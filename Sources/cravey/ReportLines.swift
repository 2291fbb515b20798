import CraveyLibrary

/// How a recovery or check report reads: one line per finding, in the order of the kinds.
extension Library.Report {
    /// The findings, one line each; a problem `repairCommand` would repair names it.
    func lines(repairCommand: String?) -> [String] {
        var out: [String] = []
        if let rebuiltDatabase {
            out.append("\(rebuiltDatabase); rebuilt it from the recordings' files (\(subjects(.relisted).count) listed again as 'Recovered recording <date>': titles, notes and play counts were lost)")
        }
        let fix = repaired ? "" : repairCommand.map { " (run '\($0)')" } ?? ""
        for kind in Kind.allCases {
            if rebuiltDatabase != nil && (kind == .fileWithoutRow || kind == .relisted) { continue }  // said above
            for subject in subjects(kind) {
                let label = Self.label(kind, repaired: repaired, fix: fix, repairCommand: repairCommand)
                out.append(subject.isEmpty ? label : "\(label): \(subject)")
            }
        }
        return out
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
        case .quarantined: "moved to Quarantine/ (looks like cravey's but cannot be played)"
        case .rowOutsideLibrary: repaired ? "removed a row pointing outside the library" : "row pointing outside the library\(fix)"
        case .missingThumbnail: repaired ? "forgot a missing thumbnail" : "thumbnail missing\(fix)"
        case .loosePermissions: repaired ? "made private" : "not private (should be 0700/0600)\(fix)"
        case .searchIndex: repaired ? "rebuilt the search index" : "search index\(fix)"
        case .foreignFile: "not made by cravey, left alone"
        case .unmeasured: "loudness not measured yet (measured when played" + (repairCommand.map { ", or by '\($0)')" } ?? ")")
        case .measured: "measured loudness"
        }
    }
}
