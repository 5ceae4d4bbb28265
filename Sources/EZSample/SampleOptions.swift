/// What sample ledger to generate: how many users, how many months, ending when, from which seed.
///
/// ```swift
/// let options = SampleOptions(users: 50, months: 24, endYear: 2026, endMonth: 9)
/// ```
package struct SampleOptions: Sendable {
    /// The number of users (ids 1…`users`).
    package var users: Int
    /// The number of calendar months covered, ending with ``end``.
    package var months: Int
    /// The last month generated (every day of it is covered).
    package var end: (year: Int, month: Int)
    /// The seed of every random draw: the same options always give the same bytes.
    package var seed: UInt64

    /// Options for `users` users over the `months` months that end with `endYear`-`endMonth`.
    package init(users: Int = 50, months: Int = 24, endYear: Int, endMonth: Int, seed: UInt64 = 1) {
        self.users = users
        self.months = months
        self.end = (endYear, endMonth)
        self.seed = seed
    }
}
