import Foundation

/// Which three-letter codes are money the ledger may count in: ISO 4217's codes (as the system's
/// ICU lists them, current and historical), less those that are not a currency anyone pays in.
///
/// The contract's currency is an ISO 4217 code, and an unknown one quarantines its row; any three
/// capital letters used to pass (`XXQ`, `ABC` counted with two decimals), and a group kept in `XTS`
/// (ISO's code for tests) or `XAU` (gold, an ounce) failed every member's statement.
enum ISO4217 {
    /// Whether `code` is a currency of ISO 4217 that money is kept in.
    static func isMoney(_ code: String) -> Bool { codes.contains(code) }

    /// Precious metals, bond-market units, special drawing rights and the test and "no currency" codes.
    static let notMoney: Set<String> = ["XAG", "XAU", "XPD", "XPT", "XBA", "XBB", "XBC", "XBD", "XDR", "XSU", "XUA",
                                        "XFO", "XFU", "XRE", "XTS", "XXX"]

    private static let codes: Set<String> = Set(Locale.Currency.isoCurrencies.map(\.identifier)).subtracting(notMoney)
}
