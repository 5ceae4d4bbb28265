import Foundation
import Synchronization

/// The UTC offsets of one IANA time zone, as a table of transitions for fast lookup.
///
/// Built once per zone from the system's tz database (through Foundation's `TimeZone`) and
/// shared: looking up an offset is a binary search, with no allocation and no formatter.
package final class ZoneRules: Sendable {
    /// The IANA identifier, e.g. `Europe/Rome`.
    package let identifier: String
    private let transitions: [Int64]   // UTC seconds at which `offsets[i + 1]` starts
    private let offsets: [Int32]       // offsets.count == transitions.count + 1

    private init(identifier: String, zone: TimeZone) {
        self.identifier = identifier
        var transitions: [Int64] = []
        var offsets: [Int32] = [Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: -2_208_988_800)))]
        var cursor = Date(timeIntervalSince1970: -2_208_988_800)   // 1900
        let limit = 4_102_444_800.0                                 // 2100
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSince1970 < limit {
            let offset = Int32(zone.secondsFromGMT(for: next))
            if offset != offsets.last {
                transitions.append(Int64(next.timeIntervalSince1970.rounded()))
                offsets.append(offset)
            }
            cursor = next
        }
        self.transitions = transitions
        self.offsets = offsets
    }

    /// The offset from UTC, in seconds, in force at `seconds` since the epoch.
    @inlinable
    package func offset(atUTCSeconds seconds: Int64) -> Int { lookup(seconds) }

    @usableFromInline
    func lookup(_ seconds: Int64) -> Int {
        var lo = 0, hi = transitions.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if transitions[mid] <= seconds { lo = mid + 1 } else { hi = mid }
        }
        return Int(offsets[lo])
    }

    /// The rules for `identifier`, or nil when the system does not know the zone.
    ///
    /// Results are cached for the life of the process.
    package static func named(_ identifier: String) -> ZoneRules? {
        cache.withLock { cache in
            if let hit = cache[identifier] { return hit }
            guard identifier == "UTC" || identifier == "GMT" || isDatabaseZone(identifier),
                  let zone = TimeZone(identifier: identifier) else {
                cache[identifier] = .some(nil)
                return nil
            }
            let rules = ZoneRules(identifier: identifier, zone: zone)
            cache[identifier] = rules
            return rules
        }
    }

    /// UTC.
    package static let utc: ZoneRules = named("UTC")!

    /// The system's tz database, where Foundation reads zones from.
    static let databaseFolder = "/usr/share/zoneinfo"

    /// Whether `identifier` names a zone of the system's tz database: a TZif file under
    /// ``databaseFolder``, so every IANA name, links included (`Asia/Calcutta`, `GB`, `EST5EDT`,
    /// `Japan`). Not Foundation's abbreviations, which `TimeZone(identifier:)` also takes (`PST`:
    /// no such zone), nor a path out of the folder, nor the folder's `posix/` and `right/` copies
    /// (`right/` zones count leap seconds), `posixrules`, `localtime` or `Factory` (no offset).
    static func isDatabaseZone(_ identifier: String) -> Bool {
        let parts = identifier.split(separator: "/", omittingEmptySubsequences: false)
        guard let first = parts.first, !["posix", "right"].contains(first),
              !["posixrules", "localtime", "Factory"].contains(identifier),
              parts.allSatisfy({ part in
                  !part.isEmpty && part != "." && part != ".."
                      && part.utf8.allSatisfy { $0.isASCIILetterOrDigit || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }
              }),
              let file = FileHandle(forReadingAtPath: databaseFolder + "/" + identifier) else { return false }
        defer { try? file.close() }
        return (try? file.read(upToCount: 4)) == Data("TZif".utf8)
    }

    private static let cache = Mutex<[String: ZoneRules?]>([:])
}

private extension UInt8 {
    var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
