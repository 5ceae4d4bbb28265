import EZCore
import GRDB

// MARK: - Group payments (settling up)

extension RowValidator {
    /// The columns ``groupPayment(_:group:zones:)`` reads, in order, for `FROM group_payments p`
    /// joined to the payer's and payee's balances as `fb` and `tb`.
    static let groupPaymentSelect = """
        SELECT p.id, p.from_user_id, p.to_user_id, p.from_balance_id, p.to_balance_id,
               p.amount_minor, typeof(p.amount_minor), p.currency, p.occurred_at, p.created_at,
               fb.user_id, fb.currency, tb.user_id, tb.currency
        FROM group_payments p
        LEFT JOIN balances fb ON fb.id = p.from_balance_id LEFT JOIN balances tb ON tb.id = p.to_balance_id
        """

    /// The reason for a payment whose group does not exist (no member's report reaches it; `check` finds it).
    static func paymentOfMissingGroup(_ groupId: Int64) -> String { "group_id \(groupId) does not exist" }

    /// Checks one live `group_payments` row of `group` against the contract, in a fixed order
    /// (the first rule broken names the reason):
    /// a positive integer amount; a known currency; `occurred_at` and `created_at` that parse;
    /// two different users who are both members of the group (`zones`: each member's time zone);
    /// a named balance that is one of that member's balances; exchange rates on the payer's local
    /// date from the payment's currency into the group's and into each named balance's currency.
    mutating func groupPayment(_ row: Row, group: Group, zones: [Int64: ZoneRules]) -> Verdict<GroupPayment> {
        let id: Int64 = row[0]
        let from: Int64? = row[1], to: Int64? = row[2]
        let fromBalance: Int64? = row[3], toBalance: Int64? = row[4]
        guard (row[6] as String) == "integer", let amount: Int64 = row[5], amount > 0 else {
            let shown = (row[5] as DatabaseValue).storage
            let text: String
            switch shown {
            case .int64(let v): text = String(v)
            case .double(let v): text = String(v)
            case .string(let s): text = "'\(s)'"
            case .null: text = "NULL"
            case .blob: text = "a blob"
            }
            return .quarantined("amount_minor must be a positive integer (got \(text))")
        }
        guard let currency = currency(row[7]) else { return .quarantined("invalid currency '\(row[7] as String? ?? "NULL")'") }
        guard let occurred = (row[8] as String?).flatMap(LedgerTime.init(parsing:)) else {
            return .quarantined("occurred_at '\(row[8] as String? ?? "NULL")' is not an ISO-8601 timestamp")
        }
        guard let created = (row[9] as String?).flatMap(LedgerTime.init(parsing:)) else {
            return .quarantined("created_at '\(row[9] as String? ?? "NULL")' is not an ISO-8601 timestamp")
        }
        guard let from, let to else { return .quarantined("a payment needs both from_user_id and to_user_id") }
        guard from != to else { return .quarantined("a payment from user \(from) to themselves") }
        guard let payerZone = zones[from] else { return .quarantined("from_user_id \(from) is not a member of group \(group.id)") }
        guard zones[to] != nil else { return .quarantined("to_user_id \(to) is not a member of group \(group.id)") }
        var targets: [Currency] = [group.currency]
        if let b = fromBalance {
            guard (row[10] as Int64?) == from, let c = self.currency(row[11]) else {
                return .quarantined("from_balance_id \(b) is not one of user \(from)'s balances")
            }
            targets.append(c)
        }
        if let b = toBalance {
            guard (row[12] as Int64?) == to, let c = self.currency(row[13]) else {
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
