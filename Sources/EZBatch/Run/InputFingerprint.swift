import EZCore
import EZLedger

/// A hash of everything that feeds one user's report: their rows, their groups' and children's
/// rows, the exchange rates, the period, the as-of date, the formats and the engine version.
///
/// Two runs with the same fingerprint would write the same files, so a re-run can skip the user
/// when the fingerprint is unchanged and the files on disk still match the manifest's hashes.
package enum InputFingerprint {
    /// The fingerprint of `ledger` for a report with the given settings, lower-case hex SHA-256.
    package static func of(_ ledger: UserLedger, settings: String, ratesDigest: String) -> String {
        var sink = ByteSink()
        sink.add(settings)
        sink.add(ratesDigest)
        sink.add(ledger)
        return sink.finalize()
    }

    /// The digest of the exchange rates that can reach `ledger`'s report read through `day` (see
    /// `StatementAnalytics.readThrough`): those between two currencies its rows use (the user's,
    /// their balances', transactions', groups', budgets', goals' and their children's), dated on
    /// or before `day`, and the rate rows the table left out (every report lists them).
    ///
    /// Not the whole table's digest: the app's feed adds rates every day, and with that digest
    /// each one re-rendered every statement on the next run, and `deliver` sent everyone their
    /// statement a second time (the PDF names the ledger's SHA-256, so its bytes had changed).
    package static func ratesDigest(for ledger: UserLedger, through day: CivilDate) -> String {
        var currencies: [Currency] = []
        func collect(_ l: UserLedger) {
            currencies.append(l.user.currency)
            currencies += l.balances.map(\.currency)
            currencies += l.transactions.map(\.currency)
            for g in l.groups {
                currencies.append(g.group.currency)
                currencies += g.expenses.map(\.currency)
                currencies += g.payments.map(\.currency)
            }
            currencies += l.budgets.map(\.currency)
            currencies += l.savingsGoals.map(\.currency)
            for child in l.children { collect(child) }
        }
        collect(ledger)
        var sink = ByteSink()
        ledger.rates.visit(among: currencies, through: day,
                           pair: { base, quote in sink.add(Int64(base)); sink.add(Int64(quote)) },
                           rate: { day, rate in sink.add(Int64(day)); sink.add(rate.significand); sink.add(rate.scale) })
        sink.add(ledger.rates.quarantined.count)
        for q in ledger.rates.quarantined { sink.add(q.table); sink.add(q.id); sink.add(q.reason) }
        return sink.finalize()
    }

    /// The digest of a rate table's contents, computed once per run.
    package static func digest(of rates: [String]) -> String {
        var sink = ByteSink()
        for r in rates { sink.add(r) }
        return sink.finalize()
    }
}

/// Hashes values written unambiguously (length-prefixed strings, fixed-width integers).
///
/// The bytes go to the hash in 64 KiB pieces, so memory stays flat whatever the ledger's size:
/// a user with 100,000 transactions writes ~20 MB, which was held whole (and copied as the
/// buffer grew) before it was hashed. The digest is that of the same bytes written whole.
struct ByteSink {
    /// Bytes written and not yet hashed.
    private(set) var bytes: [UInt8] = []
    private var hasher = FileDigest.Hasher()
    static let pieceSize = 1 << 16

