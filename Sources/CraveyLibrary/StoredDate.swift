import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Dates as the store keeps them: ISO 8601 text in UTC to the millisecond
/// (`2025-10-25T15:42:07.123Z`). The text sorts like the dates, reads well in `sqlite3`, and
/// converts back to exactly the same `Date` (whole milliseconds), so rows round-trip.
package enum StoredDate {
    package static func text(_ date: Date) -> String {
        let ms = date.millisecondsSince1970
        var seconds = time_t(ms >= 0 ? ms / 1000 : (ms - 999) / 1000)
        let millis = Int32(ms - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var bytes = [UInt8](repeating: 0, count: 24)
        func put(_ value: Int32, at index: Int, width: Int) {
            var v = value
            for i in stride(from: index + width - 1, through: index, by: -1) {
                bytes[i] = UInt8(48 + v % 10)
                v /= 10
            }
        }
        put(parts.tm_year + 1900, at: 0, width: 4)
        put(parts.tm_mon + 1, at: 5, width: 2)
        put(parts.tm_mday, at: 8, width: 2)
        put(parts.tm_hour, at: 11, width: 2)
        put(parts.tm_min, at: 14, width: 2)
        put(parts.tm_sec, at: 17, width: 2)
        put(millis, at: 20, width: 3)
        for (index, separator) in [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "."), (23, "Z")]
            as [(Int, Unicode.Scalar)]
        {
            bytes[index] = UInt8(separator.value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    package static func date(_ text: String) -> Date? {
        let digits = Array(text.utf8)
        guard digits.count == 24 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int32? {
            var value: Int32 = 0
            for byte in digits[from..<(from + count)] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int32(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2), let millis = number(20, 3)
        else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        let seconds = Int64(timegm(&parts))
        return Date(millisecondsSince1970: seconds * 1000 + Int64(millis))
    }
}
