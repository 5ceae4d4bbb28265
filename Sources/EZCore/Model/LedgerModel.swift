// The ledger's rows as validated Swift values.
//
// EZLedger reads SQLite rows, checks them against the contract (docs/ledger-schema.md) and hands
// these values on; rows that break the contract never become one of these: they are quarantined.
// Soft-deleted rows (deleted_at set) are dropped at read time and never appear here.

/// A person with an EZWallet account. `password_hash` and other users' e-mail never leave EZLedger.
package struct User: Hashable, Sendable {
    /// Whether the user is an ordinary user or an administrator.
    package enum Role: String, Sendable { case user, admin }
    /// How the user wants category shares drawn.
    package enum ChartStyle: String, Sendable { case pie, doughnut }

    package var id: Int64
    package var username: String
    /// The user's own e-mail: shown only in the user's own report.
    package var email: String
    package var role: Role
    /// The report currency.
    package var currency: Currency
    package var zone: ZoneRules
    /// POSIX-style locale, e.g. `it_IT`.
    package var locale: String
    /// The account book's title (`EZWallet` when the ledger has none).
    package var bookName: String
    /// The overall monthly expense limit, in `currency`, when set.
    package var monthlyLimitMinor: Int64?
    package var chartStyle: ChartStyle
    package var createdAt: LedgerTime
    /// Set for soft-deleted users (kept for the admin report's counts only).
    package var deletedAt: LedgerTime?
    /// The day (1…28) the user's months start on, in their time zone: their payday
    /// (`users.month_start_day`; 1 when the ledger has none).
    package var monthStartDay: Int

    package init(id: Int64, username: String, email: String, role: Role, currency: Currency, zone: ZoneRules,
                locale: String, bookName: String, monthlyLimitMinor: Int64?, chartStyle: ChartStyle,
                createdAt: LedgerTime, deletedAt: LedgerTime? = nil, monthStartDay: Int = 1) {
        self.id = id; self.username = username; self.email = email; self.role = role
        self.currency = currency; self.zone = zone; self.locale = locale; self.bookName = bookName
        self.monthlyLimitMinor = monthlyLimitMinor; self.chartStyle = chartStyle
        self.createdAt = createdAt; self.deletedAt = deletedAt; self.monthStartDay = monthStartDay
    }

    package static func == (a: User, b: User) -> Bool { a.id == b.id && a.username == b.username }
    package func hash(into h: inout Hasher) { h.combine(id) }
}

/// Somewhere a user keeps money: cash, a card, a bank or savings account, a child's allowance.
package struct Balance: Hashable, Sendable {
    package enum Kind: String, Sendable { case `default`, allowance, cash, card, bank, savings }
    package var id: Int64
    package var userId: Int64
    package var name: String
    package var kind: Kind
    package var currency: Currency
    package var openingMinor: Int64
    package var createdAt: LedgerTime
    package init(id: Int64, userId: Int64, name: String, kind: Kind, currency: Currency, openingMinor: Int64, createdAt: LedgerTime) {
        self.id = id; self.userId = userId; self.name = name; self.kind = kind
        self.currency = currency; self.openingMinor = openingMinor; self.createdAt = createdAt
    }
}

/// A user's expense or income category.
package struct Category: Hashable, Sendable {
    package var id: Int64
    package var userId: Int64
    package var name: String
    /// `#RRGGBB` from the app, when the user chose one.
    package var color: String?
    package var important: Bool
    package var position: Int
    package init(id: Int64, userId: Int64, name: String, color: String?, important: Bool, position: Int) {
        self.id = id; self.userId = userId; self.name = name; self.color = color
        self.important = important; self.position = position
    }
    /// The name every user has and that uncategorised rows count under.
    package static let othersName = "Others"
}

