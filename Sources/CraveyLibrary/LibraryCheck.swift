import FoundationEssentials
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// `check`: finding and repairing damage done from outside the library's own operations.
extension Library {
    /// Checks the whole library: everything `recoverInterrupted` does, plus invalid rows, rows
    /// whose file is missing or is not media, recordings no row lists, missing thumbnails, loose permissions and a
    /// search index out of step with the rows.
    /// With `repair`, fixes them: rows are removed or rebuilt, files are listed again or moved to
    /// `Quarantine/`; no file is ever deleted, and files cravey did not make are left alone.
    /// `now` is the person's moment: a milestone reached on a later day is not true yet.
    public func check(repair: Bool, now: Date) throws -> Report {
        try translatingDatabaseErrors {
            let lock = try lockLibrary()
            defer { lock.release() }
            var report = recoverLocked()
            report.repaired = repair
            var owned = Set<String>()
            var badRows: [Int64] = []
            for raw in try store.rawRows() {
                if let problem = Validation.problem(inRow: raw.values) {
                    report.add(.invalidRow, "\(raw.label): \(problem)")
                    badRows.append(raw.rowID)
                    continue
                }
                let row = raw.recording
                guard let full = try? files.file(of: row) else {
                    report.add(.rowOutsideLibrary, "\(row.id) → \(row.filePath)")
                    badRows.append(raw.rowID)
                    continue
                }
                guard files.isRegularFile(full) else {
                    report.add(.rowWithoutFile, "\(row.id) → \(row.filePath)")
                    badRows.append(raw.rowID)
                    continue
                }
                // A file that is not media (nothing playable in it) is no recording, whatever its
                // row says. Only a file that does not even start like one is opened as media, so
                // a check of a sound library loads no media library.
                if !files.startsLikeMedia(full), let inspect = media?.inspect, case .some(.none) = try? inspect(full) {
                    report.add(.notMedia, "\(row.id) → \(row.filePath)")
                    if repair {
                        try quarantine(row.filePath, into: &report)
                        badRows.append(raw.rowID)
                    }
                    continue
                }
                owned.insert(row.filePath)
                if !row.media.isMeasured {
                    if repair, let measured = measured(row, file: full) {
                        try store.setLoudness(measured)
                        report.add(.measured, "\(row.id)")
                    } else {
                        report.add(.unmeasured, "\(row.id)")
                    }
                }
                if let thumb = row.thumbnailPath {
                    if let thumbFull = (try? files.thumbnail(of: row)) ?? nil, files.isRegularFile(thumbFull) {
                        owned.insert(thumb)
                    } else {
                        report.add(.missingThumbnail, "\(row.id) → \(thumb)")
                        if repair { try store.clearThumbnail(id: row.id.uuidString) }
                    }
                }
            }
            if repair { try store.deleteRows(rowIDs: badRows) }
            var strayThumbnails: [String] = []
            for dir in [FileStore.recordingsDir, FileStore.thumbnailsDir] {
                for name in files.entries(files.path(dir)) {
                    let relative = dir + "/" + name
                    if relative == FileStore.thumbnailsDir || owned.contains(relative) { continue }
                    if let owner = Recording.owner(ofFileName: name), files.isRegularFile(files.path(relative)),
                        owner.isThumbnail == (dir == FileStore.thumbnailsDir)
                    {
                        if owner.isThumbnail {
                            strayThumbnails.append(relative)
                        } else {
                            report.add(.fileWithoutRow, relative)
                        }
                    } else {
                        report.add(.foreignFile, relative)
                    }
                }
            }
            if repair {
                try relistOrphans(into: &report)
                let nowOwned = Set(try store.allPaths().compactMap(\.thumbnail))
                for thumb in strayThumbnails where !nowOwned.contains(thumb) {
                    // A thumbnail whose video is listed again is its thumbnail; otherwise set aside.
                    try quarantine(thumb, into: &report)
                }
            } else {
                for thumb in strayThumbnails { report.add(.fileWithoutRow, thumb) }
            }
            var loose: [String] = []
            let ownDirectories = FileStore.ownEntries.filter { $0.value == .directory }.map(\.key).sorted()
            for dir in [""] + ownDirectories + [FileStore.thumbnailsDir] {
                let full = dir.isEmpty ? root : files.path(dir)
                if let mode = files.mode(full), mode & 0o077 != 0 {
                    loose.append(full)
                    if repair { files.makePrivate(full, mode: 0o700) }
                }
            }
            let snapshotFiles = snapshots().map { FileStore.snapshotsDir + "/" + $0.path.split(separator: "/").last! }
            let own =
                owned.sorted() + FileStore.ownEntries.filter { $0.value == .file }.map(\.key).sorted() + snapshotFiles
            for relative in own {
                let full = files.path(relative)
                if let mode = files.mode(full), mode & 0o077 != 0 {
                    loose.append(full)
                    if repair { files.makePrivate(full, mode: 0o600) }
                }
            }
            for path in loose { report.add(.loosePermissions, path) }
            try checkSettingsAndMilestones(repair: repair, today: LocalDay(now, in: .current).text, into: &report)
            let journal: [String]
            do {
                journal = try journalDifferences()
            } catch {
                journal = []
                report.add(.notBroughtBack, journalTrouble(error, "read or written"))
            }
            let aside = setAsideCount()
            if aside > 0 {
                report.add(
                    .setAside,
                    "\(aside) line\(aside == 1 ? "" : "s") of the journal of logs that could not be brought back, in \(files.path(FileStore.setAsideFile))"
                )
            }
            for note in notesOfWhatCannotComeBack() { report.add(.notBroughtBack, note) }
            if repair { _ = unlink(files.path(FileStore.lostNoteFile)) }
            if !journal.isEmpty {
                report.add(
                    .journal,
                    "\(journal.count) log\(journal.count == 1 ? "" : "s") or settings (\(journal.prefix(3).joined(separator: ", "))\(journal.count > 3 ? ", …" : ""))"
                )
                if repair { try rebuildJournal() }
            }
            let index = try store.searchIndexProblems()
            for problem in index { report.add(.searchIndex, problem) }
            if repair && !index.isEmpty { try store.rebuildSearchIndex() }
            if repair { try files.sync(files.path(FileStore.recordingsDir), site: "check.fsync.dir") }
            return report
        }
    }
}

