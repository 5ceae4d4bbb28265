import Foundation

/// Whether the process that left a temporary file is still writing it.
///
/// `kill(pid, 0)` alone is not enough: a run killed under a parent that does not reap it (a
/// container without an init, `timeout -s KILL`) stays a zombie, which `kill` still finds, and
/// its leftovers were then kept for good; and a pid may since belong to another program. On
/// Linux the process's `/proc/<pid>/stat` says both: its state (`Z` or `X`: gone) and its
/// command name, which must be this program's.
enum ProcessLiveness {
    /// Whether `pid` is a live (not zombie) process running this same program.
    static func isLiveRun(_ pid: Int32) -> Bool {
        if pid == getpid() { return true }
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let theirs = status(of: "\(pid)") else { return true }   // no /proc: trust kill(2)
        if theirs.state == "Z" || theirs.state == "X" { return false }
        guard let ours = status(of: "self") else { return true }
        return theirs.command == ours.command
    }

    /// The command name and state letter from `/proc/<which>/stat` (`1234 (ezreport) S …`).
    private static func status(of which: String) -> (command: Substring, state: Character)? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(which)/stat"),
              let text = String(data: data, encoding: .utf8),
              let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { return nil }
        let rest = text[text.index(after: close)...].drop { $0 == " " }
        guard let state = rest.first else { return nil }
        return (text[text.index(after: open)..<close], state)
    }
}
