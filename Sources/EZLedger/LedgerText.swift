import Foundation
import GRDB

/// Free text from the ledger (descriptions, payment methods) as reports show it.
///
/// SQLite stores a TEXT value with its length, so it may hold NUL bytes; C strings (and so GRDB's
/// `String` columns) end at the first one and would silently drop the rest. The whole text is
/// kept instead, each NUL shown as U+2400 SYMBOL FOR NULL (`␀`), so the row is neither cut nor
/// lost (docs/ledger-schema.md). Invalid UTF-8 is repaired with U+FFFD as everywhere else.
/// Both the fast decoder and the validating path read free text through here, so they agree.
enum LedgerText {
    /// What a NUL byte becomes.
    static let nulStandIn = "\u{2400}"

    /// `bytes` (which hold at least one NUL) as text, every NUL replaced by ``nulStandIn``.
    static func withVisibleNULs(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        bytes.split(separator: 0, omittingEmptySubsequences: false)
            .map { String(decoding: UnsafeBufferPointer(rebasing: $0), as: UTF8.self) }
            .joined(separator: nulStandIn)
    }

    /// Column `index` of a statement row as free text: nil for NULL, the whole text with NULs made
    /// visible otherwise (GRDB's own `String` decoding would stop at the first NUL).
    static func column(_ row: Row, _ index: Int) -> String? {
        let text: String?? = try? row.withUnsafeData(atIndex: index) { data -> String? in
            guard let data else { return nil }
            return data.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                return bytes.contains(0) ? withVisibleNULs(bytes) : String(decoding: bytes, as: UTF8.self)
            }
        }
        return text ?? row[index]
    }
}
