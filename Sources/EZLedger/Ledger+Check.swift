import EZCore
import GRDB

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
    static func reasonShape(_ reason: String) -> String {
        var unquoted = ""
        var inQuote = false
        for ch in reason {
            if ch == "'" { inQuote.toggle(); if inQuote { unquoted += "'…'" }; continue }
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

extension Ledger {
    /// Validates every row of the ledger with the same rules the reports use.
    ///
    /// Each live user's slice is loaded as a report would load it, so `check` quarantines exactly
    /// the rows a report leaves out; rows no user's report would reach (a transaction whose
    /// user does not exist, a user row that breaks the contract) are found by direct queries.
    package func health() throws(LedgerError) -> LedgerHealth {
        let far = CivilDate(year: 9999, month: 12, day: 29)
        let rates = self.rates, features = self.features
        let path = self.path
        return try read { db in
            var counts: [(String, Int)] = []
            for (table, _) in LedgerContract.tables {
                counts.append((table, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0))
            }
            if features.groupPayments {
                counts.append(("group_payments", try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM group_payments") ?? 0))
            }
            var bad = Set(quarantinedRates)
            var validator = RowValidator(rates: rates, features: features)
            let users = try Row.fetchAll(db, sql: "SELECT \(validator.userColumns) FROM users u ORDER BY u.id")
            for row in users {
                let id: Int64 = row[0]
                switch validator.user(row) {
                case .quarantined(let why): bad.insert(QuarantinedRow(table: "users", id: id, reason: why))
                case .ignored: break
                case .valid(let user):
                    guard user.deletedAt == nil else { continue }
                    var loader = UserLoader(db: db, rates: rates, features: features, through: far, path: path)
                    _ = try loader.load(userId: id, withChildren: false)
                    bad.formUnion(loader.quarantined)
                }
            }
            // The optional statement_email column: 0, 1 or NULL (a user with another value gets no e-mail).
            if try Ledger.hasStatementEmailColumn(db) {
                let flags = try Row.fetchAll(db, sql: "SELECT id, statement_email, typeof(statement_email) FROM users ORDER BY id")
                for row in flags {
                    if case .invalid(let why) = RowValidator.statementEmail(row[1], type: row[2]) {
                        bad.insert(QuarantinedRow(table: "users", id: row[0], reason: why))
                    }
                }
            }
            // Rows of users that do not exist (or whose user row is quarantined): no report reaches them.
            let orphans = try Row.fetchAll(db, sql: """
                SELECT t.id, t.user_id FROM transactions t LEFT JOIN users u ON u.id = t.user_id
                WHERE t.deleted_at IS NULL AND u.id IS NULL ORDER BY t.id
                """)
            for o in orphans {
                bad.insert(QuarantinedRow(table: "transactions", id: o[0], reason: TransactionDecoder.missingUser(o[1] as Int64? ?? 0)))
            }
            // Settle-up payments of a group that does not exist: no member's report reaches them.
            if features.groupPayments {
                for o in try Row.fetchAll(db, sql: """
                    SELECT p.id, p.group_id FROM group_payments p LEFT JOIN groups g ON g.id = p.group_id
                    WHERE p.deleted_at IS NULL AND g.id IS NULL ORDER BY p.id
                    """) {
                    bad.insert(QuarantinedRow(table: "group_payments", id: o[0], reason: RowValidator.paymentOfMissingGroup(o[1] as Int64? ?? 0)))
                }
            }
            return LedgerHealth(rowCounts: counts, quarantined: bad.sorted())
        }
    }
}
