import Foundation
import Synchronization

/// Remembers which ETag each inputs' fingerprint produced, so a conditional request whose
/// inputs did not change is answered 304 without rendering. Bounded: the oldest entries go first.
final class ETagMemo: Sendable {
    private struct State {
        var tags: [String: String] = [:]
        var order: [String] = []
        var head = 0
    }
    private let state = Mutex(State())
    private let limit: Int

    /// A memo of at most `limit` fingerprints.
    init(limit: Int = 4096) { self.limit = max(1, limit) }

    /// The ETag last produced for `fingerprint`.
    func tag(for fingerprint: String) -> String? { state.withLock { $0.tags[fingerprint] } }

    /// Records that `fingerprint` produced `tag`.
    func remember(_ tag: String, for fingerprint: String) {
        state.withLock { s in
            if s.tags.updateValue(tag, forKey: fingerprint) == nil { s.order.append(fingerprint) }
            while s.tags.count > limit, s.head < s.order.count {
                s.tags[s.order[s.head]] = nil
                s.head += 1
            }
            if s.head > limit { s.order.removeFirst(s.head); s.head = 0 }
        }
    }
}

/// `If-None-Match` as RFC 9110 compares it (weakly): true when `header` lists `tag` or is `*`.
func ifNoneMatch(_ header: String?, matches tag: String) -> Bool {
    guard let header else { return false }
    let bare = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
    for part in header.split(separator: ",") {
        let item = part.trimmingCharacters(in: .whitespaces)
        if item == "*" { return true }
        let candidate = item.hasPrefix("W/") ? String(item.dropFirst(2)) : item
        if candidate == bare { return true }
    }
    return false
}
