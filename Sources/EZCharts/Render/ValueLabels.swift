/// Writes chart values (ticks and data labels) in the chart's ``ValueFormat`` and locale.
struct ValueLabels {
    let format: LocaleFormat
    let valueFormat: ValueFormat

    /// A data value in full ("1.234,50 €", "1.234", "12,5%").
    func full(_ v: Int64) -> String {
        switch valueFormat {
        case .money(let c): return format.money(v, c)
        case .count: return format.integer(v)
        case .percent: return format.percent(Percent(tenths: v))
        }
    }

    /// A data value, short ("1,2k €", "1.234", "13%").
    func short(_ v: Int64) -> String {
        switch valueFormat {
        case .money(let c): return format.compactMoney(v, c)
        case .count: return format.integer(v)
        case .percent: return format.wholePercent(Percent(tenths: v))
        }
    }

    /// Labels for the ticks, all in the same unit and with as many decimals as the step needs.
    ///
    /// Worked in 128 bits: the last tick over money near the 64-bit limit is past that limit.
    func ticks(_ ticks: NiceTicks) -> [String] {
        let values = ticks.values.map { $0.integerValue }
        let stepValue = ticks.step.integerValue
        let reference = Int128(values.map { $0.magnitude }.max() ?? 0)
        switch valueFormat {
        case .money(let c):
            let unit = format.compactDivisor(forMinor: reference, c)
            let digits = ValueLabels.digitsNeeded(step: stepValue, unit: unit)
            return values.map { format.compactMoney(wide: $0, c, scaleReference: reference, fractionDigits: digits) }
        case .count:
            return values.map { format.integer(Int64(clamping: $0)) }
        case .percent:
            let digits = stepValue % 10 == 0 ? 0 : 1
            return values.map { v in
                let p = Percent(tenths: Int64(clamping: v))
                return digits == 0 ? format.wholePercent(p) : format.percent(p)
            }
        }
    }

    /// The decimals needed so that multiples of `step` divided by `unit` print exactly.
    static func digitsNeeded(step: Int128, unit: Int128) -> Int {
        guard step > 0, unit > 0 else { return 0 }
        var digits = 0, scaled = step
        while scaled % unit != 0 && digits < 6 { scaled *= 10; digits += 1 }
        return digits
    }
}

import EZCore
import EZAnalytics
import EZLocale