/// One income, expense or transfer row.
package struct Transaction: Hashable, Sendable {
    package enum Kind: String, Sendable { case expense, income, transfer }
    package var id: Int64
    /// The owner; for a group expense, the member who paid.
    package var userId: Int64
    package var balanceId: Int64?
    /// nil when the row has no category or its category was deleted: it counts as 'Others'.
    package var categoryId: Int64?
    /// The category's name as the owner sees it ('Others' when none), for matching group shares by name.
    package var categoryName: String
    package var groupId: Int64?
    package var kind: Kind
    package var toBalanceId: Int64?
    package var amountMinor: Int64
    package var currency: Currency
    package var occurredAt: LedgerTime
    /// `occurredAt` as a date in the owner's time zone: the date its exchange rate is taken on.
    package var ownerDate: CivilDate
    package var method: String?
    package var description: String?
    package var recurrenceDays: Int?
    package var createdAt: LedgerTime

    package init(id: Int64, userId: Int64, balanceId: Int64?, categoryId: Int64?, categoryName: String, groupId: Int64?,
                kind: Kind, toBalanceId: Int64?, amountMinor: Int64, currency: Currency, occurredAt: LedgerTime,
                ownerDate: CivilDate, method: String?, description: String?, recurrenceDays: Int?, createdAt: LedgerTime) {
        self.id = id; self.userId = userId; self.balanceId = balanceId; self.categoryId = categoryId
        self.categoryName = categoryName; self.groupId = groupId; self.kind = kind; self.toBalanceId = toBalanceId
        self.amountMinor = amountMinor; self.currency = currency; self.occurredAt = occurredAt; self.ownerDate = ownerDate
        self.method = method; self.description = description; self.recurrenceDays = recurrenceDays; self.createdAt = createdAt
    }
}

/// A group of friends sharing costs.
package struct Group: Hashable, Sendable {
    package var id: Int64
    package var name: String
    package var ownerId: Int64
    package var currency: Currency
    package var createdAt: LedgerTime
    package init(id: Int64, name: String, ownerId: Int64, currency: Currency, createdAt: LedgerTime) {
        self.id = id; self.name = name; self.ownerId = ownerId; self.currency = currency; self.createdAt = createdAt
    }
}

/// A user's membership of a group, with the local dates it ran (left is exclusive).
package struct GroupMember: Hashable, Sendable {
    package var groupId: Int64
    package var userId: Int64
    /// Shown to other members of the group; never an e-mail.
    package var username: String
    /// First local date (member's zone) on which the member shares expenses.
    package var joinedOn: CivilDate
    /// First local date on which the member no longer shares expenses, if they left.
    package var leftOn: CivilDate?
    package init(groupId: Int64, userId: Int64, username: String, joinedOn: CivilDate, leftOn: CivilDate?) {
        self.groupId = groupId; self.userId = userId; self.username = username; self.joinedOn = joinedOn; self.leftOn = leftOn
    }
    /// Whether the member shares an expense dated `date`.
    package func isMember(on date: CivilDate) -> Bool { date >= joinedOn && (leftOn.map { date < $0 } ?? true) }
}

/// A split row: one member's share of a group expense, in the expense's currency.
package struct Split: Hashable, Sendable {
    package var transactionId: Int64
    package var userId: Int64
    package var shareMinor: Int64
    package init(transactionId: Int64, userId: Int64, shareMinor: Int64) {
        self.transactionId = transactionId; self.userId = userId; self.shareMinor = shareMinor
    }
}

/// A settle-up payment: one member of a group paying another back (`group_payments`).
///
/// Neither income nor expense for either member (like a transfer): it moves both members'
/// outstanding balances in the group and, where a balance is named, that balance over time.
package struct GroupPayment: Hashable, Sendable {
    package var id: Int64
    package var groupId: Int64
    /// The member who pays.
    package var fromUserId: Int64
    /// The member who is paid.
    package var toUserId: Int64
    /// The payer's balance the money leaves, when given (one of the payer's balances).
    package var fromBalanceId: Int64?
    /// The payee's balance the money reaches, when given (one of the payee's balances).
    package var toBalanceId: Int64?
    package var amountMinor: Int64
    package var currency: Currency
    package var occurredAt: LedgerTime
    /// `occurredAt` as a date in the payer's time zone: the date its exchange rates are taken on.
    package var payerDate: CivilDate
    package var createdAt: LedgerTime

    package init(id: Int64, groupId: Int64, fromUserId: Int64, toUserId: Int64, fromBalanceId: Int64?, toBalanceId: Int64?,
                amountMinor: Int64, currency: Currency, occurredAt: LedgerTime, payerDate: CivilDate, createdAt: LedgerTime) {
        self.id = id; self.groupId = groupId; self.fromUserId = fromUserId; self.toUserId = toUserId
        self.fromBalanceId = fromBalanceId; self.toBalanceId = toBalanceId; self.amountMinor = amountMinor
        self.currency = currency; self.occurredAt = occurredAt; self.payerDate = payerDate; self.createdAt = createdAt
    }
}

