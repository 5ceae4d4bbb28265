import EZCore

extension UserLedger {
    /// The first way in which two loads of the same user differ, or nil when every row read
    /// (user, balances, categories, transactions, groups with members, expenses and splits,
    /// budgets, transfers, goals, logins, family, children, quarantined rows) is identical.
    ///
    /// For comparing the in-place transaction decoding with the reference path
    /// (``Ledger/loadUser(id:through:fastReads:)``) in tests and benchmarks.
    package func firstReadDifference(from other: UserLedger) -> String? {
        func differ<T: Equatable>(_ name: String, _ a: [T], _ b: [T]) -> String? {
            guard a != b else { return nil }
            if a.count != b.count { return "\(name): \(a.count) vs \(b.count) rows" }
            let i = a.indices.first { a[$0] != b[$0] } ?? 0
            return "\(name)[\(i)]: \(a[i]) vs \(b[i])"
        }
        if user != other.user { return "user: \(user) vs \(other.user)" }
        if let d = differ("balances", balances, other.balances) ?? differ("categories", categories, other.categories)
            ?? differ("transactions", transactions, other.transactions) ?? differ("budgets", budgets, other.budgets)
            ?? differ("budgetTransfers", budgetTransfers, other.budgetTransfers)
            ?? differ("savingsGoals", savingsGoals, other.savingsGoals) ?? differ("logins", logins, other.logins)
            ?? differ("quarantined", quarantined, other.quarantined) {
            return d
        }
        if family != other.family { return "family: \(String(describing: family)) vs \(String(describing: other.family))" }
        if groups.count != other.groups.count { return "groups: \(groups.count) vs \(other.groups.count)" }
        for (a, b) in zip(groups, other.groups) {
            if a.group != b.group { return "group: \(a.group) vs \(b.group)" }
            if let d = differ("group \(a.group.id) members", a.members, b.members)
                ?? differ("group \(a.group.id) expenses", a.expenses, b.expenses) {
                return d
            }
            if a.splits != b.splits { return "group \(a.group.id) splits differ" }
        }
        if children.count != other.children.count { return "children: \(children.count) vs \(other.children.count)" }
        for (a, b) in zip(children, other.children) {
            if let d = a.firstReadDifference(from: b) { return "child \(a.user.id): \(d)" }
        }
        return nil
    }
}
