/// Daily exchange rates, with the contract's lookup rule: the latest rate on or before a date,
/// direct (base → quote) or inverse (quote → base).
package struct RateTable: Sendable {
    /// A series' currencies as packed codes (``Currency/packedCode``).
    private struct Pair: Hashable, Sendable {
        let base: UInt32
        let quote: UInt32
        init(base: UInt32, quote: UInt32) { self.base = base; self.quote = quote }
        init(_ base: Currency, _ quote: Currency) { self.init(base: base.packedCode, quote: quote.packedCode) }
    }
    private struct Series: Sendable {
        var days: [Int32] = []
        var rates: [DecimalRate] = []
        mutating func append(_ day: Int32, _ rate: DecimalRate) { days.append(day); rates.append(rate) }
    }
    private var series: [Pair: Series] = [:]

    /// An empty table: only same-currency conversions succeed.
    package init() {}

    /// The `exchange_rates` rows left out of this table because they break the contract. They
    /// belong to no user, but every conversion was made without them, so every report counts
    /// them in its quarantine (``UserLedger/reportQuarantine``).
    package var quarantined: [QuarantinedRow] = []

    /// Adds a rate `1 base = rate quote` for `day`. Call ``finish()`` after the last one.
    package mutating func add(day: CivilDate, base: Currency, quote: Currency, rate: DecimalRate) {
        add(day: day, packedBase: base.packedCode, packedQuote: quote.packedCode, rate: rate)
    }

    /// Adds a rate between two currencies given as packed codes (``Currency/packedCode(_:)``
    /// of a row's bytes): how a ledger's rows are read, without making strings.
    package mutating func add(day: CivilDate, packedBase: UInt32, packedQuote: UInt32, rate: DecimalRate) {
        series[Pair(base: packedBase, quote: packedQuote), default: Series()].append(day.dayNumber, rate)
    }

    /// A hash of every rate in the table, taken by ``finish()``: equal tables have equal
    /// identities within one process (it tells a server's cached answers apart when the rates
    /// change; it is not stable across processes).
    package private(set) var identity = 0

    /// Sorts every series by day; rates added out of order are then found correctly.
    package mutating func finish() {
        var hasher = Hasher()
        for (k, s) in series.sorted(by: { ($0.key.base, $0.key.quote) < ($1.key.base, $1.key.quote) }) {
            let order = s.days.indices.sorted { s.days[$0] < s.days[$1] }
            let sorted = Series(days: order.map { s.days[$0] }, rates: order.map { s.rates[$0] })
            series[k] = sorted
            hasher.combine(k.base); hasher.combine(k.quote); hasher.combine(sorted.days); hasher.combine(sorted.rates)
        }
        identity = hasher.finalize()
    }

    /// Visits, in a fixed order, what of the table can reach a report whose rows are in
    /// `currencies` and whose conversions are all made on or before `day`: each series between two
    /// of them (either direction) that has any rate (`pair`: whether a pair has rates at all
    /// decides some quarantines), then its rates dated on or before `day` (`rate`), or its first
    /// rate when every rate is later (a savings goal converts at it: see ``firstDay(between:_:)``).
    ///
    /// A rate between other currencies, or dated after `day`, changes no figure of that report: a
    /// re-run's fingerprint (see EZBatch's `InputFingerprint`) need not change with it.
    package func visit(among currencies: [Currency], through day: CivilDate,
                       pair: (_ base: UInt32, _ quote: UInt32) -> Void, rate: (_ day: Int32, _ rate: DecimalRate) -> Void) {
        let codes = Set(currencies.map(\.packedCode)).sorted()
        for base in codes {
            for quote in codes where quote != base {
                guard let s = series[Pair(base: base, quote: quote)] else { continue }
                pair(base, quote)
                for i in s.days.indices where s.days[i] <= day.dayNumber { rate(s.days[i], s.rates[i]) }
                if let first = s.days.first, first > day.dayNumber { rate(first, s.rates[0]) }
            }
        }
    }

    /// The first day any rate between the two currencies (either direction) is dated, or nil when
    /// the pair has none.
    ///
    /// A savings goal's target is a setting of today, not an amount of a dated row: a statement of
    /// a period that ends before the pair's first rate converts it at that first rate (one of the
    /// ledger's rates) instead of failing the whole statement.
    package func firstDay(between a: Currency, _ b: Currency) -> CivilDate? {
        let days = [series[Pair(a, b)]?.days.first, series[Pair(b, a)]?.days.first].compactMap { $0 }
        return days.min().map { CivilDate(dayNumber: $0) }
    }

    /// Whether any rate exists between the two currencies, in either direction.
    package func hasPair(_ a: Currency, _ b: Currency) -> Bool {
        a == b || series[Pair(a, b)] != nil || series[Pair(b, a)] != nil
    }

    /// The rate to turn `from` into `to` on `day`, and whether it is to be divided by (inverse):
    /// the latest on or before `day` in either direction, the direct one when both are of the
    /// same day. nil when no rate exists on or before `day`.
    ///
    /// A ledger whose feed changed direction (GBP→EUR until the 10th, EUR→GBP from the 12th)
    /// converts the 15th at the 12th's rate, not at the older direct one.
    package func rate(from: Currency, to: Currency, on day: CivilDate) -> (rate: DecimalRate, inverse: Bool)? {
        let direct = series[Pair(from, to)].flatMap { Self.latest($0, day) }
        let inverse = series[Pair(to, from)].flatMap { Self.latest($0, day) }
        switch (direct, inverse) {
        case let (d?, i?): return i.day > d.day ? (i.rate, true) : (d.rate, false)
        case let (d?, nil): return (d.rate, false)
        case let (nil, i?): return (i.rate, true)
        case (nil, nil): return nil
        }
    }

    /// Converts `minor` units of `from` into `to` at the rate of `day`, rounded half-to-even.
    package func convert(_ minor: Int64, from: Currency, to: Currency, on day: CivilDate) throws(ConversionError) -> Int64 {
        if from == to { return minor }
        guard let (rate, inverse) = rate(from: from, to: to, on: day) else {
            throw ConversionError.noRate(from: from, to: to, day: day)
        }
        do {
            return try rate.convert(minor, fromExponent: from.exponent, toExponent: to.exponent, inverse: inverse)
        } catch {
            throw ConversionError.overflow(from: from, to: to, minor: minor)
        }
    }

    /// The series' last rate on or before `day`, with its day number.
    private static func latest(_ s: Series, _ day: CivilDate) -> (day: Int32, rate: DecimalRate)? {
        var lo = 0, hi = s.days.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if s.days[mid] <= day.dayNumber { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? nil : (s.days[lo - 1], s.rates[lo - 1])
    }
}

/// Why an amount could not be converted.
package enum ConversionError: Error, Equatable, CustomStringConvertible {
    case noRate(from: Currency, to: Currency, day: CivilDate)
    case overflow(from: Currency, to: Currency, minor: Int64)
    package var description: String {
        switch self {
        case .noRate(let f, let t, let d): return "no exchange rate \(f.code)→\(t.code) on or before \(d)"
        case .overflow(let f, let t, let m): return "converting \(m) \(f.code) to \(t.code) overflows"
        }
    }
}
