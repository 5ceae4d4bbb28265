import EZCore

/// Group splits in the group's currency: each expense converted once (on its own date), then its
/// shares allocated by the largest-remainder method so that they add up to exactly the converted
/// amount — so every member's net, and the nets' sum (zero), reconcile to the cent.
///
/// `paid`, `share`, `net` and `settled` cover the period (by the viewer's local date);
/// `outstanding` covers everything from the group's beginning to the period's end, settle-up
/// payments included (each converted once into the group's currency, on the payer's date). Members
/// who left keep their history and balance, and may still pay or be paid back.
enum GroupAnalytics {
    static func build(ledger: UserLedger, zone: ZoneRules, period: Period) throws(AnalyticsError) -> [GroupFigures] {
        var out: [GroupFigures] = []
        for g in ledger.groups.sorted(by: { $0.group.id < $1.group.id }) {
            let whole = try figures(for: g, viewer: ledger.user.id, rates: ledger.rates, zone: zone, period: period)
            if let seen = visible(whole, of: g, to: ledger.user.id, in: period) { out.append(seen) }
        }
        return out
    }

    /// What `viewer` may see of a group in `period`. A member on any day of the period sees the
    /// group whole, as the app shows it to them. Someone who was not a member then (they joined
    /// later, or left before it) saw none of its activity: the group is left out, unless they
    /// still owe or are owed in it, and then only their own line and the transfers and payments
    /// that involve them. (Before, a member who had left years ago read the others' figures and
    /// the plan between them, and a member who joined later read the months before them.)
    static func visible(_ figures: GroupFigures, of g: GroupLedger, to viewer: Int64, in period: Period) -> GroupFigures? {
        let memberInPeriod = g.members.contains { m in
            m.userId == viewer && m.joinedOn <= period.end && (m.leftOn.map { $0 > period.start } ?? true)
        }
        if memberInPeriod { return figures }
        guard let own = figures.members.first(where: { $0.userId == viewer }), own.outstanding != 0 else { return nil }
        var only = figures
        only.members = [own]
        only.settlement.transfers = figures.settlement.transfers.filter { $0.fromUserId == viewer || $0.toUserId == viewer }
        only.payments = figures.payments.filter { $0.fromUserId == viewer || $0.toUserId == viewer }
        return only
    }

    static func figures(for g: GroupLedger, viewer: Int64, rates: RateTable, zone: ZoneRules,
                        period: Period) throws(AnalyticsError) -> GroupFigures {
        let members = g.members.sorted { $0.userId < $1.userId }
        var ids = members.map(\.userId)
        var names = members.map(\.username)
        func slot(_ id: Int64) -> Int {
            if let i = ids.firstIndex(of: id) { return i }
            ids.append(id); names.append("user \(id)")      // a payer or split row outside the member list
            return ids.count - 1
        }
        var paid = [Int64](repeating: 0, count: ids.count), share = paid, totalPaid = paid, totalShare = paid
        var settled = paid, totalSettled = paid
        func grow() {
            while paid.count < ids.count {
                paid.append(0); share.append(0); totalPaid.append(0); totalShare.append(0); settled.append(0); totalSettled.append(0)
            }
        }
        // Buffers reused for every expense: no allocation per row.
        var slots: [Int] = [], weights: [Int64] = [], alloc: [Int64] = [], remainders: [Int128] = [], userIds: [Int64] = []
        let cur = g.group.currency
        let expenses = g.expenses
        for i in expenses.indices where expenses[i].kind == .expense {
            let day = expenses[i].occurredAt.localDate(in: zone)
            guard day <= period.end else { continue }
            let tx = expenses[i]
            let inPeriod = day >= period.start
            let amount = try rates.convert(tx.amountMinor, from: tx.currency, to: cur, on: tx.ownerDate,
                                           user: viewer, transaction: tx.id, group: g.group.id)
            slots.removeAll(keepingCapacity: true); weights.removeAll(keepingCapacity: true)
            // The weights add up to `whole`: the split rows (adding up to the amount), or one each
            // for an equal split, so that the converted amount itself is split equally (remainder
            // units to the lowest user ids), not the amount split first in its own currency.
            var whole = tx.amountMinor
            if let rows = g.splits[tx.id], !rows.isEmpty {
                for r in rows where r.shareMinor > 0 { slots.append(slot(r.userId)); weights.append(r.shareMinor) }
            } else {
                for (k, m) in members.enumerated() where m.isMember(on: tx.ownerDate) { slots.append(k); weights.append(1) }
                if !slots.isEmpty { whole = Int64(slots.count) }
            }
            let payer = slot(tx.userId)
            grow()
            if slots.isEmpty { slots.append(payer); weights.append(tx.amountMinor) }   // nothing to share: stays with the payer
            // Allocate the converted amount in proportion to the weights.
            userIds.removeAll(keepingCapacity: true)
            for k in slots { userIds.append(ids[k]) }
            GroupShares.allocate(amount, whole: whole, weights: weights, userIds: userIds, into: &alloc, remainders: &remainders)
            totalPaid[payer] = try checkedAdd(totalPaid[payer], amount, user: viewer, transaction: tx.id)
            if inPeriod { paid[payer] = try checkedAdd(paid[payer], amount, user: viewer, transaction: tx.id) }
            for (k, s) in slots.enumerated() {
                totalShare[s] = try checkedAdd(totalShare[s], alloc[k], user: viewer, transaction: tx.id)
                if inPeriod { share[s] = try checkedAdd(share[s], alloc[k], user: viewer, transaction: tx.id) }
            }
        }
        // Settle-up payments: the payer has paid back (their balance rises), the payee was paid (theirs falls).
        var lines: [GroupPaymentLine] = []
        for p in g.payments {
            let day = p.occurredAt.localDate(in: zone)
            guard day <= period.end else { continue }
            let amount = try rates.convert(p.amountMinor, from: p.currency, to: cur, on: p.payerDate,
                                           user: viewer, transaction: nil, group: g.group.id)
            let from = slot(p.fromUserId), to = slot(p.toUserId)
            grow()
            totalSettled[from] = try checkedAdd(totalSettled[from], amount, user: viewer)
            totalSettled[to] = try checkedAdd(totalSettled[to], -amount, user: viewer)
            if day >= period.start {
                settled[from] = try checkedAdd(settled[from], amount, user: viewer)
                settled[to] = try checkedAdd(settled[to], -amount, user: viewer)
                lines.append(GroupPaymentLine(paymentId: p.id, date: day, fromUserId: p.fromUserId, fromUsername: names[from],
                                              toUserId: p.toUserId, toUsername: names[to], amount: amount))
            }
        }
        let order = ids.indices.sorted { ids[$0] < ids[$1] }
        var balances: [MemberBalance] = []
        for i in order {
            let owed = try checkedAdd(totalPaid[i] &- totalShare[i], totalSettled[i], user: viewer)
            balances.append(MemberBalance(userId: ids[i], username: names[i], paid: paid[i], share: share[i],
                                          net: paid[i] &- share[i], outstanding: owed, settled: settled[i]))
        }
        let plan = SettlementPlanner.plan(balances: balances.map { ($0.userId, $0.username, $0.outstanding) })
        return GroupFigures(groupId: g.group.id, name: g.group.name, currency: cur, members: balances, settlement: plan,
                            payments: lines)
    }
}
