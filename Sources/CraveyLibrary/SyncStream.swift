import Foundation

/// One other device's changes as a merge reads them, a line ahead: its snapshot first when this
/// machine was away past it, then its segment, a block at a time. The merge takes the earliest
/// head of all devices, so the lines of all come in the order of their stamps (each device stamps
/// its own in order), whatever the chunks. A snapshot's lines of one log (one a stamp) are taken
/// together, so a log is put whole from them.
///
/// How far the device is taken in (`mark`) moves only with the lines taken (`pop`) and those
/// refused or held as they are read, so what a chunk notes is what it applied. A line refused
/// moves only the bytes read, never the counter: what it says of itself is not believed, so a
/// corrupt or tampered counter neither stops the lines after it nor is shown as taken in. A line
/// stamped more than a week ahead of this machine's clock is held (noted with the refusals, kept
/// whole) and taken in once this machine's clock comes near it. A counter that goes back stops
/// the device there (two machines writing as one: named by `check`, never merged).
///
/// What a chunk holds stays bounded whatever the file holds: the stream pauses after
/// `Library.mergeChunk` lines passed over (refused, held or taken before), so their notes and the
/// mark are kept before it reads on (`resume`); of the lines refused, the first
/// `refusalsNamed` of a device are named each, the rest counted in one note.
final class SyncStream {
    /// How many lines refused of one device are named each; the rest are counted in one note.
    static let refusalsNamed = 20

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
    /// Read up to a pause: nothing more until `resume`.
    private(set) var paused = false
    /// The lines refused of this device that are named (noted before, and in this read).
    private var named: Int
    /// The lines refused of this device counted, not named (noted before, and in this read), and
    /// the count last handed out in the notes.
    private var more: Int
    private var moreNoted: Int
    private let folder: SyncFolder
    private let wall: Int64
    private let decoder: JSONDecoder

    var moved: Bool { mark != notedMark }
    /// Whether the device compacted since it was last read: what was refused of its older files
    /// is not in the folder any more.
    let compactedSince: Bool

    /// Nil when there is nothing to read: nothing new, a device whose files went back (named by
    /// `check`), or one compacted past this machine's mark whose snapshot is not here whole yet.
    /// `refused` is what the database notes of this device's refused lines: how many are named,
    /// and how many counted past them.
    init?(
        device: String, folder: SyncFolder, size: off_t, base: Int64, hasSnapshot: Bool, seen: Mark, wall: Int64,
        decoder: JSONDecoder, refused: (named: Int, more: Int) = (0, 0)
    ) throws {
        self.device = device
        named = refused.named
        more = refused.more
        moreNoted = refused.more
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
        guard more != moreNoted else { return notes }
        moreNoted = more
        return notes + [(Self.moreKey(device), Self.moreWords(more, device: device))]
    }

    /// Reads on after a pause, once what was read before it is noted.
    func resume() throws {
        guard paused else { return }
        paused = false
        try advance()
    }

    /// The note that counts the lines of `device` refused past those named.
    static func moreKey(_ device: String) -> String { "refused \(device) ~more" }

    static func moreWords(_ count: Int, device: String) -> String {
        count == 1
            ? "and 1 more line of device \(device) was refused (not a change cravey reads, or one it would not apply); it was not applied"
            : "and \(count) more lines of device \(device) were refused (not changes cravey reads, or ones it would not apply); none of them was applied"
    }

    /// The count `moreWords` gives (0: none).
    static func moreCount(_ words: String) -> Int {
        Int(words.dropFirst("and ".count).prefix { $0.isNumber }) ?? 0
    }

    /// A line refused: named while fewer than `refusalsNamed` of this device are, else counted.
    private func refuse(_ key: String, _ words: String) {
        if named < Self.refusalsNamed {
            named += 1
            notes.append((key, words))
        } else {
            more += 1
        }
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
        var passed = 0
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
                    guard let data = item.line, let line = Self.decode(data, decoder) else {
                        refuse(
                            "refused " + key,
                            "line \(snapshotLine) of device \(device)'s snapshot is not a change cravey reads; it was not applied"
                        )
                        continue
                    }
                    if let problem = Library.lineProblem(line, device: device) {
                        refuse("refused " + key, "a change in device \(device)'s snapshot was not applied: \(problem)")
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
            if passed >= Library.mergeChunk {
                paused = true  // what was passed over is noted first
                return
            }
            guard let reader = segment, let item = try reader.next() else { return }
            let end = item.end
            guard let data = item.line, let line = Self.decode(data, decoder) else {
                refuse(
                    "refused \(device) @\(end)",
                    "a line of device \(device)'s changes (ending at byte \(end)) is not a change cravey reads; it was not applied"
                )
                mark.bytes = end
                passed += 1
                continue
            }
            if skipThrough > 0, line.counter <= skipThrough {
                mark.bytes = end
                passed += 1
                continue
            }
            if let problem = Library.lineProblem(line, device: device) {
                // Its counter is not believed: the counter taken in stays where it was, and the
                // note is the line's own (where it ends), so two such lines naming one counter
                // are two notes, and neither is a note of a line that counter names rightly.
                refuse(
                    "refused \(device) \(line.counter) @\(end)",
                    "change \(line.counter) of device \(device) was not applied: \(problem)")
                mark.bytes = end
                passed += 1
                continue
            }
            guard line.counter > last else {
                stopped = true  // goes back: named, never merged
                return
            }
            last = line.counter
            let key = "\(device) \(line.counter)"
            if Library.isAhead(line, wall: wall) {
                hold(line, data, key: key)
                mark.counter = line.counter
                mark.bytes = end
                passed += 1
                continue
            }
            head = ([line], data, key, end)
            return
        }
    }
}

