import EZServer
import EZTestSupport
import Foundation
import GRDB
import XCTest

/// The transaction export and the statistics, with every filter, against SQL on the same ledger.
final class TransactionFilterTests: LiveServerTestCase {
    /// The ids SQL selects for alice with the same filters (all her rows are in EUR, Rome time,
    /// written with the local offset, so the local date is the text's first ten characters).
    private func sqlIds(from: String, to: String, categories: [String] = [], min: Int64? = nil, max: Int64? = nil,
                        q: String? = nil) throws -> [Int64] {
        var sql = """
            SELECT t.id FROM transactions t LEFT JOIN categories c ON c.id = t.category_id
            WHERE t.user_id = ? AND t.deleted_at IS NULL AND substr(t.occurred_at, 1, 10) BETWEEN ? AND ?
            """
        var arguments: [(any DatabaseValueConvertible)?] = [fixture.alice, from, to]
        if !categories.isEmpty {
            sql += " AND COALESCE(c.name, 'Others') IN (\(categories.map { _ in "?" }.joined(separator: ",")))"
            arguments += categories.map { $0 }
        }
        if let min { sql += " AND (CASE WHEN t.kind = 'transfer' THEN 0 ELSE t.amount_minor END) >= ?"; arguments.append(min) }
        if let max { sql += " AND (CASE WHEN t.kind = 'transfer' THEN 0 ELSE t.amount_minor END) <= ?"; arguments.append(max) }
        if let q { sql += " AND lower(COALESCE(t.description, '')) LIKE '%' || lower(?) || '%'"; arguments.append(q) }
        sql += " ORDER BY t.occurred_at, t.id"
        let statementArguments = StatementArguments(arguments)
        return try fixture.ledger.db.read { db in try Int64.fetchAll(db, sql: sql, arguments: statementArguments) }
    }

    private func exportedIds(_ query: String) async throws -> [Int64] {
        let response = try await server.get("/v1/users/\(fixture.alice)/transactions.csv?" + query, token: try await fixture.token(fixture.alice))
        XCTAssertEqual(response.status, .ok, response.text)
        let lines = response.text.split(separator: "\r\n")
        XCTAssertEqual(lines.first, "id,date,kind,category,balance,method,description,amount,currency,counted,report_currency,group,paid_by")
        return lines.dropFirst().map { Int64($0.split(separator: ",")[0])! }
    }

    func testTheDateRangeIsInclusiveAtBothEndsInTheUsersTimeZone() async throws {
        let ids = try await exportedIds("from=2026-09-01&to=2026-09-30")
        XCTAssertEqual(ids, try sqlIds(from: "2026-09-01", to: "2026-09-30"))
        XCTAssertEqual(ids.count, 6)
        let one = try await exportedIds("from=2026-09-30&to=2026-09-30")
        XCTAssertEqual(one, try sqlIds(from: "2026-09-30", to: "2026-09-30"))
        XCTAssertEqual(one.count, 1)
    }

    func testCategoryAmountAndTextFiltersMatchSQL() async throws {
        let cases: [(String, [Int64])] = [
            ("from=2026-09-01&to=2026-09-30&category=Food&category=Fun",
             try sqlIds(from: "2026-09-01", to: "2026-09-30", categories: ["Food", "Fun"])),
            ("from=2026-09-01&to=2026-09-30&min=12.50&max=45.75",
             try sqlIds(from: "2026-09-01", to: "2026-09-30", min: 1250, max: 4575)),
            ("from=2026-09-01&to=2026-09-30&q=pIzZa",
             try sqlIds(from: "2026-09-01", to: "2026-09-30", q: "pizza")),
            ("from=2026-08-01&to=2026-10-31&category=Food&min=15&q=r",
             try sqlIds(from: "2026-08-01", to: "2026-10-31", categories: ["Food"], min: 1500, q: "r")),
            // As URLSearchParams and urlencode write them: '+' is a space, %2B a plus.
            ("from=2026-09-01&to=2026-09-30&q=pizza+margherita",
             try sqlIds(from: "2026-09-01", to: "2026-09-30", q: "pizza margherita")),
            ("from=2026-09-01&to=2026-09-30&q=cinema%20and+pizza",
             try sqlIds(from: "2026-09-01", to: "2026-09-30", q: "cinema and pizza")),
        ]
        for (query, expected) in cases {
            let ids = try await exportedIds(query)
            XCTAssertEqual(ids, expected, query)
            XCTAssertFalse(expected.isEmpty, "the case \(query) should select something")
        }
    }

    /// An amount is the number it writes: trailing zeros past the currency's decimals are the same
    /// amount (`12.500` is `12.50` in EUR), a non-zero digit there is a 400 naming the parameter.
    func testTrailingZerosAreTheSameAmountAndAnExtraDigitIsA400() async throws {
        let twoDecimals = try await exportedIds("from=2026-09-01&to=2026-09-30&min=12.50")
        let sixDecimals = try await exportedIds("from=2026-09-01&to=2026-09-30&min=12.500000")
        XCTAssertEqual(sixDecimals, twoDecimals)
        XCTAssertEqual(twoDecimals, try sqlIds(from: "2026-09-01", to: "2026-09-30", min: 1250))
        let response = try await server.get("/v1/users/\(fixture.alice)/transactions.csv?min=12.505",
                                            token: try await fixture.token(fixture.alice))
        XCTAssertEqual(response.status, .badRequest)
        XCTAssertEqual(try response.json()["parameter"] as? String, "min")
    }

