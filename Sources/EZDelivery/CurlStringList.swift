import CCurl

/// A libcurl `curl_slist` (here: the `RCPT TO` list), owned and freed by this object.
/// libcurl does not copy lists, so the connection keeps this alive while a transfer may use it.
final class CurlStringList {
    /// The list's head; never escapes the owning connection.
    let head: UnsafeMutablePointer<curl_slist>

    /// A list of `items`; fails only when libcurl cannot allocate.
    init?(_ items: [String]) {
        var head: UnsafeMutablePointer<curl_slist>?
        for item in items {
            guard let next = ez_curl_slist_append(head, item) else {
                ez_curl_slist_free_all(head)
                return nil
            }
            head = next
        }
        guard let head else { return nil }
        self.head = head
    }

    deinit { ez_curl_slist_free_all(head) }
}
