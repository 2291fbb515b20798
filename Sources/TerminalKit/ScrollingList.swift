/// A list with one row chosen, longer than the screen: ↑/↓, PgUp/PgDn and Home/End move the
/// choice, and the rows shown follow it so it is always in view. It holds only positions; the
/// screen draws the rows it is given (`shown`).
package struct ScrollingList: Equatable, Sendable {
    /// How many rows there are.
    package private(set) var count: Int
    /// The chosen row (0 when the list is empty).
    package private(set) var selected = 0
    /// The first row shown.
    package private(set) var first = 0

    package init(count: Int, selected: Int = 0) {
        self.count = max(0, count)
        self.selected = max(0, min(selected, self.count - 1))
    }

    /// After rows were added or removed: the choice stays where it was, or on the last row.
    package mutating func resize(to count: Int) {
        self.count = max(0, count)
        selected = max(0, min(selected, self.count - 1))
    }

    /// Moves the choice for a key (`visible` rows fit on the screen: a page moves by that many);
    /// false, and nothing moves, for a key that is not one of the list's.
    package mutating func move(_ key: Key, visible: Int) -> Bool {
        guard count > 0 else { return false }
        let page = max(1, visible)
        switch key {
        case .up: selected = max(0, selected - 1)
        case .down: selected = min(count - 1, selected + 1)
        case .pageUp: selected = max(0, selected - page)
        case .pageDown: selected = min(count - 1, selected + page)
        case .home: selected = 0
        case .end: selected = count - 1
        default: return false
        }
        return true
    }

    /// The rows to draw when `visible` fit: the window scrolls only as far as keeps the choice in
    /// view, and never past the last row.
    package mutating func shown(visible: Int) -> Range<Int> {
        let rows = max(1, visible)
        if selected < first { first = selected }
        if selected >= first + rows { first = selected - rows + 1 }
        first = max(0, min(first, count - rows))
        return first..<min(count, first + rows)
    }
}