    func testStatisticsMatchSQLAndPercentsSumToExactlyOneHundred() async throws {
        let response = try await server.get("/v1/users/\(fixture.alice)/statistics?from=2026-09-01&to=2026-09-30",
                                            token: try await fixture.token(fixture.alice))
        XCTAssertEqual(response.status, .ok, response.text)
        XCTAssertEqual(response.headers[.contentType], "application/json")
        let json = try response.json()
        let sums = try fixture.ledger.db.read { db in
            try Row.fetchOne(db, sql: """
                SELECT SUM(CASE WHEN kind = 'income' THEN amount_minor ELSE 0 END),
                       SUM(CASE WHEN kind = 'expense' THEN amount_minor ELSE 0 END), COUNT(*)
                FROM transactions WHERE user_id = ? AND deleted_at IS NULL AND substr(occurred_at, 1, 10) BETWEEN '2026-09-01' AND '2026-09-30'
                """, arguments: [fixture.alice])!
        }
        XCTAssertEqual(json["currency"] as? String, "EUR")
        XCTAssertEqual((json["income_minor"] as? NSNumber)?.int64Value, sums[0] as Int64)
        XCTAssertEqual((json["expenses_minor"] as? NSNumber)?.int64Value, sums[1] as Int64)
        XCTAssertEqual((json["net_minor"] as? NSNumber)?.int64Value, (sums[0] as Int64) - (sums[1] as Int64))
        XCTAssertEqual((json["transaction_count"] as? NSNumber)?.intValue, sums[2] as Int)
        let categories = try XCTUnwrap(json["categories"] as? [[String: Any]])
        XCTAssertEqual(categories.map { $0["category"] as? String }, ["Rent", "Food", "Fun"])
        let amounts = categories.compactMap { ($0["amount_minor"] as? NSNumber)?.int64Value }
        XCTAssertEqual(amounts, [90_000, 5_825, 4_332])
        // Percents as written (one decimal) add up to exactly 100.0.
        let raw = response.text
        let tenths = try NSRegularExpression(pattern: "\"percent\":([0-9]+)(?:\\.([0-9]))?").matches(in: raw, range: NSRange(raw.startIndex..., in: raw)).map { m -> Int in
            let whole = Int(raw[Range(m.range(at: 1), in: raw)!])!
            let fraction = m.range(at: 2).location == NSNotFound ? 0 : Int(raw[Range(m.range(at: 2), in: raw)!])!
            return whole * 10 + fraction
        }
        XCTAssertEqual(tenths.count, 3)
        XCTAssertEqual(tenths.reduce(0, +), 1000)
    }

    func testStatisticsWithFiltersCountOnlyMatchingRows() async throws {
        let response = try await server.get("/v1/users/\(fixture.alice)/statistics?from=2026-09-01&to=2026-09-30&category=Food&max=20",
                                            token: try await fixture.token(fixture.alice))
        let json = try response.json()
        let expected = try sqlIds(from: "2026-09-01", to: "2026-09-30", categories: ["Food"], max: 2000)
        XCTAssertEqual((json["transaction_count"] as? NSNumber)?.intValue, expected.count)
        let categories = try XCTUnwrap(json["categories"] as? [[String: Any]])
        XCTAssertEqual(categories.count, 1)
        XCTAssertEqual(categories.first?["percent"] as? NSNumber, 100)
    }

    func testTheStatisticsChartIsAPNG() async throws {
        let response = try await server.get("/v1/users/\(fixture.alice)/statistics.png?from=2026-09-01&to=2026-09-30",
                                            token: try await fixture.token(fixture.alice))
        XCTAssertEqual(response.status, .ok)
        XCTAssertEqual(response.headers[.contentType], "image/png")
        XCTAssertEqual(Array(response.bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }
}

/// The statistics JSON says when its figures are not whole: a broken row in the range is left out
/// of every figure (as in the statement) and counted in `quarantined_rows`, which is 0 otherwise.
final class StatisticsQuarantineTests: XCTestCase {
    func testARowLeftOutOfTheFiguresIsCountedInQuarantinedRows() async throws {
        let fixture = try ServerFixture()
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret)
        let token = try await fixture.token(fixture.alice)
        let path = "/v1/users/\(fixture.alice)/statistics?from=2026-09-01&to=2026-09-30"
        let whole = try await server.get(path, token: token).json()
        XCTAssertEqual((whole["quarantined_rows"] as? NSNumber)?.intValue, 0)

        let broken = try fixture.ledger.db.read { db in
            try Row.fetchOne(db, sql: """
                SELECT id, amount_minor FROM transactions WHERE user_id = ? AND kind = 'expense' AND deleted_at IS NULL
                AND substr(occurred_at, 1, 10) BETWEEN '2026-09-01' AND '2026-09-30' ORDER BY id LIMIT 1
                """, arguments: [fixture.alice])!
        }
        try fixture.ledger.execute("UPDATE transactions SET amount_minor = -5 WHERE id = ?", [broken["id"] as Int64])
        let left = try await server.get(path, token: token).json()
        XCTAssertEqual((left["quarantined_rows"] as? NSNumber)?.intValue, 1)
        XCTAssertEqual((left["expenses_minor"] as? NSNumber)?.int64Value,
                       (whole["expenses_minor"] as? NSNumber).map { $0.int64Value - (broken["amount_minor"] as Int64) })
        XCTAssertEqual((left["transaction_count"] as? NSNumber)?.intValue,
                       (whole["transaction_count"] as? NSNumber).map { $0.intValue - 1 })
        await server.stop()
    }
}
