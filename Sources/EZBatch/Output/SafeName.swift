/// Folder names built from usernames that can never lead outside the output folder.
///
/// Letters and digits of any script stay (so `zoë` and `山田` stay readable), as do `.`, `-` and
/// `_`; everything else — slashes, backslashes, spaces, control and format characters — becomes
/// `_`. A name made only of dots becomes underscores, and names are capped at 64 characters.
/// The user id in front keeps folder names unique even when two usernames sanitise alike.
package enum SafeName {
    /// `<id>-<safe-username>`, the user's folder under `users/`.
    package static func userFolder(id: Int64, username: String) -> String {
        "\(id)-\(sanitise(username))"
    }

    /// The username made safe for one path component.
    package static func sanitise(_ name: String) -> String {
        var out = ""
        for ch in name.prefix(64) {
            if ch.isLetter || ch.isNumber || ch == "." || ch == "-" || ch == "_" {
                out.append(ch)
            } else {
                out.append("_")
            }
        }
        if out.isEmpty || out.allSatisfy({ $0 == "." }) {
            out = String(repeating: "_", count: max(out.count, 1))
        }
        // No leading dot: no hidden folders and no '..' prefix games.
        if out.first == "." { out = "_" + out.dropFirst() }
        return out
    }
}