extension Library {
    /// Holds every setting and milestone to the rules typed input meets (`Validation.setting`,
    /// `Validation.milestoneProblem`); with `repair`, a setting keeps what is valid of it (a
    /// prices setting its other prices) or is removed, and a milestone that breaks them is removed.
    func checkSettingsAndMilestones(repair: Bool, today: String, into report: inout Report) throws {
        guard repair else {  // a check alone only reads (a read-only library can be checked)
            return try store.writer.read { db in
                try Self.checkSettingsAndMilestones(db, today: today, repair: false, into: &report)
            }
        }
        try store.writer.write { db in
            try Self.checkSettingsAndMilestones(db, today: today, repair: true, into: &report)
        }
        flushJournalAfterCommit()
    }

    /// The same, in any cravey database (a backup's, before it is restored).
    static func checkSettingsAndMilestones(_ db: Database, today: String, repair: Bool, into report: inout Report)
        throws
    {
        try checkDayMarks(db, today: today, repair: repair, into: &report)
        try checkWithdrawalChecks(db, today: today, repair: repair, into: &report)
        try checkSelfScreens(db, today: today, repair: repair, into: &report)
        try checkDaysAgainstLogs(db, repair: repair, into: &report)
        try checkLimits(db, repair: repair, into: &report)
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM setting") {
            guard let key = String.fromDatabaseValue(row[0]) else { continue }
            let value = String.fromDatabaseValue(row[1]) ?? ""
            let checked = Validation.setting(key, value)
            guard !checked.problems.isEmpty else { continue }
            for problem in checked.problems { report.add(.invalidSetting, problem) }
            guard repair else { continue }
            if let kept = checked.kept {
                try db.execute(sql: "UPDATE setting SET value = ? WHERE key = ?", arguments: [kept, key])
            } else {
                try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
            }
        }
        guard try db.tableExists("milestone") else { return }
        for row in try Row.fetchAll(db, sql: "SELECT id, kind, count, reachedOn, shownAt FROM milestone") {
            func text(_ column: Int) -> String? { String.fromDatabaseValue(row[column]) }
            let id = text(0)
            let count: Int64? = if case .int64(let n) = (row[2] as DatabaseValue).storage { n } else { nil }
            if let problem = Validation.milestoneProblem(
                id: id, kind: text(1), count: count, reachedOn: text(3), shownAt: text(4), today: today)
            {
                report.add(.invalidSetting, problem)
                if repair { try db.execute(sql: "DELETE FROM milestone WHERE id IS ?", arguments: [id]) }
            }
        }
        try checkPlans(db, repair: repair, into: &report)
    }
}
