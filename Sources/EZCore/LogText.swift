/// Text log values made safe for one line.
package enum LogText {
    /// `text` on one line: a line break or another control character (which a reason may carry
    /// from ledger text, such as a time zone with a newline) is written as its escape (`\\n`,
    /// `\\u{1B}`), so that no value can start a forged log line.
    package static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.properties.generalCategory == .control { out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
