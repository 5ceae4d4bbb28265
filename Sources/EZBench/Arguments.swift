import EZCore

/// The few `--name value` options EZBench takes; no dependency on the CLI's parser.
struct Arguments {
    private var values: [String: String] = [:]
    let mode: String

    init(_ argv: [String]) throws {
        guard argv.count >= 2 else { throw BenchError.usage }
        mode = argv[1]
        var i = 2
        while i < argv.count {
            let key = argv[i]
            guard key.hasPrefix("--"), i + 1 < argv.count else { throw BenchError.badArgument(key) }
            values[String(key.dropFirst(2))] = argv[i + 1]
            i += 2
        }
    }

    func string(_ name: String) throws -> String {
        guard let v = values[name] else { throw BenchError.missing(name) }
        return v
    }

    func string(_ name: String, default value: String) -> String {
        values[name] ?? value
    }

    func int(_ name: String, default value: Int) throws -> Int {
        guard let s = values[name] else { return value }
        guard let v = Int(s) else { throw BenchError.badArgument("--\(name) \(s)") }
        return v
    }

    /// `--period` (default 2026-10) resolved against `--as-of` (default 2026-11-01).
    func periodAndAsOf() throws -> (Period, CivilDate) {
        let asOfText = values["as-of"] ?? "2026-11-01"
        guard let asOf = CivilDate(iso: asOfText) else { throw BenchError.badArgument("--as-of \(asOfText)") }
        return (try Period.parse(values["period"] ?? "2026-10", asOf: asOf), asOf)
    }
}

/// Why EZBench could not run.
enum BenchError: Error, CustomStringConvertible {
    case usage
    case missing(String)
    case badArgument(String)

    var description: String {
        switch self {
        case .usage: return EZBenchUsage.text
        case .missing(let n): return "ezbench: missing --\(n)"
        case .badArgument(let a): return "ezbench: bad argument \(a)"
        }
    }
}
