import EZCore

/// Group splits in the group's currency: each expense converted once (on its own date), then its
/// shares allocated by the largest-remainder method so that they add up to exactly the converted
/// amount — so every member's net, and the nets' sum (zero), reconcile to the cent.
///
/// `paid`, `share` and `net` cover the period (by the viewer's local date); `outstanding` covers
/// everything from the group's beginning to the period's end. Members who left keep their
/// history and balance.
enum GroupAnalytics {
    static func build(ledger: UserLedger, zone: ZoneRules, period: Period) throws(AnalyticsError) -> [GroupFigures] {
        try ledger.groups.sorted { $0.group.id < $1.group.id }.map { g throws(AnalyticsError) in
            try figures(for: g, viewer: ledger.user.id, rates: ledger.rates, zone: zone, period: period)
        }
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
        var paid: [Int64] = [], share: [Int64] = [], totalPaid: [Int64] = [], totalShare: [Int64] = []
        func grow() { while paid.count < ids.count { paid.append(0); share.append(0); totalPaid.append(0); totalShare.append(0) } }
        grow()
        let cur = g.group.currency
        for tx in g.expenses where tx.kind == .expense {
            let day = tx.occurredAt.localDate(in: zone)
            guard day <= period.end else { continue }
            let inPeriod = day >= period.start
            let amount = try rates.convert(tx.amountMinor, from: tx.currency, to: cur, on: tx.ownerDate,
                                           user: viewer, transaction: tx.id, group: g.group.id)
            let parts = GroupShares.shares(of: tx, members: members, splits: g.splits)
            let allocated = Apportion.largestRemainder(total: amount, weights: parts.map(\.share))
            let p = slot(tx.userId)
            var slots = parts.map { slot($0.userId) }
            grow()
            if parts.allSatisfy({ $0.share == 0 }) { slots = [p] }   // nothing to share: stays with the payer
            let alloc = parts.allSatisfy({ $0.share == 0 }) ? [amount] : allocated
            totalPaid[p] = try checkedAdd(totalPaid[p], amount, user: viewer, transaction: tx.id)
            if inPeriod { paid[p] = try checkedAdd(paid[p], amount, user: viewer, transaction: tx.id) }
            for (k, s) in slots.enumerated() {
                totalShare[s] = try checkedAdd(totalShare[s], alloc[k], user: viewer, transaction: tx.id)
                if inPeriod { share[s] = try checkedAdd(share[s], alloc[k], user: viewer, transaction: tx.id) }
            }
        }
        let order = ids.indices.sorted { ids[$0] < ids[$1] }
        let balances = order.map { i in
            MemberBalance(userId: ids[i], username: names[i], paid: paid[i], share: share[i], net: paid[i] &- share[i],
                          outstanding: totalPaid[i] &- totalShare[i])
        }
        let plan = SettlementPlanner.plan(balances: balances.map { ($0.userId, $0.username, $0.outstanding) })
        return GroupFigures(groupId: g.group.id, name: g.group.name, currency: cur, members: balances, settlement: plan)
    }
}
