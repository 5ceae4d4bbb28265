import XCTest
@testable import EZCore

final class DecimalRateTests: XCTestCase {
    func testRateReadsAsTheShortestDecimalOfTheStoredDouble() throws {
        let r = try XCTUnwrap(DecimalRate(1.609))
        XCTAssertEqual(r.significand, 1609)
        XCTAssertEqual(r.scale, 3)
        XCTAssertEqual(r.description, "1.609")
        XCTAssertEqual(DecimalRate(1.2e-05)?.description, "0.000012")
        XCTAssertEqual(DecimalRate(150.0)?.description, "150")
        XCTAssertNil(DecimalRate(0))
        XCTAssertNil(DecimalRate(-1))
        XCTAssertNil(DecimalRate(.nan))
    }

    func testEveryDoubleReadsBackFromItsDecimal() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            // Any positive finite double, from subnormals to the largest.
            let value = Double(bitPattern: UInt64.random(in: 1..<0x7FF0_0000_0000_0000, using: &generator))
            let rate = try XCTUnwrap(DecimalRate(value), "\(value)")
            XCTAssertEqual(Double(rate.description), value, "\(value) read as \(rate)")
        }
        let shown: [(Double, String)] = [(0.1, "0.1"), (1.0, "1"), (1e22, "10000000000000000000000"),
                                         (123456.789, "123456.789"), (0.000_012, "0.000012"), (1.0 / 3.0, "0.3333333333333333")]
        for (value, text) in shown {
            XCTAssertEqual(DecimalRate(value)?.description, text, "\(value)")
        }
        for value in [Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude] {
            XCTAssertEqual(DecimalRate(value).flatMap { Double($0.description) }, value)
        }
    }

    func testDecimalTextIsReadExactlyAndAnythingElseRefused() {
        let read: [(String, String)] = [
            ("1.609", "1.609"), ("150", "150"), ("1.2e-05", "0.000012"), ("1.2E-05", "0.000012"),
            ("1e+5", "100000"), ("1e5", "100000"), ("2.50", "2.5"), ("0.10", "0.1"), ("007", "7"),
            ("1e-0", "1"), (".5", "0.5"), ("5.", "5"),
        ]
        for (text, shown) in read {
            XCTAssertEqual(DecimalRate(decimalString: text)?.description, shown, text)
        }
        let refused = ["", ".", "e5", "1e", "1e+", "1e-", "1e+-5", "1e5.0", "1.2.3", "-1", "+1", "0", "0.000",
                       "1 ", " 1", "1,5", "１", "1e\u{301}5", "abc", "1e9999999", "1e-9999999",
                       "1e99999999999999999999", "99999999999999999999"]
        for text in refused {
            XCTAssertNil(DecimalRate(decimalString: text), text)
        }
    }

    func testConversionAtOnePointSixZeroNineIsExact() throws {
        let r = try XCTUnwrap(DecimalRate(1.609))
        // 1000.00 × 1.609 = 1609.00 exactly (a double product would give 1608.9999…).
        XCTAssertEqual(try r.convert(100_000, fromExponent: 2, toExponent: 2, inverse: false), 160_900)
        // 0.05 × 1.609 = 0.08045 → 0.08 (half-to-even at the cent).
        XCTAssertEqual(try r.convert(5, fromExponent: 2, toExponent: 2, inverse: false), 8)
    }

    func testHalfwayConversionsRoundToEven() throws {
        let half = try XCTUnwrap(DecimalRate(decimalString: "0.5"))
        XCTAssertEqual(try half.convert(5, fromExponent: 2, toExponent: 2, inverse: false), 2)    // 2.5 → 2
        XCTAssertEqual(try half.convert(7, fromExponent: 2, toExponent: 2, inverse: false), 4)    // 3.5 → 4
        XCTAssertEqual(try half.convert(-7, fromExponent: 2, toExponent: 2, inverse: false), -4)
    }

    func testInverseRatesDivide() throws {
        let r = try XCTUnwrap(DecimalRate(decimalString: "1.3"))
        XCTAssertEqual(try r.convert(1_000, fromExponent: 2, toExponent: 2, inverse: true), 769)   // 10 / 1.3 = 7.6923
    }

    func testExponentsChangeBetweenJPYAndBHD() throws {
        let r = try XCTUnwrap(DecimalRate(decimalString: "160.5"))        // 1 EUR = 160.5 JPY
        XCTAssertEqual(try r.convert(1_001, fromExponent: 2, toExponent: 0, inverse: false), 1_607)  // 10.01 × 160.5 = 1606.605
        XCTAssertEqual(try r.convert(1_607, fromExponent: 0, toExponent: 2, inverse: true), 1_001)   // 1607 / 160.5 = 10.0125 → 10.01
        let bhd = try XCTUnwrap(DecimalRate(decimalString: "0.41"))        // 1 EUR = 0.41 BHD
        XCTAssertEqual(try bhd.convert(1_234, fromExponent: 2, toExponent: 3, inverse: false), 5_059) // 12.34 × 0.41 = 5.0594
    }

    func testConversionOverflowThrows() throws {
        let r = try XCTUnwrap(DecimalRate(decimalString: "1000"))
        XCTAssertThrowsError(try r.convert(.max, fromExponent: 2, toExponent: 2, inverse: false))
    }

    func testRateTableUsesTheLatestRateOnOrBeforeTheDateDirectOrInverse() throws {
        var t = RateTable()
        t.add(day: CivilDate(iso: "2026-10-10")!, base: try Currency("EUR"), quote: try Currency("USD"), rate: DecimalRate(decimalString: "1.2")!)
        t.add(day: CivilDate(iso: "2026-10-01")!, base: try Currency("EUR"), quote: try Currency("USD"), rate: DecimalRate(decimalString: "1.1")!)
        t.finish()
        let eur = Currency.eur, usd = try Currency("USD")
        XCTAssertEqual(try t.convert(1_000, from: eur, to: usd, on: CivilDate(iso: "2026-10-09")!), 1_100)
        XCTAssertEqual(try t.convert(1_000, from: eur, to: usd, on: CivilDate(iso: "2026-10-10")!), 1_200)
        XCTAssertEqual(try t.convert(1_200, from: usd, to: eur, on: CivilDate(iso: "2026-12-01")!), 1_000)
        XCTAssertThrowsError(try t.convert(1, from: eur, to: usd, on: CivilDate(iso: "2026-09-30")!)) {
            XCTAssertEqual(($0 as? ConversionError)?.description, "no exchange rate EUR→USD on or before 2026-09-30")
        }
    }

    /// A feed that changed direction (GBP→EUR on the 10th, EUR→GBP on the 12th) converted the
    /// 15th at the older direct rate, 12.50 € for 10 £, where the documented rule (the latest
    /// rate, direct or inverse) gives the 12th's: 20.00 €. On the same day, the direct one wins.
    func testTheLatestRateWinsWhicheverItsDirection() throws {
        let gbp = try Currency("GBP"), eur = Currency.eur
        var t = RateTable()
        t.add(day: CivilDate(iso: "2026-10-10")!, base: gbp, quote: eur, rate: DecimalRate(decimalString: "1.25")!)
        t.add(day: CivilDate(iso: "2026-10-12")!, base: eur, quote: gbp, rate: DecimalRate(decimalString: "0.5")!)
        t.add(day: CivilDate(iso: "2026-10-20")!, base: gbp, quote: eur, rate: DecimalRate(decimalString: "1.1")!)
        t.add(day: CivilDate(iso: "2026-10-20")!, base: eur, quote: gbp, rate: DecimalRate(decimalString: "0.8")!)
        t.finish()
        XCTAssertEqual(try t.convert(1_000, from: gbp, to: eur, on: CivilDate(iso: "2026-10-11")!), 1_250)
        XCTAssertEqual(try t.convert(1_000, from: gbp, to: eur, on: CivilDate(iso: "2026-10-15")!), 2_000)
        XCTAssertEqual(try t.convert(1_000, from: eur, to: gbp, on: CivilDate(iso: "2026-10-11")!), 800, "1000 / 1.25")
        XCTAssertEqual(try t.convert(1_000, from: gbp, to: eur, on: CivilDate(iso: "2026-10-20")!), 1_100, "the direct rate of the same day")
        XCTAssertEqual(try t.convert(1_000, from: eur, to: gbp, on: CivilDate(iso: "2026-10-21")!), 800, "the direct rate of the same day")
    }
}
