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
    /// Results are cached for the life of the process; a failure to read the tz database is not.
    /// - Throws: ``ZoneDatabaseError`` when the zone's file could not be read for a reason of the
    ///   system's (no file descriptor left, an I/O error): that says nothing of the zone, and the
    ///   row naming it must not be called broken (it was, out of file descriptors: valid users
    ///   quarantined for "unknown time zone 'Europe/Paris'", and their groups with them).
    package static func named(_ identifier: String) throws(ZoneDatabaseError) -> ZoneRules? {
        try cache.withLock { cache throws(ZoneDatabaseError) -> ZoneRules? in
            if let hit = cache[identifier] { return hit }
            let known = identifier == "UTC" || identifier == "GMT" ? true : try isDatabaseZone(identifier)
            guard known, let zone = TimeZone(identifier: identifier) else {
                cache[identifier] = .some(nil)
                return nil
            }
            let rules = ZoneRules(identifier: identifier, zone: zone)
            cache[identifier] = rules
            return rules
        }
    }

    /// UTC.
    package static let utc: ZoneRules = try! named("UTC")!  // never read from a file

    /// The system's tz database, where Foundation reads zones from.
    static let databaseFolder = "/usr/share/zoneinfo"

    /// Whether `identifier` names a zone of the system's tz database: a TZif file under
    /// ``databaseFolder``, so every IANA name, links included (`Asia/Calcutta`, `GB`, `EST5EDT`,
    /// `Japan`). Not Foundation's abbreviations, which `TimeZone(identifier:)` also takes (`PST`:
    /// no such zone), nor a path out of the folder, nor the folder's `posix/` and `right/` copies
    /// (`right/` zones count leap seconds), `posixrules`, `localtime` or `Factory` (no offset).
    ///
    /// - Throws: ``ZoneDatabaseError`` when the file could not be opened or read for any reason
    ///   but its absence (`ENOENT`, `ENOTDIR`, `ELOOP`, `ENAMETOOLONG`) or its being a folder.
    static func isDatabaseZone(_ identifier: String) throws(ZoneDatabaseError) -> Bool {
        let parts = identifier.split(separator: "/", omittingEmptySubsequences: false)
        guard let first = parts.first, !["posix", "right"].contains(first),
              !["posixrules", "localtime", "Factory"].contains(identifier),
              parts.allSatisfy({ part in
                  !part.isEmpty && part != "." && part != ".."
                      && part.utf8.allSatisfy { $0.isASCIILetterOrDigit || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }
              }) else { return false }
        let path = databaseFolder + "/" + identifier
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if [ENOENT, ENOTDIR, ELOOP, ENAMETOOLONG].contains(code) { return false }
            throw ZoneDatabaseError(identifier: identifier, reason: String(cString: strerror(code)))
        }
        defer { close(fd) }
        var magic = [UInt8](repeating: 0, count: 4)
        let n = magic.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4) }
        if n < 0 {
            let code = errno
            if code == EISDIR { return false }
            throw ZoneDatabaseError(identifier: identifier, reason: String(cString: strerror(code)))
        }
        return n == 4 && magic == Array("TZif".utf8)
    }

    private static let cache = Mutex<[String: ZoneRules?]>([:])
}

/// The system's tz database could not be read for a zone (not: the zone does not exist).
package struct ZoneDatabaseError: Error, Equatable, CustomStringConvertible {
    /// The zone asked for, e.g. `Europe/Paris`.
    package let identifier: String
    /// The system's words, e.g. "Too many open files".
    package let reason: String

    package var description: String {
        "cannot read time zone '\(identifier)' from \(ZoneRules.databaseFolder): \(reason)"
    }
}

private extension UInt8 {
    var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
