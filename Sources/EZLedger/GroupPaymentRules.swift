import EZCore

// MARK: - Group payments (settling up)

extension RowValidator {
    /// The columns ``groupPayment(_:group:zones:)`` reads, in order, from `group_payments p` joined
    /// to the payer's and payee's balances as `fb` and `tb` (SQLite's text; PostgreSQL's reader
    /// selects the same columns, its typed times as contract text).
    static let groupPaymentColumns = """
        p.id, p.from_user_id, p.to_user_id, p.from_balance_id, p.to_balance_id,
               p.amount_minor, p.currency, p.occurred_at, p.created_at,
               fb.user_id, fb.currency, tb.user_id, tb.currency, p.deleted_at
        """

    /// The reason for a payment whose group does not exist (no member's report reaches it; `check` finds it).
    static func paymentOfMissingGroup(_ groupId: Int64) -> String { "group_id \(groupId) does not exist" }

    /// Checks one live `group_payments` row of `group` against the contract, in a fixed order
    /// (the first rule broken names the reason):
    /// no `deleted_at` that cannot be a timestamp; a positive integer amount; a known currency; `occurred_at` and `created_at` that parse;
    /// two different users who are both members of the group (`zones`: each member's time zone);
    /// a named balance that is one of that member's balances; exchange rates on the payer's local
    /// date from the payment's currency into the group's and into each named balance's currency.
    mutating func groupPayment<Rows: LedgerRows>(_ row: Rows, group: Group, zones: [Int64: ZoneRules]) -> Verdict<GroupPayment> {
        let id = row.int64(0)
        let from = row.optionalInt64(1), to = row.optionalInt64(2)
        let fromBalance = row.optionalInt64(3), toBalance = row.optionalInt64(4)
        // Only a `deleted_at` that cannot be a timestamp reaches here (the query leaves deleted rows out).
        if let d = row.string(13) { return .quarantined(LedgerContract.unparsedDeletion(d)) }
        guard row.type(5) == .integer, row.int64(5) > 0 else {
            let text: String
            switch row.type(5) {
            case .integer: text = String(row.int64(5))
            case .real: text = String(row.double(5))
            case .text: text = "'\(row.string(5) ?? "")'"
            case .null: text = "NULL"
            case .blob: text = "a blob"
            }
            return .quarantined("amount_minor must be a positive integer (got \(text))")
        }
        let amount = row.int64(5)
        if let beyond = LedgerContract.amountBeyondLimit(amount, "amount_minor") { return .quarantined(beyond) }
        guard let currency = currency(row.string(6)) else { return .quarantined("invalid currency '\(row.shown(6))'") }
        guard let occurred = row.string(7).flatMap(LedgerTime.init(parsing:)) else {
            return .quarantined("occurred_at '\(row.shown(7))' is not an ISO-8601 timestamp")
        }
        guard let created = row.string(8).flatMap(LedgerTime.init(parsing:)) else {
            return .quarantined("created_at '\(row.shown(8))' is not an ISO-8601 timestamp")
        }
        guard let from, let to else { return .quarantined("a payment needs both from_user_id and to_user_id") }
        guard from != to else { return .quarantined("a payment from user \(from) to themselves") }
        guard let payerZone = zones[from] else { return .quarantined("from_user_id \(from) is not a member of group \(group.id)") }
        guard zones[to] != nil else { return .quarantined("to_user_id \(to) is not a member of group \(group.id)") }
        var targets: [Currency] = [group.currency]
        if let b = fromBalance {
            guard row.optionalInt64(9) == from, let c = self.currency(row.string(10)) else {
                return .quarantined("from_balance_id \(b) is not one of user \(from)'s balances")
            }
            targets.append(c)
        }
        if let b = toBalance {
            guard row.optionalInt64(11) == to, let c = self.currency(row.string(12)) else {
                return .quarantined("to_balance_id \(b) is not one of user \(to)'s balances")
            }
            targets.append(c)
        }
        let day = occurred.localDate(in: payerZone)
        for target in targets where target != currency && rates.rate(from: currency, to: target, on: day) == nil {
            return .quarantined("no exchange rate \(currency.code)→\(target.code) on or before \(day)")
        }
        return .valid(GroupPayment(id: id, groupId: group.id, fromUserId: from, toUserId: to, fromBalanceId: fromBalance,
                                   toBalanceId: toBalance, amountMinor: amount, currency: currency, occurredAt: occurred,
                                   payerDate: day, createdAt: created))
    }
}
