/// A hybrid logical clock: the wall clock in milliseconds and a counter that breaks its ties.
///
/// Every change a machine makes is stamped by `send`, and every change it brings in moves its
/// clock on by `receive`, so a change made after seeing another is always stamped later than it,
/// whatever either wall clock says: a machine whose clock is an hour behind cannot make the
/// other's newer edit lose, and one an hour ahead wins only until the other has seen its change.
public struct SyncClock: Comparable, Hashable, Sendable {
    /// The wall clock's milliseconds since 1970 (the largest seen).
    public var milliseconds: Int64
    /// The ties within one millisecond, counted.
    public var tick: Int64

    public init(milliseconds: Int64 = 0, tick: Int64 = 0) {
        self.milliseconds = milliseconds
        self.tick = tick
    }

    public static func < (a: SyncClock, b: SyncClock) -> Bool {
        (a.milliseconds, a.tick) < (b.milliseconds, b.tick)
    }

    /// The stamp of a change made here now, the clock moved on to it.
    public mutating func send(wall: Int64) -> SyncClock {
        if wall > milliseconds {
            milliseconds = wall
            tick = 0
        } else {
            tick += 1
        }
        return self
    }

    /// The clock moved on past a change brought in (stamped `remote`).
    public mutating func receive(_ remote: SyncClock, wall: Int64) {
        let top = max(milliseconds, remote.milliseconds, wall)
        switch top {
        case milliseconds where top == remote.milliseconds: tick = max(tick, remote.tick) + 1
        case milliseconds: tick += 1
        case remote.milliseconds: tick = remote.tick + 1
        default: tick = 0
        }
        milliseconds = top
    }
}

/// Who wins a field: the later clock, then the larger device id (the same everywhere).
public struct SyncStamp: Comparable, Hashable, Sendable {
    public var clock: SyncClock
    public var device: String

    public init(clock: SyncClock, device: String) {
        self.clock = clock
        self.device = device
    }

    public static func < (a: SyncStamp, b: SyncStamp) -> Bool {
        a.clock != b.clock ? a.clock < b.clock : a.device < b.device
    }
}
