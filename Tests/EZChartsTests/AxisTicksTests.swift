import EZCore
import EZLocale
import EZRenderingTestSupport
import XCTest
@testable import EZCharts

/// Nice axis ticks (1, 2, 5 × 10^k steps, integer multiples) and their labels.
final class AxisTicksTests: XCTestCase {
    func testNiceTicksUseOneTwoFiveStepsAsIntegerMultiples() {
        let t = NiceTicks(from: 0, to: 1234, count: 5)
        XCTAssertEqual(t.step, TickValue(significand: 2, exponent: 2))
        XCTAssertEqual(t.values.map(\.integerValue), [0, 200, 400, 600, 800, 1000, 1200, 1400])
        let n = NiceTicks(from: -310, to: 870, count: 5, minimumExponent: 0)
        XCTAssertEqual(n.values.map(\.integerValue), [-400, -200, 0, 200, 400, 600, 800, 1000])
        let one = NiceTicks(from: 0, to: 3, count: 10, minimumExponent: 0)
        XCTAssertEqual(one.step.integerValue, 1, "integer data never gets fractional steps")
    }

    func testFractionalTicksNeverPrintBinaryNoise() {
        let t = NiceTicks(from: 0.1, to: 0.1 + 0.2, count: 4)
        let text = t.values.map { LocaleFormat(locale: "en_US").decimal($0.significand, fractionDigits: -$0.exponent) }
        XCTAssertEqual(text, ["0.10", "0.15", "0.20", "0.25", "0.30"])
    }

    func testMoneyTickLabelsShareOneUnitAndEnoughDecimals() {
        let labels = ValueLabels(format: LocaleFormat(locale: "it_IT"), valueFormat: .money(.eur))
        let ticks = NiceTicks(from: 0, to: 300_000, count: 6, minimumExponent: 0)  // 0 … 3.000 € in cents
        // Every label keeps the step's decimals so the column reads evenly (as d3 and matplotlib do).
        XCTAssertEqual(labels.ticks(ticks), ["0 €", "0,5k €", "1,0k €", "1,5k €", "2,0k €", "2,5k €", "3,0k €"])
    }

    /// A Japanese axis is labelled in 万, every label in the same unit with the step's decimals.
    func testJapaneseMoneyTicksAreInMyriads() throws {
        let labels = ValueLabels(format: LocaleFormat(locale: "ja_JP"), valueFormat: .money(try Currency("JPY")))
        let ticks = NiceTicks(from: 0, to: 25_000, count: 5, minimumExponent: 0)
        XCTAssertEqual(labels.ticks(ticks), ["¥0", "¥0.5万", "¥1.0万", "¥1.5万", "¥2.0万", "¥2.5万"])
    }

    func testTicksOverMoneyNearTheIntegerLimitGoPastItInsteadOfTrapping() {
        // 9 × 10^18 cents fits in 64 bits; the nice tick above it, 10^19, does not.
        let ticks = NiceTicks(from: 0, to: 9e18, count: 5, minimumExponent: 0)
        XCTAssertEqual(ticks.upper.integerValue, Int128(10_000_000_000_000_000_000))
        let labels = ValueLabels(format: LocaleFormat(locale: "en_US"), valueFormat: .money(try! Currency("USD"))).ticks(ticks)
        XCTAssertEqual(labels, ["$0", "$20,000,000B", "$40,000,000B", "$60,000,000B", "$80,000,000B", "$100,000,000B"])
        let both = NiceTicks(from: -Double(Int64.max), to: Double(Int64.max), count: 5, minimumExponent: 0)
        XCTAssertEqual(both.lower.integerValue, -Int128(10_000_000_000_000_000_000))
        XCTAssertEqual(both.upper.integerValue, Int128(10_000_000_000_000_000_000))
    }
}
