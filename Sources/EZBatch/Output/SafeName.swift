/// Folder names built from usernames that can never lead outside the output folder.
///
/// Letters and digits of any script stay (so `zoë` and `山田` stay readable), as do `.`, `-` and
/// `_`; everything else — slashes, backslashes, spaces, control and format characters — becomes
/// `_`. A name made only of dots becomes underscores, and names are capped at 64 characters
/// and at the file system's limit of ``maxComponentBytes`` bytes for the whole folder name, cut
/// between two characters (grapheme clusters: a letter keeps its combining marks).
/// The user id in front is never cut, so folder names stay unique even when two usernames
/// sanitise (or are cut) alike.
package enum SafeName {
    /// The longest file or folder name Linux file systems accept (`NAME_MAX`), in bytes.
    package static let maxComponentBytes = 255

    /// `<id>-<safe-username>`, the user's folder under `users/`, at most ``maxComponentBytes`` bytes.
    package static func userFolder(id: Int64, username: String) -> String {
        let prefix = "\(id)-"
        return prefix + sanitise(username, maxBytes: maxComponentBytes - prefix.utf8.count)
    }

    /// The username made safe for one path component of at most `maxBytes` bytes of UTF-8.
    package static func sanitise(_ name: String, maxBytes: Int = SafeName.maxComponentBytes) -> String {
        var out = ""
        var bytes = 0
        for ch in name.prefix(64) {
            let kept: Character = ch.isLetter || ch.isNumber || ch == "." || ch == "-" || ch == "_" ? ch : "_"
            let size = kept.utf8.count
            // One grapheme cluster can be arbitrarily long (a letter with hundreds of marks): stop at the
            // first one that does not fit, never inside it.
            guard bytes + size <= maxBytes else { break }
            out.append(kept)
            bytes += size
        }
        if out.isEmpty || out.allSatisfy({ $0 == "." }) {
            out = String(repeating: "_", count: max(out.count, 1))
        }
        // No leading dot: no hidden folders and no '..' prefix games.
        if out.first == "." { out = "_" + out.dropFirst() }
        return out
    }
}
