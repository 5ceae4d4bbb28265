// The ledger's rows as validated Swift values.
//
// EZLedger reads SQLite rows, checks them against the contract (docs/ledger-schema.md) and hands
// these values on; rows that break the contract never become one of these: they are quarantined.
// Soft-deleted rows (deleted_at set) are dropped at read time and never appear here.

/// A person with an EZWallet account. `password_hash` and other users' e-mail never leave EZLedger.
public struct User: Hashable, Sendable {
    /// Whether the user is an ordinary user or an administrator.
    public enum Role: String, Sendable { case user, admin }
    /// How the user wants category shares drawn.
    public enum ChartStyle: String, Sendable { case pie, doughnut }

    public var id: Int64
    public var username: String
    /// The user's own e-mail: shown only in the user's own report.
    public var email: String
    public var role: Role
    /// The report currency.
    public var currency: Currency
    public var zone: ZoneRules
    /// POSIX-style locale, e.g. `it_IT`.
    public var locale: String
    /// The account book's title (`EZWallet` when the ledger has none).
    public var bookName: String
    /// The overall monthly expense limit, in `currency`, when set.
    public var monthlyLimitMinor: Int64?
    public var chartStyle: ChartStyle
    public var createdAt: LedgerTime
    /// Set for soft-deleted users (kept for the admin report's counts only).
    public var deletedAt: LedgerTime?

    public init(id: Int64, username: String, email: String, role: Role, currency: Currency, zone: ZoneRules,
                locale: String, bookName: String, monthlyLimitMinor: Int64?, chartStyle: ChartStyle,
                createdAt: LedgerTime, deletedAt: LedgerTime? = nil) {
        self.id = id; self.username = username; self.email = email; self.role = role
        self.currency = currency; self.zone = zone; self.locale = locale; self.bookName = bookName
        self.monthlyLimitMinor = monthlyLimitMinor; self.chartStyle = chartStyle
        self.createdAt = createdAt; self.deletedAt = deletedAt
    }

    public static func == (a: User, b: User) -> Bool { a.id == b.id && a.username == b.username }
    public func hash(into h: inout Hasher) { h.combine(id) }
}

/// Somewhere a user keeps money: cash, a card, a bank or savings account, a child's allowance.
public struct Balance: Hashable, Sendable {
    public enum Kind: String, Sendable { case `default`, allowance, cash, card, bank, savings }
    public var id: Int64
    public var userId: Int64
    public var name: String
    public var kind: Kind
    public var currency: Currency
    public var openingMinor: Int64
    public var createdAt: LedgerTime
    public init(id: Int64, userId: Int64, name: String, kind: Kind, currency: Currency, openingMinor: Int64, createdAt: LedgerTime) {
        self.id = id; self.userId = userId; self.name = name; self.kind = kind
        self.currency = currency; self.openingMinor = openingMinor; self.createdAt = createdAt
    }
}

/// A user's expense or income category.
public struct Category: Hashable, Sendable {
    public var id: Int64
    public var userId: Int64
    public var name: String
    /// `#RRGGBB` from the app, when the user chose one.
    public var color: String?
    public var important: Bool
    public var position: Int
    public init(id: Int64, userId: Int64, name: String, color: String?, important: Bool, position: Int) {
        self.id = id; self.userId = userId; self.name = name; self.color = color
        self.important = important; self.position = position
    }
    /// The name every user has and that uncategorised rows count under.
    public static let othersName = "Others"
}

/// One income, expense or transfer row.
public struct Transaction: Hashable, Sendable {
    public enum Kind: String, Sendable { case expense, income, transfer }
    public var id: Int64
    /// The owner; for a group expense, the member who paid.
    public var userId: Int64
    public var balanceId: Int64?
    /// nil when the row has no category or its category was deleted: it counts as 'Others'.
    public var categoryId: Int64?
    /// The category's name as the owner sees it ('Others' when none), for matching group shares by name.
    public var categoryName: String
    public var groupId: Int64?
    public var kind: Kind
    public var toBalanceId: Int64?
    public var amountMinor: Int64
    public var currency: Currency
    public var occurredAt: LedgerTime
    /// `occurredAt` as a date in the owner's time zone: the date its exchange rate is taken on.
    public var ownerDate: CivilDate
    public var method: String?
    public var description: String?
    public var recurrenceDays: Int?
    public var createdAt: LedgerTime

    public init(id: Int64, userId: Int64, balanceId: Int64?, categoryId: Int64?, categoryName: String, groupId: Int64?,
                kind: Kind, toBalanceId: Int64?, amountMinor: Int64, currency: Currency, occurredAt: LedgerTime,
                ownerDate: CivilDate, method: String?, description: String?, recurrenceDays: Int?, createdAt: LedgerTime) {
        self.id = id; self.userId = userId; self.balanceId = balanceId; self.categoryId = categoryId
        self.categoryName = categoryName; self.groupId = groupId; self.kind = kind; self.toBalanceId = toBalanceId
        self.amountMinor = amountMinor; self.currency = currency; self.occurredAt = occurredAt; self.ownerDate = ownerDate
        self.method = method; self.description = description; self.recurrenceDays = recurrenceDays; self.createdAt = createdAt
    }
}