    /// The digest of everything written, lower-case hex.
    func finalize() -> String {
        var hasher = self.hasher
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Hashes the buffered bytes once there is a piece's worth.
    private mutating func flushIfFull() {
        guard bytes.count >= Self.pieceSize else { return }
        hasher.update(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func add(_ s: String) { add(Int64(s.utf8.count)); bytes.append(contentsOf: s.utf8); flushIfFull() }
    mutating func add(_ s: String?) { if let s { add(Int64(1)); add(s) } else { add(Int64(0)) } }
    mutating func add(_ v: Int64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }; flushIfFull() }
    mutating func add(_ v: Int64?) { if let v { add(Int64(1)); add(v) } else { add(Int64(-1)); add(Int64(0)) } }
    mutating func add(_ v: Int) { add(Int64(v)) }
    mutating func add(_ d: CivilDate) { add(Int64(d.dayNumber)) }
    mutating func add(_ d: CivilDate?) { add(d.map { Int64($0.dayNumber) }) }
    mutating func add(_ t: LedgerTime) {
        switch t {
        case .instant(let ms): add(Int64(1)); add(ms)
        case .date(let d): add(Int64(2)); add(d)
        }
    }

    mutating func add(_ l: UserLedger) {
        let u = l.user
        // Not the e-mail address: no report shows it (`deliver` reads it from the ledger when it
        // sends), and with it a changed address re-rendered the statement, whose PDF then named
        // another ledger SHA-256, and `deliver` mailed the same statement a second time.
        add(u.id); add(u.username); add(u.role.rawValue); add(u.currency.code); add(u.zone.identifier)
        add(u.locale); add(u.bookName); add(u.monthlyLimitMinor); add(u.chartStyle.rawValue)
        // Added only when set, so that every calendar-month user's fingerprint stays what it was.
        if u.monthStartDay != 1 { add("month_start_day"); add(Int64(u.monthStartDay)) }
        add(l.balances.count)
        for b in l.balances { add(b.id); add(b.name); add(b.kind.rawValue); add(b.currency.code); add(b.openingMinor); add(b.createdAt) }
        add(l.categories.count)
        for c in l.categories { add(c.id); add(c.name); add(c.color); add(c.important ? 1 : 0); add(c.position) }
        add(l.transactions.count)
        for t in l.transactions { add(t) }
        add(l.groups.count)
        for g in l.groups {
            add(g.group.id); add(g.group.name); add(g.group.currency.code); add(g.group.ownerId)
            add(g.members.count)
            for m in g.members { add(m.userId); add(m.username); add(m.joinedOn); add(m.leftOn) }
            add(g.expenses.count)
            for t in g.expenses {
                add(t)
                let splits = g.splits[t.id] ?? []
                add(splits.count)
                for s in splits { add(s.userId); add(s.shareMinor) }
            }
            // Added only when there are any, so that fingerprints of groups without payments stay what they were.
            if !g.payments.isEmpty {
                add("group_payments"); add(g.payments.count)
                for p in g.payments {
                    add(p.id); add(p.fromUserId); add(p.toUserId); add(p.fromBalanceId); add(p.toBalanceId)
                    add(p.amountMinor); add(p.currency.code); add(p.occurredAt); add(p.payerDate)
                }
            }
        }
        add(l.budgets.count)
        for b in l.budgets {
            add(b.id); add(b.categoryId); add(b.period.rawValue); add(b.amountMinor); add(b.currency.code); add(b.startsOn); add(b.endsOn)
        }
        add(l.budgetTransfers.count)
        for t in l.budgetTransfers { add(t.id); add(t.fromCategoryId); add(t.toCategoryId); add(t.amountMinor); add(t.periodStart) }
        add(l.savingsGoals.count)
        for g in l.savingsGoals { add(g.id); add(g.name); add(g.targetMinor); add(g.currency.code); add(g.balanceId); add(g.dueOn) }
        add(l.family?.familyId); add(l.family?.familyName); add(l.family?.role.rawValue)
        add(l.children.count)
        for c in l.children { add(c) }
        add(l.quarantined.count)
        for q in l.quarantined { add(q.table); add(q.id); add(q.reason) }
    }

    mutating func add(_ t: Transaction) {
        add(t.id); add(t.userId); add(t.balanceId); add(t.categoryId); add(t.categoryName); add(t.groupId)
        add(t.kind.rawValue); add(t.toBalanceId); add(t.amountMinor); add(t.currency.code); add(t.occurredAt)
        add(t.ownerDate); add(t.method); add(t.description); add(t.recurrenceDays.map(Int64.init)); add(t.createdAt)
    }
}
