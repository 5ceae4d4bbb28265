import Foundation

/// Monotonic wall-clock and per-thread CPU time, in seconds.
enum Clock {
    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// CPU seconds spent by this thread.
    static func threadCPU() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// Accumulates wall time per named stage, keeping the order stages were first seen.
struct StageTimes {
    private(set) var order: [String] = []
    private(set) var seconds: [String: Double] = [:]

    /// Runs `body`, adding its wall time to `stage`.
    mutating func time<T>(_ stage: String, _ body: () throws -> T) rethrows -> T {
        let start = Clock.now()
        defer { add(stage, Clock.now() - start) }
        return try body()
    }

    mutating func add(_ stage: String, _ s: Double) {
        if seconds[stage] == nil { order.append(stage) }
        seconds[stage, default: 0] += s
    }

    var total: Double { seconds.values.reduce(0, +) }

    /// A table: stage, total ms, ms per `per` items, share of the total.
    func table(per count: Int, unit: String) -> String {
        var lines = [pad("stage", 26) + pad("total ms", 12, right: true) + pad("ms/\(unit)", 12, right: true) + pad("share", 8, right: true)]
        let all = total
        for stage in order {
            let s = seconds[stage] ?? 0
            lines.append(pad(stage, 26) + pad(String(format: "%.1f", s * 1000), 12, right: true)
                + pad(String(format: "%.2f", s * 1000 / Double(max(count, 1))), 12, right: true)
                + pad(String(format: "%.1f%%", all > 0 ? 100 * s / all : 0), 8, right: true))
        }
        lines.append(pad("total", 26) + pad(String(format: "%.1f", all * 1000), 12, right: true)
            + pad(String(format: "%.2f", all * 1000 / Double(max(count, 1))), 12, right: true) + pad("100%", 8, right: true))
        return lines.joined(separator: "\n")
    }
}

/// Pads `s` to `width` characters.
func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
    let n = max(0, width - s.count)
    return right ? String(repeating: " ", count: n) + s : s + String(repeating: " ", count: n)
}
