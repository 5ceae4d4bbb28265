import EZCore

/// What `ezreport check` reports about a ledger: rows per table and every quarantined row.
package struct LedgerHealth: Sendable {
    /// Rows per contract table (all rows, soft-deleted included), in contract order.
    package var rowCounts: [(table: String, rows: Int)]
    /// Every row that breaks the contract, sorted by table, id and reason.
    package var quarantined: [QuarantinedRow]
    /// Whether no row was quarantined.
    package var isClean: Bool { quarantined.isEmpty }

    /// Quarantined rows grouped by table and reason, largest group first, with the first ids of each.
    package func groupedQuarantine(firstIds: Int = 5) -> [(table: String, reason: String, count: Int, firstIds: [Int64])] {
        var groups: [String: (table: String, reason: String, ids: [Int64])] = [:]
        for q in quarantined {
            let key = q.table + "\u{0}" + Self.reasonShape(q.reason)
            groups[key, default: (q.table, Self.reasonShape(q.reason), [])].ids.append(q.id)
        }
        return groups.values
            .map { ($0.table, $0.reason, $0.ids.count, Array($0.ids.sorted().prefix(firstIds))) }
            .sorted { ($1.2, $0.0, $0.1) < ($0.2, $1.0, $1.1) }
    }

    /// The reason with quoted values and numeric tokens (ids, amounts, dates) blanked, so that rows
    /// with the same problem group together: `splits add up to 900, not the amount 1000` →
    /// `splits add up to #, not the amount #`. Words that contain digits (`ISO-8601`) are kept.
    /// A reason that ends with the row's value in `(got …)` states its rule before it, so only the
    /// value is blanked there: `month_start_day must be an integer from 1 to 28 (got 31)` →
    /// `… from 1 to 28 (got #)`, not a rule that reads `from # to #`.
    static func reasonShape(_ reason: String) -> String {
        if let got = reason.range(of: " (got ", options: .backwards) {
            return String(reason[..<got.lowerBound]) + " (got " + valuesBlanked(String(reason[got.upperBound...]))
        }
        return valuesBlanked(reason)
    }

    /// `text` with quoted values and numeric tokens blanked (see ``reasonShape(_:)``).
    private static func valuesBlanked(_ reason: String) -> String {
        // A quote opens at a ' that follows no letter and closes at a ' that no letter follows:
        // the apostrophe of "the user's" is text, not a quote (it garbled the reason).
        var unquoted = ""
        var inQuote = false
        let chars = Array(reason)
        for (i, ch) in chars.enumerated() {
            if ch == "'" {
                let afterLetter = i > 0 && chars[i - 1].isLetter
                let beforeLetter = i + 1 < chars.count && chars[i + 1].isLetter
                if !inQuote && !afterLetter { inQuote = true; unquoted += "'…'"; continue }
                if inQuote && !beforeLetter { inQuote = false; continue }
            }
            if !inQuote { unquoted.append(ch) }
        }
        return unquoted.split(separator: " ", omittingEmptySubsequences: false).map { token -> String in
            guard let first = token.first, first.isNumber || (first == "-" && token.dropFirst().first?.isNumber == true) else {
                return String(token)
            }
            let trailing = token.reversed().prefix { !$0.isNumber && !$0.isLetter }
            return "#" + String(trailing.reversed())
        }.joined(separator: " ")
    }
}

extension LedgerHealth {
    /// Validates every row of the ledger with the same rules the reports use.
    ///
    /// Each live user's slice is loaded as a report would load it, so `check` quarantines exactly
    /// the rows a report leaves out; rows no user's report would reach (a transaction whose
    /// user does not exist, a user row that breaks the contract) are found by direct queries.
    static func scan<Reader: LedgerReading>(_ reader: Reader, rates: RateTable, features: LedgerFeatures, path: String,
                                            quarantinedRates: [QuarantinedRow]) throws -> LedgerHealth {
        let far = CivilDate(year: 9999, month: 12, day: 29)
        var counts: [(String, Int)] = []
        for (table, _) in LedgerContract.tables {
            counts.append((table, try reader.count(table)))
        }
        if features.groupPayments { counts.append(("group_payments", try reader.count("group_payments"))) }
        var bad = Set(quarantinedRates)
        var validator = RowValidator(rates: rates, features: features)
        var live: [Int64] = []
        let users = try reader.rows(validator.allUserRows, [])
        while try users.next() {
            let id = users.int64(0)
            switch try validator.user(users) {
            case .quarantined(let why): bad.insert(QuarantinedRow(table: "users", id: id, reason: why))
            case .ignored: break
            case .valid(let user): if user.deletedAt == nil { live.append(id) }
            }
        }
        for id in live {
            var loader = UserLoader(reader: reader, rates: rates, features: features, through: far, path: path)
            _ = try loader.load(userId: id, withChildren: false)
            bad.formUnion(loader.quarantined)
        }
        // The optional statement_email column: 0, 1 or NULL (a user with another value gets no e-mail).
        if try reader.hasColumn("users", "statement_email") {
            let flags = try reader.rows(.statementEmails, [])
            while try flags.next() {
                if case .invalid(let why) = RowValidator.statementEmail(flags, 1) {
                    bad.insert(QuarantinedRow(table: "users", id: flags.int64(0), reason: why))
                }
            }
        }
        bad.formUnion(try rowsOfNoUser(reader, features: features))
        return LedgerHealth(rowCounts: counts, quarantined: bad.sorted())
    }

    /// Rows no user's report reaches, found by direct queries: transactions of users that do not
    /// exist, family members who do not exist, members and settle-up payments of groups that do
    /// not exist.
    /// The reports leave them out as `check` does; a command counts them in its quarantine (and
    /// exit code 3) through ``LedgerStore/quarantinedOutsideUsers()``.
    static func rowsOfNoUser<Reader: LedgerReading>(_ reader: Reader, features: LedgerFeatures) throws -> Set<QuarantinedRow> {
        var rows = Set<QuarantinedRow>()
        // Rows of users that do not exist (or whose user row is quarantined): no report reaches them.
        let orphans = try reader.rows(.orphanTransactions, [])
        while try orphans.next() {
            rows.insert(QuarantinedRow(table: "transactions", id: orphans.int64(0), reason: TransactionRules.missingUser(orphans.int64(1))))
        }
        // Family members who do not exist: no report shows them, and a parent's family view would
        // silently lack them (the contract quarantines "a member who does not exist").
        let ghosts = try reader.rows(.orphanFamilyMembers, [])
        while try ghosts.next() {
            rows.insert(QuarantinedRow(table: "family_members", id: ghosts.int64(0),
                                      reason: "member user_id \(ghosts.int64(1)) does not exist"))
        }
        // Memberships of a group that does not exist (its `groups` row deleted, its members' left
        // behind): no report reads them, and `check` names them as it names a family's.
        let strays = try reader.rows(.orphanGroupMembers, [])
        while try strays.next() {
            rows.insert(QuarantinedRow(table: "group_members", id: strays.int64(0),
                                      reason: "group \(strays.int64(0)) does not exist (user \(strays.int64(1)))"))
        }
        // Settle-up payments of a group that does not exist: no member's report reaches them.
        if features.groupPayments {
            let payments = try reader.rows(.orphanGroupPayments, [])
            while try payments.next() {
                rows.insert(QuarantinedRow(table: "group_payments", id: payments.int64(0),
                                          reason: RowValidator.paymentOfMissingGroup(payments.int64(1))))
            }
        }
        return rows
    }
}
