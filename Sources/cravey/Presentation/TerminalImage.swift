import CraveyMedia
import Foundation
import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

/// Pictures in the terminal: kitty's graphics protocol or sixel where the terminal supports them,
/// else Unicode upper half blocks (▀) with 24-bit colour, two pixels per character cell.
enum TerminalImage {
    enum Method: String { case kitty, sixel, blocks }

    /// The best method this terminal supports; a configured one (`CRAVEY_GRAPHICS`) overrides.
    static func method(_ configuration: Configuration) -> Method {
        if let forced = configuration.graphics.flatMap(Method.init(rawValue:)) { return forced }
        let env = configuration.environment
        let term = env["TERM"] ?? ""
        if env["KITTY_WINDOW_ID"] != nil || term.contains("kitty") || env["TERM_PROGRAM"] == "WezTerm"
            || env["TERM_PROGRAM"] == "ghostty"
        {
            return .kitty
        }
        if term.contains("sixel") || ["mlterm", "foot", "contour"].contains(where: { term.hasPrefix($0) })
            || answersSixel(insideTmux: env["TMUX"] != nil)
        {
            return .sixel
        }
        return .blocks
    }

    /// Asks the terminal for its primary device attributes; "4" among them means sixel.
    /// Only when both ends are a terminal (not tmux's), and never waiting more than 0.1 s.
    static func answersSixel(insideTmux: Bool) -> Bool {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1, !insideTmux
        else { return false }
        let raw = RawMode()
        defer { raw?.release() }
        FileHandle.standardOutput.show(Data("\u{1B}[c".utf8))
        let reply = KeyReader.shared.reply(until: UInt8(ascii: "c"), within: 100)
        let text = String(decoding: reply, as: UTF8.self)
        guard text.hasPrefix("\u{1B}[?") else { return false }
        return text.dropFirst(3).dropLast().split(separator: ";").contains("4")
    }

    /// The picture of `path` (an image, or a video's frame at `seconds`) drawn `columns` wide.
    static func draw(_ path: String, at seconds: Double = 0, columns: Int, method: Method) throws -> String {
        let size = try Picture.size(of: path)
        let aspect = Double(size.height) / Double(max(1, size.width))
        switch method {
        case .blocks:
            let rows = max(1, Int((Double(columns) * aspect / 2).rounded()))
            return halfBlocks(try Picture(path: path, at: seconds, width: columns, height: rows * 2))
        case .kitty:
            let width = min(size.width, 640)
            let picture = try Picture(
                path: path, at: seconds, width: width, height: max(1, Int(Double(width) * aspect)))
            return kitty(picture, columns: columns, rows: max(1, Int((Double(columns) * aspect / 2).rounded())))
        case .sixel:
            let width = min(size.width, columns * 8)
            return sixel(
                try Picture(path: path, at: seconds, width: width, height: max(1, Int(Double(width) * aspect))))
        }
    }

    /// Two pixels per cell: the upper one as the foreground of ▀, the lower one as the background.
    /// Built as bytes (a video redraws this many times a second): "ESC[38;2;R;G;B;48;2;r;g;bm▀".
    static func halfBlocks(_ picture: Picture, lineEnd: String = "\n") -> String {
        var out = [UInt8]()
        out.reserveCapacity(picture.width * picture.height / 2 * 40)
        let end = Array(lineEnd.utf8)
        picture.rgb.withUnsafeBufferPointer { rgb in
            func number(_ v: UInt8) {
                if v >= 100 { out.append(48 + v / 100) }
                if v >= 10 { out.append(48 + v / 10 % 10) }
                out.append(48 + v % 10)
            }
            for y in stride(from: 0, to: picture.height - 1, by: 2) {
                for x in 0..<picture.width {
                    let top = (y * picture.width + x) * 3, bottom = top + picture.width * 3
                    out.append(contentsOf: [0x1B, 0x5B, 0x33, 0x38, 0x3B, 0x32, 0x3B])  // ESC[38;2;
                    number(rgb[top]); out.append(0x3B); number(rgb[top + 1]); out.append(0x3B); number(rgb[top + 2])
                    out.append(contentsOf: [0x3B, 0x34, 0x38, 0x3B, 0x32, 0x3B])  // ;48;2;
                    number(rgb[bottom]); out.append(0x3B); number(rgb[bottom + 1]); out.append(0x3B);
                    number(rgb[bottom + 2])
                    out.append(contentsOf: [0x6D, 0xE2, 0x96, 0x80])  // m▀
                }
                out.append(contentsOf: [0x1B, 0x5B, 0x30, 0x6D])  // ESC[0m
                out.append(contentsOf: end)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// kitty's graphics protocol: raw RGB, base64 in chunks of 4096, placed over `columns`×`rows` cells.
    static func kitty(_ picture: Picture, columns: Int, rows: Int) -> String {
        let payload = Data(picture.rgb).base64EncodedString()
        var out = ""
        var index = payload.startIndex
        var first = true
        while index < payload.endIndex {
            let end = payload.index(index, offsetBy: 4096, limitedBy: payload.endIndex) ?? payload.endIndex
            let more = end < payload.endIndex ? 1 : 0
            let control =
                first ? "a=T,f=24,s=\(picture.width),v=\(picture.height),c=\(columns),r=\(rows),m=\(more)" : "m=\(more)"
            out += "\u{1B}_G\(control);\(payload[index..<end])\u{1B}\\"
            first = false
            index = end
        }
        return out + "\n"
    }

    /// Sixel with a fixed 6×6×6 colour cube: six pixel rows per band, one pass per colour used.
    static func sixel(_ picture: Picture) -> String {
        func level(_ v: UInt8) -> Int { (Int(v) * 5 + 127) / 255 }
        var out = "\u{1B}Pq\"1;1;\(picture.width);\(picture.height)"
        for i in 0..<216 {
            out += "#\(i);2;\((i / 36) * 20);\((i / 6 % 6) * 20);\((i % 6) * 20)"
        }
        var indices = [Int](repeating: 0, count: picture.width * picture.height)
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let p = picture.pixel(x, y)
                indices[y * picture.width + x] = level(p.r) * 36 + level(p.g) * 6 + level(p.b)
            }
        }
        for band in stride(from: 0, to: picture.height, by: 6) {
            let rows = band..<min(band + 6, picture.height)
            var used = Set<Int>()
            for y in rows { for x in 0..<picture.width { used.insert(indices[y * picture.width + x]) } }
            for colour in used.sorted() {
                out += "#\(colour)"
                for x in 0..<picture.width {
                    var bits = 0
                    for y in rows where indices[y * picture.width + x] == colour { bits |= 1 << (y - band) }
                    out += String(UnicodeScalar(UInt8(63 + bits)))
                }
                out += "$"
            }
            out += "-"
        }
        return out + "\u{1B}\\\n"
    }
}
