/// A gettext `Plural-Forms` rule: how many forms a language has and which one a count takes.
///
/// The rule is the C expression of the PO header (`nplurals=2; plural=(n != 1);`), evaluated the
/// way GNU gettext evaluates it: integers only, `?:`, `||`, `&&`, comparisons, `+ - * / %`, `!`
/// and parentheses over the single variable `n`.
///
/// ```swift
/// let fr = try PluralRule(header: "nplurals=2; plural=(n > 1);")
/// fr.form(for: 0)   // 0 ("0 transaction")
/// fr.form(for: 2)   // 1
/// ```
package struct PluralRule: Sendable {
    /// The number of plural forms (`msgstr[0]` … `msgstr[count - 1]`).
    package let count: Int
    private let expression: Expression

    /// English's rule, used when a catalog has no header: one form for 1, another for the rest.
    package static let english = try! PluralRule(header: "nplurals=2; plural=(n != 1);")

    /// Parses the value of a `Plural-Forms:` header line.
    package init(header: String) throws(CatalogError) {
        var nplurals: Int?
        var plural: String?
        for part in header.split(separator: ";") {
            let kv = part.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces() }
            guard kv.count == 2 else { continue }
            if kv[0] == "nplurals" { nplurals = Int(kv[1]) }
            if kv[0] == "plural" { plural = kv[1] }
        }
        guard let nplurals, nplurals >= 1, nplurals <= 6 else {
            throw CatalogError(file: "Plural-Forms", line: 0, "nplurals is missing or not 1…6 in '\(header)'")
        }
        guard let plural else { throw CatalogError(file: "Plural-Forms", line: 0, "plural= is missing in '\(header)'") }
        var parser = Parser(Array(plural.utf8))
        let expression = try parser.parseAll()
        self.count = nplurals
        self.expression = expression
    }

    /// The index of the form used for `n` (clamped to the forms there are).
    package func form(for n: Int) -> Int {
        let v = expression.evaluate(UInt64(n.magnitude))
        return v < UInt64(count) ? Int(v) : count - 1
    }

    // MARK: - The expression

    indirect enum Expression: Sendable {
        case n
        case number(UInt64)
        case not(Expression)
        case binary(String, Expression, Expression)
        case conditional(Expression, Expression, Expression)

        func evaluate(_ n: UInt64) -> UInt64 {
            switch self {
            case .n: return n
            case .number(let v): return v
            case .not(let e): return e.evaluate(n) == 0 ? 1 : 0
            case .conditional(let c, let a, let b): return c.evaluate(n) != 0 ? a.evaluate(n) : b.evaluate(n)
            case .binary(let op, let l, let r):
                let a = l.evaluate(n)
                if op == "||" { return a != 0 ? 1 : (r.evaluate(n) != 0 ? 1 : 0) }
                if op == "&&" { return a == 0 ? 0 : (r.evaluate(n) != 0 ? 1 : 0) }
                let b = r.evaluate(n)
                switch op {
                case "==": return a == b ? 1 : 0
                case "!=": return a != b ? 1 : 0
                case "<": return a < b ? 1 : 0
                case ">": return a > b ? 1 : 0
                case "<=": return a <= b ? 1 : 0
                case ">=": return a >= b ? 1 : 0
                case "+": return a &+ b
                case "-": return a &- b
                case "*": return a &* b
                case "/": return b == 0 ? 0 : a / b
                default: return b == 0 ? 0 : a % b  // "%"
                }
            }
        }
    }

    /// Recursive descent over C's precedence: ?: < || < && < ==,!= < <,>,<=,>= < +,- < *,/,% < !.
    struct Parser {
        let bytes: [UInt8]
        var i = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        static let levels: [[String]] = [["||"], ["&&"], ["==", "!="], ["<=", ">=", "<", ">"], ["+", "-"], ["*", "/", "%"]]

        mutating func parseAll() throws(CatalogError) -> Expression {
            let e = try conditional()
            skipSpaces()
            guard i == bytes.count else { throw error("unexpected '\(rest)'") }
            return e
        }

        var rest: String { String(decoding: bytes[i...], as: UTF8.self) }

        func error(_ message: String) -> CatalogError {
            CatalogError(file: "Plural-Forms", line: 0, "\(message) in '\(String(decoding: bytes, as: UTF8.self))'")
        }

        mutating func skipSpaces() { while i < bytes.count && (bytes[i] == 32 || bytes[i] == 9) { i += 1 } }

        mutating func take(_ token: String) -> Bool {
            skipSpaces()
            let t = Array(token.utf8)
            guard i + t.count <= bytes.count, Array(bytes[i..<i + t.count]) == t else { return false }
            // '<' must not be taken from '<=', nor '!' from '!='.
            if t.count == 1, i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "="), "<>!=".utf8.contains(t[0]) { return false }
            i += t.count
            return true
        }

        mutating func conditional() throws(CatalogError) -> Expression {
            let c = try binary(0)
            guard take("?") else { return c }
            let a = try conditional()
            guard take(":") else { throw error("':' expected") }
            return .conditional(c, a, try conditional())
        }

        mutating func binary(_ level: Int) throws(CatalogError) -> Expression {
            guard level < Self.levels.count else { return try unary() }
            var left = try binary(level + 1)
            outer: while true {
                for op in Self.levels[level] where take(op) {
                    left = .binary(op, left, try binary(level + 1))
                    continue outer
                }
                return left
            }
        }

        mutating func unary() throws(CatalogError) -> Expression {
            if take("!") { return .not(try unary()) }
            if take("(") {
                let e = try conditional()
                guard take(")") else { throw error("')' expected") }
                return e
            }
            skipSpaces()
            if i < bytes.count && bytes[i] == UInt8(ascii: "n") { i += 1; return .n }
            var v: UInt64 = 0, digits = 0
            while i < bytes.count, (48...57).contains(bytes[i]) { v = v &* 10 &+ UInt64(bytes[i] - 48); i += 1; digits += 1 }
            guard digits > 0 else { throw error("a number or n expected at '\(rest)'") }
            return .number(v)
        }
    }
}

extension Substring {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
