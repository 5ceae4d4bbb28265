import ArgumentParser

/// `--users 3,17`: a comma-separated list of numeric user ids.
struct UserIdList: ExpressibleByArgument, Sendable, Equatable {
    /// The ids, in the order given.
    let ids: [Int64]

    /// Parses the list, or throws a ValidationError that shows the form.
    init(parsing text: String) throws {
        let ids = text.split(separator: ",", omittingEmptySubsequences: false).map { Int64($0.trimmingCharacters(in: .whitespaces)) }
        guard !ids.isEmpty, ids.allSatisfy({ $0 != nil }) else {
            throw ValidationError("--users takes comma-separated numeric ids, e.g. 12,40 (got '\(text)')")
        }
        self.ids = ids.compactMap { $0 }
    }

    init?(argument: String) {
        guard let parsed = try? UserIdList(parsing: argument) else { return nil }
        self = parsed
    }
}
