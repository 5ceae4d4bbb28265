import EZCore

/// Writes contract timestamps (`YYYY-MM-DD`, `…THH:MM:SS[.fff](Z|±HH:MM)`) without Foundation.
///
/// The generator writes millions of them, so each is built byte by byte into a new string's
/// own storage: no formatter, no intermediate strings.
enum SampleTimestamp {
    /// The style a timestamp is written in.
    enum Style {
        /// `2026-03-14T09:30:00+01:00`: the owner's local time with its UTC offset.
        case offset
        /// `2026-03-14T09:30:00.123+01:00`.
        case offsetMillis(Int)
        /// `2026-03-14T08:30:00Z`: the same instant in UTC.
        case utc
        /// `2026-03-14T08:30:00.123Z`.
        case utcMillis(Int)
        /// `2026-03-14`: the bare local date.
        case bareDate
    }

    /// The instant `secondOfDay` seconds into local date `day` in `zone`, in `style`.
    ///
    /// `secondOfDay` should avoid 01:00–03:59, where clocks change; the offset is the one in
    /// force at that instant, so the local date read back in `zone` is always `day`.
    static func local(day: Int32, secondOfDay: Int, zone: ZoneRules, style: Style) -> String {
        if case .bareDate = style { return date(day) }
        let local = Int64(day) * 86_400 + Int64(secondOfDay)
        let offset = zone.offset(atUTCSeconds: local - Int64(zone.offset(atUTCSeconds: local)))
        let utc = local - Int64(offset)
        switch style {
        case .offset: return format(seconds: local, millis: nil, offset: offset)
        case .offsetMillis(let ms): return format(seconds: local, millis: ms, offset: offset)
        case .utc: return format(seconds: utc, millis: nil, offset: nil)
        case .utcMillis(let ms): return format(seconds: utc, millis: ms, offset: nil)
        case .bareDate: return date(day)
        }
    }

    /// `YYYY-MM-DD` for `day` (days since 1970-01-01).
    static func date(_ day: Int32) -> String {
        String(unsafeUninitializedCapacity: 10) { buf in
            writeDate(day, into: buf)
            return 10
        }
    }

    /// `seconds` (already shifted to the wall clock) as `YYYY-MM-DDTHH:MM:SS[.fff]` followed by
    /// `Z` when `offset` is nil, else by `±HH:MM`.
    static func format(seconds: Int64, millis: Int?, offset: Int?) -> String {
        let day = Int32(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let sod = Int(seconds - Int64(day) * 86_400)
        let length = 19 + (millis == nil ? 0 : 4) + (offset == nil ? 1 : 6)
        return String(unsafeUninitializedCapacity: length) { buf in
            writeDate(day, into: buf)
            buf[10] = 0x54 // T
            two(sod / 3600, buf, 11); buf[13] = 0x3A
            two(sod / 60 % 60, buf, 14); buf[16] = 0x3A
            two(sod % 60, buf, 17)
            var i = 19
            if let ms = millis {
                buf[i] = 0x2E
                buf[i + 1] = UInt8(0x30 + ms / 100 % 10)
                buf[i + 2] = UInt8(0x30 + ms / 10 % 10)
                buf[i + 3] = UInt8(0x30 + ms % 10)
                i += 4
            }
            if let offset {
                let a = abs(offset)
                buf[i] = offset < 0 ? 0x2D : 0x2B
                two(a / 3600, buf, i + 1); buf[i + 3] = 0x3A
                two(a / 60 % 60, buf, i + 4)
                i += 6
            } else {
                buf[i] = 0x5A // Z
                i += 1
            }
            return i
        }
    }

    @inline(__always)
    private static func writeDate(_ day: Int32, into buf: UnsafeMutableBufferPointer<UInt8>) {
        let (y, m, d) = CivilDate(dayNumber: day).components
        buf[0] = UInt8(0x30 + y / 1000 % 10)
        buf[1] = UInt8(0x30 + y / 100 % 10)
        buf[2] = UInt8(0x30 + y / 10 % 10)
        buf[3] = UInt8(0x30 + y % 10)
        buf[4] = 0x2D
        two(m, buf, 5)
        buf[7] = 0x2D
        two(d, buf, 8)
    }

    @inline(__always)
    private static func two(_ v: Int, _ buf: UnsafeMutableBufferPointer<UInt8>, _ at: Int) {
        buf[at] = UInt8(0x30 + v / 10)
        buf[at + 1] = UInt8(0x30 + v % 10)
    }
}