/// A family and a member's role in it.
package struct FamilyMember: Hashable, Sendable {
    package enum Role: String, Sendable { case parent, child }
    package var familyId: Int64
    package var familyName: String
    package var userId: Int64
    package var role: Role
    package init(familyId: Int64, familyName: String, userId: Int64, role: Role) {
        self.familyId = familyId; self.familyName = familyName; self.userId = userId; self.role = role
    }
}

/// A spending budget for a category (or overall when `categoryId` is nil).
package struct Budget: Hashable, Sendable {
    package enum Period: String, Sendable { case week, month, year }
    package var id: Int64
    package var userId: Int64
    package var categoryId: Int64?
    package var period: Period
    package var amountMinor: Int64
    package var currency: Currency
    package var startsOn: CivilDate
    /// Inclusive.
    package var endsOn: CivilDate?
    package init(id: Int64, userId: Int64, categoryId: Int64?, period: Period, amountMinor: Int64,
                currency: Currency, startsOn: CivilDate, endsOn: CivilDate?) {
        self.id = id; self.userId = userId; self.categoryId = categoryId; self.period = period
        self.amountMinor = amountMinor; self.currency = currency; self.startsOn = startsOn; self.endsOn = endsOn
    }

    /// The budget's windows as time-series buckets: ISO weeks, months from the user's
    /// `month_start_day`, calendar years.
    package var window: BucketKind {
        switch period {
        case .week: return .week
        case .month: return .month
        case .year: return .year
        }
    }

    /// The first day of the budget's first window (the window holding `startsOn`). A budget in
    /// another currency is converted at each window's first day, so its first needs a rate on or
    /// before this day: the contract quarantines one without.
    package func firstWindowStart(monthStartDay: Int) -> CivilDate {
        window.start(of: startsOn, monthStartDay: monthStartDay)
    }
}

/// Budget moved from one category to another for one budget window.
package struct BudgetTransfer: Hashable, Sendable {
    package var id: Int64
    package var userId: Int64
    package var fromCategoryId: Int64
    package var toCategoryId: Int64
    package var amountMinor: Int64
    /// The first day of the budget window it changes.
    package var periodStart: CivilDate
    package init(id: Int64, userId: Int64, fromCategoryId: Int64, toCategoryId: Int64, amountMinor: Int64, periodStart: CivilDate) {
        self.id = id; self.userId = userId; self.fromCategoryId = fromCategoryId; self.toCategoryId = toCategoryId
        self.amountMinor = amountMinor; self.periodStart = periodStart
    }
}

/// A savings target funded by one savings balance.
package struct SavingsGoal: Hashable, Sendable {
    package var id: Int64
    package var userId: Int64
    package var name: String
    package var targetMinor: Int64
    package var currency: Currency
    package var balanceId: Int64
    package var dueOn: CivilDate?
    package init(id: Int64, userId: Int64, name: String, targetMinor: Int64, currency: Currency, balanceId: Int64, dueOn: CivilDate?) {
        self.id = id; self.userId = userId; self.name = name; self.targetMinor = targetMinor
        self.currency = currency; self.balanceId = balanceId; self.dueOn = dueOn
    }
}

/// A row left out of every figure because it breaks the ledger contract.
package struct QuarantinedRow: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The ledger table, e.g. `transactions`.
    package var table: String
    /// The row's id (for `splits` and `group_members`, the first key column).
    package var id: Int64
    /// One line saying what is wrong, e.g. `unknown kind 'refund'`.
    package var reason: String
    package init(table: String, id: Int64, reason: String) { self.table = table; self.id = id; self.reason = reason }
    package var description: String { "\(table) #\(id): \(reason)" }
    package static func < (a: QuarantinedRow, b: QuarantinedRow) -> Bool {
        (a.table, a.id, a.reason) < (b.table, b.id, b.reason)
    }
}
