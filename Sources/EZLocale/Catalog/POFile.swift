/// A gettext PO file read into its messages: the standard text format translators' tools (Poedit,
/// Lokalize, Weblate) open and `msgfmt` compiles.
///
/// Reads `msgctxt`, `msgid`, `msgid_plural`, `msgstr` and `msgstr[n]`, strings continued over
/// several lines, the C escapes gettext writes (`\n \t \" \\`), comments (ignored) and the `#,
/// fuzzy` flag (a fuzzy message is not used, as `msgfmt` does not use it). The header (the entry
/// whose msgid is empty) gives the `Plural-Forms` and `Language`.
///
/// ```swift
/// let po = try POFile(text: "msgid \"Budgets\"\nmsgstr \"Budget\"\n", file: "it.po")
/// po.messages[POFile.Key(context: nil, id: "Budgets")]?.translations  // ["Budget"]
/// ```
package struct POFile: Sendable {
    /// A message's identity: its context (`msgctxt`) and its source text (`msgid`).
    package struct Key: Hashable, Sendable, CustomStringConvertible {
        package var context: String?
        package var id: String
        package init(context: String?, id: String) { self.context = context; self.id = id }
        package var description: String { context.map { "\($0)|\(id)" } ?? id }
    }

    /// One translated message.
    package struct Message: Sendable {
        /// The English plural (`msgid_plural`), for messages that have forms.
        package var idPlural: String?
        /// `msgstr`, or `msgstr[0]`, `msgstr[1]`, … for messages with plural forms.
        package var translations: [String]
        /// The line of its `msgid`, for error messages.
        package var line: Int
    }

    /// The messages by key (the header and fuzzy messages excluded).
    package private(set) var messages: [Key: Message] = [:]
    /// The header's fields (`Language`, `Plural-Forms`, `Content-Type`, …).
    package private(set) var header: [String: String] = [:]
    /// The language's plural rule (English's when the header has none).
    package private(set) var pluralRule = PluralRule.english

    /// Reads a PO file's text; `file` names it in errors.
    package init(text: String, file: String) throws(CatalogError) {
        var reader = Reader(file: file)
        // Lines are cut on the UTF-8 bytes: splitting the String by Characters (grapheme breaking)
        // made reading a catalog cost ~5 ms of every statement's start.
        for (n, raw) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let line = raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw
            try reader.read(line: Substring(line), number: n + 1)
        }
        try reader.flush()
        for entry in reader.entries {
            if entry.key.id.isEmpty && entry.key.context == nil {
                for line in (entry.message.translations.first ?? "").split(separator: "\n") {
                    let kv = line.split(separator: ":", maxSplits: 1)
                    if kv.count == 2 { header[String(kv[0])] = kv[1].trimmingSpaces() }
                }
                continue
            }
            guard messages[entry.key] == nil else {
                throw CatalogError(file: file, line: entry.message.line, "duplicate message '\(entry.key)'")
            }
            if !entry.fuzzy { messages[entry.key] = entry.message }
        }
        if let forms = header["Plural-Forms"] {
            do { pluralRule = try PluralRule(header: forms) } catch {
                throw CatalogError(file: file, line: 0, error.message)
            }
        }
        for (key, m) in messages where m.idPlural != nil && m.translations.count != pluralRule.count {
            throw CatalogError(file: file, line: m.line,
                               "'\(key)' has \(m.translations.count) plural forms; Plural-Forms says \(pluralRule.count)")
        }
    }

    // MARK: - Reading

    struct Entry {
        var key: Key
        var message: Message
        var fuzzy: Bool
    }

    /// A line-by-line state machine: the keyword being read and the strings read so far.
    struct Reader {
        let file: String
        var entries: [Entry] = []
        var context: String?
        var id: String?
        var idPlural: String?
        var strings: [Int: String] = [:]
        var fuzzy = false
        var nextFuzzy = false
        var idLine = 0
        /// Where a continuation line ("…") goes.
        enum Field { case context, id, idPlural, string(Int) }
        var field: Field?

        mutating func read(line: Substring, number: Int) throws(CatalogError) {
            let text = line.drop { $0 == " " || $0 == "\t" }
            if text.isEmpty { return }
            if text.hasPrefix("#") {
                if text.hasPrefix("#,") && text.contains("fuzzy") { nextFuzzy = true }
                return
            }
            if text.hasPrefix("\"") {
                guard let field else { throw CatalogError(file: file, line: number, "a string outside any message") }
                append(try unquote(text, line: number), to: field)
                return
            }
            let keyword = String(text.prefix { $0 != " " && $0 != "\t" && $0 != "\"" })
            let value = try unquote(text.dropFirst(keyword.count).drop { $0 == " " || $0 == "\t" }, line: number)
            switch keyword {
            case "msgctxt":
                try flush()
                context = value; field = .context
            case "msgid":
                if context == nil || id != nil { try flush() }
                id = value; idLine = number; field = .id
                fuzzy = nextFuzzy; nextFuzzy = false
            case "msgid_plural":
                guard id != nil else { throw CatalogError(file: file, line: number, "msgid_plural without a msgid") }
                idPlural = value; field = .idPlural
            default:
                guard id != nil else { throw CatalogError(file: file, line: number, "\(keyword) without a msgid") }
                let index: Int
                if keyword == "msgstr" { index = 0 } else if keyword.hasPrefix("msgstr["), keyword.hasSuffix("]"),
                    let n = Int(keyword.dropFirst(7).dropLast()), n >= 0, n < 10 { index = n } else {
                    throw CatalogError(file: file, line: number, "unknown keyword '\(keyword)'")
                }
                guard strings[index] == nil else { throw CatalogError(file: file, line: number, "\(keyword) given twice") }
                strings[index] = value; field = .string(index)
            }
        }

        mutating func append(_ s: String, to field: Field) {
            switch field {
            case .context: context = (context ?? "") + s
            case .id: id = (id ?? "") + s
            case .idPlural: idPlural = (idPlural ?? "") + s
            case .string(let n): strings[n, default: ""] += s
            }
        }

        /// Ends the message being read, if any.
        mutating func flush() throws(CatalogError) {
            defer { context = nil; id = nil; idPlural = nil; strings = [:]; field = nil; fuzzy = false }
            guard let id else {
                if context != nil { throw CatalogError(file: file, line: idLine, "msgctxt without a msgid") }
                return
            }
            let count = strings.count
            guard count > 0, (0..<count).allSatisfy({ strings[$0] != nil }) else {
                throw CatalogError(file: file, line: idLine, "'\(id)' has no msgstr, or a gap in its msgstr[n]")
            }
            guard idPlural != nil || count == 1 else {
                throw CatalogError(file: file, line: idLine, "'\(id)' has msgstr[n] but no msgid_plural")
            }
            entries.append(Entry(key: Key(context: context, id: id),
                                 message: Message(idPlural: idPlural, translations: (0..<count).map { strings[$0]! }, line: idLine),
                                 fuzzy: fuzzy))
        }

        /// The content of a C string literal with gettext's escapes resolved (read as UTF-8 bytes:
        /// every character the syntax uses is ASCII).
        func unquote(_ s: Substring, line: Int) throws(CatalogError) -> String {
            var bytes = s.utf8[...]
            while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes = bytes.dropLast() }
            guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else {
                throw CatalogError(file: file, line: line, "a quoted string expected")
            }
            let body = bytes.dropFirst().dropLast()
            var out: [UInt8] = []
            out.reserveCapacity(body.count)
            var escaped = false
            for i in body.indices {
                let byte = body[i]
                if escaped {
                    switch byte {
                    case UInt8(ascii: "n"): out.append(UInt8(ascii: "\n"))
                    case UInt8(ascii: "t"): out.append(UInt8(ascii: "\t"))
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                    default:
                        let shown = Substring(body[i...]).first.map(String.init) ?? ""
                        throw CatalogError(file: file, line: line, "unknown escape '\\\(shown)'")
                    }
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    throw CatalogError(file: file, line: line, "an unescaped quote inside a string")
                } else {
                    out.append(byte)
                }
            }
            if escaped { throw CatalogError(file: file, line: line, "a string ends in a backslash") }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
