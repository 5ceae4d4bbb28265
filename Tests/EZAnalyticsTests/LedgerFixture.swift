import EZCore
@testable import EZAnalytics

// Small hand-made ledgers for the analytics tests.

let eur = Currency.eur
let usd = try! Currency("USD")
let jpy = try! Currency("JPY")
let rome = try! ZoneRules.named("Europe/Rome")!
let newYork = try! ZoneRules.named("America/New_York")!

/// `YYYY-MM-DD` as a date.
func day(_ s: String) -> CivilDate { CivilDate(iso: s)! }
/// A contract timestamp.
func at(_ s: String) -> LedgerTime { LedgerTime(parsing: s)! }
/// A month period such as `2026-10`.
func month(_ s: String) -> Period { try! Period.parse(s, asOf: day("2026-01-01")) }

/// Builds one user's ledger row by row.
struct LedgerFixture {
    var ledger: UserLedger
    var nextId: Int64 = 1000
    static let groceries: Int64 = 10, rent: Int64 = 11, fun: Int64 = 12, others: Int64 = 13
    static let wallet: Int64 = 100, savings: Int64 = 101

    init(id: Int64 = 1, name: String = "ann", currency: Currency = eur, zone: ZoneRules = rome,
         created: String = "2025-01-01T00:00:00Z", monthlyLimit: Int64? = nil) {
        let user = User(id: id, username: name, email: "\(name)@example.com", role: .user, currency: currency, zone: zone,
                        locale: "it_IT", bookName: "EZWallet", monthlyLimitMinor: monthlyLimit, chartStyle: .pie,
                        createdAt: at(created))
        let c = id * 100
        ledger = UserLedger(
            user: user,
            balances: [Balance(id: id * 1000 + 100, userId: id, name: "Wallet", kind: .cash, currency: currency, openingMinor: 0, createdAt: at(created)),
                       Balance(id: id * 1000 + 101, userId: id, name: "Savings", kind: .savings, currency: currency, openingMinor: 0, createdAt: at(created))],
            categories: [Category(id: c + 10, userId: id, name: "Groceries", color: "#00AA00", important: false, position: 0),
                         Category(id: c + 11, userId: id, name: "Rent", color: nil, important: true, position: 1),
                         Category(id: c + 12, userId: id, name: "Fun", color: nil, important: false, position: 2),
                         Category(id: c + 13, userId: id, name: "Others", color: nil, important: false, position: 3)])
        nextId = id * 100_000
    }

    var userId: Int64 { ledger.user.id }
    func category(_ local: Int64) -> Int64 { userId * 100 + local }
    func balance(_ local: Int64) -> Int64 { userId * 1000 + local }

    /// A transaction owned by this fixture's user (not yet added).
    mutating func make(_ kind: Transaction.Kind, _ amount: Int64, _ time: String, category: Int64? = groceries,
                       currency: Currency? = nil, balance: Int64? = wallet, to: Int64? = nil, group: Int64? = nil,
                       recurring: Int? = nil, description: String? = nil) -> Transaction {
        nextId += 1
        let t = at(time)
        let cat = category.map { self.category($0) }
        let name = cat.flatMap { id in ledger.categories.first { $0.id == id }?.name } ?? "Others"
        return Transaction(id: nextId, userId: userId, balanceId: balance.map { self.balance($0) }, categoryId: cat,
                           categoryName: name, groupId: group, kind: kind, toBalanceId: to.map { self.balance($0) },
                           amountMinor: amount, currency: currency ?? ledger.user.currency, occurredAt: t,
                           ownerDate: t.localDate(in: ledger.user.zone), method: "card", description: description,
                           recurrenceDays: recurring, createdAt: t)
    }

    /// Adds an own row and returns its id.
    @discardableResult
    mutating func add(_ kind: Transaction.Kind, _ amount: Int64, _ time: String, category: Int64? = groceries,
                      currency: Currency? = nil, balance: Int64? = wallet, to: Int64? = nil, recurring: Int? = nil) -> Int64 {
        let tx = make(kind, amount, time, category: category, currency: currency, balance: balance, to: to, recurring: recurring)
        ledger.transactions.append(tx)
        ledger.transactions.sort { ($0.occurredAt.sortKey, $0.id) < ($1.occurredAt.sortKey, $1.id) }
        return tx.id
    }

    /// Rates: 1 EUR = `usdPerEur` USD from `since`.
    mutating func rate(_ base: String, _ quote: String, _ rate: String, since: String = "2020-01-01") {
        ledger.rates.add(day: day(since), base: try! Currency(base), quote: try! Currency(quote), rate: DecimalRate(decimalString: rate)!)
        ledger.rates.finish()
    }
}

/// A group expense paid by `payer` (a member with `zone`), in the group's ledger.
func groupExpense(id: Int64, payer: Int64, amount: Int64, time: String, group: Int64, category: String = "Groceries",
                  currency: Currency = eur, zone: ZoneRules = rome) -> Transaction {
    let t = at(time)
    return Transaction(id: id, userId: payer, balanceId: nil, categoryId: nil, categoryName: category, groupId: group,
                       kind: .expense, toBalanceId: nil, amountMinor: amount, currency: currency, occurredAt: t,
                       ownerDate: t.localDate(in: zone), method: nil, description: "shared", recurrenceDays: nil, createdAt: t)
}

/// A member who joined on 2025-01-01 unless told otherwise.
func member(_ user: Int64, _ name: String, group: Int64 = 1, joined: String = "2025-01-01", left: String? = nil) -> GroupMember {
    GroupMember(groupId: group, userId: user, username: name, joinedOn: day(joined), leftOn: left.map(day))
}
