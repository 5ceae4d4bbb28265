import Foundation

/// A system program run quietly from a test (`mount`, `umount`, `dd`), for set-ups that need root.
package enum SystemCommand {
    /// Runs `path` with `args`, output discarded, and returns its exit status (-1 when it cannot start).
    package static func run(_ path: String, _ args: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = args
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
