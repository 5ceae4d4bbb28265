/// A ledger timestamp: either an instant (with an explicit zone or `Z`) or a bare local date.
///
/// The contract allows `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)` and `YYYY-MM-DD`. A bare date means
/// that calendar date for everyone who looks at it; an instant is placed on a date by the
/// viewer's time zone. Parsing is a hand-written byte scanner: Foundation's formatters are far
/// too slow for millions of rows.
package enum LedgerTime: Hashable, Sendable, Comparable {
    /// A moment in time, as milliseconds since 1970-01-01T00:00:00Z.
    case instant(millis: Int64)
    /// A calendar date with no time of day.
    case date(CivilDate)

    /// Parses a contract timestamp, or returns nil when it is not one.
    package init?(parsing text: String) {
        var copy = text
        let parsed: LedgerTime? = copy.withUTF8 { LedgerTime.parse($0) }
        guard let parsed else { return nil }
        self = parsed
    }

    /// Parses UTF-8 bytes of a contract timestamp.
    package static func parse(_ b: UnsafeBufferPointer<UInt8>) -> LedgerTime? {
        let n = b.count
        guard n >= 10 else { return nil }
        @inline(__always) func num(_ s: Int, _ c: Int) -> Int? {
            var v = 0
            for k in s..<(s + c) {
                let d = b[k] &- 0x30
                if d > 9 { return nil }
                v = v * 10 + Int(d)
            }
            return v
        }
        guard b[4] == 0x2D, b[7] == 0x2D, let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2),
              let date = CivilDate(validYear: y, month: mo, day: d) else { return nil }
        if n == 10 { return .date(date) }
        guard n >= 20, b[10] == 0x54 || b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A,
              let h = num(11, 2), let mi = num(14, 2), let s = num(17, 2),
              h < 24, mi < 60, s < 60 else { return nil }
        var i = 19
        var millis = 0
        if b[i] == 0x2E {
            i += 1
            var digits = 0
            while i < n, b[i] &- 0x30 <= 9 {
                if digits < 3 { millis = millis * 10 + Int(b[i] &- 0x30) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            // Fewer than three digits are scaled up; further digits were dropped above. (A range
            // `digits..<3` would trap for more than three digits.)
            var scale = digits
            while scale < 3 { millis *= 10; scale += 1 }
        }
        guard i < n else { return nil }
        var offsetSeconds = 0
        if b[i] == 0x5A {
            i += 1
        } else if b[i] == 0x2B || b[i] == 0x2D {
            guard n == i + 6, b[i + 3] == 0x3A, let oh = num(i + 1, 2), let om = num(i + 4, 2),
                  oh <= 18, om < 60 else { return nil }
            offsetSeconds = (oh * 3600 + om * 60) * (b[i] == 0x2D ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == n else { return nil }
        let seconds = Int64(date.dayNumber) * 86400 + Int64(h * 3600 + mi * 60 + s) - Int64(offsetSeconds)
        return .instant(millis: seconds * 1000 + Int64(millis))
    }

    /// The calendar date of this time for a viewer in `zone`.
    @inlinable
    package func localDate(in zone: ZoneRules) -> CivilDate {
        switch self {
        case .date(let d): return d
        case .instant(let ms):
            let secs = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
            let local = secs + Int64(zone.offset(atUTCSeconds: secs))
            let day = local >= 0 ? local / 86400 : (local - 86399) / 86400
            return CivilDate(dayNumber: Int32(day))
        }
    }

    /// A sort key: instants by time, bare dates at the start of that date in UTC.
    package var sortKey: Int64 {
        switch self {
        case .instant(let ms): return ms
        case .date(let d): return Int64(d.dayNumber) * 86_400_000
        }
    }

    package static func < (a: LedgerTime, b: LedgerTime) -> Bool { a.sortKey < b.sortKey }
}
