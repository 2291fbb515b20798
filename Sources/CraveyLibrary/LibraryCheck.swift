import FoundationEssentials

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
    public func check(repair: Bool) throws -> Report {
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
            let own = owned.sorted() + FileStore.ownEntries.filter { $0.value == .file }.map(\.key).sorted()
            for relative in own {
                let full = files.path(relative)
                if let mode = files.mode(full), mode & 0o077 != 0 {
                    loose.append(full)
                    if repair { files.makePrivate(full, mode: 0o600) }
                }
            }
            for path in loose { report.add(.loosePermissions, path) }
            let journal = try journalDifferences()
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
