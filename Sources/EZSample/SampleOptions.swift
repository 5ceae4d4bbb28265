/// What sample ledger to generate: how many users, how many months, ending when, from which seed.
///
/// ```swift
/// let options = SampleOptions(users: 50, months: 24, endYear: 2026, endMonth: 9)
/// ```
public struct SampleOptions: Sendable {
    /// The number of users (ids 1…`users`).
    public var users: Int
    /// The number of calendar months covered, ending with ``end``.
    public var months: Int
    /// The last month generated (every day of it is covered).
    public var end: (year: Int, month: Int)
    /// The seed of every random draw: the same options always give the same bytes.
    public var seed: UInt64

    /// Options for `users` users over the `months` months that end with `endYear`-`endMonth`.
    public init(users: Int = 50, months: Int = 24, endYear: Int, endMonth: Int, seed: UInt64 = 1) {
        self.users = users
        self.months = months
        self.end = (endYear, endMonth)
        self.seed = seed
    }
}