/// A group of friends sharing costs.
public struct Group: Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var ownerId: Int64
    public var currency: Currency
    public var createdAt: LedgerTime
    public init(id: Int64, name: String, ownerId: Int64, currency: Currency, createdAt: LedgerTime) {
        self.id = id; self.name = name; self.ownerId = ownerId; self.currency = currency; self.createdAt = createdAt
    }
}

/// A user's membership of a group, with the local dates it ran (left is exclusive).
public struct GroupMember: Hashable, Sendable {
    public var groupId: Int64
    public var userId: Int64
    /// Shown to other members of the group; never an e-mail.
    public var username: String
    /// First local date (member's zone) on which the member shares expenses.
    public var joinedOn: CivilDate
    /// First local date on which the member no longer shares expenses, if they left.
    public var leftOn: CivilDate?
    public init(groupId: Int64, userId: Int64, username: String, joinedOn: CivilDate, leftOn: CivilDate?) {
        self.groupId = groupId; self.userId = userId; self.username = username; self.joinedOn = joinedOn; self.leftOn = leftOn
    }
    /// Whether the member shares an expense dated `date`.
    public func isMember(on date: CivilDate) -> Bool { date >= joinedOn && (leftOn.map { date < $0 } ?? true) }
}

/// A split row: one member's share of a group expense, in the expense's currency.
public struct Split: Hashable, Sendable {
    public var transactionId: Int64
    public var userId: Int64
    public var shareMinor: Int64
    public init(transactionId: Int64, userId: Int64, shareMinor: Int64) {
        self.transactionId = transactionId; self.userId = userId; self.shareMinor = shareMinor
    }
}

/// A family and a member's role in it.
public struct FamilyMember: Hashable, Sendable {
    public enum Role: String, Sendable { case parent, child }
    public var familyId: Int64
    public var familyName: String
    public var userId: Int64
    public var role: Role
    public init(familyId: Int64, familyName: String, userId: Int64, role: Role) {
        self.familyId = familyId; self.familyName = familyName; self.userId = userId; self.role = role
    }
}

/// A spending budget for a category (or overall when `categoryId` is nil).
public struct Budget: Hashable, Sendable {
    public enum Period: String, Sendable { case week, month, year }
    public var id: Int64
    public var userId: Int64
    public var categoryId: Int64?
    public var period: Period
    public var amountMinor: Int64
    public var currency: Currency
    public var startsOn: CivilDate
    /// Inclusive.
    public var endsOn: CivilDate?
    public init(id: Int64, userId: Int64, categoryId: Int64?, period: Period, amountMinor: Int64,
                currency: Currency, startsOn: CivilDate, endsOn: CivilDate?) {
        self.id = id; self.userId = userId; self.categoryId = categoryId; self.period = period
        self.amountMinor = amountMinor; self.currency = currency; self.startsOn = startsOn; self.endsOn = endsOn
    }
}

/// Budget moved from one category to another for one budget window.
public struct BudgetTransfer: Hashable, Sendable {
    public var id: Int64
    public var userId: Int64
    public var fromCategoryId: Int64
    public var toCategoryId: Int64
    public var amountMinor: Int64
    /// The first day of the budget window it changes.
    public var periodStart: CivilDate
    public init(id: Int64, userId: Int64, fromCategoryId: Int64, toCategoryId: Int64, amountMinor: Int64, periodStart: CivilDate) {
        self.id = id; self.userId = userId; self.fromCategoryId = fromCategoryId; self.toCategoryId = toCategoryId
        self.amountMinor = amountMinor; self.periodStart = periodStart
    }
}

/// A savings target funded by one savings balance.
public struct SavingsGoal: Hashable, Sendable {
    public var id: Int64
    public var userId: Int64
    public var name: String
    public var targetMinor: Int64
    public var currency: Currency
    public var balanceId: Int64
    public var dueOn: CivilDate?
    public init(id: Int64, userId: Int64, name: String, targetMinor: Int64, currency: Currency, balanceId: Int64, dueOn: CivilDate?) {
        self.id = id; self.userId = userId; self.name = name; self.targetMinor = targetMinor
        self.currency = currency; self.balanceId = balanceId; self.dueOn = dueOn
    }
}

/// A row left out of every figure because it breaks the ledger contract.
public struct QuarantinedRow: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The ledger table, e.g. `transactions`.
    public var table: String
    /// The row's id (for `splits` and `group_members`, the first key column).
    public var id: Int64
    /// One line saying what is wrong, e.g. `unknown kind 'refund'`.
    public var reason: String
    public init(table: String, id: Int64, reason: String) { self.table = table; self.id = id; self.reason = reason }
    public var description: String { "\(table) #\(id): \(reason)" }
    public static func < (a: QuarantinedRow, b: QuarantinedRow) -> Bool {
        (a.table, a.id, a.reason) < (b.table, b.id, b.reason)
    }
}
