import XCTest
@testable import EZCore

final class MoneyTests: XCTestCase {
    func testRoundingIsHalfToEven() {
        XCTAssertEqual(MinorUnits.divideRoundingHalfEven(5, 2), 2)
        XCTAssertEqual(MinorUnits.divideRoundingHalfEven(7, 2), 4)
        XCTAssertEqual(MinorUnits.divideRoundingHalfEven(-5, 2), -2)
        XCTAssertEqual(MinorUnits.divideRoundingHalfEven(-7, 2), -4)
        XCTAssertEqual(MinorUnits.divideRoundingHalfEven(10, 3), 3)
        XCTAssertEqual(MinorUnits.divideRoundingHalfEven(11, 3), 4)
    }

    func testExponentsOfJPYEURAndBHD() throws {
        XCTAssertEqual(try Currency("JPY").exponent, 0)
        XCTAssertEqual(try Currency("EUR").exponent, 2)
        XCTAssertEqual(try Currency("BHD").exponent, 3)
        XCTAssertEqual(try Currency("BHD").minorPerMajor, 1_000)
    }

    func testPlainDecimalHasExactlyTheCurrencysMinorDigits() throws {
        XCTAssertEqual(Money(minor: -1_250, currency: .eur).plainDecimal, "-12.50")
        XCTAssertEqual(Money(minor: 1_500, currency: try Currency("JPY")).plainDecimal, "1500")
        XCTAssertEqual(Money(minor: 5, currency: try Currency("BHD")).plainDecimal, "0.005")
        XCTAssertEqual(Money(minor: 7, currency: .eur).plainDecimal, "0.07")
        XCTAssertEqual(Money(minor: Int64.min, currency: .eur).plainDecimal, "-92233720368547758.08")
    }

    func testOverflowThrowsInsteadOfWrapping() {
        XCTAssertThrowsError(try Money(minor: .max, currency: .eur).adding(Money(minor: 1, currency: .eur))) {
            XCTAssertEqual($0 as? MoneyError, .overflow("9223372036854775807 + 1"))
        }
        XCTAssertThrowsError(try MinorUnits.subtract(.min, 1))
        XCTAssertThrowsError(try MinorUnits.multiply(.max / 2, 3))
        XCTAssertThrowsError(try MinorUnits.sum([.max, 1]))
    }

    func testAddingDifferentCurrenciesIsAnError() throws {
        XCTAssertThrowsError(try Money(minor: 1, currency: .eur).adding(Money(minor: 1, currency: try Currency("USD")))) {
            XCTAssertEqual(($0 as? MoneyError)?.description, "cannot combine EUR with USD without conversion")
        }
    }

    func testInvalidCurrencyCodesAreRejected() {
        XCTAssertThrowsError(try Currency("eur"))
        XCTAssertThrowsError(try Currency("EURO"))
    }

    func testPackedCodesFollowTheCodesRuleAndOrder() throws {
        XCTAssertEqual(try Currency("EUR").packedCode, 0x45_55_52)
        for code in ["EUR", "USD", "JPY", "AAA", "ZZZ", "eur", "EURO", "EU", "", "E@R", "E[R", "ÜSD", "U\u{0}D", "１２３"] {
            let packed = Array(code.utf8).withUnsafeBufferPointer { Currency.packedCode($0) }
            XCTAssertEqual(packed, (try? Currency(code))?.packedCode, code)
        }
        let codes = try ["AAA", "AUD", "BHD", "EUR", "JPY", "USD", "ZZZ"].map { try Currency($0) }
        XCTAssertEqual(codes.map(\.packedCode), codes.map(\.packedCode).sorted())
    }
}
