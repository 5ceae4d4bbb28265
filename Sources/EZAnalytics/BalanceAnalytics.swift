import EZCore

/// Running balances: a balance's opening amount (from the day it was created) plus its incomes
/// and transfers in, minus everything paid or transferred out of it, in the balance's own
/// currency. Rows in another currency are converted on their own date (a transfer's arriving
/// amount into the destination's currency). A group expense leaves the payer's balance in full,
/// whatever the shares. A settle-up payment leaves the payer's named balance and reaches the
/// payee's, converted on the payer's date.
enum BalanceAnalytics {
    /// Each live balance's value at the end of each of `ends` (ascending), in the balance's currency.
    /// `days` holds each own transaction's local day (``LedgerView/ownDays``).
    static func series(ledger: UserLedger, days: [Int32], ends: [CivilDate]) throws(AnalyticsError) -> [BalanceSeries] {
        let n = ends.count
        let balances = ledger.balances
        guard n > 0 else {
            return balances.map { BalanceSeries(balanceId: $0.id, name: $0.name, kind: $0.kind, currency: $0.currency, values: []) }
        }
        var index: [Int64: Int] = [:]
        for (i, b) in balances.enumerated() { index[b.id] = i }
        var deltas = [Int64](repeating: 0, count: balances.count * n)
        let user = ledger.user.id
        let last = ends[n - 1]
        let txs = ledger.transactions
        for i in txs.indices {
            let day = CivilDate(dayNumber: days[i])
            guard day <= last else { continue }
            let from = txs[i].balanceId.flatMap { index[$0] }
            let to = txs[i].kind == .transfer ? txs[i].toBalanceId.flatMap { index[$0] } : nil
            guard from != nil || to != nil else { continue }
            let tx = txs[i]
            var lo = 0, hi = n - 1          // first end on or after `day`
            while lo < hi { let mid = (lo + hi) >> 1; if ends[mid] >= day { hi = mid } else { lo = mid + 1 } }
            if let f = from {
                let c = balances[f].currency
                let v = try ledger.rates.convert(tx.amountMinor, from: tx.currency, to: c, on: tx.ownerDate, user: user, transaction: tx.id)
                deltas[f * n + lo] = try checkedAdd(deltas[f * n + lo], tx.kind == .income ? v : -v, user: user, transaction: tx.id)
            }
            if let t = to {
                let c = balances[t].currency
                let v = try ledger.rates.convert(tx.amountMinor, from: tx.currency, to: c, on: tx.ownerDate, user: user, transaction: tx.id)
                deltas[t * n + lo] = try checkedAdd(deltas[t * n + lo], v, user: user, transaction: tx.id)
            }
        }
        for (day, balance, amount, payment) in settleUps(ledger) {
            guard day <= last, let b = index[balance] else { continue }
            var lo = 0, hi = n - 1
            while lo < hi { let mid = (lo + hi) >> 1; if ends[mid] >= day { hi = mid } else { lo = mid + 1 } }
            let v = try ledger.rates.convert(abs(amount), from: payment.currency, to: balances[b].currency, on: payment.payerDate,
                                             user: user, transaction: nil, group: payment.groupId)
            deltas[b * n + lo] = try checkedAdd(deltas[b * n + lo], amount < 0 ? -v : v, user: user)
        }
        var out: [BalanceSeries] = []
        out.reserveCapacity(balances.count)
        for (i, b) in balances.enumerated() {
            // The opening amount is what the balance held when it was created: it counts from
            // that day on, so a balance added later does not change an earlier period's figures.
            let opened = b.createdAt.localDate(in: ledger.user.zone)
            var running: Int64 = 0
            var open = false
            var values = [Int64](repeating: 0, count: n)
            for k in 0..<n {
                if !open, ends[k] >= opened {
                    running = try checkedAdd(running, b.openingMinor, user: user)
                    open = true
                }
                running = try checkedAdd(running, deltas[i * n + k], user: user)
                values[k] = running
            }
            out.append(BalanceSeries(balanceId: b.id, name: b.name, kind: b.kind, currency: b.currency, values: values))
        }
        return out
    }

    /// One balance's value at the end of `date` (opening plus everything in minus out), in `currency`
    /// (the balance's own, when it is not live: then only its rows count).
    static func value(of balanceId: Int64, ledger: UserLedger, zone: ZoneRules, days: [Int32], through date: CivilDate,
                      currency: Currency) throws(AnalyticsError) -> Int64 {
        let user = ledger.user.id
        var total: Int64 = 0
        // The opening amount counts from the day the balance was created (see ``series``).
        if let b = ledger.balances.first(where: { $0.id == balanceId }) {
            let opened = b.createdAt.localDate(in: zone)
            if opened <= date {
                total = try ledger.rates.convert(b.openingMinor, from: b.currency, to: currency, on: opened, user: user, transaction: nil)
            }
        }
        let txs = ledger.transactions
        for i in txs.indices where days[i] <= date.dayNumber
            && (txs[i].balanceId == balanceId || (txs[i].kind == .transfer && txs[i].toBalanceId == balanceId)) {
            let tx = txs[i]
            let v = try ledger.rates.convert(tx.amountMinor, from: tx.currency, to: currency, on: tx.ownerDate, user: user, transaction: tx.id)
            if tx.balanceId == balanceId { total = try checkedAdd(total, tx.kind == .income ? v : -v, user: user, transaction: tx.id) }
            if tx.kind == .transfer, tx.toBalanceId == balanceId { total = try checkedAdd(total, v, user: user, transaction: tx.id) }
        }
        for (day, balance, amount, payment) in settleUps(ledger) where balance == balanceId && day <= date {
            let v = try ledger.rates.convert(abs(amount), from: payment.currency, to: currency, on: payment.payerDate,
                                             user: user, transaction: nil, group: payment.groupId)
            total = try checkedAdd(total, amount < 0 ? -v : v, user: user)
        }
        return total
    }

    /// The user's own balances that settle-up payments move: (the user's local date, the balance,
    /// the amount in the payment's currency, negative when it leaves the balance, the payment).
    static func settleUps(_ ledger: UserLedger) -> [(CivilDate, Int64, Int64, GroupPayment)] {
        let me = ledger.user.id
        var out: [(CivilDate, Int64, Int64, GroupPayment)] = []
        for g in ledger.groups {
            for p in g.payments {
                let day = p.occurredAt.localDate(in: ledger.user.zone)
                if p.fromUserId == me, let b = p.fromBalanceId { out.append((day, b, -p.amountMinor, p)) }
                if p.toUserId == me, let b = p.toBalanceId { out.append((day, b, p.amountMinor, p)) }
            }
        }
        return out
    }
}
