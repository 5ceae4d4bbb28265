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
    /// CPU seconds of this thread per stage (steady on a shared machine).
    private(set) var seconds: [String: Double] = [:]
    /// Wall seconds per stage (includes waiting for the disk and for other processes).
    private(set) var wall: [String: Double] = [:]

    /// Runs `body`, adding its thread CPU time and wall time to `stage`.
    mutating func time<T>(_ stage: String, _ body: () throws -> T) rethrows -> T {
        let start = Clock.now(), cpu = Clock.threadCPU()
        defer { add(stage, cpu: Clock.threadCPU() - cpu, wall: Clock.now() - start) }
        return try body()
    }

    mutating func add(_ stage: String, cpu: Double, wall w: Double) {
        if seconds[stage] == nil { order.append(stage) }
        seconds[stage, default: 0] += cpu
        wall[stage, default: 0] += w
    }

    var total: Double { seconds.values.reduce(0, +) }

    /// A table: stage, CPU ms in all, CPU ms per `unit`, share of the CPU total, wall ms per `unit`.
    func table(per count: Int, unit: String) -> String {
        let n = Double(max(count, 1))
        func line(_ name: String, _ cpu: Double, _ w: Double) -> String {
            pad(name, 28) + pad(String(format: "%.1f", cpu * 1000), 12, right: true)
                + pad(String(format: "%.2f", cpu * 1000 / n), 14, right: true)
                + pad(String(format: "%.1f%%", total > 0 ? 100 * cpu / total : 0), 8, right: true)
                + pad(String(format: "%.2f", w * 1000 / n), 14, right: true)
        }
        var lines = [pad("stage", 28) + pad("cpu ms", 12, right: true) + pad("cpu ms/\(unit)", 14, right: true)
            + pad("share", 8, right: true) + pad("wall ms/\(unit)", 14, right: true)]
        for stage in order { lines.append(line(stage, seconds[stage] ?? 0, wall[stage] ?? 0)) }
        lines.append(line("total", total, wall.values.reduce(0, +)))
        return lines.joined(separator: "\n")
    }
}

/// Pads `s` to `width` characters.
func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
    let n = max(0, width - s.count)
    return right ? String(repeating: " ", count: n) + s : s + String(repeating: " ", count: n)
}
