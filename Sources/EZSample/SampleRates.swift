/// The daily exchange rates of a sample ledger: EUR against USD, GBP, CHF and JPY by a
/// deterministic mean-reverting random walk, plus the cross rates between those four.
///
/// The contract converts with a direct or inverse rate only (no triangulation), so every pair
/// of the sample's currencies gets its own row each day. Every rate is rounded to six
/// significant digits, so the REAL stored reads back as that short decimal (e.g. 1.08342).
struct SampleRates {
    /// The currencies the sample uses, EUR (the base) first.
    static let currencies = ["EUR", "USD", "GBP", "CHF", "JPY"]
    /// Where each EUR rate hovers (1 EUR = anchor units), in `currencies` order.
    private static let anchors: [Double] = [1, 1.08, 0.855, 0.96, 160]

    /// One row of `exchange_rates`.
    struct Row {
        var day: Int32
        var base: String
        var quote: String
        var rate: Double
    }

    /// The pairs written each day, as indexes into ``currencies``: EUR→X, then the crosses.
    static let pairs: [(Int, Int)] = [(0, 1), (0, 2), (0, 3), (0, 4), (2, 1), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]

    /// Rates for every day in `first...last`, in (day, pair) order.
    static func rows(first: Int32, last: Int32, seed: UInt64) -> [Row] {
        var random = SampleRandom(seed: seed, stream: 0xFACE)
        var eur = anchors
        var rows: [Row] = []
        rows.reserveCapacity(Int(last - first + 1) * pairs.count)
        for day in first...last {
            for c in 1..<eur.count {
                let noise = (random.unit() - 0.5) * 0.008
                eur[c] = eur[c] * (1 + noise) + (anchors[c] - eur[c]) * 0.02
            }
            for (b, q) in pairs {
                rows.append(Row(day: day, base: currencies[b], quote: currencies[q],
                                rate: sixSignificant(eur[q] / eur[b])))
            }
        }
        return rows
    }

    /// Approximate minor units of `currency` for one euro cent (for pricing, not for reports).
    static func minorPerEuroCent(_ currency: String) -> Double {
        switch currency {
        case "USD": return 1.08
        case "GBP": return 0.855
        case "CHF": return 0.96
        case "JPY": return 1.6
        default: return 1
        }
    }

    /// `value` (> 0) rounded to six significant digits, as the nearest Double to that decimal.
    static func sixSignificant(_ value: Double) -> Double {
        var scale = 5
        var magnitude = value
        while magnitude >= 10, scale > 0 { magnitude /= 10; scale -= 1 }
        while magnitude < 1 { magnitude *= 10; scale += 1 }
        var power = 1.0
        for _ in 0..<scale { power *= 10 }
        return (value * power).rounded() / power
    }
}