extension SyncStream {
    /// A line as `decoder` reads it. One in exactly the form cravey writes (the encoder's keys in
    /// its order, no spaces, no escapes in strings, whole numbers and plain decimals) is read
    /// straight from its bytes, ten years of lines without a decoder call each; anything else, a
    /// hostile line among them, goes through the decoder as it always did.
    static func decode(_ data: Data, _ decoder: JSONDecoder) -> Library.SyncLine? {
        let straight = data.withUnsafeBytes { raw in
            var reader = StraightLine(bytes: raw.bindMemory(to: UInt8.self))
            return reader.line()
        }
        return straight ?? (try? decoder.decode(Library.SyncLine.self, from: data))
    }
}

/// A change line read from its bytes in the one form `keepOutgoing` writes, or nil.
private struct StraightLine {
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func line() -> Library.SyncLine? {
        guard take("{\"clock\":["), case .integer(let milliseconds)? = number(), take(","),
            case .integer(let tick)? = number(), take("],\"counter\":"), case .integer(let counter)? = number(),
            take(",\"device\":"), let device = string(), take(",\"id\":"), let id = string(), take(",\"kind\":"),
            let kind = string()
        else { return nil }
        var row: [String: Library.JournalValue]?
        if take(",\"row\":") {
            guard let fields = object() else { return nil }
            row = fields
        }
        guard take("}"), i == bytes.count else { return nil }
        return Library.SyncLine(
            kind: kind, id: id, row: row, counter: counter, clock: [milliseconds, tick], device: device)
    }

    private mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - i >= count, let base = bytes.baseAddress,
            memcmp(base + i, literal.utf8Start, count) == 0
        else { return false }
        i += count
        return true
    }

    private func isDigit(_ at: Int) -> Bool {
        at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9")
    }

    /// A string without escapes or control characters, valid UTF-8.
    private mutating func string() -> String? {
        guard take("\"") else { return nil }
        let start = i
        while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
            guard bytes[i] >= 0x20, bytes[i] != UInt8(ascii: "\\") else { return nil }
            i += 1
        }
        guard i < bytes.count else { return nil }
        let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        i += 1
        return text
    }

    /// A whole number (no leading zero, no minus zero, at most 18 digits) as an integer, or a
    /// plain decimal whose fraction is not all zeros as a real: what the decoder makes of them.
    private mutating func number() -> Library.JournalValue? {
        let start = i
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        let digits = i
        while isDigit(i) { i += 1 }
        let whole = i - digits
        guard (1...18).contains(whole), whole == 1 || bytes[digits] != UInt8(ascii: "0") else { return nil }
        var fraction: Range<Int>?
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let first = i
            while isDigit(i) { i += 1 }
            guard (1...17).contains(i - first) else { return nil }
            fraction = first..<i
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") { return nil }
        guard let fraction else {
            guard whole > 1 || bytes[digits] != UInt8(ascii: "0") || digits == start else { return nil }  // -0
            var value: Int64 = 0
            for byte in bytes[digits..<i] { value = value * 10 + Int64(byte - UInt8(ascii: "0")) }
            return .integer(digits == start ? value : -value)
        }
        guard bytes[fraction].contains(where: { $0 != UInt8(ascii: "0") }),
            let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
        else { return nil }
        return .real(value)
    }

    /// A row's fields: each name once, each value null, a number or a string.
    private mutating func object() -> [String: Library.JournalValue]? {
        guard take("{") else { return nil }
        var fields: [String: Library.JournalValue] = [:]
        if take("}") { return fields }
        repeat {
            guard let name = string(), take(":") else { return nil }
            let value: Library.JournalValue?
            switch i < bytes.count ? bytes[i] : 0 {
            case UInt8(ascii: "\""): value = string().map { .text($0) }
            case UInt8(ascii: "n"): value = take("null") ? .null : nil
            default: value = number()
            }
            guard let value, fields.updateValue(value, forKey: name) == nil else { return nil }
        } while take(",")
        return take("}") ? fields : nil
    }
}
