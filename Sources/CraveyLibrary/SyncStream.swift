import Foundation

/// One other device's changes as a merge reads them, a line ahead: its snapshot first when this
/// machine was away past it, then its segment, a block at a time. The merge takes the earliest
/// head of all devices, so the lines of all come in the order of their stamps (each device stamps
/// its own in order), whatever the chunks. A snapshot's lines of one log (one a stamp) are taken
/// together, so a log is put whole from them.
///
/// How far the device is taken in (`mark`) moves only with the lines taken (`pop`) and those
/// refused or held as they are read, so what a chunk notes is what it applied. A line stamped
/// more than a week ahead of this machine's clock is held (noted with the refusals, kept whole)
/// and taken in once this machine's clock comes near it. A counter that goes back stops the
/// device there (two machines writing as one: named by `check`, never merged).
final class SyncStream {
    /// How far a device is taken in: the last counter, the bytes of the segment read, and the
    /// counter that segment starts after.
    struct Mark: Equatable {
        var counter: Int64
        var bytes: off_t
        var base: Int64
    }

    /// A line taken from the device (a snapshot's lines of one log), with its bytes as read and
    /// its name in the notes.
    struct Taken {
        let lines: [Library.SyncLine]
        let raw: Data
        let key: String
    }

    let device: String
    private(set) var mark: Mark
    /// The mark as noted in the database.
    private(set) var notedMark: Mark
    private(set) var head: (lines: [Library.SyncLine], raw: Data, key: String, end: off_t)?
    /// What to note of the lines read: refusals, and the lines held until their time comes.
    private var notes: [(key: String, words: String)] = []
    private var snapshot: LineReader?
    private var snapshotLine = 1
    private var snapshotEnded = false
    /// A snapshot's line of the next log, read past the lines of the one before.
    private var carried: (line: Library.SyncLine, raw: Data, number: Int)?
    private var segment: LineReader?
    private let base: Int64
    private let size: off_t
    /// Lines of a new segment already taken before the device compacted: passed over.
    private var skipThrough: Int64 = 0
    private var last: Int64
    private var stopped = false
    private let folder: SyncFolder
    private let wall: Int64
    private let decoder: JSONDecoder

    var moved: Bool { mark != notedMark }
    /// Whether the device compacted since it was last read: what was refused of its older files
    /// is not in the folder any more.
    let compactedSince: Bool

    /// Nil when there is nothing to read: nothing new, a device whose files went back (named by
    /// `check`), or one compacted past this machine's mark whose snapshot is not here whole yet.
    init?(
        device: String, folder: SyncFolder, size: off_t, base: Int64, hasSnapshot: Bool, seen: Mark, wall: Int64,
        decoder: JSONDecoder
    ) throws {
        self.device = device
        self.folder = folder
        self.size = size
        self.base = base
        self.wall = wall
        self.decoder = decoder
        mark = seen
        notedMark = seen
        last = seen.counter
        compactedSince = base > seen.base
        if base < seen.base {
            return nil
        } else if base == seen.base {
            guard size > seen.bytes else { return nil }
            segment = try folder.lines(device: device, base: base, from: seen.bytes)
        } else if seen.counter >= base {
            // Compacted, and this machine has all the snapshot holds: only the new segment.
            mark = Mark(counter: seen.counter, bytes: 0, base: base)
            skipThrough = seen.counter
            segment = size > 0 ? try folder.lines(device: device, base: base, from: 0) : nil
        } else {
            guard hasSnapshot, let whole = try? folder.snapshot(device: device, through: base) else { return nil }
            snapshot = whole
        }
        try advance()
        if head == nil && notes.isEmpty && !moved { return nil }
    }

    /// The head, taken; the next line read.
    func pop() throws -> Taken {
        let taken = head!
        if snapshot == nil {
            mark.counter = taken.lines[0].counter
            mark.bytes = taken.end
        }
        try advance()
        return Taken(lines: taken.lines, raw: taken.raw, key: taken.key)
    }

    /// The lines refused or held since last asked: a note key and its words each.
    func takeNotes() -> [(key: String, words: String)] {
        defer { notes = [] }
        return notes
    }

    /// Holds a line stamped more than a week ahead: kept whole, with its stamp's milliseconds.
    private func hold(_ line: Library.SyncLine, _ data: Data, key: String) {
        notes.append(("held " + key, String(decoding: data, as: UTF8.self)))
        notes.append(("ahead " + key, String(line.clock[0])))
    }

    /// The mark is noted in the database.
    func noted() { notedMark = mark }

    private func advance() throws {
        head = nil
        while !stopped {
            if let reader = snapshot {
                if snapshotEnded, carried == nil {
                    // The snapshot is in: the segment after it, from its start.
                    snapshot = nil
                    mark = Mark(counter: max(mark.counter, base), bytes: 0, base: base)
                    last = max(last, base)
                    segment = size > 0 ? try folder.lines(device: device, base: base, from: 0) : nil
                    continue
                }
                var lines: [Library.SyncLine] = [], raws: [Data] = [], first = snapshotLine + 1
                if let carried {
                    lines = [carried.line]
                    raws = [carried.raw]
                    first = carried.number
                    self.carried = nil
                }
                while !snapshotEnded {
                    guard let item = try reader.next() else {
                        snapshotEnded = true
                        break
                    }
                    snapshotLine += 1
                    let key = "\(device) \(SyncFolder.snapshotName(base)) \(snapshotLine)"
                    guard let data = item.line, let line = try? decoder.decode(Library.SyncLine.self, from: data)
                    else {
                        notes.append(
                            (
                                "refused " + key,
                                "line \(snapshotLine) of device \(device)'s snapshot is not a change cravey reads; it was not applied"
                            ))
                        continue
                    }
                    if let problem = Library.lineProblem(line, device: device) {
                        notes.append(
                            ("refused " + key, "a change in device \(device)'s snapshot was not applied: \(problem)"))
                        continue
                    }
                    if Library.isAhead(line, wall: wall) {
                        hold(line, data, key: key)
                        continue
                    }
                    if let head = lines.first, head.kind != line.kind || head.id != line.id {
                        carried = (line, data, snapshotLine)
                        break
                    }
                    if lines.isEmpty { first = snapshotLine }
                    lines.append(line)
                    raws.append(data)
                }
                guard !lines.isEmpty else { continue }
                head = (
                    lines, Data(raws.joined(separator: [0x0A])), "\(device) \(SyncFolder.snapshotName(base)) \(first)",
                    mark.bytes
                )
                return
            }
            guard let reader = segment, let item = try reader.next() else { return }
            let end = item.end
            guard let data = item.line, let line = try? decoder.decode(Library.SyncLine.self, from: data) else {
                notes.append(
                    (
                        "refused \(device) @\(end)",
                        "a line of device \(device)'s changes (ending at byte \(end)) is not a change cravey reads; it was not applied"
                    ))
                mark.bytes = end
                continue
            }
            if skipThrough > 0, line.counter <= skipThrough {
                mark.bytes = end
                continue
            }
            guard line.counter > last else {
                stopped = true  // goes back: named, never merged
                return
            }
            last = line.counter
            let key = "\(device) \(line.counter)"
            if let problem = Library.lineProblem(line, device: device) {
                notes.append(
                    ("refused " + key, "change \(line.counter) of device \(device) was not applied: \(problem)"))
                mark.counter = line.counter
                mark.bytes = end
                continue
            }
            if Library.isAhead(line, wall: wall) {
                hold(line, data, key: key)
                mark.counter = line.counter
                mark.bytes = end
                continue
            }
            head = ([line], data, key, end)
            return
        }
    }
}
