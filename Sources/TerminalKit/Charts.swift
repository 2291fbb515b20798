/// Charts as terminal text: horizontal bars and columns in eighth blocks, a line in braille dots.
/// Every chart is plain characters (readable without colour); colour is added by the caller.
package enum Charts {
    private static let eighthsAcross: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"]
    private static let eighthsUp: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// A bar `fraction` (0…1) of `width` columns long, to the eighth of a column; the rest of the
    /// width is a faint track (`·`), so bars side by side compare at a glance.
    package static func bar(_ fraction: Double, width: Int) -> (filled: String, track: String) {
        let eighths = Int((max(0, min(1, fraction)) * Double(width * 8)).rounded())
        var filled = String(repeating: "█", count: eighths / 8)
        if eighths % 8 > 0 { filled.append(eighthsAcross[eighths % 8 - 1]) }
        if fraction > 0 && filled.isEmpty { filled = "▏" }
        return (filled, String(repeating: "·", count: max(0, width - filled.count)))
    }

    /// Columns rising from the bottom, one per value, each `columnWidth` wide, `height` rows
    /// high, scaled to the largest value (a value above zero shows at least its lowest eighth).
    package static func columns(_ values: [Double], height: Int, columnWidth: Int = 1) -> [String] {
        let top = values.max() ?? 0
        return (0..<height).reversed().map { row in
            var line = ""
            for value in values {
                let eighths = top > 0 ? max(value > 0 ? 1 : 0, Int((value / top * Double(height * 8)).rounded())) : 0
                let cell = eighths - row * 8
                let character: Character = cell >= 8 ? "█" : cell > 0 ? eighthsUp[cell - 1] : " "
                line += String(repeating: character, count: columnWidth)
            }
            return line
        }
    }

    /// One row of eighth-block heights for `values` (nil: nothing there), scaled to their largest.
    package static func sparkline(_ values: [Double?]) -> String {
        let top = values.compactMap { $0 }.max() ?? 0
        return String(
            values.map { value -> Character in
                guard let value, value > 0, top > 0 else { return value == nil ? " " : "▁" }
                return eighthsUp[max(0, min(7, Int((value / top * 8).rounded(.up)) - 1))]
            })
    }

    /// A line through `points` (x and y from 0 to 1) drawn in braille dots, `width` columns by
    /// `height` rows (each cell holds 2×4 dots); consecutive points are joined.
    package static func line(_ points: [(x: Double, y: Double)], width: Int, height: Int) -> [String] {
        let dotsWide = width * 2
        let dotsHigh = height * 4
        var cells = [[UInt8]](repeating: [UInt8](repeating: 0, count: width), count: height)
        func plot(_ x: Int, _ y: Int) {
            guard x >= 0, x < dotsWide, y >= 0, y < dotsHigh else { return }
            let row = (dotsHigh - 1 - y) / 4
            let dotRow = (dotsHigh - 1 - y) % 4
            let bits: [[UInt8]] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]
            cells[row][x / 2] |= bits[dotRow][x % 2]
        }
        let dots = points.map {
            (Int(($0.x * Double(dotsWide - 1)).rounded()), Int(($0.y * Double(dotsHigh - 1)).rounded()))
        }
        var previous: (Int, Int)?
        for (x, y) in dots {
            if let (x0, y0) = previous {
                // Bresenham from the previous point.
                var (cx, cy) = (x0, y0)
                let dx = abs(x - x0), dy = -abs(y - y0)
                let sx = x0 < x ? 1 : -1, sy = y0 < y ? 1 : -1
                var error = dx + dy
                while true {
                    plot(cx, cy)
                    if cx == x && cy == y { break }
                    let e2 = 2 * error
                    if e2 >= dy { error += dy; cx += sx }
                    if e2 <= dx { error += dx; cy += sy }
                }
            } else {
                plot(x, y)
            }
            previous = (x, y)
        }
        return cells.map { row in String(row.map { $0 == 0 ? " " : Character(Unicode.Scalar(0x2800 + UInt32($0))!) }) }
    }
}
