/// Why a sample ledger could not be generated.
package enum SampleError: Error, Equatable, CustomStringConvertible {
    /// The options make no sense (e.g. zero users, month 13).
    case invalidOptions(String)
    /// The output file exists; the generator never overwrites a ledger.
    case fileExists(path: String)
    /// A file-system call failed.
    case io(path: String, operation: String, message: String)
    /// SQLite refused a statement.
    case database(path: String, message: String)

    package var description: String {
        switch self {
        case .invalidOptions(let why):
            return "invalid sample options: \(why)"
        case .fileExists(let path):
            return "\(path) already exists; remove it first (the sample generator never overwrites a ledger)"
        case .io(let path, let operation, let message):
            return "cannot \(operation) \(path): \(message)"
        case .database(let path, let message):
            return "cannot write sample ledger \(path): \(message)"
        }
    }
}
